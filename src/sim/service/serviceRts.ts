import type { EpochUnit } from "../../codec/inferEpochUnit.ts";

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
 * The earliest whole epoch ms whose RTS ({@link rtsOfMillis}) is at or after `since` — after it
 * when `exclusive` — which is where a page asked for with that `since` starts.
 *
 * @example
 * firstMillisOf("0000019a9ec06410", "ms", false); // 1763600000016
 * firstMillisOf("00000000691e6680", "s", true);   // 1763600001000
 */
export function firstMillisOf(since: string, unit: EpochUnit, exclusive: boolean): number {
  const [num, den] = PER_MS[unit];
  const wanted = BigInt(`0x${since}`) + (exclusive ? 1n : 0n);
  // The least ms with ms·num/den (floored) ≥ wanted: ceil(wanted·den / num).
  return Number((wanted * den + num - 1n) / num);
}
