import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { inferEpochUnit, isEpochUnit, toEpochMillis } from "../../src/codec/inferEpochUnit.ts";
import { isDecodeError } from "../../src/errors/DecodeError.ts";

/** 1973-03-03 … 5138-11-16 in ms: the window where every unit is told apart. */
const windowMs = fc.integer({ min: 100_000_000_000, max: 99_999_999_999_999 });

describe("inferEpochUnit", () => {
  it("tells a present-day time in each unit", () => {
    const ms = Date.UTC(2025, 10, 20, 12, 0, 0, 16);
    expect(inferEpochUnit(Math.floor(ms / 1000))).toBe("s");
    expect(inferEpochUnit(ms)).toBe("ms");
    expect(inferEpochUnit(ms * 1000)).toBe("us");
    expect(inferEpochUnit(ms * 1e6)).toBe("ns");
  });

  it("recovers the unit of any time from 1973-03-03 to 5138-11-16", () => {
    fc.assert(
      fc.property(windowMs, (ms) => {
        return (
          inferEpochUnit(Math.floor(ms / 1000)) === "s" &&
          inferEpochUnit(ms) === "ms" &&
          inferEpochUnit(ms * 1000) === "us" &&
          inferEpochUnit(ms * 1e6) === "ns"
        );
      }),
    );
  });

  it("puts the boundaries at 1e11, 1e14 and 1e17", () => {
    expect(inferEpochUnit(0)).toBe("s");
    expect(inferEpochUnit(99_999_999_999)).toBe("s");
    expect(inferEpochUnit(1e11)).toBe("ms");
    expect(inferEpochUnit(1e14 - 1)).toBe("ms");
    expect(inferEpochUnit(1e14)).toBe("us");
    expect(inferEpochUnit(1e17)).toBe("ns");
    expect(inferEpochUnit(1e30)).toBe("ns");
  });

  it("throws a DecodeError for negative, non-finite and non-number input, and nothing else", () => {
    for (const bad of [-1, Number.NaN, Infinity, -Infinity]) expect(() => inferEpochUnit(bad)).toThrow(/cannot decode ts/);
    fc.assert(
      fc.property(fc.oneof(fc.jsonValue(), fc.string(), fc.double()), (x) => {
        try {
          inferEpochUnit(x as number);
          toEpochMillis(x as number);
          return typeof x === "number";
        } catch (error) {
          return isDecodeError(error);
        }
      }),
    );
  });
});

describe("toEpochMillis", () => {
  it("converts each unit to ms (inferred)", () => {
    fc.assert(
      fc.property(windowMs, (ms) => {
        return (
          toEpochMillis(Math.floor(ms / 1000)) === Math.floor(ms / 1000) * 1000 &&
          toEpochMillis(ms) === ms &&
          // ms × 1000 and ms × 1e6 pass 2^53 here, so they come back within a few ulps
          Math.abs(toEpochMillis(ms * 1000) - ms) <= ms * 1e-15 &&
          Math.abs(toEpochMillis(ms * 1e6) - ms) <= ms * 1e-15
        );
      }),
    );
  });
  it("is exact for whole µs while they stay below 2^53 (until 2255)", () => {
    fc.assert(fc.property(fc.integer({ min: 100_000_000_000, max: 9_000_000_000_000 }), (ms) => toEpochMillis(ms * 1000) === ms));
  });
  it("keeps sub-millisecond fractions of µs", () => {
    expect(toEpochMillis(1_763_600_000_016_500)).toBe(1_763_600_000_016.5);
  });
  it("uses the unit it is given", () => {
    expect(toEpochMillis(5, "s")).toBe(5000);
    expect(toEpochMillis(5, "us")).toBe(0.005);
    expect(() => toEpochMillis(5, "h" as "s")).toThrow(TypeError);
    expect(() => toEpochMillis(-5, "ms")).toThrow(/cannot decode ts/);
  });
});

describe("isEpochUnit", () => {
  it("names exactly the four units", () => {
    expect(["s", "ms", "us", "ns"].every(isEpochUnit)).toBe(true);
    expect(["µs", "h", "", "toString", 1, null].some(isEpochUnit)).toBe(false);
  });
});
