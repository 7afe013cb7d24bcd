import type { OccupancyInterval } from "../kernels/people/PeopleEstimate.ts";
import type { AnalysisRecord } from "./AnalysisRecord.ts";

/**
 * One shop and interval as the `occupancy` line of `footfall analyze --format ndjson`: start and
 * end (epoch ms), the estimated mean people `inside` with its 90 % interval `insideLow` …
 * `insideHigh`, and `outside` (people, to 0.01), the interval's burst counts, and the
 * calibration the estimate used (`calibration`, `null` for the prior).
 *
 * @example
 * for (const o of result.occupancy) out.write(`${JSON.stringify(occupancyRecord(o))}\n`);
 * // {"type":"occupancy","shopId":101,"start":1794790800000,"end":1794791700000,"inside":7.41,"insideLow":6.1,"insideHigh":8.72,"outside":21.3,…}
 */
export function occupancyRecord(o: OccupancyInterval): AnalysisRecord {
  return {
    type: "occupancy",
    shopId: o.shopId,
    start: o.start,
    end: o.end,
    inside: round2(o.inside),
    insideLow: round2(o.insideLow),
    insideHigh: round2(o.insideHigh),
    outside: round2(o.outside),
    knownInside: round2(o.knownInside),
    universalInside: round2(o.universalInside),
    universalPersons: round2(o.universalPersons),
    // Bursts are counts, but a burst of several MACs is shared among them (a third of a burst
    // each): kept to 10⁻⁴, so that the days pooled from these lines agree with the analysis.
    insideBursts: round4(o.insideBursts),
    outsideBursts: round4(o.outsideBursts),
    // Which calibration applied (its id, fit span and warnings), or null for the prior.
    calibration: o.calibration,
  };
}

function round2(x: number): number | null {
  return Number.isFinite(x) ? Math.round(x * 100) / 100 : null;
}

function round4(x: number): number | null {
  return Number.isFinite(x) ? Math.round(x * 10_000) / 10_000 : null;
}
