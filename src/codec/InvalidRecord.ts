// The shape of a raw signal record (an object, its row_key, its fields' JSON types) and how a
// record that fails it is reported: the one invalid-record channel from the source to the decoder.
import { rowKeyProblem, scanRowKey, type RowKeyScan } from "./rowKey.ts";

/**
 * Why a raw record was rejected:
 * - `not-an-object`: the record is not a JSON object (null, array, string, …);
 * - `missing-field`: a field is absent or `null`;
 * - `wrong-type`: a field has the wrong JSON type (or `rssi` is not an integer);
 * - `bad-row-key`: `row_key` is not `<shop_id digits>:<rts>` (16 hex digits of either case, or
 *   fewer without leading zeros);
 * - `bad-mac`: `device_id` or `square_mac` is not a MAC address;
 * - `rssi-out-of-range`: `rssi` is outside −127…0 dBm;
 * - `shop-mismatch`: the row_key's shop is not the shop that was asked for;
 * - `bad-ts`: `ts` is negative, before 2000 (a sensor clock that was never set), or beyond
 *   what a Date can hold once converted to ms;
 * - `not-json`: a line of an NDJSON input that is not JSON (never from the decoder itself,
 *   which gets parsed values; readers of files report it through the same channel).
 *
 * @example
 * const reason: InvalidReason = "bad-mac";
 */
export type InvalidReason =
  | "not-an-object"
  | "missing-field"
  | "wrong-type"
  | "bad-row-key"
  | "bad-mac"
  | "rssi-out-of-range"
  | "shop-mismatch"
  | "bad-ts"
  | "not-json";

/**
 * Every {@link InvalidReason}, in a fixed order (for tables and counters).
 *
 * @example
 * INVALID_REASONS.includes("bad-ts"); // true
 */
export const INVALID_REASONS: readonly InvalidReason[] = Object.freeze([
  "not-an-object",
  "missing-field",
  "wrong-type",
  "bad-row-key",
  "bad-mac",
  "rssi-out-of-range",
  "shop-mismatch",
  "bad-ts",
  "not-json",
]);
const REASON_SET: ReadonlySet<unknown> = new Set(INVALID_REASONS);

/**
 * A raw record that could not be decoded, for the `invalid` side channel: the typed
 * reason, the field at fault (`""` for the record as a whole), a readable message and the
 * record itself, untouched. A plain object, so it serialises as NDJSON as is.
 *
 * @example
 * const bad: InvalidRecord = { reason: "missing-field", field: "rssi", message: "rssi is missing", record: {} };
 */
export interface InvalidRecord {
  readonly reason: InvalidReason;
  /** Wire name of the field at fault, e.g. `"device_id"`; `""` when the record is not an object. */
  readonly field: string;
  readonly message: string;
  /** The raw record as received. */
  readonly record: unknown;
}

/**
 * True when `value` is an {@link InvalidRecord} (what {@link decodeSignal} returns for a
 * bad record) rather than a {@link Signal}.
 *
 * @example
 * isInvalidRecord(decodeSignal(null)); // true
 */
export function isInvalidRecord(value: unknown): value is InvalidRecord {
  return (
    typeof value === "object" &&
    value !== null &&
    REASON_SET.has((value as { reason?: unknown }).reason) &&
    typeof (value as { field?: unknown }).field === "string"
  );
}

/** Longest decimal string accepted for `ts` (2^64 has 20 digits). */
const MAX_TS_DIGITS = 20;

/** Receives the RTS of row_keys checked outside the decoder (which keeps its own). */
const scratch: RowKeyScan = { rtsValue: 0, rts: undefined };

/**
 * An {@link InvalidRecord} of `record`.
 *
 * @example
 * invalid("bad-mac", "device_id", "device_id: not a MAC address", {}).reason; // "bad-mac"
 */
export function invalid(reason: InvalidReason, field: string, message: string, record: unknown): InvalidRecord {
  return { reason, field, message, record };
}

/**
 * The JSON type of `value`, as messages name it.
 *
 * @example
 * typeName([]); // "array"
 */
export function typeName(value: unknown): string {
  return value === null ? "null" : Array.isArray(value) ? "array" : typeof value;
}

function wrongType(field: string, expected: string, value: unknown, record: unknown): InvalidRecord {
  const got = typeof value === "number" ? String(value) : typeName(value);
  return invalid("wrong-type", field, `${field}: expected ${expected}, got ${got}`, record);
}

function missing(field: string, record: unknown): InvalidRecord {
  return invalid("missing-field", field, `${field} is missing`, record);
}

/**
 * `ts` as a number: a JSON number, or a decimal string (some servers quote 64-bit integers,
 * which JavaScript could not hold exactly); −1 if neither. The decoder's rule for reading `ts`,
 * which the source follows too.
 *
 * @example
 * tsNumber("1763600000016"); // 1763600000016
 * tsNumber(1763600000016);   // 1763600000016
 * tsNumber("-5");            // -1
 */
export function tsNumber(ts: unknown): number {
  if (typeof ts === "number") return ts;
  if (typeof ts !== "string" || ts.length === 0 || ts.length > MAX_TS_DIGITS) return -1;
  for (let i = 0; i < ts.length; i++) {
    const d = ts.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return -1;
  }
  return Number(ts);
}

/**
 * The row_key rule, shared by the decoder and the source (which must find each record's RTS
 * before anything else): the SHOP ID, or why the record is invalid (`missing-field`,
 * `wrong-type`, `bad-row-key`, `shop-mismatch` when `shopId` ≥ 0 is not the key's). Leaves the
 * key's RTS value in `scan`.
 *
 * @example
 * checkRowKey({}, "101:0000019a9ec06410", 101, { rtsValue: 0, rts: undefined }); // 101
 */
export function checkRowKey(raw: unknown, rowKey: unknown, shopId: number, scan: RowKeyScan): number | InvalidRecord {
  if (typeof rowKey !== "string") {
    return rowKey == null ? missing("row_key", raw) : wrongType("row_key", "a string", rowKey, raw);
  }
  const id = scanRowKey(rowKey, scan);
  if (id < 0) return invalid("bad-row-key", "row_key", `row_key: ${rowKeyProblem(id)}`, raw);
  if (!shopMatches(id, shopId)) {
    return invalid("shop-mismatch", "row_key", `row_key: shop ${id} is not the requested shop ${shopId}`, raw);
  }
  return id;
}

/**
 * The shop rule: any shop when none was asked for (`wanted` < 0), else that one.
 *
 * @example
 * shopMatches(101, -1); // true
 * shopMatches(101, 102); // false
 */
export function shopMatches(id: number, wanted: number): boolean {
  return wanted < 0 || id === wanted;
}

/**
 * Why a raw record's `row_key` is unusable for shop `shopId`, as the decoder would say it
 * (`not-an-object`, `missing-field`, `wrong-type`, `bad-row-key`, `shop-mismatch`), or
 * `undefined` when it is usable. The source calls it for each record before it pages on, so a
 * record is rejected through the same {@link InvalidRecord} channel, with the same reasons, as
 * one the decoder rejects — there is one invalid-record channel from the source to the decoder.
 *
 * @example
 * rowKeyInvalid({ row_key: "102:0000019a9ec06410" }, 101)?.reason; // "shop-mismatch"
 * rowKeyInvalid({ row_key: "101:0000019a9ec06410" }, 101);         // undefined
 */
export function rowKeyInvalid(raw: unknown, shopId: number): InvalidRecord | undefined {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    return invalid("not-an-object", "", `record: expected an object, got ${typeName(raw)}`, raw);
  }
  const id = checkRowKey(raw, (raw as Record<string, unknown>).row_key, shopId, scratch);
  return typeof id === "number" ? undefined : id;
}

/**
 * Why a raw record's fields other than `row_key` do not have the contract's JSON types, as the
 * decoder says it (`missing-field` for an absent or `null` field, `wrong-type`), checked in wire
 * order; `undefined` when they do: `device_id` and `square_mac` strings, `rssi` an integer,
 * `ts` a number or a decimal string (some servers quote 64-bit integers), `local` a boolean.
 * The decoder's type rule; the source applies it to each record (after {@link rowKeyInvalid})
 * so that what it delivers is a well-typed record and a badly typed one goes to `onInvalid`
 * instead of failing its page. Values (MAC syntax, rssi range, ts range) are the decoder's.
 *
 * @example
 * fieldsInvalid({ device_id: "f0:18:98:12:34:56", rssi: null })?.reason; // "missing-field"
 * fieldsInvalid({ device_id: "x", rssi: -61, square_mac: "y", ts: "1763600000016", local: true }); // undefined
 */
export function fieldsInvalid(raw: object): InvalidRecord | undefined {
  const r = raw as Record<string, unknown>;
  return typesInvalid(raw, r.device_id, r.rssi, r.square_mac, r.ts, r.local);
}

/**
 * {@link fieldsInvalid} on fields already read (the decoder reads each once).
 *
 * @example
 * typesInvalid({}, "f0:18:98:12:34:56", -61.5, "b8:27:eb:00:00:01", 1, true)?.reason; // "wrong-type"
 */
export function typesInvalid(raw: object, deviceId: unknown, rssi: unknown, squareMac: unknown, ts: unknown, local: unknown): InvalidRecord | undefined {
  if (typeof deviceId !== "string") {
    return deviceId == null ? missing("device_id", raw) : wrongType("device_id", "a string", deviceId, raw);
  }
  if (typeof rssi !== "number" || !Number.isInteger(rssi)) {
    return rssi == null ? missing("rssi", raw) : wrongType("rssi", "an integer", rssi, raw);
  }
  if (typeof squareMac !== "string") {
    return squareMac == null ? missing("square_mac", raw) : wrongType("square_mac", "a string", squareMac, raw);
  }
  if (typeof ts !== "number" && tsNumber(ts) === -1) {
    return ts == null ? missing("ts", raw) : wrongType("ts", "an integer or a decimal string", ts, raw);
  }
  if (typeof local !== "boolean") {
    return local == null ? missing("local", raw) : wrongType("local", "a boolean", local, raw);
  }
  return undefined;
}

