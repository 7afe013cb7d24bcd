import normalQuantile from "@stdlib/stats-base-dists-normal-quantile";
import { studentQuantile } from "../../stats/studentQuantile.ts";

/**
 * A shop's learned mapping from an interval's features (`CALIBRATION_FEATURES`) to the people
 * inside, fitted on counted people (`fitPeopleModel`): people = intercept + Σ coefficient ×
 * feature (never below 0), with the spread of its errors on days it was not fitted on.
 *
 * Errors are scored on the scale of √(people + `offset`), so that one fit serves an empty shop
 * and a full one: a count of 30 strays further than a count of 3. Their spread has two parts —
 * within a day, and from one day to the next (a whole day reads high or low: persons per MAC
 * drift, a class brings laptops) — the second shrunk toward a prior spread worth a few days,
 * because three counted days cannot show it.
 *
 * @example
 * const m: PeopleModel = { features: CALIBRATION_FEATURES, intercept: 2.1, coefficients: [0.03, 0.02, 0, 0, 0, 0.4, 0, 0, 0, 0, 0.8], alpha: 0.1, offset: 5, withinVariance: 0.6, dayVariance: 0.9, df: 4, days: 3, intervals: 34, validationMae: 2.4 };
 */
export interface PeopleModel {
  /** The features the coefficients are for, in order (`CALIBRATION_FEATURES` when fitted). */
  readonly features: readonly string[];
  /** People inside with every feature 0 (≥ 0 or not: the fit chose whether to have one). */
  readonly intercept: number;
  /** People per unit of each feature (≥ 0), in the order of `features`. */
  readonly coefficients: readonly number[];
  /** The ridge penalty the fit chose, per unit of weight (0 = least squares). */
  readonly alpha: number;
  /** The offset of the error scale √(people + offset), persons. */
  readonly offset: number;
  /** Variance of a scaled error within a day. */
  readonly withinVariance: number;
  /** Variance of a day's mean scaled error from one day to the next. */
  readonly dayVariance: number;
  /** Degrees of freedom behind `dayVariance` (days − 1, plus the prior's). */
  readonly df: number;
  /** Counted days and intervals the fit rests on. */
  readonly days: number;
  readonly intervals: number;
  /** Mean absolute error of the fit on each counted day when fitted without it (leave one day out, weighted as the fit), persons. */
  readonly validationMae: number;
}

/**
 * People inside an interval by a shop's {@link PeopleModel}, with its two-sided `level` interval:
 * the model's errors on days it was not fitted on, within a day and from day to day (Student's
 * t at the model's degrees of freedom), plus the drift of a calibration with age (`driftLogVariance`:
 * the variance of ln(people per feature) it has gathered since the counts).
 *
 * @param model the shop's model
 * @param features the interval's features, in the order of `model.features`
 * @param level two-sided coverage (0.9)
 * @param driftLogVariance variance of ln people added by the calibration's age (0 within its span)
 * @example
 * const m: PeopleModel = { features: ["randomized ge-60"], intercept: 0, coefficients: [0.5], alpha: 0, offset: 5, withinVariance: 0.5, dayVariance: 0.5, df: 4, days: 3, intervals: 30, validationMae: 1.2 };
 * const { inside, low, high } = modelledPeople(m, [20], 0.9, 0);
 * inside; // 10
 * low < 10 && high > 10; // true
 */
export function modelledPeople(model: PeopleModel, features: readonly number[], level: number, driftLogVariance: number): { inside: number; low: number; high: number } {
  let y = model.intercept;
  for (let j = 0; j < model.coefficients.length; j++) y += model.coefficients[j]! * (features[j] ?? 0);
  const inside = y > 0 ? y : 0;
  const p = 0.5 + level / 2;
  const t = studentQuantile(p, model.df);
  const z = normalQuantile(p, 0, 1);
  const spread = t * t * (model.withinVariance + model.dayVariance) * (inside + model.offset) + z * z * driftLogVariance * inside * inside;
  const half = Math.sqrt(spread);
  return { inside, low: Math.max(0, inside - half), high: inside + half };
}
