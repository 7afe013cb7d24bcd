import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { firstMillisOf, rtsOfMillis } from "../../src/sim/serviceRts.ts";

describe("serviceRts", () => {
  it("firstMillisOf is where a page asked for with that since starts, in every unit, inclusive and exclusive", () => {
    fc.assert(
      fc.property(fc.integer({ min: 946_684_800_000, max: 4_102_444_800_000 }), fc.integer({ min: -3, max: 3 }), fc.constantFrom("s", "ms", "us", "ns" as const), fc.boolean(), (ms, step, unit, exclusive) => {
        // A since near a record's RTS, in the unit's own values.
        const value = BigInt(`0x${rtsOfMillis(ms, unit)}`) + BigInt(step);
        const since = value.toString(16).padStart(16, "0");
        const first = firstMillisOf(since, unit, exclusive);
        const after = (t: number) => (exclusive ? rtsOfMillis(t, unit) > since : rtsOfMillis(t, unit) >= since);
        expect(after(first)).toBe(true);
        expect(after(first - 1)).toBe(false);
      }),
    );
  });

  it("a since in either case lands where a byte-ordered store of keys spelled lower or upper puts it", () => {
    const hex = fc.constantFrom(..."0123456789abcdefABCDEF");
    fc.assert(
      fc.property(fc.string({ unit: hex, minLength: 16, maxLength: 16 }), fc.integer({ min: 946_684_800_000, max: 4_102_444_800_000 }), fc.boolean(), fc.boolean(), (since, near, upper, exclusive) => {
        const spell = (t: number) => (upper ? rtsOfMillis(t, "ms").toUpperCase() : rtsOfMillis(t, "ms"));
        const after = (t: number) => (exclusive ? spell(t) > since : spell(t) >= since);
        const first = firstMillisOf(since, "ms", exclusive, upper);
        // Byte order: everything from `first` on is after since, nothing before it is.
        if (first <= Number.MAX_SAFE_INTEGER) {
          expect(after(first)).toBe(true);
          if (first > 0) expect(after(first - 1)).toBe(false);
        } else expect(after(Number.MAX_SAFE_INTEGER)).toBe(false);
        // A since in the service's own spelling is read as its number.
        const own = upper ? spell(near).toUpperCase() : spell(near);
        expect(firstMillisOf(own, "ms", exclusive, upper)).toBe(near + (exclusive ? 1 : 0));
      }),
      { numRuns: 2000 },
    );
  });
});

