import { describe, expect, it } from "vitest";
import { createWorld } from "../../../src/sim/createWorld.ts";
import { meanOccupancy } from "../../../src/sim/truth/meanOccupancy.ts";
import { peopleTruth } from "../../../src/sim/truth/peopleTruth.ts";

describe("peopleTruth", () => {
  // Rotation on: many MACs per person, so counting MACs and counting people differ.
  const world = createWorld({ seed: 11, shops: 1, openingHours: [10, 13], visitorsPerDay: 60, passersByPerDay: 300, staffPerShop: 2, rotation: "realistic" });
  const shop = world.shops[0]!.id;
  const truth = peopleTruth(world);

  it("counts people who came inside, once each, not their MACs", () => {
    const visitors = world.visits(shop).filter((v) => v.kind === "visitor");
    const people = new Set(visitors.map((v) => v.person)).size;
    expect(people).toBeGreaterThan(0);
    expect(truth.visitors(shop, world.startMs, world.endMs)).toBe(people);
    const macs = new Set(world.truth(shop).filter((t) => t.kind === "visitor").map((t) => t.device)).size;
    expect(macs).toBeGreaterThan(people);
    // By the start of the visit: a span that ends before anyone arrives holds nobody.
    const first = Math.min(...visitors.map((v) => v.start));
    expect(truth.visitors(shop, world.startMs, first)).toBe(0);
    expect(truth.visitors(shop, first, first + 1)).toBeGreaterThanOrEqual(1);
  });

  it("gives each visit's whole dwell, not the pieces its rotating MACs saw", () => {
    // Visitors' visits only: staff shifts would drag the median up.
    // A person's second or third device is not another visit.
    const visits = world.visits(shop).filter((v) => v.kind === "visitor" && v.inside && v.extraDevice === undefined);
    expect(world.visits(shop).some((v) => v.kind === "staff")).toBe(true);
    const all = truth.dwells(shop, world.startMs, world.endMs);
    expect(all).toEqual(visits.map((v) => v.end - v.start));
    expect(all.length).toBeGreaterThanOrEqual(truth.visitors(shop, world.startMs, world.endMs));
    // MAC-level truth splits a rotating phone's visit: more, shorter pieces than visits.
    const pieces = world.truth(shop).filter((t) => t.kind === "visitor");
    expect(pieces.length).toBeGreaterThan(all.length);
    // By the start of the visit, as visitors() counts them; staff are left out.
    const first = Math.min(...visits.map((v) => v.start));
    expect(truth.dwells(shop, world.startMs, first)).toEqual([]);
    expect(truth.dwells(shop, first, first + 1).length).toBeGreaterThanOrEqual(1);
  });

  it("gives the mean number of visitors inside (staff left out), as meanOccupancy does", () => {
    const noon = world.startMs + 12 * 3_600_000 - 9 * 3_600_000;
    for (const start of [noon - 3_600_000, noon, noon + 900_000]) {
      expect(truth.inside(shop, start, start + 900_000)).toBe(meanOccupancy(world.occupancy(shop), start, start + 900_000, { kinds: ["visitor"] }));
    }
    const withStaff = meanOccupancy(world.occupancy(shop), world.startMs, world.endMs);
    expect(truth.inside(shop, world.startMs, world.endMs)).toBeLessThan(withStaff);
  });
});
