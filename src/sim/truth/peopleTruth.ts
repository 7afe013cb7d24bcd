import { meanOccupancy } from "./meanOccupancy.ts";
import type { OccupancyEvent, TruthPersonVisit, World } from "../world/World.ts";

/**
 * The world's person-level truth of the people figures, in the shape `scorePeople` (in
 * `footfall`) scores estimates on: people who came inside per span, the mean number of
 * visitors inside per span, and how long each visit inside lasted. Structural, so the simulator needs nothing from the kernels.
 *
 * @example
 * const t: WorldPeopleTruth = peopleTruth(world);
 * t.visitors(101, world.startMs, world.endMs); // people who came into shop 101 that day
 * t.dwells(101, world.startMs, world.endMs).length; // their visits (a person may come twice)
 */
export interface WorldPeopleTruth {
  /** Distinct people with a visit inside shop `shopId` (a `visitor` visit) starting in [startMs, endMs), epoch ms. */
  visitors(shopId: number, startMs: number, endMs: number): number;
  /** Exact mean number of visitors inside shop `shopId` over [startMs, endMs) (`meanOccupancy`, staff left out). */
  inside(shopId: number, startMs: number, endMs: number): number;
  /** True dwell (end − start, ms) of each visitor visit inside shop `shopId` starting in [startMs, endMs), in visit order. */
  dwells(shopId: number, startMs: number, endMs: number): readonly number[];
}

/**
 * Person-level truth of a world's visitors and occupancy, for scoring people estimates:
 * `scorePeople(result.people, peopleTruth(world))`. A person is counted, not a MAC: a phone that
 * rotated its MAC twenty times during one visit is one visitor, with one dwell (its whole visit,
 * not the pieces its MACs saw), and a laptop or watch carried beside the phone adds nothing
 * (`TruthPersonVisit.extraDevice`). Staff are left out (the estimate leaves them out); passers-by
 * never come inside. Each shop's visits and enter/leave
 * events are read once and kept per shop.
 *
 * @example
 * const truth = peopleTruth(world);
 * const noon = Date.parse("2026-11-16T12:00:00+09:00");
 * truth.inside(101, noon, noon + 15 * 60_000); // mean visitors inside 12:00–12:15, e.g. 6.8
 * dwellStats(truth.dwells(101, world.startMs, world.endMs)).medianMs; // true median dwell, e.g. 1380000
 */
export function peopleTruth(world: Pick<World, "visits" | "occupancy">): WorldPeopleTruth {
  const visits = new Map<number, readonly TruthPersonVisit[]>();
  const events = new Map<number, readonly OccupancyEvent[]>();
  const visitsOf = (shopId: number): readonly TruthPersonVisit[] => {
    let v = visits.get(shopId);
    if (v === undefined) visits.set(shopId, (v = world.visits(shopId).filter((x) => x.kind === "visitor" && x.inside && x.extraDevice === undefined)));
    return v;
  };
  const eventsOf = (shopId: number): readonly OccupancyEvent[] => {
    let e = events.get(shopId);
    if (e === undefined) events.set(shopId, (e = world.occupancy(shopId)));
    return e;
  };
  return {
    visitors(shopId, startMs, endMs) {
      const people = new Set<number>();
      for (const v of visitsOf(shopId)) if (v.start >= startMs && v.start < endMs) people.add(v.person);
      return people.size;
    },
    inside(shopId, startMs, endMs) {
      return meanOccupancy(eventsOf(shopId), startMs, endMs, { kinds: ["visitor"] });
    },
    dwells(shopId, startMs, endMs) {
      const out: number[] = [];
      for (const v of visitsOf(shopId)) if (v.start >= startMs && v.start < endMs) out.push(v.end - v.start);
      return out;
    },
  };
}
