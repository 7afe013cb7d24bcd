import type { EpochUnit } from "../codec/inferEpochUnit.ts";

/** Units of `unit` per ms, as a fraction `[numerator, denominator]` (exact in BigInt). */
const PER_MS: Readonly<Record<EpochUnit, readonly [bigint, bigint]>> = { s: [1n, 1000n], ms: [1n, 1n], us: [1000n, 1n], ns: [1_000_000n, 1n] };

/**
 * The simulator's datetime → RTS rule for a service whose RTS counts `unit` since the epoch
 * (the interface does not publish the rule; footfall reads every preset): 16 lowercase hex
 * digits of the whole units at epoch ms `ms`, exact in BigInt (nanoseconds exceed a double).
 *
 * @example
 * rtsOfMillis(1763600000016, "ms"); // "0000019a9ec06410"
 * rtsOfMillis(1763600000016, "s");  // "00000000691e6680"
 */
export function rtsOfMillis(ms: number, unit: EpochUnit): string {
  const [num, den] = PER_MS[unit];
  return ((BigInt(ms) * num) / den).toString(16).padStart(16, "0");
}

/**
 * The earliest whole epoch ms whose RTS ({@link rtsOfMillis}, spelled in uppercase when `upper`)
 * is at or after `since` — after it when `exclusive` — compared as strings, which is where a
 * page asked for with that `since` starts: a key-value store scans from `<shop>:<since>` by
 * bytes. In the service's own spelling (or all digits) that is the numeric order; a `since` in
 * the other case lands where the store puts it (digits < `A`–`F` < `a`–`f`), not where it was
 * meant. `Infinity` when every RTS spelled that way lies before it.
 *
 * @example
 * firstMillisOf("0000019a9ec06410", "ms", false); // 1763600000016
 * firstMillisOf("00000000691e6680", "s", true);   // 1763600001000
 * firstMillisOf("0000019A9EC06410", "ms", false, true); // 1763600000016
 * firstMillisOf("0000019a9ec06410", "ms", false, true); // 1786706395136 (0x1a0…: the next key a store holds after it)
 */
export function firstMillisOf(since: string, unit: EpochUnit, exclusive: boolean, upper = false): number {
  const [num, den] = PER_MS[unit];
  const served = leastSpelledAtOrAfter(since, upper ? UPPER_DIGITS : LOWER_DIGITS);
  if (served === undefined) return Number.POSITIVE_INFINITY;
  const wanted = BigInt(`0x${served}`) + (exclusive && served === since ? 1n : 0n);
  // The least ms with ms·num/den (floored) ≥ wanted: ceil(wanted·den / num).
  return Number((wanted * den + num - 1n) / num);
}

/** The hex digits of each spelling, in character-code order. */
const LOWER_DIGITS = "0123456789abcdef";
const UPPER_DIGITS = "0123456789ABCDEF";

/**
 * The least string of `since.length` characters of `digits` that is ≥ `since` (JavaScript string
 * order, which is a byte scan's for ASCII), or `undefined` when every one is smaller.
 */
function leastSpelledAtOrAfter(since: string, digits: string): string | undefined {
  for (let i = 0; i < since.length; i++) {
    if (digits.includes(since[i]!)) continue;
    // The first character the spelling lacks: the least digit above it there, zeros after — or,
    // if none is above it, the next digit up at an earlier place.
    for (let j = i; j >= 0; j--) {
      const c = since[j]!;
      const above = [...digits].find((d) => d > c);
      if (above !== undefined) return since.slice(0, j) + above + "0".repeat(since.length - j - 1);
    }
    return undefined;
  }
  return since;
}
