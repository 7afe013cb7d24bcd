/**
 * The word-at-a-time readers of the byte reader must say what a loop over single bytes says, at
 * every alignment and near every limit.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { byteLiteral, digitsEnd, literalAt, plainStringEnd } from "../../src/codec/byteWords.ts";

const view = (bytes: Uint8Array): DataView => new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
const byte = fc.oneof(fc.integer({ min: 0, max: 255 }), fc.constantFrom(0x22, 0x5c, 0x20, 0x1f, 0x30, 0x39, 0x3a, 0x2f, 0x61, 0x7f, 0x80, 0xb0, 0xb9, 0xba, 0xff));
const input = fc.tuple(fc.uint8Array({ maxLength: 40 }), fc.array(byte, { maxLength: 40 }), fc.nat(), fc.nat()).map(([a, b, s, l]) => {
  const bytes = Uint8Array.from([...a, ...b]);
  const start = bytes.length === 0 ? 0 : s % (bytes.length + 1);
  const limit = start + (l % (bytes.length - start + 1));
  return { bytes, start, limit };
});

describe("plainStringEnd", () => {
  it("finds the closing quote, or −1 at an escape, a control character or the limit, as a byte loop does", () => {
    fc.assert(
      fc.property(input, ({ bytes, start, limit }) => {
        let expected = -1;
        for (let i = start; i < limit; i++) {
          if (bytes[i] === 0x22) {
            expected = i;
            break;
          }
          if (bytes[i]! < 0x20 || bytes[i] === 0x5c) break;
        }
        expect(plainStringEnd(view(bytes), start, limit)).toBe(expected);
      }),
      { numRuns: 10000 },
    );
  });
});

describe("digitsEnd", () => {
  it("finds the end of a run of digits, as a byte loop does", () => {
    const digitsFirst = fc.tuple(fc.array(fc.integer({ min: 0x30, max: 0x39 }), { maxLength: 20 }), input).map(([d, x]) => ({ ...x, bytes: Uint8Array.from([...x.bytes.subarray(0, x.start), ...d, ...x.bytes.subarray(x.start)]), limit: x.limit + d.length }));
    fc.assert(
      fc.property(fc.oneof(input, digitsFirst), ({ bytes, start, limit }) => {
        let i = start;
        while (i < limit && bytes[i]! >= 0x30 && bytes[i]! <= 0x39) i++;
        expect(digitsEnd(view(bytes), start, limit)).toBe(i);
      }),
      { numRuns: 10000 },
    );
  });
});

describe("byteLiteral and literalAt", () => {
  it("match exactly the literal's bytes, below the limit", () => {
    const text = fc.string({ unit: fc.integer({ min: 0, max: 127 }).map((c) => String.fromCharCode(c)), minLength: 4, maxLength: 16 });
    fc.assert(
      fc.property(text, input, fc.boolean(), (t, { bytes, start, limit }, plant) => {
        const b = plant ? Uint8Array.from([...bytes.subarray(0, start), ...Buffer.from(t, "latin1"), ...bytes.subarray(start)]) : bytes;
        const lim = plant ? limit + t.length : limit;
        let expected = start + t.length <= lim;
        for (let k = 0; expected && k < t.length; k++) expected = b[start + k] === t.charCodeAt(k);
        expect(literalAt(view(b), start, lim, byteLiteral(t))).toBe(expected);
      }),
      { numRuns: 10000 },
    );
  });

  it("refuses what it cannot hold", () => {
    expect(() => byteLiteral("abc")).toThrow(RangeError);
    expect(() => byteLiteral("a".repeat(17))).toThrow(RangeError);
    expect(() => byteLiteral("caf\u00e9")).toThrow(RangeError);
  });
});
