import type { BurstYardstick } from "../calibration/burstYardstick.ts";
import { calibratedYardstick, type CalibrationRef } from "../calibration/Calibration.ts";
import type { RateModel } from "./rateModel.ts";
import type { ResolvedPeopleEstimatorOptions } from "./peopleEstimatorOptions.ts";

/**
 * The yardstick for a shop's day starting at `atMs`: its calibration's, aged to that day, or the
 * prior. Internal: the one place the estimate chooses between them.
 *
 * @example
 * yardstickFor(peopleEstimatorOptions(), 101, 0).calibration; // null (no calibration given)
 */
export function yardstickFor(o: ResolvedPeopleEstimatorOptions, shopId: number, atMs: number, visitorRssi?: number): { yardstick: BurstYardstick; calibration: CalibrationRef | null } {
  const c = o.calibrations.get(shopId);
  if (c === undefined) return { yardstick: o.prior, calibration: null };
  const { yardstick, ref } = calibratedYardstick(c, atMs, { intervalMs: o.intervalMs, timeZone: o.timeZone, ...(visitorRssi === undefined ? {} : { visitorRssi }) });
  return { yardstick, calibration: ref };
}

/**
 * A rate model with its rate part the yardstick's (no longer learned from the day's universal-MAC
 * visits: in a real room those are laptops and PCs, which probe unlike phones); the dwell part
 * stays the sample's. Internal: a day's model, and a day estimated again.
 *
 * @example
 * withYardstick(rateModels([sampleSums([])])[0]!, realPhonesPrior).rate * 60_000 === realPhonesPrior.burstsPerMinute; // true
 */
export function withYardstick(model: RateModel, y: BurstYardstick): RateModel {
  return { ...model, rate: y.burstsPerMinute / 60_000, phi: y.personCv * y.personCv, m: y.df + 1, rateRelVar: y.logVariance };
}
