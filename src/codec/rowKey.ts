import { DecodeError } from "../errors/DecodeError.ts";
import { RTS_UPPERCASE, rtsValueAt } from "./rts.ts";
import { describeValue } from "./describeValue.ts";

/**
 * The two parts of a signal's `row_key`.
 *
 * @example
 * const key: RowKey = { shopId: 101, rts: "0000019a9ec06410" };
 */
export interface RowKey {
  /** SHOP ID: a non-negative safe integer. */
  readonly shopId: number;
  /** RTS: 16 lowercase hex digits (footfall's spelling, whatever the key's case). */
  readonly rts: string;
}

/** Length of `:<rts>` at the end of a row_key. */
const RTS_SUFFIX = 17;
const COLON = 58;

/**
 * Where {@link scanRowKey} leaves what it read of a good key's RTS.
 *
 * @example
 * const out: RowKeyScan = { rtsValue: 0, rtsUpper: false };
 */
export interface RowKeyScan {
  /** The RTS's numeric value. */
  rtsValue: number;
  /**
   * Whether the key spells its RTS with uppercase hex digits (a service formatting with
   * `%016X`): its RTS is then the last 16 characters lowercased.
   */
  rtsUpper: boolean;
}

/**
 * SHOP ID of a row_key, or a negative code saying what is wrong: −1 not `<digits>:<rts>`,
 * −2 shop id not decimal digits, −3 shop id beyond 2^53 − 1, −4 RTS not 16 hex digits.
 * Also writes the RTS's numeric value and case to `out` when the key is good. A charCode loop
 * with no allocation for a lowercase RTS: the decoder runs it once per record and slices the
 * RTS (the last 16 characters) only when the key is good. Internal.
 *
 * @example
 * const out = { rtsValue: 0, rtsUpper: false };
 * scanRowKey("101:00000000000000ff", out); // 101
 * out.rtsValue;                            // 255
 * scanRowKey("101:00000000000000FF", out); // 101, and out.rtsUpper is true
 * scanRowKey("101:00000000000000fg", out); // -4
 */
export function scanRowKey(rowKey: string, out: RowKeyScan): number {
  const colon = rowKey.length - RTS_SUFFIX;
  if (colon <= 0 || rowKey.charCodeAt(colon) !== COLON) {
    // Still split on the *last* colon, so the message says which part is wrong.
    const last = rowKey.lastIndexOf(":");
    if (last <= 0) return -1;
    const shopId = digitsValue(rowKey, last);
    return shopId < 0 ? shopId : -4;
  }
  const shopId = digitsValue(rowKey, colon);
  if (shopId < 0) return shopId;
  let rtsValue = rtsValueAt(rowKey, colon + 1);
  const upper = rtsValue === RTS_UPPERCASE;
  if (upper) rtsValue = rtsValueAt(rowKey.slice(colon + 1).toLowerCase(), 0);
  if (rtsValue < 0) return -4;
  out.rtsValue = rtsValue;
  out.rtsUpper = upper;
  return shopId;
}

/** Decimal value of `text[0, end)`: −2 if empty or not all digits, −3 if not a safe integer. */
function digitsValue(text: string, end: number): number {
  if (end === 0) return -2;
  let value = 0;
  for (let i = 0; i < end; i++) {
    const d = text.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return -2;
    value = value * 10 + d;
  }
  return value > Number.MAX_SAFE_INTEGER ? -3 : value;
}

/** Receives the RTS value {@link parseRowKey} does not need (calls are synchronous, so one is enough). */
const scratch: RowKeyScan = { rtsValue: 0, rtsUpper: false };

const REASONS = ["", "expected <shop_id>:<rts>", "shop id is not decimal digits", "shop id is too large", "RTS is not 16 hex digits"];

/**
 * Why {@link scanRowKey} rejected a key, as a message. Internal.
 *
 * @example
 * rowKeyProblem(-2); // "shop id is not decimal digits"
 */
export function rowKeyProblem(code: number): string {
  return REASONS[-code] ?? "malformed";
}

/**
 * Splits a `row_key` (`<shop_id>:<rts>`) on its last colon. The shop id must be decimal
 * digits (a safe integer; leading zeros are allowed) and the RTS 16 hex digits, returned in
 * lowercase whatever their case in the key; anything else, a non-string included, throws a
 * {@link DecodeError}.
 *
 * @example
 * parseRowKey("101:0000019a9ec06410"); // { shopId: 101, rts: "0000019a9ec06410" }
 * parseRowKey("101:0000019A9EC06410"); // { shopId: 101, rts: "0000019a9ec06410" }
 */
export function parseRowKey(rowKey: string): RowKey {
  if (typeof rowKey !== "string") throw new DecodeError("row_key", rowKey, "expected a string");
  const shopId = scanRowKey(rowKey, scratch);
  if (shopId < 0) throw new DecodeError("row_key", rowKey, rowKeyProblem(shopId));
  const rts = rowKey.slice(rowKey.length - 16);
  return { shopId, rts: scratch.rtsUpper ? rts.toLowerCase() : rts };
}

/**
 * Builds a `row_key` from its parts: the inverse of {@link parseRowKey}. Throws a
 * TypeError for a non-object, a RangeError for a shop id that is not a non-negative safe integer and a
 * {@link DecodeError} for a malformed RTS, so it never builds a key that would not parse.
 *
 * @example
 * formatRowKey({ shopId: 101, rts: "0000019a9ec06410" }); // "101:0000019a9ec06410"
 */
export function formatRowKey(key: RowKey): string {
  if (typeof key !== "object" || key === null) throw new TypeError(`formatRowKey: expected { shopId, rts }, got ${describeValue(key)}`);
  const { shopId, rts } = key;
  if (!Number.isSafeInteger(shopId) || shopId < 0) {
    throw new RangeError(`formatRowKey: shopId must be a non-negative safe integer, got ${describeValue(shopId)}`);
  }
  if (typeof rts !== "string" || rts.length !== 16 || rtsValueAt(rts, 0) < 0) {
    throw new DecodeError("rts", rts, "expected 16 lowercase hexadecimal digits");
  }
  return `${shopId}:${rts}`;
}
