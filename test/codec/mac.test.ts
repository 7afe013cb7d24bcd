import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isLocallyAdministered, isMulticast, isRandomized, normalizeMac } from "../../src/codec/mac.ts";
import { isDecodeError } from "../../src/errors/DecodeError.ts";

const octets = fc.array(fc.integer({ min: 0, max: 255 }), { minLength: 6, maxLength: 6 });
const hex2 = (n: number): string => n.toString(16).padStart(2, "0");
/** The reference normal form, built independently of the code under test. */
const normalOf = (o: readonly number[]): string => o.map(hex2).join(":");

/** Every accepted layout of the same address, in a chosen case. */
function layouts(o: readonly number[], upper: boolean): string[] {
  const h = o.map(hex2).map((x) => (upper ? x.toUpperCase() : x));
  return [
    h.join(":"),
    h.join("-"),
    `${h[0]}${h[1]}.${h[2]}${h[3]}.${h[4]}${h[5]}`,
    h.join(""),
  ];
}

describe("normalizeMac", () => {
  it("maps every accepted layout, either case, to the lowercase colon form", () => {
    fc.assert(
      fc.property(octets, fc.boolean(), (o, upper) => layouts(o, upper).every((m) => normalizeMac(m) === normalOf(o))),
    );
  });

  it("is idempotent across all accepted input forms", () => {
    fc.assert(
      fc.property(octets, fc.boolean(), fc.integer({ min: 0, max: 3 }), (o, upper, k) => {
        const once = normalizeMac(layouts(o, upper)[k]!);
        return normalizeMac(once) === once;
      }),
    );
  });

  it("handles mixed case", () => {
    expect(normalizeMac("Aa:bB:cC:Dd:eE:Ff")).toBe("aa:bb:cc:dd:ee:ff");
  });

  it("returns an already normal MAC as the same string", () => {
    const mac = "f0:18:98:12:34:56";
    expect(normalizeMac(mac)).toBe(mac);
  });

  it("rejects everything else with a DecodeError", () => {
    const bad = [
      "",
      "f0:18:98:12:34",
      "f0:18:98:12:34:56:78",
      "f0-18:98:12:34:56", // mixed separators
      "f0.18.98.12.34.56",
      "f0:18:98:12:34:5g",
      "f018:9812:3456",
      "f01898123456 ",
      "f0189812345",
      "f0 18 98 12 34 56",
      "f018.9812-3456",
      "ｆ0:18:98:12:34:56", // full-width f
    ];
    for (const m of bad) {
      let caught: unknown;
      try {
        normalizeMac(m);
      } catch (error) {
        caught = error;
      }
      expect(isDecodeError(caught), m).toBe(true);
    }
  });

  it("agrees with a regular-expression reading on arbitrary near-MACs", () => {
    const nearMac = fc.string({ unit: fc.constantFrom(..."0123456789abcdefABCDEFg:-."), minLength: 11, maxLength: 18 });
    const accepted = /^(?:[0-9a-f]{2}(?::[0-9a-f]{2}){5}|[0-9a-f]{2}(?:-[0-9a-f]{2}){5}|[0-9a-f]{4}\.[0-9a-f]{4}\.[0-9a-f]{4}|[0-9a-f]{12})$/i;
    fc.assert(
      fc.property(nearMac, (s) => {
        try {
          const n = normalizeMac(s);
          return accepted.test(s) && n === s.replace(/[:.-]/g, "").toLowerCase().match(/../g)!.join(":");
        } catch (error) {
          return !accepted.test(s) && isDecodeError(error);
        }
      }),
    );
  });

  it("throws only DecodeError for arbitrary strings and JSON values, from every MAC function", () => {
    const fns = [normalizeMac, isLocallyAdministered, isMulticast, isRandomized];
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.jsonValue()), (x) =>
        fns.every((fn) => {
          try {
            fn(x as string);
            return true;
          } catch (error) {
            return isDecodeError(error);
          }
        }),
      ),
    );
  });
});

describe("MAC flag bits", () => {
  it("read bits 0x02 and 0x01 of the first octet, in any layout", () => {
    fc.assert(
      fc.property(octets, fc.boolean(), fc.integer({ min: 0, max: 3 }), (o, upper, k) => {
        const m = layouts(o, upper)[k]!;
        const first = o[0]!;
        return (
          isLocallyAdministered(m) === ((first & 2) === 2) &&
          isMulticast(m) === ((first & 1) === 1) &&
          isRandomized(m) === ((first & 3) === 2)
        );
      }),
    );
  });
  it("known cases", () => {
    expect(isRandomized("da:a1:19:00:00:01")).toBe(true);
    expect(isRandomized("f0:18:98:12:34:56")).toBe(false);
    expect(isLocallyAdministered("02:00:00:00:00:00")).toBe(true);
    expect(isMulticast("01:00:5e:00:00:fb")).toBe(true);
    expect(isRandomized("03:00:00:00:00:00")).toBe(false);
  });
});
