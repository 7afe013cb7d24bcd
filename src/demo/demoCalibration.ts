import { calibrationFromEstimates, calibrationSettings } from "../analysis/calibrate.ts";
import { withCalibration } from "../kernels/people/withCalibration.ts";
import type { PeopleEstimate } from "../kernels/people/PeopleEstimate.ts";
import type { CountedTruth } from "../truth/CountedTruth.ts";

/**
 * The demo's people calibrated as a site would: a calibration is fitted on the people a door
 * counter counted inside (`doorCount`: the first opening hours, every shop) with
 * `calibrationFromEstimates`, and the day's estimates are worked out again with it
 * (`withCalibration`). Shops whose count gives no calibration keep their estimate as installed.
 *
 * @param estimates the day's estimates as installed, one per shop
 * @param truth the counted people (`doorCount`)
 * @param timeZone the shops' time zone
 * @example
 * const shop = world.shops[0]!;
 * const { people } = await analyze(world.rawSignals(shop.id), { timeZone: shop.timeZone });
 * const open = world.startMs + 10 * 3_600_000;
 * const truth = doorCount(world, people.map((p) => p.shopId), open, open + 2 * 3_600_000);
 * demoCalibration(people, truth, shop.timeZone).length === people.length; // true
 */
export function demoCalibration(estimates: readonly PeopleEstimate[], truth: CountedTruth, timeZone: string): PeopleEstimate[] {
  const fit = calibrationFromEstimates(estimates, truth, { ...calibrationSettings({ timeZone }), minCoverage: 0.5, allowNoOverlap: true });
  return withCalibration(estimates, fit.file, { timeZone });
}
