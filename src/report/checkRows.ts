/**
 * Validates chart input eagerly: an array whose listed numeric fields are finite (and ≥ 0 when
 * `nonNegative`), so a bad row fails with a RangeError naming the row and field instead of
 * drawing a silently wrong picture.
 *
 * @example
 * checkRows("hourlyChart", [{ visitors: 3 }], ["visitors"], true); // ok
 */
export function checkRows<T extends object>(
  fn: string,
  rows: readonly T[],
  fields: readonly (keyof T & string)[],
  nonNegative: boolean,
): void {
  if (!Array.isArray(rows)) throw new TypeError(`${fn}: expected an array of rows, got ${typeof rows}`);
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i] as T;
    if (row === null || typeof row !== "object") throw new TypeError(`${fn}: row ${i} is not an object`);
    for (const field of fields) {
      const value = row[field] as unknown;
      if (value === undefined) continue;
      if (typeof value !== "number" || !Number.isFinite(value) || (nonNegative && value < 0)) {
        throw new RangeError(`${fn}: row ${i}: ${field} must be a finite${nonNegative ? " non-negative" : ""} number, got ${String(value)}`);
      }
    }
  }
}
