/**
 * `v` limited to [lo, hi].
 *
 * @example
 * clamp(12, 0, 10); // 10
 * clamp(-3, 0, 10); // 0
 */
export function clamp(v: number, lo: number, hi: number): number {
  return v < lo ? lo : v > hi ? hi : v;
}
