import type { InvalidRecord } from "./decodeSignal.ts";

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
const INTEGER = String.raw`(-?(?:0|[1-9]\d*))`;
/** Any plain JSON value after the six fields: only checked, not captured. */
const PLAIN = String.raw`(?:"${CHARS}*"|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)`;
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
