import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { firstMillisOf, rtsOfMillis } from "../../../src/sim/service/serviceRts.ts";

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
});
