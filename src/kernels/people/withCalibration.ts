import { calibrationsByShop, type Calibration, type CalibrationFile } from "../calibration/Calibration.ts";
import { rateModels } from "./rateModel.ts";
import { chosenSample } from "./dayModel.ts";
import type { PeopleEstimate } from "./PeopleEstimate.ts";
import { peopleEstimatorOptions, type PeopleEstimatorOptions } from "./peopleEstimatorOptions.ts";
import { reestimated } from "./reestimated.ts";
import { yardstickFor } from "./yardstickFor.ts";

/**
 * The same days estimated again with calibrations: each estimate of a shop that `calibrations`
 * holds gets that calibration's yardstick (aged to its day) in place of the one it was made with,
 * and its visitors, interval and occupancy worked out again from its own data (identity-known
 * visits, bursts per interval), as `poolPeople` does with pooled figures. Estimates of other shops
 * pass unchanged. For a calibration fitted after the estimates were made (a door count of the
 * first hours, the demo), without analysing the signals again.
 *
 * @param estimates days of any shops, as `PeopleEstimator` gives them (not pooled)
 * @param calibrations a calibration file or list (`calibrate`)
 * @param options `level` of the intervals and the analysis settings (0.9; the calibration's)
 * @example
 * const { people } = await analyze(records, { timeZone: "Asia/Seoul" });
 * withCalibration(people, []).length === people.length; // true
 */
export function withCalibration(
  estimates: readonly PeopleEstimate[],
  calibrations: CalibrationFile | readonly Calibration[],
  options: Pick<PeopleEstimatorOptions, "level" | "intervalMs" | "timeZone"> = {},
): PeopleEstimate[] {
  // The settings resolved on their own, and the calibrations checked once, up front: the
  // estimate reads them through one door (yardstickFor).
  const settings = peopleEstimatorOptions({ ...options, calibration: undefined });
  const o = { ...settings, calibrations: calibrationsByShop(calibrations) };
  return estimates.map((p) => {
    if (!o.calibrations.has(p.shopId)) return p;
    if (p.pooledDays !== 1) throw new RangeError(`withCalibration: estimate of shop ${p.shopId} on ${p.label} is pooled; calibrate the days' own estimates`);
    const { yardstick, calibration: ref, people } = yardstickFor(o, p.shopId, p.start);
    return reestimated(p, rateModels([chosenSample(p.sample, p.sample.universal.visits)])[0]!, yardstick, ref, people, o.interval);
  });
}
