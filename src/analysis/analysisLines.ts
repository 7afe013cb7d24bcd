import type { SmallCountGroup } from "../kernels/visits/withholdSmallCounts.ts";
import type { AnalysisRecord, DeviceId } from "./AnalysisRecord.ts";
import type { AnalyzeResult } from "./analyze.ts";
import { occupancyRecord } from "./occupancyRecord.ts";
import { sessionRecord } from "./sessionRecord.ts";
import { summaryRecord } from "./summaryRecord.ts";

/**
 * The fields of a line that are counts, for small-count suppression: a group of fields at `path`
 * (`[]` the line itself, `["dwell"]` its `dwell` object; a path that is not an object in a line is
 * skipped). `counts: "all"` makes every field there a count (the dwell buckets).
 *
 * @example
 * const dwell: LineCounts = { path: ["dwell"], group: { counts: ["count"], triggers: ["count"], derived: ["meanMs"] } };
 */
export interface LineCounts {
  readonly path: readonly string[];
  readonly group: SmallCountGroup | { readonly counts: "all" };
}

/**
 * How one analysis is written: the device identity of session lines, and whether devices link
 * across days (else new and repeat visitors are `null`).
 *
 * @example
 * const w: LineWriting = { device: (mac) => mac, linkedAcrossDays: true };
 */
export interface LineWriting {
  readonly device: DeviceId;
  readonly linkedAcrossDays: boolean;
}

/**
 * One kind of line an analysis writes: its `type`, the `AnalyzeResult` key it is written from,
 * the items of a result it writes (in order), how one item is written, which of its fields are
 * counts (suppressed below `minCount`), and which it withholds whole whenever suppression is on.
 *
 * @example
 * const summary = ANALYSIS_LINES.find((l) => l.type === "summary")!;
 * summary.result; // "days"
 */
export interface AnalysisLine {
  readonly type: string;
  readonly result: keyof AnalyzeResult;
  items(result: AnalyzeResult): Iterable<unknown>;
  write(item: never, writing: LineWriting, result: AnalyzeResult): AnalysisRecord;
  readonly counts: readonly LineCounts[];
  readonly withheld: readonly string[];
}

// One line kind, typed by its item (the list holds them with their item type erased).
function line<T>(l: Omit<AnalysisLine, "items" | "write"> & { items(result: AnalyzeResult): Iterable<T>; write(item: T, writing: LineWriting, result: AnalyzeResult): AnalysisRecord }): AnalysisLine {
  return Object.freeze(l) as AnalysisLine;
}

// A capture rate goes with its visitors or devices; dwell statistics with the dwell count.
const SERIES: SmallCountGroup = { counts: ["visitors", "visits", "passersBy", "uniqueDevices"], triggers: ["visitors", "uniqueDevices"], derived: ["captureRate"] };

/**
 * Every line an analysis writes, in the order `footfall analyze --format ndjson` prints them:
 * sessions, then per shop-day summaries, then per shop and interval occupancy, then one quality
 * line. The one list the NDJSON lines (`analysisRecords`, which the CLI prints and the fleet
 * stores) and their small-count suppression (`suppressSmallCounts`) are built from: a new output
 * is one entry here.
 *
 * @example
 * ANALYSIS_LINES.map((l) => l.type); // ["session", "summary", "occupancy", "quality"]
 */
export const ANALYSIS_LINES: readonly AnalysisLine[] = Object.freeze([
  line({
    type: "session",
    result: "sessions",
    items: (r) => r.sessions,
    write: (s, w) => sessionRecord(s, w.device),
    counts: [],
    withheld: [],
  }),
  line({
    type: "summary",
    result: "days",
    items: (r) => r.days,
    write: (d, w) => {
      const l = summaryRecord(d);
      return w.linkedAcrossDays ? l : { ...l, newVisitors: null, repeatVisitors: null };
    },
    counts: [
      {
        path: [],
        group: {
          counts: ["visitors", "visits", "passersBy", "uniqueDevices", "visitorsLow", "visitorsHigh", "newVisitors", "repeatVisitors", "staff", "stationary"],
          triggers: ["visitors", "uniqueDevices"],
          derived: ["captureRate"],
        },
      },
      // The MAC-level counts beside the people estimate (`macs`) are counts like any other.
      { path: ["universal"], group: SERIES },
      { path: ["randomized"], group: SERIES },
      { path: ["macs"], group: SERIES },
      { path: ["dwell"], group: { counts: ["count"], triggers: ["count"], derived: ["meanMs", "medianMs", "p90Ms"] } },
      { path: ["dwell", "buckets"], group: { counts: "all" } },
    ],
    // The day's people sample is per-visit sums (a day of one universal visit is that visit's
    // dwell): for pooling, not publishing.
    withheld: ["peopleSample"],
  }),
  line({
    type: "occupancy",
    result: "occupancy",
    items: (r) => r.occupancy,
    write: (o) => occupancyRecord(o),
    counts: [{ path: [], group: { counts: ["inside", "insideLow", "insideHigh", "outside"] } }],
    withheld: [],
  }),
  line({
    type: "quality",
    result: "quality",
    items: (r) => (r.quality === undefined ? [] : [r.quality]),
    write: ({ type: _type, ...quality }, _w, r) => ({ type: "quality", ...quality, lateSessions: r.lateSessions }),
    counts: [],
    withheld: [],
  }),
]);
