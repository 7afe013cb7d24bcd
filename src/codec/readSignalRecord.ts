import { byteLiteral, literalAt } from "./byteWords.ts";
import type { SignalFields } from "./SignalDecoderCore.ts";
import { macOfBytes, type MacCursor } from "./macOfBytes.ts";
import { RTS_UPPERCASE, rtsValueAt, rtsValueOfBytes } from "./rts.ts";
import { skipPlainFields } from "./skipPlainFields.ts";

const COLON = 58;
const COMMA = 44;
const MINUS = 45;
const CLOSE = 125;
const ZERO = 48;

const ROW_KEY_OPEN = byteLiteral('{"row_key":"');
const DEVICE_OPEN = byteLiteral('","device_id":"');
const RSSI_OPEN = byteLiteral(',"rssi":');
const SENSOR_OPEN = byteLiteral(',"square_mac":"');
const TS_OPEN = byteLiteral(',"ts":');
const LOCAL_OPEN = byteLiteral(',"local":');
const TRUE = byteLiteral("true");
const FALSE = byteLiteral("false");

/** Digits of a SHOP ID read here (more go to the general path): below 2^53, so exact. */
const MAX_SHOP_DIGITS = 15;
/** Hex digits of an RTS. */
const RTS_LENGTH = 16;

/** Receives the end of what {@link integerAt} and `macOfBytes` read (calls are synchronous). */
const cursor: MacCursor = { end: 0 };

/**
 * The JSON integer at byte `i` (optional `-`, no leading zero, no fraction or exponent) when it is
 * a safe integer (|n| ≤ 2^53 − 1, so the digits' value is exact, as `JSON.parse` reads it), its end
 * in `cursor.end`; NaN for anything else. Four digits a step while four are there (a `ts` has 13).
 */
function integerAt(view: DataView, i: number, limit: number): number {
  const negative = i < limit && view.getUint8(i) === MINUS;
  if (negative) i++;
  const first = i;
  let value = 0;
  for (; i + 4 <= limit; i += 4) {
    const w = view.getInt32(i, true);
    const d = w - 0x30303030;
    // A lane's high bit is set in d when its byte is below "0" (or from 0xb0), in w + 0x46464646
    // when it is above "9": exact for whether all four are digits (a borrow or carry only crosses
    // from a lane that is flagged itself).
    if (((d | (w + 0x46464646)) & 0x80808080) !== 0) break;
    // The four digit values (first in the low lane) as a number: pairs, then the two pairs.
    const pairs = (Math.imul(d, 10) + (d >>> 8)) & 0x00ff00ff;
    value = value * 10000 + (pairs & 0xff) * 100 + (pairs >>> 16);
  }
  for (; i < limit; i++) {
    const d = view.getUint8(i) - ZERO;
    if (d >>> 0 > 9) break;
    value = value * 10 + d;
  }
  // Every partial value of a safe integer is safe, so exact; above, rounding cannot bring it back.
  if (i === first || value > Number.MAX_SAFE_INTEGER || (i - first > 1 && view.getUint8(first) === ZERO)) return Number.NaN;
  cursor.end = i;
  // `-0` stays −0, as JSON.parse reads it.
  return negative ? -value : value;
}

/**
 * A `DataView` of the bytes being read, made when they change (once per chunk): words are loaded
 * through it (`byteWords`), the RTS through the bytes (`rtsValueOfBytes`, the codec's rule).
 */
let viewBytes: Uint8Array | undefined;
let view: DataView = new DataView(new ArrayBuffer(0));

/**
 * Reads one signal record of the service's usual shape straight from its bytes into `out`, for
 * `SignalDecoder.decodeFields`, without building a string or object for the line or its fields
 * (only the RTS becomes a string, and each MAC once per MAC). This is footfall's one fast path for
 * signal records; a record of any other form is read by `JSON.parse` and `SignalDecoder.decode`,
 * the one general path, which this reader never contradicts: it only recognises, the decoder decides.
 *
 * The usual shape: `{"row_key":"<shop digits>:<16 hex digits>","device_id":"<MAC>","rssi":<int>,
 * "square_mac":"<MAC>","ts":<int ≥ 0>,"local":<true|false>` — the six service fields first, in the
 * interface's order, without whitespace — then any further fields with plain values
 * (`skipPlainFields`: those `footfall signals backfill` adds, or others) and `}`. Within it, what
 * the decoder's syntax checks accept in the same form: a SHOP ID of at most 15 digits (leading
 * zeros and all, as the row_key rule reads it), an RTS of either case (given in lowercase, as the
 * decoder does), MACs in every layout `toNormalMac` accepts, read, checked, normalised and interned
 * in one pass (`macOfBytes`), integers that are safe (exact) for `rssi` and `ts`. Returns the index
 * after the record's `}` (the caller checks that the line ends there), or −1 for anything else:
 * escapes, whitespace, another key order, a missing, repeated or differently typed field, a
 * number with a fraction or exponent, a leading zero, a negative `ts`, a MAC or RTS in no accepted
 * form, nested values … or a record cut short by `limit`. Reads no byte at or after `limit`
 * (≤ `bytes.length`).
 *
 * Only ASCII is compared, and every other byte is treated alike, so a multi-byte character, valid
 * UTF-8 or not, is accepted exactly where `JSON.parse` of the decoded text accepts it: inside a
 * string of a further field.
 *
 * @example
 * const line = '{"row_key":"101:0000019A9EC06410","device_id":"F0-18-98-12-34-56","rssi":-61,' +
 *   '"square_mac":"b8:27:eb:00:00:01","ts":1763600000016,"local":false,"shopId":101}';
 * const bytes = new TextEncoder().encode(line);
 * const out = {} as SignalFields;
 * readSignalRecord(bytes, 0, bytes.length, out) === line.length;       // true
 * [out.shopId, out.rts, out.device, out.rssi];   // [101, "0000019a9ec06410", "f0:18:98:12:34:56", -61]
 * const spaced = new TextEncoder().encode(line.replace('"rssi":-61', '"rssi": -61'));
 * readSignalRecord(spaced, 0, spaced.length, out);                      // -1 (JSON.parse's)
 */
export function readSignalRecord(bytes: Uint8Array, start: number, limit: number, out: SignalFields): number {
  if (bytes !== viewBytes) {
    viewBytes = bytes;
    view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }
  if (!literalAt(view, start, limit, ROW_KEY_OPEN)) return -1;
  let i = start + ROW_KEY_OPEN.length;
  // The SHOP ID: digits up to the colon.
  let shopId = 0;
  const digitsFrom = i;
  for (; i < limit; i++) {
    const d = view.getUint8(i) - ZERO;
    if (d >>> 0 > 9) break;
    shopId = shopId * 10 + d;
  }
  if (i === digitsFrom || i - digitsFrom > MAX_SHOP_DIGITS || i >= limit || view.getUint8(i) !== COLON) return -1;
  // The RTS: 16 hex digits of either case, by the codec's rule (`rtsValueOfBytes`).
  const rtsAt = i + 1;
  if (rtsAt + RTS_LENGTH > limit) return -1;
  const rtsValue = rtsValueOfBytes(bytes, rtsAt);
  if (rtsValue === -1) return -1;
  i = rtsAt + RTS_LENGTH;
  if (!literalAt(view, i, limit, DEVICE_OPEN)) return -1;
  const device = macOfBytes(view, i + DEVICE_OPEN.length, limit, cursor);
  if (device === undefined) return -1;
  i = cursor.end;
  if (!literalAt(view, i, limit, RSSI_OPEN)) return -1;
  const rssi = integerAt(view, i + RSSI_OPEN.length, limit);
  if (rssi !== rssi) return -1;
  i = cursor.end;
  if (!literalAt(view, i, limit, SENSOR_OPEN)) return -1;
  const sensor = macOfBytes(view, i + SENSOR_OPEN.length, limit, cursor);
  if (sensor === undefined) return -1;
  i = cursor.end;
  if (!literalAt(view, i, limit, TS_OPEN)) return -1;
  i += TS_OPEN.length;
  // A negative ts is the decoder's to reject (bad-ts), with the record it echoes.
  if (i < limit && view.getUint8(i) === MINUS) return -1;
  const ts = integerAt(view, i, limit);
  if (ts !== ts) return -1;
  i = cursor.end;
  if (!literalAt(view, i, limit, LOCAL_OPEN)) return -1;
  i += LOCAL_OPEN.length;
  let local: boolean;
  if (literalAt(view, i, limit, TRUE)) {
    local = true;
    i += TRUE.length;
  } else if (literalAt(view, i, limit, FALSE)) {
    local = false;
    i += FALSE.length;
  } else {
    return -1;
  }
  let end: number;
  if (i < limit && view.getUint8(i) === CLOSE) end = i + 1;
  else if (i < limit && view.getUint8(i) === COMMA) end = skipPlainFields(view, i, limit);
  else return -1;
  if (end < 0) return -1;
  out.shopId = shopId;
  const rts = rtsText(view, rtsAt);
  out.rts = rts;
  // An RTS in uppercase (a service writing %016X) is read in footfall's spelling, as the decoder does.
  out.rtsValue = rtsValue === RTS_UPPERCASE ? rtsValueAt(rts, 0) : rtsValue;
  out.device = device;
  out.rssi = rssi;
  out.sensor = sensor;
  out.ts = ts;
  out.local = local;
  return end;
}

/**
 * The 16 hex digits at `at` as a lowercase string (footfall's one spelling of an RTS): one flat
 * string of its own, never a view into the chunk (a signal can outlive its chunk in the engine's
 * reorder buffer, and a view would keep the whole chunk alive). `| 0x20` lowercases a hex letter
 * and leaves a digit as it is.
 */
function rtsText(view: DataView, at: number): string {
  const a = view.getInt32(at, true) | 0x20202020;
  const b = view.getInt32(at + 4, true) | 0x20202020;
  const c = view.getInt32(at + 8, true) | 0x20202020;
  const d = view.getInt32(at + 12, true) | 0x20202020;
  return String.fromCharCode(
    a & 0xff, (a >>> 8) & 0xff, (a >>> 16) & 0xff, a >>> 24,
    b & 0xff, (b >>> 8) & 0xff, (b >>> 16) & 0xff, b >>> 24,
    c & 0xff, (c >>> 8) & 0xff, (c >>> 16) & 0xff, c >>> 24,
    d & 0xff, (d >>> 8) & 0xff, (d >>> 16) & 0xff, d >>> 24,
  );
}
