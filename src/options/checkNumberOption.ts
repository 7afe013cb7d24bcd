/**
 * Eager option check shared by the analytics kernels: throws a TypeError when `value` is not a
 * number and a RangeError when it is NaN or outside `[min, max]` (or not an integer when asked).
 * Returns the value, so `const gapMs = checkNumberOption("gapMs", options.gapMs ?? 300_000, { min: 0 })`.
 *
 * @example
 * checkNumberOption("gapMs", 300_000, { min: 0, unit: "ms" }); // 300000
 * checkNumberOption("gapMs", -1, { min: 0, unit: "ms" });      // RangeError: gapMs must be ≥ 0 ms, got -1
 */
export function checkNumberOption(
  name: string,
  value: unknown,
  limits: { readonly min?: number; readonly max?: number; readonly integer?: boolean; readonly unit?: string; readonly finite?: boolean } = {},
): number {
  const unit = limits.unit === undefined ? "" : ` ${limits.unit}`;
  if (typeof value !== "number") throw new TypeError(`${name} must be a number${unit}, got ${typeof value}`);
  if (Number.isNaN(value)) throw new RangeError(`${name} must be a number${unit}, got NaN`);
  if ((limits.finite ?? true) && !Number.isFinite(value)) throw new RangeError(`${name} must be finite${unit}, got ${value}`);
  if (limits.min !== undefined && value < limits.min) throw new RangeError(`${name} must be ≥ ${limits.min}${unit}, got ${value}`);
  if (limits.max !== undefined && value > limits.max) throw new RangeError(`${name} must be ≤ ${limits.max}${unit}, got ${value}`);
  if (limits.integer === true && !Number.isInteger(value)) throw new RangeError(`${name} must be an integer${unit}, got ${value}`);
  return value;
}
