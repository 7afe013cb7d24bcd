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
    inside: rounded(o.inside, 100),
    insideLow: rounded(o.insideLow, 100),
    insideHigh: rounded(o.insideHigh, 100),
    outside: rounded(o.outside, 100),
    knownInside: rounded(o.knownInside, 100),
    universalInside: rounded(o.universalInside, 100),
    universalPersons: rounded(o.universalPersons, 100),
    // Bursts are counts, but a burst of several MACs is shared among them (a third of a burst
    // each): kept to 10⁻⁴, so that the days pooled from these lines agree with the analysis.
    insideBursts: rounded(o.insideBursts, 10_000),
    outsideBursts: rounded(o.outsideBursts, 10_000),
    // Which calibration applied (its id, fit span and warnings), or null for the prior.
    calibration: o.calibration,
  };
}

// To 1 ÷ `per` (100: hundredths); null for what is not finite (JSON has no NaN).
function rounded(x: number, per: number): number | null {
  return Number.isFinite(x) ? Math.round(x * per) / per : null;
}
