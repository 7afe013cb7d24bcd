import type { AnalysisRecord } from "./analysisRecords.ts";
import { isSmallCount } from "./kernels/isSmallCount.ts";

// Count fields of a summary line (top level, and inside `universal` / `randomized`); the rates and
// dwell statistics derived from them are withheld with them.
const SERIES_COUNTS = ["visitors", "visits", "passersBy", "uniqueDevices"] as const;
const DAY_COUNTS = [...SERIES_COUNTS, "visitorsLow", "visitorsHigh", "newVisitors", "repeatVisitors", "staff", "stationary"] as const;
const OCCUPANCY_COUNTS = ["inside", "insideLow", "insideHigh", "outside"] as const;

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
  const small = (x: unknown): boolean => isSmallCount(x, minCount);
  let suppressed = false;
  const out: Record<string, unknown> = { ...line };
  const hide = (obj: Record<string, unknown>, keys: readonly string[]): boolean => {
    let any = false;
    for (const k of keys) {
      if (small(obj[k])) {
        obj[k] = null;
        any = true;
      }
    }
    return any;
  };
  if (line.type === "occupancy") {
    suppressed = hide(out, OCCUPANCY_COUNTS);
  } else {
    if (hide(out, DAY_COUNTS)) {
      suppressed = true;
      if (out["visitors"] === null || out["uniqueDevices"] === null) out["captureRate"] = null;
    }
    // The MAC-level counts beside the people estimate (`macs`) are counts like any other.
    for (const series of ["universal", "randomized", "macs"] as const) {
      const s = out[series];
      if (s === null || typeof s !== "object") continue;
      const copy: Record<string, unknown> = { ...(s as Record<string, unknown>) };
      if (hide(copy, SERIES_COUNTS)) {
        suppressed = true;
        if (copy["visitors"] === null || copy["uniqueDevices"] === null) copy["captureRate"] = null;
      }
      out[series] = copy;
    }
    // The day's people sample is per-visit sums (a day of one universal visit is that visit's
    // dwell): withheld whole whenever counts are suppressed; it is for pooling, not publishing.
    if (out["peopleSample"] !== undefined) out["peopleSample"] = null;
    const dwell = out["dwell"];
    if (dwell !== null && typeof dwell === "object") {
      const d: Record<string, unknown> = { ...(dwell as Record<string, unknown>) };
      if (small(d["count"])) {
        suppressed = true;
        d["count"] = null;
        d["meanMs"] = null;
        d["medianMs"] = null;
        d["p90Ms"] = null;
      }
      const buckets = d["buckets"];
      if (buckets !== null && typeof buckets === "object") {
        const b: Record<string, unknown> = { ...(buckets as Record<string, unknown>) };
        if (hide(b, Object.keys(b))) suppressed = true;
        d["buckets"] = b;
      }
      out["dwell"] = d;
    }
  }
  if (suppressed) out["suppressed"] = true;
  return out as AnalysisRecord;
}
