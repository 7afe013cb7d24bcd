import type { InvalidRecord } from "./decodeSignal.ts";

/**
 * Parses one NDJSON line of signal records the general way: `JSON.parse`, the one path every
 * line that the byte reader (`SignalRecordReader`, through `SignalLineReader`) does not take is
 * read by — escapes, whitespace, another key order, numbers in other forms, page bodies … — so
 * a line means what JSON says it means. Throws `JSON.parse`'s `SyntaxError` for a line that is
 * not JSON (readers report it with `notJson`). Kept for code that reads lines as text;
 * the byte reader is the fast path, and it never contradicts this one (its tests compare them).
 *
 * @example
 * const line = '{"row_key":"101:0000019a9ec06410","device_id":"f0:18:98:12:34:56","rssi":-61,' +
 *   '"square_mac":"b8:27:eb:00:00:01","ts":1763600000016,"local":false,"shopId":101}';
 * (parseSignalLine(line) as { rssi: number }).rssi;                     // -61
 * Object.keys(parseSignalLine(line) as object).length;                  // 7
 * let name = ""; try { parseSignalLine("{oops"); } catch (e) { name = (e as Error).name; }
 * name;                                                                 // "SyntaxError"
 */
export function parseSignalLine(line: string): unknown {
  return JSON.parse(line);
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
