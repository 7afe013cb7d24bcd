/**
 * Cuts the RTS range [from, to) into at most `parts` contiguous ranges of (nearly) equal
 * width, returned as their `parts + 1` bounds (first `from`, last `to`). Exact on all 64 bits:
 * RTS cursor arithmetic is the one place BigInt is used. Fewer parts when the range is
 * narrower than `parts` units; an empty range gives `[from, to]`.
 *
 * @example
 * splitRange("0000000000000000", "0000000000000010", 4);
 * // ["0000000000000000", "0000000000000004", "0000000000000008", "000000000000000c", "0000000000000010"]
 */
export function splitRange(from: string, to: string, parts: number): string[] {
  const lo = BigInt(`0x${from}`);
  const hi = BigInt(`0x${to}`);
  const width = hi > lo ? hi - lo : 0n;
  let n = BigInt(Math.max(1, Math.floor(parts)));
  if (width < n) n = width > 0n ? width : 1n;
  const bounds: string[] = [from];
  for (let i = 1n; i < n; i++) bounds.push((lo + (width * i) / n).toString(16).padStart(16, "0"));
  bounds.push(to);
  return bounds;
}
