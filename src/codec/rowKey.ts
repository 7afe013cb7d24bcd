import { DecodeError } from "../errors/DecodeError.ts";
import { RTS_UPPERCASE, rtsValueAt } from "./rts.ts";
import { canonicalRts } from "./rtsSpelling.ts";
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
 * const out: RowKeyScan = { rtsValue: 0, rts: undefined };
 */
export interface RowKeyScan {
  /** The RTS's numeric value. */
  rtsValue: number;
  /**
   * The RTS in footfall's spelling when the key spells it otherwise (uppercase hex, or without
   * leading zeros: `canonicalRts`); `undefined` when it is the key's last 16 characters.
   */
  rts: string | undefined;
}

/**
 * SHOP ID of a row_key, or a negative code saying what is wrong: −1 not `<digits>:<rts>`,
 * −2 shop id not decimal digits, −3 shop id beyond 2^53 − 1, −4 RTS not hex digits in a
 * spelling a service may use (`canonicalRts`: 16 digits of either case, or fewer without
 * leading zeros). Also writes the RTS's value, and its canonical text if the key's is not, to
 * `out` when the key is good. A charCode loop with no allocation for footfall's own spelling:
 * the decoder runs it once per record and slices the RTS (the last 16 characters) only when
 * the key is good. Internal.
 *
 * @example
 * const out: RowKeyScan = { rtsValue: 0, rts: undefined };
 * scanRowKey("101:00000000000000ff", out); // 101
 * out.rtsValue;                            // 255
 * scanRowKey("101:FF", out);               // 101, and out.rts is "00000000000000ff"
 * scanRowKey("101:00000000000000fg", out); // -4
 */
export function scanRowKey(rowKey: string, out: RowKeyScan): number {
  const colon = rowKey.length - RTS_SUFFIX;
  if (colon > 0 && rowKey.charCodeAt(colon) === COLON) {
    const shopId = digitsValue(rowKey, colon);
    if (shopId < 0) return shopId;
    const rtsValue = rtsValueAt(rowKey, colon + 1);
    if (rtsValue >= 0) {
      out.rtsValue = rtsValue;
      out.rts = undefined;
      return shopId;
    }
    if (rtsValue !== RTS_UPPERCASE) return -4;
  }
  // Another spelling, or malformed: split on the *last* colon, so the message says which part is wrong.
  const last = rowKey.lastIndexOf(":");
  if (last <= 0) return -1;
  const shopId = digitsValue(rowKey, last);
  if (shopId < 0) return shopId;
  const rts = canonicalRts(rowKey.slice(last + 1));
  if (rts === undefined) return -4;
  out.rtsValue = rtsValueAt(rts, 0);
  out.rts = rts;
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
const scratch: RowKeyScan = { rtsValue: 0, rts: undefined };

const REASONS = ["", "expected <shop_id>:<rts>", "shop id is not decimal digits", "shop id is too large", "RTS is not 16 hex digits (or fewer without leading zeros)"];

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
 * digits (a safe integer; leading zeros are allowed) and the RTS hex digits in a spelling a
 * service may use (`canonicalRts`), returned in footfall's: 16 lowercase digits; anything else,
 * a non-string included, throws a {@link DecodeError}.
 *
 * @example
 * parseRowKey("101:0000019a9ec06410"); // { shopId: 101, rts: "0000019a9ec06410" }
 * parseRowKey("101:0000019A9EC06410"); // { shopId: 101, rts: "0000019a9ec06410" }
 * parseRowKey("101:19a9ec06410");      // { shopId: 101, rts: "0000019a9ec06410" }
 */
export function parseRowKey(rowKey: string): RowKey {
  if (typeof rowKey !== "string") throw new DecodeError("row_key", rowKey, "expected a string");
  const shopId = scanRowKey(rowKey, scratch);
  if (shopId < 0) throw new DecodeError("row_key", rowKey, rowKeyProblem(shopId));
  return { shopId, rts: scratch.rts ?? rowKey.slice(rowKey.length - 16) };
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
