/**
 * The small-count rule of `--min-count K`: a count of people from 1 to K − 1 could single
 * someone out, so it is shown as suppressed; 0 reveals no one and stays, and K ≤ 1 suppresses
 * nothing. One rule for the NDJSON lines, the tables, `daily.csv` and the report's hours.
 *
 * @example
 * isSmallCount(3, 5); // true
 * isSmallCount(0, 5); // false
 * isSmallCount(5, 5); // false
 */
export function isSmallCount(count: unknown, minCount: number): boolean {
  return typeof count === "number" && count > 0 && count < minCount;
}
