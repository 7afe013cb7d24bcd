import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { meanOccupancy } from "../../../src/sim/truth/meanOccupancy.ts";
import type { OccupancyEvent } from "../../../src/sim/world/World.ts";
import { smallWorld } from "../world/fixtures.ts";

const MIN = 60_000;

/** Events of people inside over [s, e) stays. */
function eventsOf(stays: readonly (readonly [number, number, "visitor" | "staff"])[]): OccupancyEvent[] {
  return stays.flatMap(([s, e, kind], person) => [
    { shop: 1, ms: s, delta: 1 as const, kind, person },
    { shop: 1, ms: e, delta: -1 as const, kind, person },
  ]);
}

/** The same mean by brute force: count the people inside at every millisecond. */
function bruteMean(stays: readonly (readonly [number, number, string])[], a: number, b: number, kinds: readonly string[]): number {
  let sum = 0;
  for (let t = a; t < b; t++) for (const [s, e, k] of stays) if (kinds.includes(k) && s <= t && t < e) sum++;
  return sum / (b - a);
}

describe("meanOccupancy", () => {
  it("is the exact time-weighted mean over [start, end)", () => {
    const events = eventsOf([
      [0, 10 * MIN, "visitor"],
      [5 * MIN, 15 * MIN, "visitor"],
      [0, 60 * MIN, "staff"],
    ]);
    // 0–5: 2 people, 5–10: 3, 10–15: 2, 15–20: 1.
    expect(meanOccupancy(events, 0, 20 * MIN)).toBeCloseTo((5 * 2 + 5 * 3 + 5 * 2 + 5 * 1) / 20, 12);
    expect(meanOccupancy(events, 0, 20 * MIN, { kinds: ["visitor"] })).toBeCloseTo((5 * 1 + 5 * 2 + 5 * 1) / 20, 12);
    expect(meanOccupancy(events, 100 * MIN, 110 * MIN)).toBe(0);
  });

  it("matches a per-millisecond count for any stays and interval, in any event order", () => {
    const stay = fc.tuple(fc.integer({ min: 0, max: 300 }), fc.integer({ min: 1, max: 200 }), fc.constantFrom("visitor" as const, "staff" as const));
    fc.assert(
      fc.property(fc.array(stay, { maxLength: 12 }), fc.integer({ min: 0, max: 400 }), fc.integer({ min: 1, max: 200 }), (raw, a, len) => {
        const stays = raw.map(([s, d, k]) => [s, s + d, k] as const);
        const events = eventsOf(stays).reverse();
        expect(meanOccupancy(events, a, a + len)).toBeCloseTo(bruteMean(stays, a, a + len, ["visitor", "staff"]), 9);
        expect(meanOccupancy(events, a, a + len, { kinds: ["staff"] })).toBeCloseTo(bruteMean(stays, a, a + len, ["staff"]), 9);
      }),
    );
  });

  it("agrees with the world's visits: the mean over the open hours is the total time inside ÷ the hours", () => {
    const world = smallWorld();
    const from = world.startMs;
    const to = world.endMs;
    let inside = 0;
    // People, not their second devices.
    for (const v of world.visits(101)) if (v.kind === "visitor" && v.extraDevice === undefined) inside += v.end - v.start;
    expect(meanOccupancy(world.occupancy(101), from, to, { kinds: ["visitor"] })).toBeCloseTo(inside / (to - from), 9);
  });

  it("rejects an empty or reversed interval and bad kinds", () => {
    expect(() => meanOccupancy([], 10, 10)).toThrow(RangeError);
    expect(() => meanOccupancy([], 10, 5)).toThrow(RangeError);
    expect(() => meanOccupancy([], Number.NaN, 5)).toThrow(RangeError);
    expect(() => meanOccupancy([], 0, 5, { kinds: "visitor" as never })).toThrow(TypeError);
  });
});
