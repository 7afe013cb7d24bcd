import { dwellStats } from "../visits/dwellStats.ts";
import type { TwoSided } from "../../stats/twoSided.ts";
import type { RateModel } from "./rateModel.ts";
import type { SessionWindow } from "../visits/SessionWindows.ts";
import { band } from "./band.ts";
import { burstsOf, type DayModel } from "./dayModel.ts";
import { heardInside } from "../phones/heardInside.ts";
import type { OccupancyInterval, PeopleEstimate } from "./PeopleEstimate.ts";
import type { ResolvedPeopleEstimatorOptions } from "./peopleEstimatorOptions.ts";

/**
 * The day's people, all but the occupancy: visitors with their band, passers-by and capture
 * rate, the parts and the sample they come from. With a shop's learned model, the visitors come
 * from the day's occupancy (every interval of the day so far). Internal: `PeopleEstimator`'s day
 * estimate and `LiveOccupancy`'s day so far.
 *
 * @param occupancy the day's intervals from its start (needed with a learned model)
 * @example
 * const o = peopleEstimatorOptions();
 * const day = { shopId: 101, window: "day" as const, label: "2026-11-16", start: 0, end: 86_400_000 };
 * peopleOfDay(dayModel([], day, o), day, o, []).visitors; // 0
 */
export function peopleOfDay(model: DayModel, w: SessionWindow, o: ResolvedPeopleEstimatorOptions, occupancy: readonly OccupancyInterval[]): Omit<PeopleEstimate, "occupancy"> {
  const { rest, linked, known, yardstick } = model;
  // A device is one visitor however many visits it made, and as much of a person as its weight
  // (a universal-MAC laptop or PC is a device, not a person: `universalPersonWeight`).
  const devices = new Map<string, number>();
  for (const k of known) devices.set(k.device, k.weight);
  let knownVisitors = 0;
  for (const weight of devices.values()) knownVisitors += weight;
  let restBursts = 0;
  let outsideBursts = 0;
  let universalPassers = 0;
  let universalPasserBursts = 0;
  for (const s of rest) {
    if (s.kind === "passerby" && !s.randomized && !heardInside(s)) {
      universalPassers++;
      universalPasserBursts += s.probeCount;
    }
    if (!heardInside(s)) outsideBursts += burstsOf(model, s);
    else if (s.randomized) restBursts += burstsOf(model, s);
  }
  // Nothing heard outside is no one outside, with or without universal passers-by to scale by.
  const passersBy = outsideBursts === 0 ? 0 : universalPassers > 0 ? outsideBursts / (universalPasserBursts / universalPassers) : Number.NaN;
  return {
    ...w,
    ...visitorsOf(knownVisitors, restBursts, passersBy, model, occupancy, model.people !== null, o.interval),
    knownVisitors,
    passersBy,
    linkedSessions: linked.size,
    restBursts,
    yardstick,
    calibration: model.calibration,
    sample: model.sample,
    pooledDays: 1,
    dwell: dwellStats(known.map((k) => k.estimated)),
  };
}

/**
 * The day's visitors from its data — identity-known visitors, the other phones' inside bursts,
 * passers-by — and a rate model: the one visitor rule, for a day's own model and for a pooled
 * one (`poolPeople`). Internal: {@link peopleOfDay} and a day estimated again.
 *
 * @example
 * visitorFigures(3, 0, 0, dayModel([], { shopId: 101, start: 0 }, peopleEstimatorOptions()), twoSided(0.9)).visitors; // 3
 */
export function visitorFigures(knownVisitors: number, restBursts: number, passersBy: number, model: RateModel, interval: TwoSided) {
  const { rate, phi, m, rateRelVar, meanDwell, n, dwellRelVar, dwellCoxRelVar } = model;
  const restVisitors = restBursts > 0 ? (restBursts / (rate * meanDwell)) * bealeFactor(dwellRelVar) : 0;
  // Visits differ in bursts by the persons' rates (φ) and by their stays: CV² of a product.
  const burstsCv2 = (1 + phi) * (1 + finiteOr(dwellRelVar * n, 0)) - 1;
  // The band takes W̄'s variance as at least Cox's: stays are heavy-tailed, and a day's few dozen
  // visits that happen to hold no long stay have both a low mean and a low variance — the band
  // was narrowest where the estimate was furthest off — while the spread of log dwell hardly
  // depends on the longest stays. (Not in Beale's factor: with a handful of visits early in a
  // day Cox's variance is large, and a second-order correction that large over-corrects.)
  const dwellBandRelVar = dwellCoxRelVar > dwellRelVar ? dwellCoxRelVar : dwellRelVar;
  // Even with r and W known exactly, the day's other phones are a draw of visits whose bursts
  // (rate × dwell) differ with a coefficient of variation of ~1.2, so their total strays from
  // (visits × mean) by CV²/visits relatively (~8 % on 250 visits): the band's floor, which a
  // day's own sample hid (its W̄ is far less certain) and pooled days do not.
  const [restLow, restHigh] =
    restBursts > 0
      ? band(restVisitors, [1 / restBursts, burstsCv2 / Math.max(1, restVisitors), rateRelVar, dwellBandRelVar], [Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY, m - 1, n - 1], interval)
      : [0, 0];
  const visitors = knownVisitors + restVisitors;
  return {
    visitors,
    // People are whole: the bounds widen to whole numbers, which costs no coverage and keeps a
    // fraction of a phone from the rate part (a short visit heard inside) inside the interval.
    // Without a burst rate the rest is unknown: at least the identity-known visitors, no upper bound.
    visitorsLow: Number.isNaN(visitors) ? Math.floor(knownVisitors) : Math.floor(knownVisitors + restLow),
    visitorsHigh: Number.isNaN(visitors) ? Number.POSITIVE_INFINITY : Math.ceil(knownVisitors + restHigh),
    captureRate: visitors + passersBy > 0 ? visitors / (visitors + passersBy) : Number.NaN,
    restVisitors,
    burstsPerMinute: rate * 60_000,
    meanDwellMs: meanDwell,
    dwellRelVar,
  };
}

/**
 * The day's visitors by the one visitor rule in force: {@link visitorFigures} from the bursts and
 * the yardstick, or — with a shop's learned model (`modelled`) — the identity-known visitors plus
 * the rest of the people-time the model gives the day's intervals (inside beyond the
 * identity-known part, over each interval), by Little's law over the mean stay; its bounds the
 * same of the intervals' bounds (a day reads high or low as a whole, so the intervals' errors add
 * up rather than cancel). Internal: a day's estimate and a day estimated again.
 *
 * @example
 * visitorsOf(3, 0, 0, dayModel([], { shopId: 101, start: 0 }, peopleEstimatorOptions()), [], false, twoSided(0.9)).visitors; // 3
 */
export function visitorsOf(knownVisitors: number, restBursts: number, passersBy: number, model: RateModel, occupancy: readonly OccupancyInterval[], modelled: boolean, interval: TwoSided) {
  const byBursts = visitorFigures(knownVisitors, restBursts, passersBy, model, interval);
  if (!modelled) return byBursts;
  let rest = 0;
  let low = 0;
  let high = 0;
  for (const x of occupancy) {
    const len = x.end - x.start;
    rest += Math.max(0, x.inside - x.knownInside) * len;
    low += Math.max(0, x.insideLow - x.knownInside) * len;
    high += Math.max(0, x.insideHigh - x.knownInside) * len;
  }
  const perVisit = model.meanDwell / bealeFactor(model.dwellRelVar);
  const restVisitors = rest > 0 ? rest / perVisit : 0;
  const visitors = knownVisitors + restVisitors;
  return {
    ...byBursts,
    visitors,
    visitorsLow: Number.isNaN(visitors) ? Math.floor(knownVisitors) : Math.floor(knownVisitors + low / perVisit),
    visitorsHigh: Number.isNaN(visitors) ? Number.POSITIVE_INFINITY : Math.ceil(knownVisitors + high / perVisit),
    captureRate: visitors + passersBy > 0 ? visitors / (visitors + passersBy) : Number.NaN,
    restVisitors,
  };
}

function finiteOr(x: number, fallback: number): number {
  return Number.isFinite(x) ? x : fallback;
}

// Second-order (Beale) correction of dividing by a sample estimate: E[1 ÷ x̂] ≈ (1 ÷ x)(1 + var(x̂)/x²),
// so a mean stay learned from a few dozen heavy-tailed visits overstates 1 ÷ W by about its
// relative variance (n = 25 visits with a coefficient of variation of 1.2: +6 %). Without a
// variance (fewer than two sampled visits) nothing is corrected.
function bealeFactor(relVar: number): number {
  return 1 / (1 + finiteOr(relVar, 0));
}
