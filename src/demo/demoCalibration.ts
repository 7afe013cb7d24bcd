import { calibrationFromEstimates, calibrationSettings } from "../analysis/calibrate.ts";
import { withCalibration } from "../kernels/people/withCalibration.ts";
import type { PeopleEstimate } from "../kernels/people/PeopleEstimate.ts";
import { countedTruthCsv } from "../sim/truth/countedTruthCsv.ts";
import type { World } from "../sim/world/World.ts";
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
 * const shop = world.shops[0]!;
 * const { people } = await analyze(world.rawSignals(shop.id), { timeZone: shop.timeZone });
 * const open = world.startMs + 10 * 3_600_000;
 * demoCalibration(world, people, open, open + 2 * 3_600_000, shop.timeZone).length === people.length; // true
 */
export function demoCalibration(world: World, estimates: readonly PeopleEstimate[], fromMs: number, toMs: number, timeZone: string): PeopleEstimate[] {
  const truth = mergeTruth(estimates.map((p) => parseTruth(countedTruthCsv(world, p.shopId, fromMs, toMs, { shape: "inside" }), `door counter, shop ${p.shopId}`)));
  const fit = calibrationFromEstimates(estimates, truth, { ...calibrationSettings({ timeZone }), minCoverage: 0.5, allowNoOverlap: true });
  return withCalibration(estimates, fit.file, { timeZone });
}
