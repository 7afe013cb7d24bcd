import { isSmallCount } from "./isSmallCount.ts";

/**
 * A group of figures as the small-count rule sees them: the counts of people or devices, the
 * counts whose smallness also withholds the figures computed from them (`triggers`, e.g. visitors
 * and devices behind a capture rate), and those figures (`derived`). The groups of each line are
 * declared in `ANALYSIS_LINES`.
 *
 * @example
 * const group: SmallCountGroup = { counts: ["visitors", "visits"], triggers: ["visitors"], derived: ["captureRate"] };
 */
export interface SmallCountGroup {
  readonly counts: readonly string[];
  readonly triggers?: readonly string[];
  readonly derived?: readonly string[];
}

/**
 * The small-count rule of `--min-count K` on one group of figures, in place: every count from 1
 * to K − 1 becomes `null` (withheld, never shown as zero), and when a trigger count was withheld
 * the derived figures become `null` too. Returns whether anything was withheld. K ≤ 1 withholds
 * nothing. The one rule behind `suppressSmallCounts`; the table of `footfall analyze` and the
 * demo's `daily.csv` read its outcome from the suppressed line (`withheldFigures`).
 *
 * @example
 * const row: Record<string, unknown> = { visitors: 3, visits: 12, captureRate: 0.2 };
 * withholdSmallCounts(row, { counts: ["visitors", "visits"], triggers: ["visitors"], derived: ["captureRate"] }, 5); // true
 * row; // { visitors: null, visits: 12, captureRate: null }
 */
export function withholdSmallCounts(row: Record<string, unknown>, group: SmallCountGroup, minCount: number): boolean {
  if (minCount <= 1) return false;
  let withheld = false;
  let triggered = false;
  const triggers = group.triggers ?? [];
  for (const key of group.counts) {
    if (!isSmallCount(row[key], minCount)) continue;
    row[key] = null;
    withheld = true;
    if (triggers.includes(key)) triggered = true;
  }
  if (triggered) for (const key of group.derived ?? []) row[key] = null;
  return withheld;
}
