/**
 * Signal line reader (issues 13 and 36): the byte reader (`SignalLineReader`: `SignalRecordReader`
 * straight from the bytes, one pass over each MAC) against the general path (`JSON.parse` of each
 * line + `SignalDecoder.decode`) on the same 200 k NDJSON lines as `footfall signals backfill`
 * writes them for simulated shop-days (the service's record plus the decoded fields). Both end in
 * the same decoded signals and add up one field of each, so neither can be optimised away; the
 * general path is handed each line as a ready string (a view of one large text), which spares it
 * the UTF-8 decoding and line splitting the byte reader does itself. A second pair times the raw
 * service records alone (six fields per line). Goal: the byte reader reads more lines per second.
 *
 * Run alone: `npx tsx bench/parse-line.ts` (or `npm run bench -- parse-line`).
 */
import { pathToFileURL } from "node:url";
import { SignalDecoder, decodeSignal, isInvalidRecord } from "../src/codec/decodeSignal.ts";
import { SignalLineReader } from "../src/file/SignalLineReader.ts";
import { createWorld } from "../src/sim/createWorld.ts";
import { rate, timePair, timeRatio, type BenchRow } from "./lib.ts";

const LINES = 200_000;

/** `LINES` lines of simulated records, as backfill lines and as raw records, each a view of one text. */
function makeLines(): { backfill: string[]; raw: string[]; backfillBytes: Buffer; rawBytes: Buffer } {
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
  return { backfill: views(backfill), raw: views(raw), backfillBytes: Buffer.from(`${backfill.join("\n")}\n`), rawBytes: Buffer.from(`${raw.join("\n")}\n`) };
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
  const { backfill, raw, backfillBytes, rawBytes } = makeLines();
  let sink = 0;
  // The file's bytes in 1 MiB chunks, as the CLI and analyzeFile read them.
  const reader = (bytes: Buffer) => (): void => {
    const lines = new SignalLineReader(new SignalDecoder(), (s) => void (sink += s.rssi));
    for (let at = 0; at < bytes.length; at += 1 << 20) lines.push(bytes.subarray(at, Math.min(bytes.length, at + (1 << 20))));
    lines.end();
  };
  const parse = (lines: readonly string[]) => (): void => {
    const decoder = new SignalDecoder();
    for (let i = 0; i < lines.length; i++) {
      const s = decoder.decode(JSON.parse(lines[i]!));
      if (s !== undefined) sink += s.rssi;
    }
  };
  const [fb, pb] = await timePair(reader(backfillBytes), parse(backfill), { runs: 11, warmup: 3 });
  const [fr, pr] = await timePair(reader(rawBytes), parse(raw), { runs: 11, warmup: 3 });
  if (sink === 0) throw new Error("nothing measured");
  const ratio = timeRatio(pb.samples, fb.samples);
  const rawRatio = timeRatio(pr.samples, fr.samples);
  const bytes = backfill.reduce((n, l) => n + l.length, 0) / backfill.length;
  return [
    {
      row: 1,
      figure: "Signal line reader: the byte reader vs JSON.parse + decode, backfill NDJSON lines (lines/s)",
      footfall: rate((LINES / fb.median) * 1000, "lines/s"),
      baseline: `${rate((LINES / pb.median) * 1000, "lines/s")} JSON.parse + decode`,
      ratio: Number(ratio.toFixed(2)),
      goal: "> 1.0× the rate of JSON.parse + decode",
      met: ratio > 1,
      note:
        `${LINES} simulated lines of ~${bytes.toFixed(0)} characters; reader min ${fb.min.toFixed(0)} / median ${fb.median.toFixed(0)} / max ${fb.max.toFixed(0)} ms, ` +
        `JSON.parse + decode min ${pb.min.toFixed(0)} / median ${pb.median.toFixed(0)} / max ${pb.max.toFixed(0)} ms; ` +
        `raw six-field records: reader ${rate((LINES / fr.median) * 1000, "lines/s")} vs JSON.parse + decode ${rate((LINES / pr.median) * 1000, "lines/s")} = ${rawRatio.toFixed(2)}×`,
    },
  ];
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.table(await parseLineBench());
}
