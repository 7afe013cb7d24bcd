import type { BurstYardstick } from "../calibration/burstYardstick.ts";
import type { CalibrationRef } from "../calibration/Calibration.ts";
import { calibratedYardstick } from "./calibratedYardstick.ts";
import type { PeopleModel } from "../calibration/PeopleModel.ts";
import type { RateModel } from "./rateModel.ts";
import type { ResolvedPeopleEstimatorOptions } from "./peopleEstimatorOptions.ts";

/**
 * What estimates a shop's day starting at `atMs`: its calibration's yardstick, aged to that day,
 * and its learned model when it has one — or the prior. Internal: the one place the estimate
 * chooses between them.
 *
 * @example
 * yardstickFor(peopleEstimatorOptions(), 101, 0).calibration; // null (no calibration given)
 */
export function yardstickFor(
  o: ResolvedPeopleEstimatorOptions,
  shopId: number,
  atMs: number,
  visitorRssi?: number,
): { yardstick: BurstYardstick; calibration: CalibrationRef | null; people: { readonly model: PeopleModel; readonly driftLogVariance: number } | null } {
  const c = o.calibrations.get(shopId);
  if (c === undefined) return { yardstick: o.prior, calibration: null, people: null };
  const { yardstick, ref, driftLogVariance } = calibratedYardstick(c, atMs, { intervalMs: o.intervalMs, timeZone: o.timeZone, ...(visitorRssi === undefined ? {} : { visitorRssi }) });
  return { yardstick, calibration: ref, people: c.model === null ? null : { model: c.model, driftLogVariance } };
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
