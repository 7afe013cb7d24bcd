/**
 * The same number, as V8 stores it without a box of its own where it is a small integer.
 *
 * Why: V8 keeps an object field holding only small integers inside the object, but once a field
 * of an object shape has held another number — and integer arithmetic on timestamps, such as
 * `end - start`, yields a boxed number even when its value is whole — every object of that shape
 * keeps that field's value in a separate 16-byte heap object. A session's integer fields (its
 * dwell in ms, peak RSSI in dBm, zone times in ms) go through it before they are stored, so a
 * session that is held until its day is decided is ~14 heap objects fewer (see
 * docs/performance.md, Row 2). The value is unchanged, `-0` and `NaN` included.
 *
 * @example
 * compactNumber(41_120);  // 41120
 * compactNumber(-62.5);   // -62.5
 * Object.is(compactNumber(-0), -0); // true
 */
export function compactNumber(x: number): number {
  // `x | 0` is a small integer; it equals x only for integers in int32 range, and -0 is kept as is.
  const i = x | 0;
  return i === x && (i !== 0 || 1 / x > 0) ? i : x;
}
