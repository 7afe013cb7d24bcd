/**
 * macOfBytes reads a MAC in one pass — checks it, normalises it, interns it — and must accept
 * exactly what the decoder's `toNormalMac` accepts, with its normal form, for any string body.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { toNormalMac } from "../../src/codec/mac.ts";
import { macOfBytes, type MacCursor } from "../../src/codec/macOfBytes.ts";

/** macOfBytes on the JSON string body `text` followed by `after`. */
function read(text: string, after = '","rssi":-61'): { mac: string | undefined; end: number } {
  const bytes = Buffer.from(`"${text}${after}`, "utf8");
  const cursor: MacCursor = { end: -1 };
  const mac = macOfBytes(new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength), 1, bytes.length, cursor);
  return { mac, end: cursor.end };
}

const hexDigit = fc.constantFrom(..."0123456789abcdefABCDEF");
const near = fc.oneof(hexDigit, fc.constantFrom(":", "-", ".", "g", "G", " ", "é", "\u0000", "/", "@", "`", "F", "0"));
/** Strings shaped like MACs in every layout, with a character swapped now and then. */
const macLike = fc
  .tuple(fc.array(hexDigit, { minLength: 12, maxLength: 12 }), fc.constantFrom("colon", "dash", "dot", "bare", "mixed"), fc.array(fc.tuple(fc.nat(), near), { maxLength: 2 }))
  .map(([d, layout, edits]) => {
    const o = [0, 2, 4, 6, 8, 10].map((k) => d[k]! + d[k + 1]!);
    let text =
      layout === "colon" ? o.join(":") : layout === "dash" ? o.join("-") : layout === "dot" ? `${o[0]}${o[1]}.${o[2]}${o[3]}.${o[4]}${o[5]}` : layout === "bare" ? o.join("") : `${o.slice(0, 3).join(":")}-${o.slice(3).join(":")}`;
    for (const [at, c] of edits) {
      const i = at % text.length;
      text = text.slice(0, i) + c + text.slice(i + 1);
    }
    return text;
  });
const body = fc.oneof({ weight: 4, arbitrary: macLike }, fc.string({ unit: near, maxLength: 20 }), fc.string({ maxLength: 20 }).filter((s) => !s.includes('"') && !s.includes("\\")));

describe("macOfBytes", () => {
  it("accepts what toNormalMac accepts, as its normal form, and nothing else", () => {
    fc.assert(
      fc.property(body, fc.constantFrom('","rssi":-61', '"', '","ts":1', ""), (text, after) => {
        const { mac, end } = read(text, after);
        // Only a body followed by its closing quote can be a MAC here.
        const expected = after.startsWith('"') ? toNormalMac(text) : undefined;
        expect(mac).toBe(expected);
        if (mac !== undefined) expect(end).toBe(1 + Buffer.byteLength(text) + 1);
      }),
      { numRuns: 5000 },
    );
  });

  it("gives every spelling of one MAC the same string, made once", () => {
    const spellings = ["f0:18:98:12:34:56", "F0:18:98:12:34:56", "f0-18-98-12-34-56", "f018.9812.3456", "F01898123456"];
    const got = spellings.map((s) => read(s).mac);
    for (const mac of got) expect(mac).toBe("f0:18:98:12:34:56");
    expect(new Set(got).size).toBe(1);
    // A string of its own (a flat copy), not the caller's text.
    expect(read("b8:27:eb:00:00:01").mac).toBe(read("B8-27-EB-00-00-01").mac);
  });

  it("reads nothing at or after its limit", () => {
    const bytes = Buffer.from('"f0:18:98:12:34:56","x"');
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    for (let limit = 1; limit <= 18; limit++) expect(macOfBytes(view, 1, limit, { end: 0 })).toBeUndefined();
    expect(macOfBytes(view, 1, 19, { end: 0 })).toBe("f0:18:98:12:34:56");
  });

  it("stays bounded and right when ever-new MACs fill its table", () => {
    // More MACs than the table holds (it empties itself at 131 072): every one still read right,
    // and a MAC seen before the table emptied is read right after. One buffer, rewritten in place.
    const bytes = Buffer.from('"000000000000"');
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const cursor: MacCursor = { end: 0 };
    const seen = new Map<string, string>();
    let wrong = 0;
    for (let i = 0; i < 300_000; i++) {
      const text = (0x020000000000 + i * 7919).toString(16).padStart(12, "0");
      bytes.write(text, 1, "latin1");
      const mac = macOfBytes(view, 1, bytes.length, cursor);
      if (mac !== toNormalMac(text)) wrong++;
      if (i % 1000 === 0) seen.set(text, mac!);
    }
    expect(wrong).toBe(0);
    for (const [text, mac] of seen) expect(read(text).mac).toBe(mac);
  });
});
