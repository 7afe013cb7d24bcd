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
