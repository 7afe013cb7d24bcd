import { describe, expect, it } from "vitest";
import { from, lastValueFrom, toArray } from "rxjs";
import { analyze } from "../../src/analysis/analyze.ts";
import { estimateOccupancy } from "../../src/operators/estimateOccupancy.ts";
import { estimatePeople } from "../../src/operators/estimatePeople.ts";
import { createWorld } from "../../src/sim/createWorld.ts";

describe("estimateOccupancy / estimatePeople", () => {
  it("validate their options when called", () => {
    expect(() => estimateOccupancy({ intervalMs: 0 })).toThrow(RangeError);
    expect(() => estimatePeople({ level: 2 })).toThrow(RangeError);
    expect(() => estimateOccupancy({ onLate: 1 as never })).toThrow(TypeError);
  });

  it("emit what analyze() gives: each day's intervals in order, and the day estimates", async () => {
    const world = createWorld({ seed: 5, shops: 1, rotation: 0.6, visitorsPerDay: 60, passersByPerDay: 300, staffPerShop: 2 });
    const shop = world.shops[0]!;
    const result = await analyze(world.rawSignals(shop.id), { timeZone: shop.timeZone, proximity: false, quality: false });
    const occupancy = await lastValueFrom(from(result.sessions).pipe(estimateOccupancy({ timeZone: shop.timeZone }), toArray()));
    const people = await lastValueFrom(from(result.sessions).pipe(estimatePeople({ timeZone: shop.timeZone }), toArray()));
    expect(occupancy).toEqual(result.occupancy);
    expect(people).toEqual(result.people);
    expect(occupancy).toHaveLength(96);
    for (let i = 1; i < occupancy.length; i++) expect(occupancy[i]!.start).toBe(occupancy[i - 1]!.end);
    expect(occupancy.every((o) => o.insideLow <= o.inside && o.inside <= o.insideHigh && o.outside >= 0)).toBe(true);
    expect(people[0]!.visitors).toBeGreaterThan(0);
  });
});
