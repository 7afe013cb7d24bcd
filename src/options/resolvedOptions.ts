// Which resolver resolved an options object: a resolver handed its own result returns it as it is.
const RESOLVED = new WeakMap<object, string>();

/**
 * Marks `options` as resolved by the resolver named `by` (and freezes them): that resolver then
 * returns them as they are ({@link resolvedBy}), so options validated once at an edge — an
 * operator's creation, `Analyzer`'s constructor — are trusted by the kernels built from them at
 * every subscription, not checked again.
 *
 * @param by the resolver's name, e.g. `"visitCounterOptions"`
 * @example
 * const o = markResolved("visitCounterOptions", { window: "day", timeZone: "Asia/Seoul" });
 * resolvedBy("visitCounterOptions", o); // true
 * resolvedBy("dwellMeterOptions", o);   // false
 */
export function markResolved<T extends object>(by: string, options: T): Readonly<T> {
  RESOLVED.set(Object.freeze(options), by);
  return options;
}

/**
 * Whether `options` are the result of the resolver named `by` (see {@link markResolved}).
 *
 * @example
 * resolvedBy("visitCounterOptions", { window: "day" }); // false
 */
export function resolvedBy(by: string, options: unknown): boolean {
  return typeof options === "object" && options !== null && RESOLVED.get(options) === by;
}
