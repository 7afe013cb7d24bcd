import { DecodeError } from "../errors/DecodeError.ts";
import { describeValue } from "./describeValue.ts";

/**
 * Unit of an epoch timestamp: seconds, milliseconds, microseconds or nanoseconds since
 * 1970-01-01T00:00:00Z.
 *
 * @example
 * const unit: EpochUnit = "ms";
 */
export type EpochUnit = "s" | "ms" | "us" | "ns";

/** Lower bounds of the ms, µs and ns windows; everything below 1e11 reads as seconds. */
const MS_FROM = 1e11;
const US_FROM = 1e14;
const NS_FROM = 1e17;

const EPOCH_UNITS: ReadonlySet<string> = new Set<EpochUnit>(["s", "ms", "us", "ns"]);

/**
 * Tells the unit of an epoch timestamp from its magnitude. The service says `ts` is a
 * 64-bit integer but not in what unit, so footfall guesses, and the guess is unambiguous
 * for any time from 1973-03-03 to 5138-11-16:
 *
 * | `ts`            | unit | reads as                         |
 * |-----------------|------|----------------------------------|
 * | < 1e11          | s    | 1970-01-01 … 5138-11-16          |
 * | 1e11 … < 1e14   | ms   | 1973-03-03 … 5138-11-16          |
 * | 1e14 … < 1e17   | us   | 1973-03-03 … 5138-11-16          |
 * | ≥ 1e17          | ns   | 1973-03-03 onwards               |
 *
 * (A present-day time is ~1.7e9 s, ~1.7e12 ms, ~1.7e15 µs, ~1.7e18 ns: three orders of
 * magnitude from every boundary.) Throws a {@link DecodeError} for a negative, non-finite
 * or non-number `ts`.
 *
 * @example
 * inferEpochUnit(1_763_600_000);             // "s"
 * inferEpochUnit(1_763_600_000_016);         // "ms"
 * inferEpochUnit(1_763_600_000_016_000);     // "us"
 * inferEpochUnit(1_763_600_000_016_000_000); // "ns"
 */
export function inferEpochUnit(ts: number): EpochUnit {
  assertEpochTimestamp(ts);
  return unitOfMagnitude(ts);
}

/**
 * The rule of {@link inferEpochUnit} for a `ts` already known to be a non-negative number
 * (the decoder checks that itself and must not throw). Internal.
 *
 * @example
 * unitOfMagnitude(1_763_600_000_016); // "ms"
 */
export function unitOfMagnitude(ts: number): EpochUnit {
  return ts < MS_FROM ? "s" : ts < US_FROM ? "ms" : ts < NS_FROM ? "us" : "ns";
}

/**
 * Converts an epoch timestamp to epoch milliseconds, in the given unit or (by default) the
 * one {@link inferEpochUnit} reads from its magnitude. µs and ns keep their sub-millisecond
 * part as a fraction. Throws a {@link DecodeError} for a negative, non-finite or
 * non-number `ts`, and a TypeError for an unknown unit.
 *
 * @example
 * toEpochMillis(1_763_600_000);              // 1763600000000 (seconds, inferred)
 * toEpochMillis(1_763_600_000_016_500);      // 1763600000016.5 (µs, inferred)
 * toEpochMillis(1_763_600_000, "ms");        // 1763600000 (unit given)
 */
export function toEpochMillis(ts: number, unit?: EpochUnit): number {
  assertEpochTimestamp(ts);
  return scaleToMillis(ts, unit === undefined ? inferEpochUnit(ts) : unit);
}

function assertEpochTimestamp(ts: unknown): asserts ts is number {
  // `!(ts >= 0)` also rejects NaN.
  if (typeof ts !== "number" || !(ts >= 0) || ts === Infinity) {
    throw new DecodeError("ts", ts, "expected a finite, non-negative epoch timestamp");
  }
}

/**
 * `ts` in `unit` → epoch ms, for an already validated `ts`. Division (not multiplication
 * by 1e-3) keeps whole results exact. Internal.
 *
 * @example
 * scaleToMillis(1500, "us"); // 1.5
 */
export function scaleToMillis(ts: number, unit: EpochUnit): number {
  switch (unit) {
    case "ms":
      return ts;
    case "s":
      return ts * 1000;
    case "us":
      return ts / 1000;
    case "ns":
      return ts / 1e6;
    default:
      throw new TypeError(`unknown epoch unit ${describeValue(unit)}; expected "s", "ms", "us" or "ns"`);
  }
}

/**
 * True when `value` names an {@link EpochUnit}.
 *
 * @example
 * isEpochUnit("us"); // true
 * isEpochUnit("µs"); // false
 */
export function isEpochUnit(value: unknown): value is EpochUnit {
  return typeof value === "string" && EPOCH_UNITS.has(value);
}
