import type { AnalysisRecord } from "./analysisRecords.ts";
import { withholdSmallCounts, type SmallCountGroup } from "../kernels/withholdSmallCounts.ts";

// The summary line's groups (top level, and each of `universal` / `randomized` / `macs`): a
// capture rate goes with its visitors or devices; dwell statistics with the dwell count.
const DAY: SmallCountGroup = {
  counts: ["visitors", "visits", "passersBy", "uniqueDevices", "visitorsLow", "visitorsHigh", "newVisitors", "repeatVisitors", "staff", "stationary"],
  triggers: ["visitors", "uniqueDevices"],
  derived: ["captureRate"],
};
const SERIES: SmallCountGroup = { counts: ["visitors", "visits", "passersBy", "uniqueDevices"], triggers: ["visitors", "uniqueDevices"], derived: ["captureRate"] };
const DWELL: SmallCountGroup = { counts: ["count"], triggers: ["count"], derived: ["meanMs", "medianMs", "p90Ms"] };
const OCCUPANCY: SmallCountGroup = { counts: ["inside", "insideLow", "insideHigh", "outside"] };

/**
 * Small-count suppression of one aggregate line (`summary` or `occupancy`): every count from 1 to
 * `minCount − 1` becomes `null` and the line gets `suppressed: true`, so a small group of people
 * (who could be singled out) is shown as suppressed, never as zero. A zero is kept: it reveals no
 * one. What is computed from a suppressed count goes with it (capture rate with visitors or unique
 * devices; dwell statistics with the dwell count); a summary's `peopleSample` (per-visit sums, for
 * pooling days) is withheld whole. Session and quality lines are returned as they
 * are; `minCount` ≤ 1 changes nothing.
 *
 * @example
 * const line = suppressSmallCounts({ type: "summary", visitors: 3, visits: 12 }, 5);
 * line.visitors; // null
 * line.suppressed; // true
 */
export function suppressSmallCounts(line: AnalysisRecord, minCount: number): AnalysisRecord {
  if (!Number.isInteger(minCount) || minCount < 0) throw new RangeError(`suppressSmallCounts: minCount must be an integer ≥ 0, got ${String(minCount)}`);
  if (minCount <= 1 || (line.type !== "summary" && line.type !== "occupancy")) return line;
  const out: Record<string, unknown> = { ...line };
  const withhold = (obj: Record<string, unknown>, group: SmallCountGroup): boolean => withholdSmallCounts(obj, group, minCount, null, null);
  let suppressed = false;
  if (line.type === "occupancy") {
    suppressed = withhold(out, OCCUPANCY);
  } else {
    suppressed = withhold(out, DAY);
    // The MAC-level counts beside the people estimate (`macs`) are counts like any other.
    for (const series of ["universal", "randomized", "macs"] as const) {
      const s = out[series];
      if (s === null || typeof s !== "object") continue;
      const copy: Record<string, unknown> = { ...(s as Record<string, unknown>) };
      if (withhold(copy, SERIES)) suppressed = true;
      out[series] = copy;
    }
    // The day's people sample is per-visit sums (a day of one universal visit is that visit's
    // dwell): withheld whole whenever counts are suppressed; it is for pooling, not publishing.
    if (out["peopleSample"] !== undefined) out["peopleSample"] = null;
    const dwell = out["dwell"];
    if (dwell !== null && typeof dwell === "object") {
      const d: Record<string, unknown> = { ...(dwell as Record<string, unknown>) };
      if (withhold(d, DWELL)) suppressed = true;
      const buckets = d["buckets"];
      if (buckets !== null && typeof buckets === "object") {
        const b: Record<string, unknown> = { ...(buckets as Record<string, unknown>) };
        if (withhold(b, { counts: Object.keys(b) })) suppressed = true;
        d["buckets"] = b;
      }
      out["dwell"] = d;
    }
  }
  if (suppressed) out["suppressed"] = true;
  return out as AnalysisRecord;
}
