import type { PeopleModel } from "../calibration/PeopleModel.ts";
import type { TwoSided } from "../../stats/twoSided.ts";

/**
 * People inside an interval by a shop's {@link PeopleModel}, with its two-sided interval (`interval`):
 * the model's errors on days it was not fitted on, within a day and from day to day (Student's
 * t at the model's degrees of freedom), plus the drift of a calibration with age (`driftLogVariance`:
 * the variance of ln(people per feature) it has gathered since the counts).
 *
 * @param model the shop's model
 * @param features the interval's features, in the order of `model.features`
 * @param interval the two-sided interval's critical values (`twoSided(0.9)`)
 * @param driftLogVariance variance of ln people added by the calibration's age (0 within its span)
 * @example
 * const m: PeopleModel = { features: ["randomized ge-60"], intercept: 0, coefficients: [0.5], alpha: 0, offset: 5, withinVariance: 0.5, dayVariance: 0.5, df: 4, days: 3, intervals: 30, validationMae: 1.2 };
 * const { inside, low, high } = modelledPeople(m, [20], twoSided(0.9), 0);
 * inside; // 10
 * low < 10 && high > 10; // true
 */
export function modelledPeople(model: PeopleModel, features: readonly number[], interval: TwoSided, driftLogVariance: number): { inside: number; low: number; high: number } {
  let y = model.intercept;
  for (let j = 0; j < model.coefficients.length; j++) y += model.coefficients[j]! * (features[j] ?? 0);
  const inside = y > 0 ? y : 0;
  const t = interval.t(model.df);
  const z = interval.z;
  const spread = t * t * (model.withinVariance + model.dayVariance) * (inside + model.offset) + z * z * driftLogVariance * inside * inside;
  const half = Math.sqrt(spread);
  return { inside, low: Math.max(0, inside - half), high: inside + half };
}
