import { DecodeError } from "../errors/DecodeError.ts";
import { HEX_CASED } from "./hexDigit.ts";
import { scaleToMillis, type EpochUnit } from "./inferEpochUnit.ts";
import { describeValue } from "./describeValue.ts";

/**
 * Converts between epoch milliseconds and the service's RTS strings (16 lowercase hex
 * digits of a 64-bit integer). The service does not publish its datetime→RTS rule, so the
 * rule is pluggable; {@link millisRts} (epoch milliseconds) is the default and
 * {@link secondsRts}, {@link microsRts}, {@link nanosRts} cover the other common units
 * ({@link inferRtsCodec} picks one from a record whose time is known).
 *
 * @example
 * const codec: RtsCodec = secondsRts;
 * codec.encode(1_700_000_000_000); // "000000006553f100"
 * codec.decode("000000006553f100"); // 1700000000000
 */
export interface RtsCodec {
  /**
   * Unit of the integer inside the RTS, e.g. `"ms"`: the presets say; a codec of your own
   * (any other rule) may leave it out.
   */
  readonly unit?: EpochUnit;
  /**
   * Epoch milliseconds → RTS. A fraction below the unit is truncated toward −∞, so
   * `decode(encode(ms)) ≤ ms` while the unit count is below 2^53 (always for s and ms, until
   * 2255 for µs; a ns count above 2^53 is the nearest double, off by under a µs until 2112,
   * by a double's step between epoch-ms values after). Throws a
   * RangeError for a negative or non-finite time or one beyond 2^64 − 1 units, a TypeError
   * for a non-number.
   */
  encode(ms: number): string;
  /**
   * RTS → epoch milliseconds (a fraction for µs/ns; above 2^53 units, the nearest double).
   * Throws a {@link DecodeError} for anything but 16 lowercase hex digits.
   */
  decode(rts: string): number;
}

/**
 * One of the four preset codecs ({@link millisRts}, {@link secondsRts}, {@link microsRts},
 * {@link nanosRts}): an {@link RtsCodec} whose RTS is a plain count of `unit` since the epoch.
 *
 * @example
 * const codec: PresetRtsCodec = microsRts;
 * codec.unit; // "us"
 */
export interface PresetRtsCodec extends RtsCodec {
  readonly unit: EpochUnit;
}

/** Number of hex digits in an RTS. */
const RTS_LENGTH = 16;
const MAX_RTS_BIGINT = (1n << 64n) - 1n;
const TWO_POW_32 = 2 ** 32;
const TWO_POW_64 = 2 ** 64;

/**
 * What {@link rtsValueAt} returns for 16 hex digits spelled with
 * uppercase letters: an RTS, in a spelling other than footfall's canonical lowercase one
 * (the interface's sample is lowercase; a service formatting with `%016X` is not). The caller
 * reads it through `canonicalRts` instead (`rowKey` and the source do), which is rare and off
 * the hot path. Internal.
 *
 * @example
 * rtsValueAt("00000000000000FF", 0) === RTS_UPPERCASE; // true
 */
export const RTS_UPPERCASE = -2;

/**
 * Numeric value of the RTS spelled by the 16 characters of `text` at `start`: −1 when they
 * are not 16 hex digits (or `text` ends before), {@link RTS_UPPERCASE} when they are but some
 * are uppercase. Exact below 2^53, the nearest double above (one rounding: high 32 bits × 2^32
 * + low 32 bits). A charCode loop that allocates nothing, so row_key decoding can read the RTS
 * in place. Internal.
 *
 * @example
 * rtsValueAt("101:00000000000000ff", 4); // 255
 * rtsValueAt("101:00000000000000FF", 4); // -2 (RTS_UPPERCASE)
 * rtsValueAt("101:00000000000000fg", 4); // -1
 */
export function rtsValueAt(text: string, start: number): number {
  if (!(start >= 0) || text.length - start < RTS_LENGTH) return -1;
  // −1 (not a digit) has every bit set, so `bad` turns negative on the first non-digit and
  // one test at the end replaces sixteen; an uppercase digit sets bit 4 of `bad`. Either way
  // the garbage it puts in hi/lo is discarded.
  let hi = 0;
  let lo = 0;
  let bad = 0;
  for (let i = start; i < start + 8; i++) {
    const d = HEX_CASED[text.charCodeAt(i)]!;
    bad |= d;
    hi = (hi << 4) | d;
  }
  for (let i = start + 8; i < start + 16; i++) {
    const d = HEX_CASED[text.charCodeAt(i)]!;
    bad |= d;
    lo = (lo << 4) | d;
  }
  return bad < 0 ? -1 : bad > 15 ? RTS_UPPERCASE : (hi >>> 0) * TWO_POW_32 + (lo >>> 0);
}

/**
 * True when `value` is a well-formed RTS: exactly 16 lowercase hexadecimal digits.
 *
 * @example
 * isRts("0000019a8f3c2e10"); // true
 * isRts("0000019A8F3C2E10"); // false (uppercase)
 */
export function isRts(value: unknown): value is string {
  return typeof value === "string" && value.length === RTS_LENGTH && rtsValueAt(value, 0) >= 0;
}

/** Numeric value of an RTS, or a {@link DecodeError}. */
function rtsValue(rts: unknown): number {
  const value = typeof rts === "string" && rts.length === RTS_LENGTH ? rtsValueAt(rts, 0) : -1;
  if (value < 0) throw new DecodeError("rts", rts, "expected 16 lowercase hexadecimal digits");
  return value;
}

/** Epoch ms → units, before truncation; division where it keeps whole results exact. */
function toUnits(ms: number, unit: EpochUnit): number {
  switch (unit) {
    case "s":
      return ms / 1000;
    case "ms":
      return ms;
    case "us":
      return ms * 1000;
    case "ns":
      return ms * 1e6;
  }
}

function encodeIn(unit: EpochUnit, ms: number): string {
  if (typeof ms !== "number") throw new TypeError(`RTS: time must be a number of epoch ms, got ${typeof ms}`);
  if (!(ms >= 0) || ms === Infinity) {
    throw new RangeError(`RTS: time must be finite and non-negative, got ${ms}`);
  }
  let units = Math.floor(toUnits(ms, unit));
  // Scaling rounds, so floor can land one off (e.g. ms = n/1000 from a µs RTS, times 1000,
  // is a hair below n). Settle on the largest integer whose decoded time is ≤ ms, which
  // makes encode the exact inverse of decode wherever decode is exact.
  if (scaleToMillis(units, unit) > ms) units -= 1;
  else if (scaleToMillis(units + 1, unit) <= ms) units += 1;
  if (units >= TWO_POW_64) {
    throw new RangeError(`RTS: time ${ms} ms is beyond 2^64 − 1 ${unit}`);
  }
  return units.toString(16).padStart(RTS_LENGTH, "0");
}

/** The four presets share this class, so the decoder can recognise them and read RTS in place. */
class UnitRtsCodec implements PresetRtsCodec {
  readonly unit: EpochUnit;
  constructor(unit: EpochUnit) {
    this.unit = unit;
  }
  encode(ms: number): string {
    return encodeIn(this.unit, ms);
  }
  decode(rts: string): number {
    return scaleToMillis(rtsValue(rts), this.unit);
  }
}

/**
 * RTS as 16 hex digits of epoch milliseconds: the default reading of the interface.
 *
 * @example
 * millisRts.encode(Date.UTC(2025, 10, 20)); // "0000019a9e8f9000"
 * millisRts.decode("0000019a9e8f9000");      // 1763596800000
 */
export const millisRts: PresetRtsCodec = new UnitRtsCodec("ms");
/**
 * RTS as 16 hex digits of epoch seconds.
 *
 * @example
 * secondsRts.decode("000000006553f100"); // 1700000000000
 * secondsRts.encode(1_700_000_000_999);  // "000000006553f100" (truncated to the second)
 */
export const secondsRts: PresetRtsCodec = new UnitRtsCodec("s");
/**
 * RTS as 16 hex digits of epoch microseconds.
 *
 * @example
 * microsRts.encode(1);                  // "00000000000003e8"
 * microsRts.decode("00000000000003e9"); // 1.001
 */
export const microsRts: PresetRtsCodec = new UnitRtsCodec("us");
/**
 * RTS as 16 hex digits of epoch nanoseconds (64 bits hold them until 2554). Decoded times
 * after mid-1970 exceed 2^53 ns, so they are the nearest double (sub-µs rounding).
 *
 * @example
 * nanosRts.encode(1);                  // "00000000000f4240"
 * nanosRts.decode("00000000000f4240"); // 1
 */
export const nanosRts: PresetRtsCodec = new UnitRtsCodec("ns");

/** Presets in tie-break order for {@link inferRtsCodec}: the default first. */
const PRESETS: readonly PresetRtsCodec[] = [millisRts, secondsRts, microsRts, nanosRts];

/**
 * The preset codec for a unit.
 *
 * @example
 * rtsCodecForUnit("us") === microsRts; // true
 */
export function rtsCodecForUnit(unit: EpochUnit): PresetRtsCodec {
  switch (unit) {
    case "s":
      return secondsRts;
    case "ms":
      return millisRts;
    case "us":
      return microsRts;
    case "ns":
      return nanosRts;
    default:
      throw new TypeError(`unknown RTS unit ${describeValue(unit)}; expected "s", "ms", "us" or "ns"`);
  }
}

/**
 * Unit of a preset codec, or `undefined` for a user-supplied one. Lets the decoder read a
 * preset RTS in place instead of slicing it out first. Internal.
 *
 * @example
 * presetUnitOf(millisRts); // "ms"
 */
export function presetUnitOf(codec: RtsCodec): EpochUnit | undefined {
  return codec instanceof UnitRtsCodec ? codec.unit : undefined;
}

/**
 * Epoch milliseconds → RTS with the given codec (default {@link millisRts}).
 *
 * @example
 * millisToRts(255);             // "00000000000000ff"
 * millisToRts(255, microsRts);  // "000000000003e418"
 */
export function millisToRts(ms: number, codec: RtsCodec = millisRts): string {
  return codec.encode(ms);
}

/**
 * RTS → epoch milliseconds with the given codec (default {@link millisRts}).
 * Throws a {@link DecodeError} for anything but 16 lowercase hex digits — never NaN.
 *
 * @example
 * rtsToMillis("00000000000000ff");             // 255
 * rtsToMillis("00000000000000ff", secondsRts); // 255000
 */
export function rtsToMillis(rts: string, codec: RtsCodec = millisRts): number {
  return codec.decode(rts);
}

/**
 * Picks the preset codec (s, ms, µs, ns) under which `rts` decodes closest to `tsMs`, the
 * known time of the same record in epoch ms (e.g. its `ts` through {@link toEpochMillis}).
 * This is how a client can notice a server whose RTS counts seconds or microseconds.
 * Ties go to {@link millisRts} (the default), then s, µs, ns. `undefined` when `rts` is not
 * an RTS or `tsMs` is not a finite number.
 *
 * @example
 * inferRtsCodec("000000006553f100", 1_700_000_000_123) === secondsRts; // true
 * inferRtsCodec("0000018bcfe56800", 1_700_000_000_000) === millisRts;  // true
 * inferRtsCodec("nope", 0);                                            // undefined
 */
export function inferRtsCodec(rts: string, tsMs: number): RtsCodec | undefined {
  const value = typeof rts === "string" && rts.length === RTS_LENGTH ? rtsValueAt(rts, 0) : -1;
  if (value < 0 || typeof tsMs !== "number" || !Number.isFinite(tsMs)) return undefined;
  let best: RtsCodec | undefined;
  let bestDistance = Infinity;
  for (const codec of PRESETS) {
    const distance = Math.abs(scaleToMillis(value, codec.unit) - tsMs);
    if (distance < bestDistance) {
      best = codec;
      bestDistance = distance;
    }
  }
  return best;
}

/**
 * Orders two RTS strings. Equal-width lowercase hex sorts as text exactly as the
 * numbers sort, so this is a plain string comparison (both should be RTS; a non-string
 * throws a {@link DecodeError}).
 *
 * @example
 * ["00000000000000ff", "0000000000000010"].sort(compareRts); // ["0000000000000010", "00000000000000ff"]
 */
export function compareRts(a: string, b: string): number {
  // Only a type check: `<` on arbitrary objects can throw, and comparators run hot.
  if (typeof a !== "string") throw new DecodeError("rts", a, "expected a string");
  if (typeof b !== "string") throw new DecodeError("rts", b, "expected a string");
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Moves an RTS by `delta` units of its own integer (not of time), exactly: 16 hex digits
 * are 64 bits, more than a JS number holds, so this is the one place BigInt is used.
 * Clamps at 0 and 2^64 − 1. Used to step a pagination cursor one unit back. Throws a
 * {@link DecodeError} for a malformed RTS and a RangeError for a non-integer `delta`.
 *
 * @example
 * stepRts("0000000000000100", -1); // "00000000000000ff"
 * stepRts("ffffffffffffffff", 1);  // "ffffffffffffffff" (clamped)
 */
export function stepRts(rts: string, delta: number): string {
  rtsValue(rts);
  if (!Number.isSafeInteger(delta)) throw new RangeError(`stepRts: delta must be a safe integer, got ${describeValue(delta)}`);
  let value = BigInt(`0x${rts}`) + BigInt(delta);
  if (value < 0n) value = 0n;
  if (value > MAX_RTS_BIGINT) value = MAX_RTS_BIGINT;
  return value.toString(16).padStart(RTS_LENGTH, "0");
}
