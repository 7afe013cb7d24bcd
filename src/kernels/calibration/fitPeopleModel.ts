import { fcnnlsVector } from "ml-fcnnls";
import { Matrix } from "ml-matrix";
import type { PeopleModel } from "./PeopleModel.ts";

/**
 * One counted interval for {@link fitPeopleModel}: its local day, the people counted inside
 * (mean over the interval), its features, and its weight (newer days weigh more).
 *
 * @example
 * const row: ModelRow = { day: "2024-03-14", people: 12, features: [3, 8, 2, 0, 0, 0.4, 0, 0, 0, 0, 9], weight: 1 };
 */
export interface ModelRow {
  readonly day: string;
  readonly people: number;
  readonly features: readonly number[];
  readonly weight: number;
}

/**
 * Ridge penalties {@link fitPeopleModel} chooses from, per unit of weight, on standardized
 * features: from none (least squares) to one that leaves little but the mean.
 *
 * @example
 * MODEL_ALPHAS[0]; // 0
 */
export const MODEL_ALPHAS: readonly number[] = Object.freeze([0, 0.001, 0.003, 0.01, 0.03, 0.1, 0.3, 1, 3, 10, 30]);

/** The offset of the error scale √(people + offset), persons: errors grow with the count, and stay finite for an empty room. */
const ERROR_OFFSET = 5;
/**
 * The prior of the day-to-day spread of scaled errors (standard deviation) and the days it weighs:
 * with two or three counted days a fitted spread is mostly noise, and intervals that trusted it
 * held the count in 76–78 % of new days in the Brno lab. 1.0 is the smallest prior that held it
 * in at least 90 % on the lab's days before July 2023 with 3, 10 and all previous days (chosen
 * there, never on later days; docs/real-captures.md).
 */
const DAY_SD_PRIOR = 1;
const DAY_SD_PRIOR_DAYS = 2;
/** A ridge this small keeps a constant feature (no stationary device) from making the system singular. */
const MIN_PENALTY = 1e-9;

interface Fit {
  readonly intercept: number;
  readonly coefficients: number[];
}

// Weighted NNLS-ridge on standardized features: centred (the intercept free) or through 0.
function solve(rows: readonly ModelRow[], p: number, alpha: number, withIntercept: boolean): Fit {
  let w = 0;
  const mean = new Array<number>(p).fill(0);
  let ym = 0;
  for (const r of rows) {
    w += r.weight;
    if (!withIntercept) continue;
    ym += r.weight * r.people;
    for (let j = 0; j < p; j++) mean[j]! += r.weight * r.features[j]!;
  }
  if (withIntercept) {
    ym /= w;
    for (let j = 0; j < p; j++) mean[j]! /= w;
  }
  const sd = new Array<number>(p).fill(0);
  for (const r of rows) for (let j = 0; j < p; j++) sd[j]! += r.weight * (r.features[j]! - mean[j]!) ** 2;
  for (let j = 0; j < p; j++) {
    const s = Math.sqrt(sd[j]! / w);
    sd[j] = s > 1e-9 ? s : 1;
  }
  // The penalty as p more rows: ‖√w (y − ȳ − Zβ)‖² + α W ‖β‖², β ≥ 0.
  const penalty = Math.sqrt((alpha + MIN_PENALTY) * w);
  const x = new Matrix(rows.length + p, p);
  const y = new Array<number>(rows.length + p).fill(0);
  rows.forEach((r, i) => {
    const root = Math.sqrt(r.weight);
    for (let j = 0; j < p; j++) x.set(i, j, (root * (r.features[j]! - mean[j]!)) / sd[j]!);
    y[i] = root * (r.people - ym);
  });
  for (let j = 0; j < p; j++) x.set(rows.length + j, j, penalty);
  const beta = fcnnlsVector(x, y).K.to1DArray();
  const coefficients = beta.map((b, j) => b / sd[j]!);
  let intercept = ym;
  for (let j = 0; j < p; j++) intercept -= coefficients[j]! * mean[j]!;
  return { intercept, coefficients };
}

function predict(f: Fit, features: readonly number[]): number {
  let y = f.intercept;
  for (let j = 0; j < f.coefficients.length; j++) y += f.coefficients[j]! * features[j]!;
  return y > 0 ? y : 0;
}

/**
 * Fits a shop's {@link PeopleModel} on counted intervals of at least two days: non-negative
 * ridge regression on standardized features (a feature may add people, never take them away:
 * eleven features that move together would otherwise cancel each other out on three days and
 * explode on the fourth), weighted by `weight` (newer days more: persons per MAC drift over
 * months). The penalty, and whether the model has an intercept, are chosen by leaving one
 * counted day out at a time: each candidate is fitted on the other days and scored on the day
 * left out, and the one with the least mean absolute error is fitted on all. The errors of that
 * choice on the days left out, scaled by √(prediction + 5), give the model's spread: within a day,
 * and from day to day with a prior of 1.0 worth two days.
 *
 * What it does not know it does not claim: a feature with no spread in the counted days (no
 * stationary device) gets no weight; predictions are never below 0.
 *
 * @param rows counted intervals (any order); their `features` all of one length
 * @param featureNames the features' names, stored with the model
 * @returns the model, or `undefined` with fewer than two counted days
 * @example
 * const rows: ModelRow[] = [];
 * for (const [d, day] of ["2024-03-07", "2024-03-14", "2024-03-21"].entries()) {
 *   for (let i = 0; i < 12; i++) rows.push({ day, people: 2 + i + d, features: [4 * (2 + i + d)], weight: 1 });
 * }
 * const model = fitPeopleModel(rows, ["randomized ge-60"])!;
 * Math.round(model.coefficients[0]! * 100) / 100; // 0.25
 */
export function fitPeopleModel(rows: readonly ModelRow[], featureNames: readonly string[]): PeopleModel | undefined {
  const p = featureNames.length;
  for (const r of rows) {
    if (r.features.length !== p) throw new RangeError(`fitPeopleModel: a row of ${r.day} has ${r.features.length} features, not ${p}`);
    if (!(r.weight > 0) || !Number.isFinite(r.people)) throw new RangeError(`fitPeopleModel: a row of ${r.day} has weight ${r.weight} and people ${r.people}`);
  }
  // A canonical order, so the same rows give the same model to the last digit.
  const sorted = [...rows].sort((a, b) => (a.day < b.day ? -1 : a.day > b.day ? 1 : 0) || a.people - b.people || compareFeatures(a.features, b.features));
  const days = [...new Set(sorted.map((r) => r.day))];
  if (days.length < 2) return undefined;
  const byDay = days.map((d) => sorted.filter((r) => r.day === d));
  let best: { alpha: number; withIntercept: boolean; error: number } | undefined;
  // A day left out counts by its weight, as it does in the fit: an old day that weighs little
  // must not choose a model for the newest ones.
  let weight = 0;
  for (const r of sorted) weight += r.weight;
  for (const withIntercept of [true, false]) {
    const error = new Array<number>(MODEL_ALPHAS.length).fill(0);
    for (let k = 0; k < byDay.length; k++) {
      const train = byDay.flatMap((d, i) => (i === k ? [] : d));
      MODEL_ALPHAS.forEach((alpha, a) => {
        const f = solve(train, p, alpha, withIntercept);
        for (const r of byDay[k]!) error[a]! += r.weight * Math.abs(predict(f, r.features) - r.people);
      });
    }
    MODEL_ALPHAS.forEach((alpha, a) => {
      if (best === undefined || error[a]! < best.error - 1e-9) best = { alpha, withIntercept, error: error[a]! };
    });
  }
  const chosen = best!;
  // The chosen model's errors on each day left out, on the scale √(prediction + offset).
  const dayMeans: number[] = [];
  let within = 0;
  let withinDf = 0;
  for (let k = 0; k < byDay.length; k++) {
    const f = solve(
      byDay.flatMap((d, i) => (i === k ? [] : d)),
      p,
      chosen.alpha,
      chosen.withIntercept,
    );
    const scores = byDay[k]!.map((r) => {
      const yhat = predict(f, r.features);
      return (r.people - yhat) / Math.sqrt(yhat + ERROR_OFFSET);
    });
    const m = scores.reduce((a, s) => a + s, 0) / scores.length;
    dayMeans.push(m);
    for (const s of scores) within += (s - m) ** 2;
    withinDf += scores.length - 1;
  }
  const grand = dayMeans.reduce((a, m) => a + m, 0) / dayMeans.length;
  const between = dayMeans.reduce((a, m) => a + (m - grand) ** 2, 0) / (dayMeans.length - 1);
  const k = dayMeans.length;
  const dayVariance = ((k - 1) * between + DAY_SD_PRIOR_DAYS * DAY_SD_PRIOR * DAY_SD_PRIOR) / (k - 1 + DAY_SD_PRIOR_DAYS);
  const fit = solve(sorted, p, chosen.alpha, chosen.withIntercept);
  return Object.freeze({
    features: Object.freeze([...featureNames]),
    intercept: fit.intercept,
    coefficients: Object.freeze(fit.coefficients),
    alpha: chosen.alpha,
    offset: ERROR_OFFSET,
    withinVariance: withinDf > 0 ? within / withinDf : 0,
    dayVariance,
    df: k - 1 + DAY_SD_PRIOR_DAYS,
    days: k,
    intervals: sorted.length,
    validationMae: chosen.error / weight,
  });
}

function compareFeatures(a: readonly number[], b: readonly number[]): number {
  for (let j = 0; j < a.length; j++) if (a[j] !== b[j]) return a[j]! - b[j]!;
  return 0;
}
