import type { InvalidRecord, SignalFields } from "./decodeSignal.ts";
import { HEX_LOWER } from "./hexDigit.ts";
import { RTS_UPPERCASE, rtsValueAt, rtsValueOfBytes } from "./rts.ts";

/**
 * A reader specialised for one NDJSON line of a signal record. `JSON.parse` builds a generic
 * object tree for every line (13 properties for a `footfall signals backfill` line, a string or
 * number for each) although the decoder reads six of them; on a big shop-day that was most of
 * `footfall analyze --input`'s time (issue 13). This reader recognises the common shape in one
 * pass, keeps only the service's six fields, and hands anything else to `JSON.parse`, so the
 * result is always what `JSON.parse` would have given for those fields.
 *
 * Why one regular expression and not a `charCodeAt` loop: both were measured on the same 200 k
 * backfill lines (Node 20, V8). A `charCodeAt` scanner that checks every character, as it must
 * (a control character anywhere in a string makes the line invalid JSON), ran at 0.3–0.8× the
 * speed of `JSON.parse`: V8's JSON scanner is native code, and a JavaScript loop over 300
 * characters with a bounds-checked load each cannot keep up with it. The pattern below compiles
 * to native code too (irregexp) and ran at 1.5–2× `JSON.parse`'s speed, captures included.
 */

/** A string body without escapes or raw control characters: JSON.parse's call otherwise. */
const CHARS = String.raw`[^"\\\x00-\x1f]`;
/** A string value, captured. */
const STRING = `"(${CHARS}*)"`;
/**
 * An integer without fraction or exponent (those, and leading zeros, go to JSON.parse: the
 * pattern expects `,` right after the digits). The digits become a number with `Number`, which
 * rounds a decimal string exactly as `JSON.parse` does: both are the engine's one
 * string-to-double conversion.
 */
const INTEGER_TEXT = String.raw`-?(?:0|[1-9]\d*)`;
const INTEGER = `(${INTEGER_TEXT})`;
/** A string value, only checked. */
const PLAIN_STRING = `"${CHARS}*"`;
/** Any plain JSON value after the six fields: only checked, not captured. */
const PLAIN = String.raw`(?:${PLAIN_STRING}|${INTEGER_TEXT}(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)`;
/**
 * Further fields (those `footfall signals backfill` adds, or any others) with plain values, whose
 * keys are not service fields: a repeated key overrides the first, and JSON.parse knows which
 * wins. Then the end of the object and of the line.
 */
const REST = String.raw`(?:,"(?!(?:row_key|device_id|rssi|square_mac|ts|local)")${CHARS}*":${PLAIN})*\}$`;
/** The six service fields first, in the service's order, without whitespace. */
const COMMON_SHAPE = new RegExp(
  String.raw`^\{"row_key":${STRING},"device_id":${STRING},"rssi":${INTEGER},"square_mac":${STRING},"ts":${INTEGER},"local":(true|false)${REST}`,
);

/**
 * Device and sensor MACs as strings of their own, by their text. A capture longer than 12
 * characters is a view into the line (and so into the ~1 MiB chunk the line is a view of), and
 * MACs outlive the line as the engine's per-device keys, so each is swapped for a copy made the
 * first time that MAC was seen: no allocation per line, the chunks can go, and equal MACs become
 * one string (cheaper map lookups downstream; measured no slower than keeping the views). Emptied
 * when it reaches INTERN_LIMIT entries, so a stream of ever-new randomised MACs cannot grow it
 * without bound.
 */
const interned = new Map<string, string>();
const INTERN_LIMIT = 1 << 17;

function intern(text: string): string {
  const known = interned.get(text);
  if (known !== undefined) return known;
  if (interned.size >= INTERN_LIMIT) interned.clear();
  // Pieces shorter than 13 characters are copies, so their concatenation refers to no line.
  const copy = text.slice(0, 12) + text.slice(12);
  interned.set(copy, copy);
  return copy;
}

/**
 * Parses one NDJSON line of a signal record — the service's raw record
 * (`row_key, device_id, rssi, square_mac, ts, local`, in that order) or a line of
 * `footfall signals backfill` (those six, then the decoded fields it adds) — into what the
 * decoder reads. For every input the six fields of the result are exactly what `JSON.parse`
 * would give (same values, same types, so the decoder accepts and rejects the same records for
 * the same reasons), and a line that is not JSON throws the `SyntaxError` `JSON.parse` throws.
 *
 * The common shape — the six keys first and in order, no whitespace, no escapes, strings for
 * the MACs and `row_key`, integers without fraction or exponent for `rssi` and `ts`, a boolean
 * `local`, further keys with plain values — is read in one native pass into a six-field object,
 * without building the other fields. Anything else (escapes, whitespace, another key order, a
 * missing field, a repeated service key, another type, a number with a fraction or exponent,
 * nested values …) goes to `JSON.parse`, whose result is returned as is. Differences the
 * decoder cannot see: on the fast path the result holds only the six service fields (so an
 * invalid record's `record` shows those), equal MACs are the same string, and `row_key` may
 * share memory with `line`.
 *
 * @example
 * const line = '{"row_key":"101:0000019a9ec06410","device_id":"f0:18:98:12:34:56","rssi":-61,' +
 *   '"square_mac":"b8:27:eb:00:00:01","ts":1763600000016,"local":false,"shopId":101}';
 * (parseSignalLine(line) as { rssi: number }).rssi;                     // -61
 * Object.keys(parseSignalLine(line) as object).length;                  // 6
 * (parseSignalLine('{"rssi":-61, "ts":1}') as { ts: number }).ts;        // 1 (via JSON.parse)
 * let name = ""; try { parseSignalLine("{oops"); } catch (e) { name = (e as Error).name; }
 * name;                                                                 // "SyntaxError"
 */
export function parseSignalLine(line: string): unknown {
  const m = COMMON_SHAPE.exec(line);
  if (m === null) return JSON.parse(line);
  // One literal, fields always in this order: every result shares one hidden class.
  // row_key stays a view of the line (copying it would cost more than parsing): the decoder
  // keeps only its RTS, in the signal, which the engine holds only while reordering (if a kernel
  // ever keeps signals longer, it should copy what it keeps).
  return {
    row_key: m[1],
    device_id: intern(m[2]!),
    rssi: Number(m[3]),
    square_mac: intern(m[4]!),
    ts: Number(m[5]),
    local: m[6] === "true",
  };
}

/**
 * The records a parsed NDJSON line holds when it holds more than one: a page body as the service
 * answers it (`{"signals":[…],"since":…}` — an object without `row_key` whose `signals` is an
 * array, or `null` for none), as saved from the API by hand, or a JSON array of records. Returns
 * `undefined` for any other value: one record, valid or not, which the decoder judges.
 *
 * @example
 * recordsOfLine({ signals: [{ row_key: "101:0000019a9ec06410" }], since: "0000019a9ec06410" })?.length; // 1
 * recordsOfLine([1, 2])?.length;                      // 2
 * recordsOfLine({ row_key: "101:0000019a9ec06410" }); // undefined (a record)
 */
export function recordsOfLine(value: unknown): readonly unknown[] | undefined {
  if (Array.isArray(value)) return value;
  if (typeof value !== "object" || value === null || "row_key" in value || !("signals" in value)) return undefined;
  const signals = (value as { signals: unknown }).signals;
  return Array.isArray(signals) ? signals : signals === null ? [] : undefined;
}

/**
 * The rejection of an NDJSON line that is not JSON, as every reader of signal lines reports it
 * (through `SignalDecoder.reject`, the one invalid-record channel): reason `not-json`, the line
 * itself as the record.
 *
 * @example
 * notJson("{oops").reason; // "not-json"
 */
export function notJson(line: string): InvalidRecord {
  return { reason: "not-json", field: "", message: "not JSON", record: line };
}

/**
 * What follows `"local":true` or `"local":false` on a line of the common shape: further fields
 * with plain values (the {@link COMMON_SHAPE} rule for them, as a sticky pattern run in place),
 * then `}`. The caller checks that the match ends where the line does (the pattern has no `$`,
 * so that it can run inside a larger text).
 */
const REST_AT = new RegExp(REST.slice(0, -1), "y");

/**
 * The further fields exactly as `footfall signals backfill` writes them (`ndjsonLine` in
 * cli/signals.ts: shopId, rts, time, device, sensor, randomized, vendor, in that order), then
 * `}`: a special case of {@link REST_AT} — literal keys that are not service keys, plain values —
 * tried first because footfall's own exports are the inputs it reads most. Literal keys spare
 * the look-ahead per field: 0.65× REST_AT's time on the big shop-day's lines (bench row 8). A
 * line it does not match still gets REST_AT, so it decides nothing the general rule would not.
 */
const BACKFILL_REST_AT = new RegExp(
  String.raw`,"shopId":${INTEGER_TEXT},"rts":${PLAIN_STRING},"time":${INTEGER_TEXT},"device":${PLAIN_STRING},"sensor":${PLAIN_STRING},"randomized":(?:true|false),"vendor":(?:null|${PLAIN_STRING})\}`,
  "y",
);

const QUOTE = 34;
const COLON = 58;
const COMMA = 44;
const MINUS = 45;
const CLOSE = 125;
const ZERO = 48;
/** The bytes of ASCII `text` (compared byte by byte: a typed array's loads are what V8 does fastest). */
function ascii(text: string): Uint8Array {
  return Uint8Array.from(text, (c) => c.charCodeAt(0));
}
const ROW_KEY_OPEN = ascii('{"row_key":"');
const DEVICE_OPEN = ascii('","device_id":"');
const RSSI_OPEN = ascii('","rssi":');
const SENSOR_OPEN = ascii(',"square_mac":"');
const TS_OPEN = ascii('","ts":');
const LOCAL_OPEN = ascii(',"local":');
const TRUE = ascii("true");
const FALSE = ascii("false");
/** A MAC in normal form: `aa:bb:cc:dd:ee:ff`. */
const MAC_LENGTH = 17;
/** Digits of an integer read here (more go to the general path): below 2^53, so exact. */
const MAX_DIGITS = 15;

/**
 * Normal-form MACs as strings, by their 48-bit value: an open-addressing table (two 24-bit
 * halves in typed arrays), so a MAC already seen costs no string, no hashing of text and no
 * boxed number. A MAC's string is made once, as a copy (never a view into a line). Emptied when
 * it holds MAC_TABLE_LIMIT MACs, so ever-new randomised MACs cannot grow it without bound.
 */
const MAC_TABLE_BITS = 18;
const MAC_TABLE_SIZE = 1 << MAC_TABLE_BITS;
const MAC_TABLE_LIMIT = MAC_TABLE_SIZE >> 1;
const macHigh = new Int32Array(MAC_TABLE_SIZE);
const macLow = new Int32Array(MAC_TABLE_SIZE);
const macText: (string | undefined)[] = new Array<string | undefined>(MAC_TABLE_SIZE).fill(undefined);
let macCount = 0;

/** Value of the two lowercase hex digits at `i`, or negative. */
function octetAt(bytes: Uint8Array, i: number): number {
  return (HEX_LOWER[bytes[i]!]! << 4) | HEX_LOWER[bytes[i + 1]!]!;
}

/**
 * The MAC in normal form at byte `i`, as its one interned string (copied from `text`, the bytes
 * read as Latin-1), or `undefined` when the bytes there are not a normal-form MAC followed by `"`.
 */
function macAt(bytes: Uint8Array, text: string, i: number): string | undefined {
  if (
    bytes[i + 2] !== COLON ||
    bytes[i + 5] !== COLON ||
    bytes[i + 8] !== COLON ||
    bytes[i + 11] !== COLON ||
    bytes[i + 14] !== COLON ||
    bytes[i + MAC_LENGTH] !== QUOTE
  ) {
    return undefined;
  }
  // A non-digit is −1, every bit set: one sign test per half instead of one per digit.
  const high = (octetAt(bytes, i) << 16) | (octetAt(bytes, i + 3) << 8) | octetAt(bytes, i + 6);
  const low = (octetAt(bytes, i + 9) << 16) | (octetAt(bytes, i + 12) << 8) | octetAt(bytes, i + 15);
  if ((high | low) < 0) return undefined;
  let slot = Math.imul(high ^ Math.imul(low, 0x9e3779b1), 0x85ebca6b) >>> (32 - MAC_TABLE_BITS);
  for (;;) {
    const known = macText[slot];
    if (known === undefined) break;
    if (macHigh[slot] === high && macLow[slot] === low) return known;
    slot = (slot + 1) & (MAC_TABLE_SIZE - 1);
  }
  if (macCount >= MAC_TABLE_LIMIT) {
    macText.fill(undefined);
    macCount = 0;
  }
  // Pieces shorter than 13 characters are copies, so their concatenation refers to no chunk.
  const copy = text.slice(i, i + 12) + text.slice(i + 12, i + MAC_LENGTH);
  macHigh[slot] = high;
  macLow[slot] = low;
  macText[slot] = copy;
  macCount++;
  return copy;
}

/** True when `bytes` hold `word` at `i`. */
function hasAt(bytes: Uint8Array, i: number, word: Uint8Array): boolean {
  for (let k = 0; k < word.length; k++) if (bytes[i + k] !== word[k]) return false;
  return true;
}

/** Receives the end of the integer {@link integerAt} read (calls are synchronous). */
const cursor = { at: 0 };

/**
 * The JSON integer at byte `i` (optional `-`, no leading zero, at most MAX_DIGITS digits), its
 * end in `cursor.at`; NaN when there is none of that form.
 */
function integerAt(bytes: Uint8Array, i: number, end: number): number {
  const negative = bytes[i] === MINUS;
  if (negative) i++;
  const first = i;
  let value = 0;
  for (; i < end; i++) {
    const d = bytes[i]! - ZERO;
    if (d < 0 || d > 9) break;
    value = value * 10 + d;
  }
  const digits = i - first;
  if (digits === 0 || digits > MAX_DIGITS || (digits > 1 && bytes[first] === ZERO)) return Number.NaN;
  cursor.at = i;
  // `-0` stays −0, as JSON.parse reads it.
  return negative ? -value : value;
}

/**
 * Reads one line of the service's record shape straight from its bytes into `out`, without
 * building strings or objects for its fields, for `SignalDecoder.decodeFields`. Recognises the
 * common shape of {@link parseSignalLine} (the six service fields first, in order, further plain
 * fields after) with the decoder's syntax already right: `row_key` as `<digits>:<16 hex digits>`
 * (either case; the RTS is given in lowercase), both MACs in normal form (`aa:bb:cc:dd:ee:ff`),
 * `rssi` and a non-negative `ts` as integers of at most 15 digits. Returns false for any other line, which the caller then decodes
 * as UTF-8 and reads with {@link parseSignalLine} and `SignalDecoder.decode` (so no record is
 * accepted or rejected differently: this reader only recognises, the decoder decides).
 *
 * The line is `bytes[start, end)` (UTF-8, without its line end); `text` is the same bytes read
 * as Latin-1 (one character per byte, same positions), which the check of the further fields
 * and `rts` (a slice of it) use. Only ASCII is compared, and every other byte is treated alike,
 * so a multi-byte character, valid or not, is accepted exactly where JSON.parse of the decoded
 * text accepts it: inside a string. The MACs become one interned copy each.
 *
 * @example
 * const line = '{"row_key":"101:0000019a9ec06410","device_id":"f0:18:98:12:34:56","rssi":-61,' +
 *   '"square_mac":"b8:27:eb:00:00:01","ts":1763600000016,"local":false,"shopId":101}';
 * const out = {} as SignalFields;
 * scanSignalLine(new TextEncoder().encode(line), line, 0, line.length, out); // true
 * [out.shopId, out.rssi, out.device];         // [101, -61, "f0:18:98:12:34:56"]
 * const upper = line.replace("f0:18", "F0:18");
 * scanSignalLine(new TextEncoder().encode(upper), upper, 0, upper.length, out); // false (not normal form)
 */
export function scanSignalLine(bytes: Uint8Array, text: string, start: number, end: number, out: SignalFields): boolean {
  if (!hasAt(bytes, start, ROW_KEY_OPEN)) return false;
  let i = start + ROW_KEY_OPEN.length;
  // The SHOP ID: digits up to the colon (leading zeros and all, as the row_key rule reads it).
  let shopId = 0;
  const digitsFrom = i;
  for (; i < end; i++) {
    const d = bytes[i]! - ZERO;
    if (d < 0 || d > 9) break;
    shopId = shopId * 10 + d;
  }
  if (i === digitsFrom || i - digitsFrom > MAX_DIGITS || bytes[i] !== COLON) return false;
  const rtsAt = i + 1;
  if (end - rtsAt < 16) return false;
  let rtsValue = rtsValueOfBytes(bytes, rtsAt);
  // An RTS in uppercase (a service writing %016X, as `footfall signals` keeps it): read in footfall's spelling.
  let rts: string | undefined;
  if (rtsValue === RTS_UPPERCASE) {
    rts = text.slice(rtsAt, rtsAt + 16).toLowerCase();
    rtsValue = rtsValueAt(rts, 0);
  }
  i = rtsAt + 16;
  if (rtsValue < 0 || !hasAt(bytes, i, DEVICE_OPEN)) return false;
  i += DEVICE_OPEN.length;
  const device = macAt(bytes, text, i);
  if (device === undefined) return false;
  i += MAC_LENGTH;
  if (!hasAt(bytes, i, RSSI_OPEN)) return false;
  const rssi = integerAt(bytes, i + RSSI_OPEN.length, end);
  if (Number.isNaN(rssi)) return false;
  i = cursor.at;
  if (!hasAt(bytes, i, SENSOR_OPEN)) return false;
  i += SENSOR_OPEN.length;
  const sensor = macAt(bytes, text, i);
  if (sensor === undefined) return false;
  i += MAC_LENGTH;
  if (!hasAt(bytes, i, TS_OPEN) || bytes[i + TS_OPEN.length] === MINUS) return false;
  const ts = integerAt(bytes, i + TS_OPEN.length, end);
  if (Number.isNaN(ts)) return false;
  i = cursor.at;
  if (!hasAt(bytes, i, LOCAL_OPEN)) return false;
  i += LOCAL_OPEN.length;
  let local: boolean;
  if (hasAt(bytes, i, TRUE)) {
    local = true;
    i += 4;
  } else if (hasAt(bytes, i, FALSE)) {
    local = false;
    i += 5;
  } else {
    return false;
  }
  const next = bytes[i];
  if (next === COMMA) {
    BACKFILL_REST_AT.lastIndex = i;
    if (!BACKFILL_REST_AT.test(text) || BACKFILL_REST_AT.lastIndex !== end) {
      REST_AT.lastIndex = i;
      if (!REST_AT.test(text) || REST_AT.lastIndex !== end) return false;
    }
  } else if (next !== CLOSE || i + 1 !== end) {
    return false;
  }
  out.shopId = shopId;
  out.rts = rts ?? text.slice(rtsAt, rtsAt + 16);
  out.rtsValue = rtsValue;
  out.device = device;
  out.rssi = rssi;
  out.sensor = sensor;
  out.ts = ts;
  out.local = local;
  return true;
}
