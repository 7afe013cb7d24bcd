/**
 * skipPlainFields checks the further fields of a signal record from its bytes. Its rule, written as
 * a regular expression on the bytes read as Latin-1 (one character per byte), is the oracle here:
 * `,"key":value` fields — the key a plain string that is not a service key, the value a plain
 * string, a JSON number, true, false or null — then `}`. Whatever it accepts must also be JSON.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { skipPlainFields } from "../../src/codec/skipPlainFields.ts";

const CHARS = String.raw`[^"\\\x00-\x1f]`;
const PLAIN = String.raw`(?:"${CHARS}*"|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)`;
const RULE = new RegExp(String.raw`^(?:,"(?!(?:row_key|device_id|rssi|square_mac|ts|local)")${CHARS}*":${PLAIN})*\}`);

function check(tail: string | Uint8Array): void {
  const bytes = typeof tail === "string" ? Buffer.from(tail, "utf8") : Buffer.from(tail);
  const end = skipPlainFields(new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength), 0, bytes.length);
  const m = RULE.exec(bytes.toString("latin1"));
  expect(end).toBe(m === null ? -1 : m[0].length);
  // What it accepts is the end of a JSON object (a record of the service's fields and these).
  if (end >= 0) expect(() => JSON.parse(`{"a":1${bytes.subarray(0, end).toString("utf8")}`)).not.toThrow();
}

const keyOf = fc.oneof(
  fc.constantFrom("shopId", "rts", "time", "device", "sensor", "randomized", "vendor", "", "x", "ts", "tsx", "rssi", "rssi2", "local", "locals", "row_key", "device_id", "square_mac", "square_macs", "abcdefghijklmnop"),
  fc.string({ unit: fc.constantFrom("a", "é", "\\", '"', "\t", " ", ":", "漢"), maxLength: 6 }),
);
const valueOf = fc.oneof(
  fc.constantFrom("null", "true", "false", "tru", "nul", "fals", "falsey", "0", "-0", "01", "1.5", "1.", ".5", "-", "1e3", "1E+3", "2e-7", "1e", "-1.25E-10", "[]", "{}", '{"a":1}', " 1", "1 "),
  fc.integer().map(String),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((x) => JSON.stringify(x)),
  fc.string({ unit: fc.constantFrom("a", "\u00e9", "\u4e2d", '"', "\\", "\t", " ", ":", ",", "}", "\u007f", "0"), maxLength: 20 }).map((v) => `"${v}"`),
);
const tail = fc.tuple(fc.array(fc.tuple(keyOf, valueOf), { maxLength: 12 }), fc.constantFrom("}", "}", "", " }", "},", "}\n")).map(([fields, end]) => `${fields.map(([k, v]) => `,"${k}":${v}`).join("")}${end}`);

describe("skipPlainFields", () => {
  it("accepts exactly its rule, for any further fields", () => {
    fc.assert(fc.property(tail, (t) => check(t)), { numRuns: 5000 });
  });

  // Up to 12 fields: more than its table of learned keys starts with (8), so it grows too.
  it("keeps to its rule when the keys repeat from record to record (the ones it learns) and then change", () => {
    fc.assert(
      fc.property(fc.array(tail, { minLength: 2, maxLength: 8 }), fc.nat(), (tails, k) => {
        for (const t of [...tails, tails[k % tails.length]!, ...tails]) check(t);
      }),
      { numRuns: 2000 },
    );
  });

  it("keeps to its rule on broken bytes", () => {
    const bytes = fc.tuple(tail, fc.nat(), fc.constantFrom<number[]>([0xe4, 0xb8], [0xff], [0x80], [0x00], [0x1f], [0x22], [0x5c], [0x0a])).map(([t, at, bad]) => {
      const b = [...Buffer.from(t, "utf8")];
      const i = at % (b.length + 1);
      return Uint8Array.from([...b.slice(0, i), ...bad, ...b.slice(i)]);
    });
    fc.assert(fc.property(bytes, (b) => check(b)), { numRuns: 3000 });
  });

  it("reads nothing at or after its limit", () => {
    const text = ',"shopId":101,"vendor":"Apple, Inc."}';
    const bytes = Buffer.from(`${text}}}}`);
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    for (let limit = 0; limit < text.length; limit++) expect(skipPlainFields(view, 0, limit)).toBe(-1);
    expect(skipPlainFields(view, 0, text.length)).toBe(text.length);
  });
});
