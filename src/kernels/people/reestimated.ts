import type { BurstYardstick } from "../calibration/burstYardstick.ts";
import type { CalibrationRef } from "../calibration/Calibration.ts";
import type { RateModel } from "./rateModel.ts";
import { intervalFigures } from "./occupancyIntervals.ts";
import { visitorFigures } from "./peopleOfDay.ts";
import type { PeopleEstimate } from "./PeopleEstimate.ts";
import { withYardstick } from "./yardstickFor.ts";

/**
 * A day estimated again from its own data (identity-known visits, bursts per interval) with other
 * figures: a pooled mean stay (`poolPeople`) or another yardstick (`withCalibration`). Internal:
 * the one re-estimation rule of both.
 *
 * @example
 * const { people } = await analyze(records, { timeZone: "Asia/Seoul" });
 * const p = people[0]!;
 * reestimated(p, rateModels([chosenSample(p.sample, p.sample.universal.visits)])[0]!, p.yardstick, p.calibration, 0.9).occupancy.length === p.occupancy.length; // true
 */
export function reestimated(p: PeopleEstimate, stays: RateModel, yardstick: BurstYardstick, calibration: CalibrationRef | null, level: number): PeopleEstimate {
  const model = withYardstick(stays, yardstick);
  return {
    ...p,
    ...visitorFigures(p.knownVisitors, p.restBursts, p.passersBy, model, level),
    yardstick,
    calibration,
    occupancy: p.occupancy.map((x) =>
      intervalFigures(x.shopId, x.start, x.end, { inside: x.knownInside, universal: x.universalInside, universalPersons: x.universalPersons }, x.insideBursts, x.outsideBursts, model, yardstick, calibration, level),
    ),
  };
}
