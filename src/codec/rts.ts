import { DecodeError } from "../errors/DecodeError.ts";

/**
 * Converts between epoch milliseconds and the service's RTS strings.
 * The service does not publish its datetime→RTS rule, so the rule is pluggable;
 * {@link millisRts} (16 hex digits of epoch milliseconds) is the default.
 *
 * @example
 * const codec: RtsCodec = secondsRts;
 * codec.encode(1_700_000_000_000); // "000000006553f100"
 */
export interface RtsCodec {
  /** Human name of the unit, e.g. `"ms"`. */
  readonly unit: "s" | "ms" | "us";
  /** Epoch milliseconds → RTS (fractions below the unit are truncated toward −∞). */
  encode(ms: number): string;
  /** RTS → epoch milliseconds. Throws {@link DecodeError} on a malformed RTS. */
  decode(rts: string): number;
}

const RTS_PATTERN = /^[0-9a-f]{16}$/;
const MAX_RTS = (1n << 64n) - 1n;

/**
 * True when `value` is a well-formed RTS: exactly 16 lowercase hexadecimal digits.
 *
 * @example
 * isRts("0000019a8f3c2e10"); // true
 * isRts("0000019A8F3C2E10"); // false (uppercase)
 */
export function isRts(value: unknown): value is string {
  return typeof value === "string" && value.length === 16 && RTS_PATTERN.test(value);
}

function assertRts(rts: unknown): asserts rts is string {
  if (!isRts(rts)) throw new DecodeError("rts", rts, "expected 16 lowercase hexadecimal digits");
}

function fromInteger(value: number): string {
  if (!Number.isFinite(value) || value < 0) {
    throw new RangeError(`RTS must encode a finite, non-negative time, got ${value}`);
  }
  return Math.floor(value).toString(16).padStart(16, "0");
}

function makeCodec(unit: RtsCodec["unit"], unitsPerMs: number): RtsCodec {
  return {
    unit,
    encode: (ms) => fromInteger(ms * unitsPerMs),
    decode(rts) {
      assertRts(rts);
      // parseInt is exact up to 2^53; beyond that the result is within a unit, fine for ms.
      return Number.parseInt(rts, 16) / unitsPerMs;
    },
  };
}

/**
 * RTS as 16 hex digits of epoch milliseconds: the default reading of the interface.
 *
 * @example
 * millisRts.encode(Date.UTC(2026, 10, 20)); // "0000019a9ed3a000"
 */
export const millisRts: RtsCodec = makeCodec("ms", 1);
/**
 * RTS as 16 hex digits of epoch seconds.
 *
 * @example
 * secondsRts.decode("000000006553f100"); // 1700000000000
 */
export const secondsRts: RtsCodec = makeCodec("s", 1 / 1000);
/**
 * RTS as 16 hex digits of epoch microseconds.
 *
 * @example
 * microsRts.encode(1); // "00000000000003e8"
 */
export const microsRts: RtsCodec = makeCodec("us", 1000);

/**
 * Epoch milliseconds → RTS with the given codec (default {@link millisRts}).
 *
 * @example
 * millisToRts(255); // "00000000000000ff"
 */
export function millisToRts(ms: number, codec: RtsCodec = millisRts): string {
  return codec.encode(ms);
}

/**
 * RTS → epoch milliseconds with the given codec (default {@link millisRts}).
 * Throws a {@link DecodeError} for anything but 16 lowercase hex digits — never NaN.
 *
 * @example
 * rtsToMillis("00000000000000ff"); // 255
 */
export function rtsToMillis(rts: string, codec: RtsCodec = millisRts): number {
  return codec.decode(rts);
}

/**
 * Orders two RTS strings. Equal-width lowercase hex sorts as text exactly as the
 * numbers sort, so this is a plain string comparison.
 *
 * @example
 * ["00000000000000ff", "0000000000000010"].sort(compareRts); // ["…10", "…ff"]
 */
export function compareRts(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Moves an RTS by `delta` units of its own integer (not of time), exactly: 16 hex digits
 * are 64 bits, more than a JS number holds, so this is the one place BigInt is used.
 * Clamps at 0 and 2^64 − 1. Used to step a pagination cursor one unit back.
 *
 * @example
 * stepRts("0000000000000100", -1); // "00000000000000ff"
 */
export function stepRts(rts: string, delta: number): string {
  assertRts(rts);
  let value = BigInt(`0x${rts}`) + BigInt(delta);
  if (value < 0n) value = 0n;
  if (value > MAX_RTS) value = MAX_RTS;
  return value.toString(16).padStart(16, "0");
}
