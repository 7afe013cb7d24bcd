import { isSmallCount } from "./isSmallCount.ts";

/**
 * A group of figures as the small-count rule sees them, by the keys one writer gives them: the
 * counts of people or devices, the counts whose smallness also withholds the figures computed
 * from them (`triggers`, e.g. visitors and devices behind a capture rate), and those figures
 * (`derived`). The NDJSON lines, the CLI's table and the demo's `daily.csv` each name their own
 * columns; the rule is {@link withholdSmallCounts}.
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
 * to K − 1 (a number, or a numeric cell of a CSV row) becomes `mark` (a line's `null`, a table's or CSV's `"<K"`: withheld, never shown as
 * zero), and when a trigger count was withheld (or already is `mark`) the derived figures become
 * `blank`. Returns whether anything was withheld. K ≤ 1 withholds nothing. The one rule behind
 * `suppressSmallCounts`, the table of `footfall analyze` and the demo's `daily.csv`.
 *
 * @example
 * const row: Record<string, unknown> = { visitors: 3, visits: 12, captureRate: 0.2 };
 * withholdSmallCounts(row, { counts: ["visitors", "visits"], triggers: ["visitors"], derived: ["captureRate"] }, 5, "<5", null); // true
 * row; // { visitors: "<5", visits: 12, captureRate: null }
 */
export function withholdSmallCounts(row: Record<string, unknown>, group: SmallCountGroup, minCount: number, mark: unknown, blank: unknown): boolean {
  if (minCount <= 1) return false;
  let withheld = false;
  let triggered = false;
  const triggers = group.triggers ?? [];
  for (const key of group.counts) {
    const value = row[key];
    // A CSV row's cells are text: "3" is a count like 3.
    if (!isSmallCount(typeof value === "string" && value !== "" ? Number(value) : value, minCount)) continue;
    row[key] = mark;
    withheld = true;
    if (triggers.includes(key)) triggered = true;
  }
  // A trigger already withheld elsewhere (e.g. a table's people column taken from a suppressed line).
  if (!triggered && mark !== null) triggered = triggers.some((key) => row[key] === mark);
  if (triggered) for (const key of group.derived ?? []) row[key] = blank;
  return withheld;
}
