import type { AnalysisRecord } from "./AnalysisRecord.ts";
import { ANALYSIS_LINES, type LineCounts } from "./analysisLines.ts";
import { withholdSmallCounts } from "../kernels/visits/withholdSmallCounts.ts";

/**
 * Small-count suppression of one aggregate line (`summary` or `occupancy`; the fields its entry in
 * `ANALYSIS_LINES` names as counts): every count from 1 to
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
  const kind = minCount <= 1 ? undefined : ANALYSIS_LINES.find((l) => l.type === line.type);
  if (kind === undefined || (kind.counts.length === 0 && kind.withheld.length === 0)) return line;
  const out: Record<string, unknown> = { ...line };
  let suppressed = false;
  for (const counts of kind.counts) if (withholdAt(out, counts, 0, minCount)) suppressed = true;
  for (const field of kind.withheld) if (out[field] !== undefined) out[field] = null;
  if (suppressed) out["suppressed"] = true;
  return out as AnalysisRecord;
}

// Withholds the small counts of the group at `counts.path` below `obj` (from path index `i`),
// copying each object on the way so the line given is never changed.
function withholdAt(obj: Record<string, unknown>, counts: LineCounts, i: number, minCount: number): boolean {
  if (i < counts.path.length) {
    const key = counts.path[i]!;
    const inner = obj[key];
    if (inner === null || typeof inner !== "object") return false;
    const copy: Record<string, unknown> = { ...(inner as Record<string, unknown>) };
    obj[key] = copy;
    return withholdAt(copy, counts, i + 1, minCount);
  }
  const group = counts.group.counts === "all" ? { counts: Object.keys(obj) } : counts.group;
  return withholdSmallCounts(obj, group, minCount);
}
