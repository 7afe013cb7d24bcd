/**
 * Signal line reader (issue 13): `parseSignalLine` against `JSON.parse` on the same 200 k NDJSON
 * lines as `footfall signals backfill` writes them for simulated shop-days (the service's record
 * plus the decoded fields), each line a view of a large text as the CLI's line reader hands it
 * over. Both read one field of each result, so neither can be optimised away. A second pair
 * times the raw service records alone (six fields per line). Goal: the reader parses more lines
 * per second than `JSON.parse`.
 *
 * Run alone: `npx tsx bench/parse-line.ts` (or `npm run bench -- parse-line`).
 */
import { pathToFileURL } from "node:url";
import { decodeSignal, isInvalidRecord } from "../src/codec/decodeSignal.ts";
import { parseSignalLine } from "../src/codec/parseSignalLine.ts";
import { createWorld } from "../src/sim/createWorld.ts";
import { rate, timePair, type BenchRow } from "./lib.ts";

const LINES = 200_000;

/** `LINES` lines of simulated records, as backfill lines and as raw records, each a view of one text. */
function makeLines(): { backfill: string[]; raw: string[] } {
  const backfill: string[] = [];
  const raw: string[] = [];
  for (let seed = 1; backfill.length < LINES; seed++) {
    // The simple world the row was first measured on (see bench/operators.ts).
    const world = createWorld({ seed, shops: 1, rotation: "off" });
    for (const record of world.rawSignals(world.shops[0]!.id)) {
      const s = decodeSignal(record);
      if (isInvalidRecord(s)) continue;
      raw.push(JSON.stringify(record));
      // The shape of src/cli/signals.ts's ndjsonLine.
      backfill.push(JSON.stringify({ ...record, shopId: s.shopId, rts: s.rts, time: s.time, device: s.device, sensor: s.sensor, randomized: s.randomized, vendor: s.vendor ?? null }));
      if (backfill.length === LINES) break;
    }
  }
  return { backfill: views(backfill), raw: views(raw) };
}

/** The lines as slices of their joined text, as the CLI reads them out of a file's chunks. */
function views(lines: readonly string[]): string[] {
  const text = lines.join("\n");
  const out: string[] = [];
  let start = 0;
  for (const line of lines) {
    out.push(text.slice(start, start + line.length));
    start += line.length + 1;
  }
  return out;
}

/**
 * Times the reader against JSON.parse; see the file comment.
 *
 * @example
 * const [row] = await parseLineBench();
 */
export default async function parseLineBench(): Promise<BenchRow[]> {
  const { backfill, raw } = makeLines();
  let sink = 0;
  const reader = (lines: readonly string[]) => (): void => {
    for (let i = 0; i < lines.length; i++) sink += (parseSignalLine(lines[i]!) as { rssi: number }).rssi;
  };
  const parse = (lines: readonly string[]) => (): void => {
    for (let i = 0; i < lines.length; i++) sink += (JSON.parse(lines[i]!) as { rssi: number }).rssi;
  };
  const [fb, pb] = await timePair(reader(backfill), parse(backfill), { runs: 11, warmup: 3 });
  const [fr, pr] = await timePair(reader(raw), parse(raw), { runs: 11, warmup: 3 });
  if (sink === 0) throw new Error("nothing measured");
  const ratio = pb.median / fb.median;
  const rawRatio = pr.median / fr.median;
  const bytes = backfill.reduce((n, l) => n + l.length, 0) / backfill.length;
  return [
    {
      row: 1,
      figure: "Signal line reader: parseSignalLine vs JSON.parse, backfill NDJSON lines (lines/s)",
      footfall: rate((LINES / fb.median) * 1000, "lines/s"),
      baseline: `${rate((LINES / pb.median) * 1000, "lines/s")} JSON.parse`,
      ratio: Number(ratio.toFixed(2)),
      goal: "> 1.0× JSON.parse's rate",
      met: ratio > 1,
      note:
        `${LINES} simulated lines of ~${bytes.toFixed(0)} characters; reader min ${fb.min.toFixed(0)} / median ${fb.median.toFixed(0)} / max ${fb.max.toFixed(0)} ms, ` +
        `JSON.parse min ${pb.min.toFixed(0)} / median ${pb.median.toFixed(0)} / max ${pb.max.toFixed(0)} ms; ` +
        `raw six-field records: reader ${rate((LINES / fr.median) * 1000, "lines/s")} vs JSON.parse ${rate((LINES / pr.median) * 1000, "lines/s")} = ${rawRatio.toFixed(2)}×`,
    },
  ];
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.table(await parseLineBench());
}
