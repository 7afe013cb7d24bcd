import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatRowKey, parseRowKey, type RowKey } from "../../src/codec/rowKey.ts";
import { isDecodeError } from "../../src/errors/DecodeError.ts";

const rts = fc.string({ unit: fc.constantFrom(..."0123456789abcdef"), minLength: 16, maxLength: 16 });
const rowKey: fc.Arbitrary<RowKey> = fc.record({ shopId: fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }), rts });

describe("parseRowKey / formatRowKey", () => {
  it("parseRowKey(formatRowKey(x)) is x", () => {
    fc.assert(fc.property(rowKey, (key) => {
      const back = parseRowKey(formatRowKey(key));
      return back.shopId === key.shopId && back.rts === key.rts && Object.keys(back).length === 2;
    }));
  });

  it("splits a known key", () => {
    expect(parseRowKey("101:0000019a9ec06410")).toStrictEqual({ shopId: 101, rts: "0000019a9ec06410" });
    expect(parseRowKey("0:0000000000000000")).toStrictEqual({ shopId: 0, rts: "0000000000000000" });
    expect(parseRowKey("007:ffffffffffffffff")).toStrictEqual({ shopId: 7, rts: "ffffffffffffffff" });
    // A service formatting with %016X: the same key, the RTS in footfall's lowercase spelling.
    expect(parseRowKey("101:0000019A9EC06410")).toStrictEqual({ shopId: 101, rts: "0000019a9ec06410" });
    expect(parseRowKey("101:0000019a9EC06410")).toStrictEqual({ shopId: 101, rts: "0000019a9ec06410" });
    // And one writing the value's own digits (n.toString(16)).
    expect(parseRowKey("101:19a9ec06410")).toStrictEqual({ shopId: 101, rts: "0000019a9ec06410" });
    expect(parseRowKey("101:0")).toStrictEqual({ shopId: 101, rts: "0000000000000000" });
    expect(formatRowKey({ shopId: 101, rts: "0000019a9ec06410" })).toBe("101:0000019a9ec06410");
  });

  it("rejects malformed keys with a DecodeError saying what is wrong", () => {
    const cases: Array<[string, RegExp]> = [
      ["", /expected <shop_id>:<rts>/],
      ["0000019a9ec06410", /expected <shop_id>:<rts>/],
      [":0000019a9ec06410", /expected <shop_id>:<rts>/],
      ["1a:0000019a9ec06410", /not decimal digits/],
      ["-1:0000019a9ec06410", /not decimal digits/],
      [" 1:0000019a9ec06410", /not decimal digits/],
      ["9007199254740992:0000019a9ec06410", /too large/],
      ["101:0000019a9ec0641g", /RTS/],
      ["101:0000019a9ec0641", /RTS/],
      ["101:0000019a9ec064100", /RTS/],
      // split on the last colon: the "shop id" is then "101:0000019a9ec06410"
      ["101:0000019a9ec06410:", /not decimal digits/],
      ["1:2:0000019a9ec06410", /not decimal digits/],
    ];
    for (const [input, message] of cases) {
      let caught: unknown;
      try {
        parseRowKey(input);
      } catch (error) {
        caught = error;
      }
      expect(isDecodeError(caught), input).toBe(true);
      expect((caught as Error).message, input).toMatch(message);
    }
  });

  it("agrees with a regular-expression reading on arbitrary near-keys", () => {
    const nearKey = fc.tuple(
      fc.string({ unit: fc.constantFrom(..."0123456789a:"), maxLength: 18 }),
      fc.constantFrom(":", ""),
      fc.string({ unit: fc.constantFrom(..."0123456789abcdefA:"), minLength: 15, maxLength: 17 }),
    ).map(([a, b, c]) => a + b + c);
    fc.assert(fc.property(nearKey, (s) => {
      // The RTS: 16 hex digits of either case, or fewer without leading zeros.
      const m = /^([0-9]+):([0-9a-fA-F]{16}|0|[1-9a-fA-F][0-9a-fA-F]{0,14})$/.exec(s);
      const ok = m !== null && Number.isSafeInteger(Number(m[1]));
      try {
        const key = parseRowKey(s);
        return ok && key.shopId === Number(m[1]) && key.rts === m[2]!.toLowerCase().padStart(16, "0");
      } catch (error) {
        return !ok && isDecodeError(error);
      }
    }));
  });

  it("throws only DecodeError for arbitrary strings and JSON values", () => {
    fc.assert(fc.property(fc.oneof(fc.string(), fc.jsonValue()), (x) => {
      try {
        parseRowKey(x as string);
        return true;
      } catch (error) {
        return isDecodeError(error);
      }
    }));
  });

  it("formatRowKey refuses parts that would not parse", () => {
    expect(() => formatRowKey({ shopId: -1, rts: "0000000000000000" })).toThrow(RangeError);
    expect(() => formatRowKey({ shopId: 1.5, rts: "0000000000000000" })).toThrow(RangeError);
    expect(() => formatRowKey({ shopId: 1, rts: "ABC" })).toThrow(/cannot decode rts/);
  });
});
