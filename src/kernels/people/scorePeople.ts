import { dwellStats } from "../visits/dwellStats.ts";
import { hasPeopleEstimate } from "./hasPeopleEstimate.ts";
import type { PeopleEstimate } from "./PeopleEstimate.ts";

/**
 * The person-level truth a people estimate is scored on, as questions (the simulator's
 * `peopleTruth(world)` answers them; a manual count at the door could answer the first two, a
 * stopwatch the third). Kernels know no simulator, so the truth comes in as functions.
 *
 * @example
 * const truth: PeopleTruth = { visitors: () => 412, inside: () => 7.5, dwells: () => [1_380_000, 600_000] };
 */
export interface PeopleTruth {
  /** People who came inside shop `shopId` with a visit starting in [startMs, endMs) (epoch ms). */
  visitors(shopId: number, startMs: number, endMs: number): number;
  /** Mean number of visitors inside shop `shopId` over [startMs, endMs), people (staff left out, as the estimate leaves them out). */
  inside(shopId: number, startMs: number, endMs: number): number;
  /**
   * True dwell (departure − arrival, ms) of each visitor visit inside shop `shopId` starting in
   * [startMs, endMs), one entry per visit. Optional: without it the dwell is not scored (`NaN`).
   */
  dwells?(shopId: number, startMs: number, endMs: number): readonly number[];
}

/**
 * One shop-day of a people estimate against the truth.
 *
 * @example
 * const score = scorePeople(result.people, { visitors: () => 20, inside: () => 1 });
 * const d: PeopleDayScore = score.days[0]!;
 * console.log(d.label, d.truth, d.visitors, d.covered ? "inside the interval" : "missed");
 */
export interface PeopleDayScore {
  readonly shopId: number;
  /** Local date, `YYYY-MM-DD`. */
  readonly label: string;
  /** Start and end of the local day, epoch ms. */
  readonly start: number;
  readonly end: number;
  /** People who came inside that day (truth). */
  readonly truth: number;
  /** The estimate and its interval (`NaN` when the estimator had no burst rate to learn from). */
  readonly visitors: number;
  readonly visitorsLow: number;
  readonly visitorsHigh: number;
  /** (visitors − truth) ÷ truth; `NaN` when the truth is 0 or there is no estimate. */
  readonly error: number;
  /** Whether visitorsLow ≤ truth ≤ visitorsHigh. */
  readonly covered: boolean;
  /** True mean visitors inside per occupancy interval, aligned with the estimate's `occupancy`. */
  readonly trueInside: readonly number[];
  /** Occupancy intervals whose band (insideLow…insideHigh) holds the true mean. */
  readonly intervalsCovered: number;
  /** The day's occupancy: Σ |inside − true inside| ÷ Σ true inside (`NaN` when nobody was inside). */
  readonly occupancyMae: number;
  /** True median dwell of the day's visits, ms (`dwellStats` of `truth.dwells`; `NaN` without them or without visits). */
  readonly trueMedianDwellMs: number;
  /**
   * The estimate's median dwell (`dwell.medianMs`, the identity-known visits') − the true median,
   * ms: negative when visits read shorter than they were. `NaN` when unavailable: no estimate
   * (the summary's dwell is then MAC-level), no identity-known visit, or no dwell truth.
   */
  readonly medianDwellErrorMs: number;
}

/**
 * A people estimate scored against the truth, per shop-day and over all of them.
 *
 * @example
 * const s: PeopleScore = scorePeople(result.people, { visitors: () => 20, inside: () => 1 });
 * console.log(`${s.covered}/${s.days.length} shop-day intervals hold the truth; occupancy MAE ${(100 * s.occupancyMae).toFixed(1)} % of the mean`);
 * console.log(`median dwell off by ${(s.meanAbsMedianDwellErrorMs / 1000).toFixed(0)} s a shop-day`); // NaN here: no dwell truth
 */
export interface PeopleScore {
  readonly days: readonly PeopleDayScore[];
  /** Σ truth over the shop-days, people. */
  readonly truth: number;
  /** Σ estimates over the shop-days with an estimate, people. */
  readonly visitors: number;
  /** (Σ estimates − Σ truth) ÷ Σ truth over the shop-days with an estimate (`NaN` when none). */
  readonly totalError: number;
  /** Mean |error| over the shop-days with a defined error (`NaN` when none). */
  readonly meanAbsError: number;
  /** Shop-days whose interval holds the truth. */
  readonly covered: number;
  /** Occupancy: Σ |inside − true inside| ÷ Σ true inside over every interval, i.e. the mean absolute error as a share of the mean occupancy (`NaN` when nobody was ever inside). */
  readonly occupancyMae: number;
  /** Occupancy intervals scored, and how many of their bands hold the true mean. */
  readonly intervals: number;
  readonly intervalsCovered: number;
  /** Mean |medianDwellErrorMs| over the shop-days where it is defined, ms (`NaN` when none). */
  readonly meanAbsMedianDwellErrorMs: number;
}

/**
 * Scores people estimates (`PeopleEstimate`, from `analyze().people`, `estimatePeople` or the
 * kernel) against person-level truth: per shop-day the visitors estimate against the people who
 * came inside and whether its 90 % interval holds them; per occupancy interval the estimated mean
 * inside against the true mean; and, when the truth has `dwells`, the estimate's median dwell
 * against the true median of the visits. The one scoring rule behind the demo's accuracy table,
 * its report and the notebooks (the goals: visitors error, interval coverage, occupancy
 * MAE as a share of the mean occupancy).
 *
 * @example
 * const truth: PeopleTruth = { visitors: () => 20, inside: () => 1, dwells: () => [600_000, 1_200_000, 1_800_000] };
 * const s = scorePeople(result.people, truth);
 * s.days[0]!.truth;             // 20
 * s.days[0]!.trueMedianDwellMs; // 1200000
 */
export function scorePeople(estimates: readonly PeopleEstimate[], truth: PeopleTruth): PeopleScore {
  if (!Array.isArray(estimates)) throw new TypeError("scorePeople: estimates must be an array of PeopleEstimate");
  if (typeof truth?.visitors !== "function" || typeof truth.inside !== "function") throw new TypeError("scorePeople: truth must have visitors() and inside() functions");
  if (truth.dwells !== undefined && typeof truth.dwells !== "function") throw new TypeError("scorePeople: truth.dwells must be a function when given");
  const days: PeopleDayScore[] = [];
  let truthSum = 0;
  let estimated = 0;
  let truthOfEstimated = 0;
  let absErrorSum = 0;
  let errors = 0;
  let covered = 0;
  let occupancyAbs = 0;
  let occupancyTruth = 0;
  let intervals = 0;
  let intervalsCovered = 0;
  let dwellAbsSum = 0;
  let dwellErrors = 0;
  for (const p of estimates) {
    const t = truth.visitors(p.shopId, p.start, p.end);
    const hasEstimate = hasPeopleEstimate(p);
    const error = hasEstimate && t > 0 ? (p.visitors - t) / t : Number.NaN;
    const inInterval = hasEstimate && p.visitorsLow <= t && t <= p.visitorsHigh;
    const trueInside: number[] = [];
    let dayCovered = 0;
    let dayAbs = 0;
    let dayTruth = 0;
    for (const o of p.occupancy) {
      const ti = truth.inside(p.shopId, o.start, o.end);
      trueInside.push(ti);
      dayAbs += Math.abs(o.inside - ti);
      dayTruth += ti;
      intervals++;
      if (o.insideLow <= ti && ti <= o.insideHigh) dayCovered++;
    }
    intervalsCovered += dayCovered;
    occupancyAbs += dayAbs;
    occupancyTruth += dayTruth;
    truthSum += t;
    if (hasEstimate) {
      estimated += p.visitors;
      truthOfEstimated += t;
    }
    if (Number.isFinite(error)) {
      absErrorSum += Math.abs(error);
      errors++;
    }
    if (inInterval) covered++;
    // The same median rule (dwellStats) on both sides; scored only where the summary shows the
    // estimate's dwell (shopDayDwell: with an estimate), so the score is of the figure shown.
    const trueMedianDwellMs = truth.dwells === undefined ? Number.NaN : dwellStats(truth.dwells(p.shopId, p.start, p.end)).medianMs;
    const medianDwellErrorMs = hasEstimate ? p.dwell.medianMs - trueMedianDwellMs : Number.NaN;
    if (Number.isFinite(medianDwellErrorMs)) {
      dwellAbsSum += Math.abs(medianDwellErrorMs);
      dwellErrors++;
    }
    days.push({
      shopId: p.shopId,
      label: p.label,
      start: p.start,
      end: p.end,
      truth: t,
      visitors: p.visitors,
      visitorsLow: p.visitorsLow,
      visitorsHigh: p.visitorsHigh,
      error,
      covered: inInterval,
      trueInside,
      intervalsCovered: dayCovered,
      occupancyMae: dayTruth > 0 ? dayAbs / dayTruth : Number.NaN,
      trueMedianDwellMs,
      medianDwellErrorMs,
    });
  }
  return {
    days,
    truth: truthSum,
    visitors: estimated,
    totalError: truthOfEstimated > 0 ? (estimated - truthOfEstimated) / truthOfEstimated : Number.NaN,
    meanAbsError: errors > 0 ? absErrorSum / errors : Number.NaN,
    covered,
    occupancyMae: occupancyTruth > 0 ? occupancyAbs / occupancyTruth : Number.NaN,
    intervals,
    intervalsCovered,
    meanAbsMedianDwellErrorMs: dwellErrors > 0 ? dwellAbsSum / dwellErrors : Number.NaN,
  };
}
