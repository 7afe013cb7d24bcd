import type { BurstYardstick } from "./burstYardstick.ts";
import type { Calibration } from "./Calibration.ts";
import { CALIBRATION_FEATURES } from "./calibrationFeatures.ts";
import { fitPeopleModel, type ModelRow } from "./fitPeopleModel.ts";
import { fnv1a } from "../../stats/fnv1a.ts";
import { randomEffects } from "../../stats/randomEffects.ts";

/**
 * One counted interval beside footfall's figures for it: people counted inside (time-weighted
 * mean over the covered part) and what the estimate saw (its identity-known part, the other
 * persons' inside bursts, and the interval's features, `CALIBRATION_FEATURES`).
 *
 * @example
 * const o: IntervalObservation = { kind: "interval", shopId: 61, day: "2024-03-14", start: 0, end: 900_000, people: 12, knownInside: 1.5, insideBursts: 240, features: [3, 8, 2, 0, 0, 0.4, 0, 0, 0, 0, 9] };
 */
export interface IntervalObservation {
  readonly kind: "interval";
  readonly shopId: number;
  /** Local date of the interval (the days the fit pools over). */
  readonly day: string;
  /** Interval, epoch ms ([start, end)). */
  readonly start: number;
  readonly end: number;
  /** Persons counted inside (mean over the interval). */
  readonly people: number;
  /** The estimate's identity-known persons inside (`OccupancyInterval.knownInside`). */
  readonly knownInside: number;
  /** The other persons' inside bursts (`OccupancyInterval.insideBursts`). */
  readonly insideBursts: number;
  /** The interval's features (`OccupancyInterval.features`, in the order of `CALIBRATION_FEATURES`). */
  readonly features: readonly number[];
}

/**
 * One day's entrance count beside footfall's figures for the day.
 *
 * @example
 * const o: DayObservation = { kind: "day", shopId: 61, day: "2024-03-14", start: 0, end: 86_400_000, visitors: 180, knownVisitors: 12, restBursts: 4100, meanDwellMs: 1_500_000, dwellRelVar: 0.02 };
 */
export interface DayObservation {
  readonly kind: "day";
  readonly shopId: number;
  readonly day: string;
  /** The local day, epoch ms. */
  readonly start: number;
  readonly end: number;
  /** Persons counted entering. */
  readonly visitors: number;
  /** The estimate's identity-known visitors (`PeopleEstimate.knownVisitors`). */
  readonly knownVisitors: number;
  /** The other persons' inside bursts over the day (`PeopleEstimate.restBursts`). */
  readonly restBursts: number;
  /** Mean stay the estimate divides by (`PeopleEstimate.meanDwellMs`), ms. */
  readonly meanDwellMs: number;
  /** Relative sampling variance of that mean stay (0 when unknown). */
  readonly dwellRelVar: number;
}

/** A counted observation the fit rests on. */
export type CalibrationObservation = IntervalObservation | DayObservation;

/**
 * Options of {@link fitCalibration}.
 *
 * @example
 * const o: FitCalibrationOptions = { prior: realPhonesPrior, settings: { intervalMs: 900_000, timeZone: "Europe/Prague" } };
 */
export interface FitCalibrationOptions {
  /** The prior the estimates were made with (its person spread and universal share are kept). */
  readonly prior: BurstYardstick;
  /**
   * Half-life of a counted day's weight in the shop's model, days before the newest counted day:
   * persons per MAC drift over months (about 0.37 in late 2022 and 0.5–0.7 from 2023 on in the
   * Brno lab), so the newest counts weigh most. 30 days was chosen on the lab's early days.
   * @default 30
   */
  readonly halfLifeDays?: number;
  /** The analysis settings of the estimates (`visitorRssi`: the fixed threshold they were classified at, else `"auto"`, the default). */
  readonly settings: { readonly intervalMs: number; readonly timeZone: string; readonly visitorRssi?: number | "auto" };
}

/**
 * Fewest counted intervals with people inside (or daily counts) for a calibration to be trusted:
 * eight quarter-hours is two hours of counting, about what the UCL high-street study's twelve
 * half-hour counts per site gave, and the least that shows the scatter the interval needs.
 */
export const MIN_TRUSTED_INTERVALS = 8;
/** Fewest counted days of intervals for a shop's model: leaving a day out to choose it needs two. */
export const MIN_MODEL_DAYS = 2;
/** Fewest daily entrance counts for a calibration on them alone to be trusted. */
export const MIN_TRUSTED_DAILY = 3;

// The day-to-day spread of ln ρ (τ) before any days are seen, and how many days it weighs: with
// two or three counted days a fitted τ is mostly noise (it can be 0), and a calibration that
// claimed days never differ would be too sure of the next one. 0.4 is the spread of ln(bursts per
// person) between the Brno lab's counted days (38 days with classes: 0.41, with no correlation
// from one day to the next).
const TAU_PRIOR = 0.4;
const TAU_PRIOR_DAYS = 2;
/** A fit this far (ln) from the prior's yardstick is flagged: 3.3 prior σ (0.6) — the counts or the shop id are likely wrong. */
const FAR_FROM_PRIOR = 2;

/**
 * Fits each shop's burst yardstick ρ (bursts heard inside per person per minute) on counted
 * people, as a random-effects model over the counted days.
 *
 * 1. **Each counted interval** with people inside (more than its identity-known part) says
 *    ln ρ = ln(B ÷ (y · T)) + ½ ln(1 + cv²/y), y the persons behind the bursts B over T minutes,
 *    cv the persons' spread of rates (the estimate is median-unbiased for it, so the fit is too),
 *    with variance ln(1 + cv²/y) + 1/B. Each **daily entrance count** says the same of the
 *    day's bursts over visitors × mean stay (Little's law), with the stay's sampling variance.
 * 2. **Per day**, the intervals (and the daily count) are pooled by inverse variance; the
 *    scatter around the day's value beyond what the variances explain is the overdispersion φ
 *    (≥ 1), pooled over the days, which widens each day's variance and the calibrated estimate's
 *    within-interval spread.
 * 3. **Over days**, random effects ({@link randomEffects}): the counts' ρ and its standard
 *    error, and the day-to-day spread τ (with a prior of 0.4 over two days: a few days cannot
 *    show it). The counts then update the prior's yardstick (normal on ln ρ, precision-weighted):
 *    ρ̂ and its standard error. A new day's ln ρ is uncertain by se² + τ² (+ drift with age, see
 *    `calibratedYardstick`).
 *
 * Trusted when it rests on at least {@link MIN_TRUSTED_INTERVALS} counted intervals or
 * {@link MIN_TRUSTED_DAILY} daily counts, and lies within reach of the prior; otherwise it is still
 * returned, `trusted: false`, with the reasons in `warnings`. Shops without any usable count get
 * no calibration (the caller says so).
 *
 * @param observations counted intervals and days of any shops, any order
 * @returns one calibration per shop with a usable count, by SHOP ID ascending
 * @example
 * const observations: CalibrationObservation[] = [12, 15, 9].map((people, i) => ({ kind: "interval", shopId: 61, day: "2024-03-14", start: i * 900_000, end: (i + 1) * 900_000, people, knownInside: 0, insideBursts: people * 20 }));
 * const [c] = fitCalibration(observations, { prior: realPhonesPrior, settings: { intervalMs: 900_000, timeZone: "Europe/Prague" } });
 * c?.trusted; // false (three counted intervals are few)
 */
export function fitCalibration(observations: readonly CalibrationObservation[], options: FitCalibrationOptions): Calibration[] {
  const { prior, settings } = options;
  const cv2 = prior.personCv * prior.personCv;
  const byShop = new Map<number, CalibrationObservation[]>();
  for (const o of observations) {
    const list = byShop.get(o.shopId);
    if (list === undefined) byShop.set(o.shopId, [o]);
    else list.push(o);
  }
  const out: Calibration[] = [];
  for (const shopId of [...byShop.keys()].sort((a, b) => a - b)) {
    // Per observation: ln ρ and its variance; grouped by day.
    const days = new Map<string, { y: number[]; v: number[] }>();
    let intervals = 0;
    let dailyCounts = 0;
    let personHours = 0;
    let start = Number.POSITIVE_INFINITY;
    let end = Number.NEGATIVE_INFINITY;
    // A canonical order, so the same counts give the same sums to the last digit (and the same id).
    const list = [...byShop.get(shopId)!].sort((a, b) => (a.day < b.day ? -1 : a.day > b.day ? 1 : 0) || a.start - b.start || (a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0));
    for (const o of list) {
      let lnRho: number;
      let variance: number;
      if (o.kind === "interval") {
        const persons = o.people - o.knownInside;
        // The identity-known part explains the count: nothing here measures bursts per person.
        if (!(persons >= 0.5)) continue;
        const minutes = (o.end - o.start) / 60_000;
        const spread = Math.log(1 + cv2 / persons);
        // Half a burst keeps ln finite where persons were counted and none was heard.
        const bursts = Math.max(o.insideBursts, 0.5);
        lnRho = Math.log(bursts / (persons * minutes)) + spread / 2;
        variance = spread + 1 / bursts;
        intervals++;
        personHours += (o.people * minutes) / 60;
      } else {
        const persons = o.visitors - o.knownVisitors;
        if (!(persons >= 0.5) || !(o.meanDwellMs > 0)) continue;
        const bursts = Math.max(o.restBursts, 0.5);
        // A visit's bursts vary by the person's rate and the stay: CV² of a product, over `persons` visits.
        lnRho = Math.log(bursts / ((persons * o.meanDwellMs) / 60_000));
        variance = Math.log(1 + cv2 / persons) + 1 / bursts + (Number.isFinite(o.dwellRelVar) ? o.dwellRelVar : 0);
        dailyCounts++;
      }
      start = Math.min(start, o.start);
      end = Math.max(end, o.end);
      const day = days.get(o.day) ?? { y: [], v: [] };
      day.y.push(lnRho);
      day.v.push(variance);
      days.set(o.day, day);
    }
    if (days.size === 0) continue;
    // Per day: inverse-variance mean; overdispersion from the scatter around it, pooled over days.
    const dayY: number[] = [];
    const dayV: number[] = [];
    let chi2 = 0;
    let dof = 0;
    for (const label of [...days.keys()].sort()) {
      const { y, v } = days.get(label)!;
      let sw = 0;
      let swy = 0;
      for (let i = 0; i < y.length; i++) {
        sw += 1 / v[i]!;
        swy += y[i]! / v[i]!;
      }
      const mean = swy / sw;
      for (let i = 0; i < y.length; i++) chi2 += (y[i]! - mean) ** 2 / v[i]!;
      dof += y.length - 1;
      dayY.push(mean);
      dayV.push(1 / sw);
    }
    const overdispersion = dof > 0 ? Math.max(1, chi2 / dof) : 1;
    const pooled = randomEffects(
      dayY,
      dayV.map((v) => v * overdispersion),
    );
    const k = dayY.length;
    const tau2 = (Math.max(0, pooled.tau2) * Math.max(0, k - 1) + TAU_PRIOR * TAU_PRIOR * TAU_PRIOR_DAYS) / (Math.max(0, k - 1) + TAU_PRIOR_DAYS);
    // The mean's variance with the shrunk τ² (randomEffects used its own τ̂²).
    let sw = 0;
    let swy = 0;
    for (let i = 0; i < k; i++) {
      const w = 1 / (dayV[i]! * overdispersion + tau2);
      sw += w;
      swy += w * dayY[i]!;
    }
    // The counts update the prior (the place-to-place spread of real phones' yardstick): with a
    // day or two of counts the prior still weighs, with many the counts alone speak.
    const priorLn = Math.log(prior.burstsPerMinute);
    const priorPrecision = prior.logVariance > 0 ? 1 / prior.logVariance : 0;
    const dataLn = swy / sw;
    const lnRho = (priorLn * priorPrecision + dataLn * sw) / (priorPrecision + sw);
    const logSe = Math.sqrt(1 / (priorPrecision + sw));
    const model = fitShopModel(list, options.halfLifeDays ?? 30);
    const warnings: string[] = [];
    if (intervals < MIN_TRUSTED_INTERVALS && dailyCounts < MIN_TRUSTED_DAILY) {
      warnings.push(`few counts: ${intervals} counted interval${intervals === 1 ? "" : "s"} with people inside and ${dailyCounts} daily count${dailyCounts === 1 ? "" : "s"} (a trusted calibration needs ${MIN_TRUSTED_INTERVALS} intervals or ${MIN_TRUSTED_DAILY} daily counts)`);
    }
    if (model !== null) {
      // A model that errs on a day it did not see by as much as the people counted says nothing.
      const counted = list.filter((o): o is IntervalObservation => o.kind === "interval" && o.people > 0);
      const meanPeople = counted.reduce((x, o) => x + o.people, 0) / counted.length;
      if (model.validationMae >= meanPeople) {
        warnings.push(`the model errs by ${model.validationMae.toFixed(1)} persons on a counted day it was fitted without, as much as the ${meanPeople.toFixed(1)} counted on average`);
      }
    }
    if (Math.abs(dataLn - priorLn) > FAR_FROM_PRIOR) {
      warnings.push(`far from real phones: the counts say ${Math.exp(dataLn).toFixed(3)} bursts per person per minute against ${prior.burstsPerMinute} (check the counts and the shop id)`);
    }
    const body = {
      shopId,
      start,
      end,
      burstsPerMinute: Math.exp(lnRho),
      countedBurstsPerMinute: Math.exp(dataLn),
      logSe,
      dayLogSd: Math.sqrt(tau2),
      personCv: prior.personCv,
      universalPersonShare: prior.universalPersonShare,
      overdispersion,
      counts: { intervals, dailyCounts, days: k, personHours },
      model,
      settings: { intervalMs: settings.intervalMs, timeZone: settings.timeZone, visitorRssi: settings.visitorRssi ?? "auto" },
      trusted: warnings.length === 0,
      warnings,
    };
    out.push(Object.freeze({ id: `cal-${shopId}-${contentId(JSON.stringify(body))}`, ...body }));
  }
  return out;
}

// A content id of 8 hex digits, not a secret: the same fit, the same id.
function contentId(text: string): string {
  return fnv1a(text).toString(16).padStart(8, "0");
}

// The shop's model on its counted intervals with people inside (MIN_MODEL_DAYS days at least),
// each day weighted by its age before the newest: 0.5^(age / half-life).
function fitShopModel(list: readonly CalibrationObservation[], halfLifeDays: number) {
  const counted = list.filter((o): o is IntervalObservation => o.kind === "interval" && o.people > 0);
  if (new Set(counted.map((o) => o.day)).size < MIN_MODEL_DAYS || counted.length < MIN_TRUSTED_INTERVALS) return null;
  const dayMs = (day: string): number => Date.parse(`${day}T00:00:00Z`);
  const newest = Math.max(...counted.map((o) => dayMs(o.day)));
  const rows: ModelRow[] = counted.map((o) => ({ day: o.day, people: o.people, features: o.features, weight: 0.5 ** ((newest - dayMs(o.day)) / 86_400_000 / halfLifeDays) }));
  return fitPeopleModel(rows, CALIBRATION_FEATURES) ?? null;
}
