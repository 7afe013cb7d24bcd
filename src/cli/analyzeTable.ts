import type { AnalyzeResult } from "../analysis/analyze.ts";
import { rawDevice } from "../analysis/AnalysisRecord.ts";
import { ANALYSIS_LINES } from "../analysis/analysisLines.ts";
import { withheldFigures } from "../analysis/withheldFigures.ts";
import { calibrationCell } from "./calibrationCell.ts";
import { formatTable, type CliIo } from "./common.ts";

// A table column: its header and the summary line's figure it shows (by path), with a unit change.
interface Column {
  readonly header: string;
  readonly path: readonly string[];
  readonly unit?: (x: number) => number;
}

const minutes = (ms: number) => Math.round(ms / 6_000) / 10;
const percent = (x: number) => Math.round(x * 1000) / 10;

// People first, MAC-level counts beside them; every figure is the summary line's.
const COLUMNS: readonly Column[] = [
  { header: "MAC visitors", path: ["macs", "visitors"] },
  { header: "visits", path: ["visits"] },
  { header: "passers-by", path: ["passersBy"] },
  { header: "devices", path: ["uniqueDevices"] },
  { header: "capture %", path: ["captureRate"], unit: percent },
  { header: "new", path: ["newVisitors"] },
  { header: "repeat", path: ["repeatVisitors"] },
];
const DWELL: readonly Column[] = [
  { header: "dwell med min", path: ["dwell", "medianMs"], unit: minutes },
  { header: "mean min", path: ["dwell", "meanMs"], unit: minutes },
  { header: "p90 min", path: ["dwell", "p90Ms"], unit: minutes },
  { header: "<5m", path: ["dwell", "buckets", "lt5m"] },
  { header: "5-20m", path: ["dwell", "buckets", "m5to20"] },
  { header: "20-60m", path: ["dwell", "buckets", "m20to60"] },
  { header: "1-6h", path: ["dwell", "buckets", "h1to6"] },
  { header: ">=6h", path: ["dwell", "buckets", "ge6h"] },
  { header: "staff", path: ["staff"] },
  { header: "stationary", path: ["stationary"] },
  { header: "rssi dBm", path: ["visitorRssi"] },
];

/**
 * The table of `footfall analyze` (`--format table`): one row per shop-day with the `summary`
 * line's figures (people with their 90 % interval and the calibration they were estimated with —
 * its id, or `prior` —, MAC-level counts, dwell in minutes, percentages), withheld by
 * `--min-count` exactly as the line is (`withheldFigures`: a small count shows `<K`, a figure
 * computed from it is blank), then the sessions by kind.
 *
 * @param linkedAcrossDays false with daily pseudonyms: new and repeat visitors are blank, not zero
 * @example
 * writeAnalyzeTable(io, await analyze(records), 0, true);
 */
export function writeAnalyzeTable(io: CliIo, result: AnalyzeResult, minCount: number, linkedAcrossDays: boolean): void {
  if (result.days.length === 0) {
    io.stdout.write("no sessions\n");
    return;
  }
  const summary = ANALYSIS_LINES.find((l) => l.type === "summary")!;
  const rows = result.days.map((d) => {
    // A summary line names no device, so its writing needs none.
    const w = withheldFigures(summary.write(d as never, { device: rawDevice, linkedAcrossDays }, result), minCount);
    const line = w.line;
    const cell = ({ path, unit }: Column): number | string | null => {
      if (w.state(path) === "withheld") return `<${minCount}`;
      const x = w.value(path);
      return typeof x === "number" ? (unit === undefined ? x : unit(x)) : null;
    };
    const row: Record<string, number | string | null> = {
      shop: d.shopId,
      date: d.label,
      visitors: peopleText(line, w.state(["visitors"]) === "withheld", minCount),
      // Which yardstick the people figure rests on, beside it, as the line's `calibration` says
      // (blank with no people estimate: the visitors are then MACs).
      calibration: d.people === undefined ? null : calibrationCell(d.people.calibration),
    };
    for (const c of COLUMNS) row[c.header] = cell(c);
    // The share of visitors with randomized MACs, MAC-level: blank with either count withheld.
    const random = w.value(["randomized", "visitors"]);
    const macs = w.value(["macs", "visitors"]);
    row["random %"] = typeof random === "number" && typeof macs === "number" && macs > 0 ? percent(random / macs) : null;
    for (const c of DWELL) row[c.header] = cell(c);
    return row;
  });
  io.stdout.write(formatTable(rows));
  const kinds = { visitor: 0, passerby: 0, staff: 0, stationary: 0 };
  for (const s of result.sessions) kinds[s.kind]++;
  io.stdout.write(
    `\n${result.sessions.length} sessions: ${kinds.visitor} visitor, ${kinds.passerby} passer-by, ${kinds.staff} staff, ${kinds.stationary} stationary\n`,
  );
}

// People with their 90 % interval: "<K" when withheld; "unknown (≥low)" when estimated but unknown
// (no burst rate); an unknown or infinite bound (a rate learnt from too few visits) is "?".
function peopleText(line: Readonly<Record<string, unknown>>, withheld: boolean, minCount: number): string {
  if (withheld) return `<${minCount}`;
  const bound = (x: unknown) => (x === null && line.suppressed === true ? `<${minCount}` : typeof x === "number" && Number.isFinite(x) ? String(x) : "?");
  return line.visitors === null ? `unknown (≥${bound(line.visitorsLow)})` : `${String(line.visitors)} [${bound(line.visitorsLow)}–${bound(line.visitorsHigh)}]`;
}
