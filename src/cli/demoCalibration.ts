import { calibrationFromEstimates } from "../calibrate.ts";
import { realPhonesPrior } from "../kernels/burstYardstick.ts";
import { defaultPeopleEstimator, withCalibration, type PeopleEstimate } from "../kernels/PeopleEstimator.ts";
import { countedTruthCsv } from "../sim/countedTruthCsv.ts";
import type { World } from "../sim/World.ts";
import { mergeTruth } from "../truth/mergeTruth.ts";
import { parseTruth } from "../truth/parseTruth.ts";

/**
 * The demo's people calibrated as a site would: the simulator's door counter counts the people
 * inside over `[fromMs, toMs)` (the first opening hours) for every shop, a calibration is fitted
 * on those counts (`calibrationFromEstimates`), and the day's estimates are worked out again with
 * it (`withCalibration`). Shops whose count gives no calibration keep their estimate as installed.
 *
 * @param world the simulated world (its door counter)
 * @param estimates the day's estimates as installed, one per shop
 * @param fromMs start of the count, epoch ms
 * @param toMs end of the count, epoch ms
 * @param timeZone the shops' time zone
 * @example
 * const calibrated = demoCalibration(world, estimates, openMs, openMs + 2 * 3_600_000, "Asia/Seoul");
 */
export function demoCalibration(world: World, estimates: readonly PeopleEstimate[], fromMs: number, toMs: number, timeZone: string): PeopleEstimate[] {
  const truth = mergeTruth(estimates.map((p) => parseTruth(countedTruthCsv(world, p.shopId, fromMs, toMs, { shape: "inside" }), `door counter, shop ${p.shopId}`)));
  const settings = { intervalMs: defaultPeopleEstimator.intervalMs, timeZone };
  const fit = calibrationFromEstimates(estimates, truth, { prior: realPhonesPrior, settings, minCoverage: 0.5, allowNoOverlap: true });
  return withCalibration(estimates, fit.file, { timeZone });
}
