import type { BurstYardstick } from "../calibration/burstYardstick.ts";
import type { CalibrationRef } from "../calibration/Calibration.ts";
import type { TwoSided } from "../../stats/twoSided.ts";
import type { RateModel } from "./rateModel.ts";
import { intervalFigures } from "./occupancyIntervals.ts";
import { visitorsOf } from "./peopleOfDay.ts";
import type { PeopleModel } from "../calibration/PeopleModel.ts";
import type { PeopleEstimate } from "./PeopleEstimate.ts";
import { withYardstick } from "./yardstickFor.ts";

/**
 * A day estimated again from its own data (identity-known visits, bursts and features per
 * interval) with other figures: a pooled mean stay (`poolPeople`) or another calibration
 * (`withCalibration`: its yardstick, and its learned model when it has one, `people`). Internal:
 * the one re-estimation rule of both.
 *
 * @example
 * const { people } = await analyze(records, { timeZone: "Asia/Seoul" });
 * const p = people[0]!;
 * reestimated(p, rateModels([chosenSample(p.sample, p.sample.universal.visits)])[0]!, p.yardstick, p.calibration, null, twoSided(0.9)).occupancy.length === p.occupancy.length; // true
 */
export function reestimated(
  p: PeopleEstimate,
  stays: RateModel,
  yardstick: BurstYardstick,
  calibration: CalibrationRef | null,
  people: { readonly model: PeopleModel; readonly driftLogVariance: number } | null,
  interval: TwoSided,
): PeopleEstimate {
  const model = withYardstick(stays, yardstick);
  // A day a shop's model estimated keeps its intervals when only its stays change (pooled days):
  // the model reads the intervals' features, not the stays.
  const kept = people === null && calibration?.method === "model";
  const occupancy = kept
    ? p.occupancy
    : p.occupancy.map((x) =>
        intervalFigures(x.shopId, x.start, x.end, { inside: x.knownInside, universal: x.universalInside, universalPersons: x.universalPersons }, x.insideBursts, x.outsideBursts, x.features, model, yardstick, calibration, people, interval),
      );
  return { ...p, ...visitorsOf(p.knownVisitors, p.restBursts, p.passersBy, model, occupancy, calibration?.method === "model", interval), yardstick, calibration, occupancy };
}
