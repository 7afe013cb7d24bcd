import { assertTimeZone } from "../time/timeZone.ts";
import { burstYardstick, medianPersons, silentPersonsBound, type BurstYardstick } from "./burstYardstick.ts";
import { universalPersonWeight } from "./universalPersonWeight.ts";
import { calibratedYardstick, calibrationsByShop, type Calibration, type CalibrationFile, type CalibrationRef } from "./Calibration.ts";
import { checkNumberOption } from "./checkNumberOption.ts";
import { dwellStats, type DwellStats } from "./dwellStats.ts";
import { estimatedDwell } from "./EventTimeEngine.ts";
import type { Session } from "./Session.ts";
import { SessionWindows, type SessionWindow } from "./SessionWindows.ts";
import { checkSink, type Sink } from "./Sink.ts";
import { rateModels, sampleSums, type RateModel, type SampleSums } from "./rateModel.ts";
import { studentQuantile } from "./studentQuantile.ts";
import type { ClassifiedSession } from "./VisitClassifier.ts";

/**
 * Options of {@link PeopleEstimator} (and the `estimateOccupancy` / `estimatePeople` operators).
 *
 * @example
 * const options: PeopleEstimatorOptions = { intervalMs: 15 * 60_000, timeZone: "Asia/Seoul" };
 */
export interface PeopleEstimatorOptions {
  /**
   * Length of an occupancy interval, ms; intervals are aligned to the local day's start.
   * A quarter of an hour holds several bursts of every phone inside (gaps are 5 s to 2 min), so
   * the burst count is large enough for a useful interval, and matches how shops staff shifts.
   * @default 900_000
   */
  readonly intervalMs?: number;
  /** IANA time zone of the shops (local days). @default "Asia/Seoul" */
  readonly timeZone?: string;
  /**
   * Longest silence, ms, between the last burst of one MAC and the first burst of the next MAC
   * of the same phone: a phone rotates its MAC at a burst, so the new MAC appears one burst gap
   * later. Published gaps reach a 75th percentile of ~60 s with the screen off; 2 min covers
   * most gaps of the slowest phones without linking across a whole visit.
   * @default 120_000
   */
  readonly linkGapMs?: number;
  /**
   * Largest difference, dB, between the smoothed peak RSSI of two MACs at any sensor that heard
   * both, for the second to count as a possible continuation of the first. A phone does not move
   * far in one burst gap, but the peak of a MAC heard over minutes is its strongest moment while
   * a one-burst MAC's is one reading: with 4 dB of noise per reading, 10 dB (2.5 σ) keeps almost
   * every true continuation. A false link costs no bias (see {@link PeopleEstimator}).
   * @default 10
   */
  readonly linkRssiDb?: number;
  /**
   * A randomized visit shorter than this (ms, last − first) is set aside on a possible rotation
   * partner that shares a sensor with it, whatever their RSSI. Slow fading (bodies, pockets,
   * shelves: 3–8 dB indoors, drifting over tens of seconds) makes the per-sensor peak of a
   * screen-on stretch of a rotating phone — some twenty bursts, a few minutes — its luckiest
   * burst, often more than `linkRssiDb` above the next MAC's one burst: such a stretch then
   * failed the RSSI test and counted as a whole visit (link recall 0.98 → 0.79 with 6 dB of
   * fading). A genuine visit this short is worth little as an exact count; a longer one keeps
   * the RSSI test. 0 = the RSSI test for every visit.
   * @default 300_000
   */
  readonly linkShortMs?: number;
  /**
   * Sessions of one device at most this far apart (ms) are one visit: a phone that falls silent
   * for longer than the session gap (rare, but phones with two-minute burst gaps do) reappears
   * with the same MAC while its owner is still inside; a real second visit the same day is rarer.
   * @default 900_000
   */
  readonly rejoinGapMs?: number;
  /** Two-sided coverage of the reported intervals (`…Low`, `…High`). @default 0.9 */
  readonly level?: number;
  /**
   * The burst yardstick as installed (fields override {@link realPhonesPrior}): bursts heard per
   * person per minute, how uncertain that is for a place, the persons' spread, the universal-MAC
   * person share. A shop with a calibration uses its calibration instead.
   * @default realPhonesPrior
   */
  readonly prior?: Partial<BurstYardstick>;
  /**
   * Calibrations fitted on counted people (`calibrate`, `footfall calibrate`): a shop listed here
   * is estimated with its own fitted yardstick, widened as the day analysed moves away from the
   * counts; the others with the prior. Every estimate names the calibration it used.
   * @default none
   */
  readonly calibration?: CalibrationFile | readonly Calibration[] | undefined;
}

/**
 * Defaults of {@link PeopleEstimatorOptions}.
 *
 * @example
 * defaultPeopleEstimator.intervalMs; // 900000
 */
export const defaultPeopleEstimator = Object.freeze({
  intervalMs: 900_000,
  timeZone: "Asia/Seoul",
  linkGapMs: 120_000,
  linkRssiDb: 10,
  linkShortMs: 300_000,
  rejoinGapMs: 900_000,
  level: 0.9,
});

/** {@link PeopleEstimatorOptions} with every field present. */
export type ResolvedPeopleEstimatorOptions = { readonly [K in keyof typeof defaultPeopleEstimator]: (typeof defaultPeopleEstimator)[K] extends string ? string : number } & {
  readonly prior: BurstYardstick;
  /** The calibrations by SHOP ID. */
  readonly calibrations: ReadonlyMap<number, Calibration>;
};

/**
 * Validates {@link PeopleEstimatorOptions} eagerly (TypeError/RangeError) and fills in defaults.
 *
 * @example
 * peopleEstimatorOptions({ intervalMs: 600_000 }).linkGapMs; // 120000
 */
export function peopleEstimatorOptions(options: PeopleEstimatorOptions = {}): ResolvedPeopleEstimatorOptions {
  if (typeof options !== "object" || options === null) throw new TypeError("people estimator options must be an object");
  const d = defaultPeopleEstimator;
  const timeZone = options.timeZone ?? d.timeZone;
  assertTimeZone(timeZone);
  const level = checkNumberOption("level", options.level ?? d.level, { min: 0.5 });
  if (!(level < 1)) throw new RangeError(`level must be < 1, got ${level}`);
  return Object.freeze({
    intervalMs: checkNumberOption("intervalMs", options.intervalMs ?? d.intervalMs, { min: 60_000, max: 86_400_000, integer: true, unit: "ms" }),
    timeZone,
    linkGapMs: checkNumberOption("linkGapMs", options.linkGapMs ?? d.linkGapMs, { min: 0, unit: "ms" }),
    linkRssiDb: checkNumberOption("linkRssiDb", options.linkRssiDb ?? d.linkRssiDb, { min: 0, unit: "dB" }),
    linkShortMs: checkNumberOption("linkShortMs", options.linkShortMs ?? d.linkShortMs, { min: 0, unit: "ms" }),
    rejoinGapMs: checkNumberOption("rejoinGapMs", options.rejoinGapMs ?? d.rejoinGapMs, { min: 0, unit: "ms" }),
    level,
    prior: burstYardstick(options.prior),
    calibrations: calibrationsByShop(options.calibration),
  });
}

/**
 * Estimated mean number of people inside and outside one shop over one interval, with a
 * two-sided interval (`level`, 90 % by default) for `inside`.
 *
 * @example
 * const o: OccupancyInterval = { shopId: 101, start: 1794790800000, end: 1794791700000, inside: 7.4, insideLow: 6.1, insideHigh: 8.7, outside: 21.3, knownInside: 3.2, universalInside: 0.5, universalPersons: 0.2, insideBursts: 410, outsideBursts: 1900, calibration: null };
 */
export interface OccupancyInterval {
  /** SHOP ID. */
  readonly shopId: number;
  /** Interval start, epoch ms (inclusive). */
  readonly start: number;
  /** Interval end, epoch ms (exclusive). */
  readonly end: number;
  /** Mean people inside over the interval (visitors; staff and equipment excluded). */
  readonly inside: number;
  /** Lower bound of `inside` (≥ 0). */
  readonly insideLow: number;
  /** Upper bound of `inside`. */
  readonly insideHigh: number;
  /** Mean people outside (heard through the street wall) over the interval, by the same yardstick. */
  readonly outside: number;
  /** The part of `inside` from devices whose identity held across their visit, as persons (weighted: see `universalPersonWeight`). */
  readonly knownInside: number;
  /** Identity-known universal-MAC devices inside (mean over the interval, devices, not persons). */
  readonly universalInside: number;
  /** The persons they make in `knownInside` (by their weights): the bounds take 0 and `universalInside` of them. */
  readonly universalPersons: number;
  /** Inside bursts of the other phones in the interval (the rate-based part's data). */
  readonly insideBursts: number;
  /** Outside bursts in the interval. */
  readonly outsideBursts: number;
  /** The calibration the estimate used (`null`: the prior from real phones). */
  readonly calibration: CalibrationRef | null;
}

/**
 * People at one shop over one local day: the visitor estimate with its interval, the parts it
 * is made of, and the day's occupancy intervals.
 *
 * @example
 * const p: PeopleEstimate = result.people[0]!;
 * console.log(p.label, p.visitors, `[${p.visitorsLow}, ${p.visitorsHigh}]`);
 */
export interface PeopleEstimate extends SessionWindow {
  /**
   * Estimated visitors (people who came inside), `knownVisitors + restVisitors`; `NaN` when
   * bursts were heard inside but no identity-known visit gives a burst rate.
   */
  readonly visitors: number;
  /** Lower bound of `visitors`, a whole number (`floor(knownVisitors + …)`; `floor(knownVisitors)` when `visitors` is `NaN`). */
  readonly visitorsLow: number;
  /** Upper bound of `visitors`, a whole number (`Infinity` when `visitors` is `NaN` or the sample too small for a spread). */
  readonly visitorsHigh: number;
  /** Visitors from devices whose MAC held across the visit, as persons: 1 a randomized MAC, a universal one by `universalPersonWeight` (so possibly fractional). */
  readonly knownVisitors: number;
  /**
   * Estimated passers-by (people heard only outside): outside bursts ÷ mean bursts per
   * universal-MAC passer-by session (a universal MAC keeps its identity while passing); 0 when
   * nothing was heard outside, `NaN` when something was and no universal passer-by gives the scale.
   */
  readonly passersBy: number;
  /** visitors ÷ (visitors + passersBy), from the estimates (`NaN` when undefined). */
  readonly captureRate: number;
  /** Visitor sessions set aside as possible pieces of a rotating phone's visit (a linked MAC before or after them). */
  readonly linkedSessions: number;
  /** Visitors estimated from the other phones' inside bursts by Little's law. */
  readonly restVisitors: number;
  /** Inside bursts of the other phones over the day. */
  readonly restBursts: number;
  /** The yardstick: bursts heard inside per person per minute (the prior's, or the shop's calibration's). */
  readonly burstsPerMinute: number;
  /** The whole yardstick the estimate used, with its uncertainty (what {@link poolPeople} estimates a pooled day with again). */
  readonly yardstick: BurstYardstick;
  /** The calibration the estimate used (`null`: the prior from real phones). */
  readonly calibration: CalibrationRef | null;
  /** Mean estimated dwell of the same visits, ms (the W of Little's law). */
  readonly meanDwellMs: number;
  /** The day's samples as sums, from which `burstsPerMinute` and `meanDwellMs` were learned: what {@link poolPeople} pools a shop's days by. */
  readonly sample: PeopleSample;
  /** Days whose samples gave `burstsPerMinute` and `meanDwellMs`: 1 for the day alone, more once {@link poolPeople} pooled it with the shop's other days. */
  readonly pooledDays: number;
  /**
   * Dwell statistics (estimated dwell, ms) of the identity-known visits — the only phones whose
   * stay is seen whole: a rotating phone's visit is many MACs, each a piece of it. The `summary`
   * line's `dwell`.
   */
  readonly dwell: DwellStats;
  /** Occupancy per interval over the local day, in order. */
  readonly occupancy: readonly OccupancyInterval[];
}

interface DayAcc {
  readonly sessions: ClassifiedSession[];
}

/**
 * The randomization-aware people estimator: per shop and local day, visitors (people) with an
 * interval, and the mean number of people inside and outside per interval, from classified
 * sessions. A MAC is not a person — phones rotate randomized MACs, many at every probe burst, and
 * a person may carry a laptop or a watch too — so it counts people in two parts (docs/people.md):
 *
 * 1. **Identity-known visits**: visitor sessions whose MAC held across the visit, by their exact
 *    presence, each weighted by how much of a person it is: a randomized MAC that held is a phone
 *    (1), a universal MAC a person only when a phone maker's on a shopper's stay
 *    (`universalPersonWeight`), else the yardstick's `universalPersonShare` (laptops, PCs, phones
 *    of persons already counted). A randomized visitor session is *set aside* instead when it has
 *    a possible rotation partner ({@link linkedVisits}: a new short randomized MAC heard inside,
 *    within `linkGapMs` of one of its ends, by the sensors of its burst at that end, peaks within
 *    `linkRssiDb`; for a visit shorter than `linkShortMs`, by any of its sensors): it may be one
 *    piece of a rotating phone's visit, and its bursts go to part 2.
 * 2. **The rest, by the burst yardstick**: every other randomized burst heard inside (peak
 *    smoothed RSSI at the session's `visitorRssi`, less 7.5 dB for a MAC of one or two readings)
 *    over an interval T gives x = bursts ÷ (ρ · T) person-equivalents, ρ the yardstick (bursts
 *    heard per person per minute: the prior from real phones, or the shop's calibration). The
 *    persons behind them are median-unbiased for the persons' spread of rates
 *    (`medianPersons`). Universal-MAC bursts are not persons' bursts. Visitors by Little's law:
 *    Σ bursts ÷ (ρ · W̄), W̄ the mean estimated stay of the identity-known visits.
 *
 * Uncertainty, on the log scale: 1/B (burst counting) + cv²/n (persons differ in rate, n behind
 * the count; for visitors, the CV² of a visit's bursts, rate × stay) + var(ln ρ) (the prior's
 * place-to-place spread, or the calibration's standard error, day-to-day spread and ageing)
 * (+ var(W̄)/W̄² for visitors, at least Cox's log-normal variance), with Student's t at the
 * Welch–Satterthwaite degrees of freedom. An interval with no burst still allows the persons whose
 * phones slept through it (`silentPersonsBound`), and the bounds take none and all of the
 * identity-known universal devices as persons. Staff and equipment (present most of the day, or
 * probing on a timer) are not people inside; bursts of one MAC within 1 s are one burst
 * (`Session.probeCount`); devices rejoined from more than four sessions a day stay out of the
 * stays' sample.
 *
 * Per-interval, not per-signal work: sessions are kept per open day and the estimate runs once
 * when the day closes (every session starting in it has been classified).
 *
 * @example
 * const out: PeopleEstimate[] = [];
 * const estimator = new PeopleEstimator({ timeZone: "Asia/Seoul" }, { emit: (p) => out.push(p) });
 * for (const s of classified) estimator.push(s);
 * estimator.flush();
 * out[0]?.occupancy[40]?.inside; // mean people inside 10:00–10:15
 */
export class PeopleEstimator extends SessionWindows<DayAcc, PeopleEstimate> {
  /** The resolved options. */
  readonly options: ResolvedPeopleEstimatorOptions;

  /**
   * @param options see {@link PeopleEstimatorOptions}; validated here
   * @param sink `emit`: one estimate per shop and local day; `late`: sessions whose day was already estimated
   */
  constructor(options: PeopleEstimatorOptions, sink: Sink<PeopleEstimate, ClassifiedSession>) {
    const o = peopleEstimatorOptions(options);
    super(
      "day",
      o.timeZone,
      {
        create: () => ({ sessions: [] }),
        add: (acc, s) => {
          // Staff and equipment are not shoppers: neither inside nor outside people.
          if (s.kind === "visitor" || s.kind === "passerby") acc.sessions.push(s);
        },
        finish: (acc, w) => estimateDay(acc.sessions, w, o),
      },
      checkSink("PeopleEstimator", sink),
    );
    this.options = o;
  }
}

/**
 * The two-sided `level` interval of a rate-based estimate `x` (> 0) whose relative variance is the
 * sum of `relVars`, each known exactly (df `Infinity`: the Poisson count) or estimated from a
 * sample with the given degrees of freedom. On the log scale — x is a count divided by a rate
 * learned from a few dozen heavy-tailed visits, so its error is multiplicative and skewed, and
 * its lower bound stays above 0 — with Student's t at the Welch–Satterthwaite degrees of
 * freedom of the sum: variances estimated from a sample of n make a normal quantile too narrow.
 * A variance that cannot be estimated (NaN: fewer than two sampled visits) makes the interval
 * unbounded above and 0 below: nothing supports a narrower one.
 */
function band(x: number, relVars: readonly number[], dfs: readonly number[], level: number): [number, number] {
  let total = 0;
  let denominator = 0;
  for (let i = 0; i < relVars.length; i++) {
    const v = relVars[i]!;
    total += v;
    if (v > 0 && dfs[i]! < Number.POSITIVE_INFINITY) denominator += (v * v) / dfs[i]!;
  }
  if (!Number.isFinite(total)) return [0, Number.POSITIVE_INFINITY];
  const df = denominator > 0 ? (total * total) / denominator : Number.POSITIVE_INFINITY;
  const spread = Math.exp(studentQuantile(0.5 + level / 2, df) * Math.sqrt(total));
  return [x / spread, x * spread];
}

function finiteOr(x: number, fallback: number): number {
  return Number.isFinite(x) ? x : fallback;
}

/**
 * How far below the visit threshold a MAC of one or two bursts may read and still be inside, dB.
 * The threshold is met by a visit's strongest reading, and a visit holds some twenty of them: with
 * 4 dB of noise per reading the expected strongest of twenty is 1.87 σ ≈ 7.5 dB above a single
 * one, so a rotating phone's one-burst MACs, one reading each, are compared with that much less.
 */
const ONE_READING_DB = 7.5;

// Inside: the session reached its visit threshold (a one- or two-burst MAC, less ONE_READING_DB).
function strong(s: ClassifiedSession): boolean {
  return s.peakSmoothedRssi >= s.visitorRssi - (s.probeCount <= 2 ? ONE_READING_DB : 0);
}

// Whether MAC `x` may continue (or precede) visit `v` at one of its ends: the sensors that heard
// v's burst at that end (within a burst spread of it) are exactly the sensors that heard x, and at
// a sensor both heard the peaks differ by at most `linkRssiDb`. The boundary burst, not the whole
// session, is compared so that long visits (which reach every sensor) are no less likely to match
// than short ones. A visit shorter than `linkShortMs` needs only a sensor in common: that does
// select by dwell, which the universal-MAC sample never feels (a universal MAC is never set
// aside) but the fallback sample of every identity-known visit does — its mean dwell then reads
// high (−13 % on few-universal days without fading), where the pieces that fading keeps in it
// made it read far lower (+42 % with 6 dB); see the README.
function consistentAt(v: Session, x: Session, atStart: boolean, o: ResolvedPeopleEstimatorOptions): boolean {
  if (v.dwellMs < o.linkShortMs) {
    for (const a of v.sensors) for (const b of x.sensors) if (a.sensor === b.sensor) return true;
    return false;
  }
  const maxDb = o.linkRssiDb;
  let boundary = 0;
  for (const a of v.sensors) {
    const atEdge = atStart ? a.first <= v.start + BURST_MS : a.last >= v.end - BURST_MS;
    if (!atEdge) continue;
    boundary++;
    let match = false;
    for (const b of x.sensors) {
      if (b.sensor !== a.sensor) continue;
      match = Math.abs(a.peakSmoothedRssi - b.peakSmoothedRssi) <= maxDb || maxDb === Number.POSITIVE_INFINITY;
    }
    if (!match) return false;
  }
  return boundary > 0 && boundary === x.sensors.length;
}

/**
 * Fewest universal-MAC visits a day for them alone to give the burst rate and mean dwell: below
 * it their sampling error (a per-phone rate's coefficient of variation is ~0.7, so ~22 % at 10)
 * outweighs the bias of the other identity-known visits.
 */
const MIN_UNIVERSAL_SAMPLE = 10;

/**
 * Most sessions (split by silences longer than the session gap, rejoined within `rejoinGapMs`)
 * one shopper's visit is expected to make: even a phone with two-minute burst gaps splits a
 * typical visit no more than a few times, while staff coming and going make many.
 */
const MAX_SHOPPER_SESSIONS = 4;

/** A probe burst visits every channel within about a second (published captures). */
const BURST_MS = 1000;

// First index in `sorted` (ascending by key) whose key is ≥ value.
function lowerBound(sorted: readonly ClassifiedSession[], key: (s: ClassifiedSession) => number, value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (key(sorted[mid]!) < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

// Canonical order of sessions (the estimate must not depend on the order they were classified in).
function bySession(a: ClassifiedSession, b: ClassifiedSession): number {
  return a.start - b.start || a.end - b.end || (a.device < b.device ? -1 : a.device > b.device ? 1 : 0);
}

/**
 * The randomized visitor sessions of one shop-day (`sessions`, any order) set aside as possible
 * pieces of a rotating phone's visit: a short randomized MAC heard inside (a passer-by session at
 * or above its `visitorRssi`, of a device with no visit that day — a rotated MAC is new and never
 * heard again) ends at most `linkGapMs` before the visit starts, or starts at most `linkGapMs`
 * after it ends, heard by exactly the sensors of the visit's burst at that end with smoothed
 * peaks within `linkRssiDb` — or, when the visit lasted less than `linkShortMs`, by any sensor
 * that heard the visit (fading hides the RSSI match of exactly these short pieces). The
 * estimator's one linking rule; exported so the accuracy tests can score its precision and
 * recall against the truth.
 *
 * @example
 * const pieces = linkedVisits(classified, peopleEstimatorOptions());
 * pieces.size <= classified.filter((s) => s.kind === "visitor").length; // true
 */
export function linkedVisits(sessions: readonly ClassifiedSession[], o: ResolvedPeopleEstimatorOptions): Set<ClassifiedSession> {
  const visits = sessions.filter((s) => s.kind === "visitor");
  const visitorDevices = new Set(visits.map((v) => v.device));
  const shortStrong = sessions.filter((s) => s.kind === "passerby" && s.randomized && strong(s) && !visitorDevices.has(s.device));
  const byStart = [...shortStrong].sort((a, b) => a.start - b.start);
  const byEnd = [...shortStrong].sort((a, b) => a.end - b.end);
  const linked = new Set<ClassifiedSession>();
  for (const v of visits) {
    if (!v.randomized) continue;
    let found = false;
    for (let i = lowerBound(byEnd, (s) => s.end, v.start - o.linkGapMs); !found && i < byEnd.length && byEnd[i]!.end < v.start; i++) {
      found = consistentAt(v, byEnd[i]!, true, o);
    }
    for (let i = lowerBound(byStart, (s) => s.start, v.end + 1); !found && i < byStart.length && byStart[i]!.start <= v.end + o.linkGapMs; i++) {
      found = consistentAt(v, byStart[i]!, false, o);
    }
    if (found) linked.add(v);
  }
  return linked;
}

// Adds `amount`, spread uniformly over [from, to] (a point when equal), to the day's interval bins.
function spread(bins: Float64Array, dayStart: number, intervalMs: number, from: number, to: number, amount: number): void {
  const n = bins.length;
  if (to <= from) {
    const i = Math.floor((from - dayStart) / intervalMs);
    if (i >= 0 && i < n) bins[i]! += amount;
    return;
  }
  const first = Math.max(0, Math.floor((from - dayStart) / intervalMs));
  const last = Math.min(n - 1, Math.floor((to - dayStart) / intervalMs));
  for (let i = first; i <= last; i++) {
    const a = Math.max(from, dayStart + i * intervalMs);
    const b = Math.min(to, dayStart + (i + 1) * intervalMs);
    if (b > a) bins[i]! += (amount * (b - a)) / (to - from);
  }
}

/**
 * What one shop-day's classified sessions (the whole day, or the day so far) say about its
 * people: the identity-known visits (weighted), the yardstick the rest is counted by, and the
 * stays' sample with the sampling variances the intervals and the Beale correction need. Internal:
 * built by {@link dayModel}, read by {@link occupancyIntervals}.
 *
 * @example
 * const model: DayModel = dayModel(classified, { shopId: 101, start: 0 }, peopleEstimatorOptions());
 */
export interface DayModel extends RateModel {
  /**
   * The sessions counted by burst rate, in canonical order: every session but the identity-known
   * visits' (passers-by, and visitor sessions set aside as pieces of rotating phones' visits).
   */
  readonly rest: readonly ClassifiedSession[];
  /** Visitor sessions set aside as possible pieces of a rotating phone's visit. */
  readonly linked: ReadonlySet<ClassifiedSession>;
  readonly known: readonly KnownVisit[];
  /** The samples the mean dwell may come from; it came from `universal` when that holds at least 10 visits. */
  readonly sample: PeopleSample;
  /** The burst yardstick of the shop for this day (the prior, or its calibration's, aged). */
  readonly yardstick: BurstYardstick;
  /** The calibration behind `yardstick` (`null`: the prior). */
  readonly calibration: CalibrationRef | null;
}

/**
 * A shop-day's samples for the burst rate and mean dwell, as sums ({@link SampleSums}): the
 * universal-MAC visits, a sample of all phones, and every identity-known shopper visit, which
 * stands in when universal visits are fewer than 10 (biased: see the README).
 *
 * @example
 * const s: PeopleSample = result.people[0]!.sample;
 * s.universal.visits; // universal-MAC visits behind the day's rate and dwell
 */
export interface PeopleSample {
  /** The universal-MAC visits. */
  readonly universal: SampleSums;
  /** Every identity-known shopper visit (universal and randomized MACs that held). */
  readonly shoppers: SampleSums;
}

/**
 * The {@link DayModel} of one shop-day's visitor and passer-by sessions (any order). Internal:
 * `PeopleEstimator` builds it when a day closes, `LiveOccupancy` for the day so far.
 *
 * @example
 * dayModel(classified, { shopId: 101, start: 0 }, peopleEstimatorOptions()).rate * 60_000; // bursts per minute per person
 */
export function dayModel(input: readonly ClassifiedSession[], w: Pick<SessionWindow, "shopId" | "start">, o: ResolvedPeopleEstimatorOptions): DayModel {
  const sessions = [...input].sort(bySession);
  const visits = sessions.filter((s) => s.kind === "visitor");
  const linked = linkedVisits(sessions, o);

  // Identity-known visits, per device: a phone silent for longer than the session gap splits its
  // visit into sessions, which rejoin here when they are at most `rejoinGapMs` apart.
  const { yardstick, calibration } = yardstickFor(o, w.shopId, w.start, sessions[0]?.visitorRssi);
  const known = knownVisits(visits, linked, o.rejoinGapMs, yardstick.universalPersonShare);
  // The sample that stands for the rest: universal MACs never rotate and are never set aside, so
  // they are a sample of all phones (on the shop's Wi-Fi or not, long and short visits alike);
  // randomized MACs that kept one MAC over a visit are not — a phone on the shop's Wi-Fi keeps
  // its MAC and probes rarely, and a rotating phone keeps one only over a short visit. With too
  // few universal visits, every identity-known visit (biased, see the README).
  // A device heard in more than four separate sessions of one visit comes and goes (staff
  // on a short shift, whom the classifier's 40 %-of-opening-hours rule does not catch): counted,
  // but not a shopper whose burst rate and dwell stand for the others.
  const shoppers = known.filter((k) => k.sessions <= MAX_SHOPPER_SESSIONS);
  const sample: PeopleSample = { universal: sampleSums(shoppers.filter((k) => !k.randomized)), shoppers: sampleSums(shoppers) };
  const model = withYardstick(rateModels([chosenSample(sample, sample.universal.visits)])[0]!, yardstick);
  const rest = sessions.filter((s) => s.kind !== "visitor" || linked.has(s));
  return { ...model, rest, linked, known, sample, yardstick, calibration };
}

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

// The rate part of a model is the yardstick's (no longer learned from the day's universal-MAC
// visits: in a real room those are laptops and PCs, which probe unlike phones); the dwell part
// stays the sample's.
function withYardstick(model: RateModel, y: BurstYardstick): RateModel {
  return { ...model, rate: y.burstsPerMinute / 60_000, phi: y.personCv * y.personCv, m: y.df + 1, rateRelVar: y.logVariance };
}

// The sample the mean stay is learned from: the universal-MAC visits when there are enough of
// them (`universalVisits`: the day's, or the pooled days'), else every identity-known visit.
function chosenSample(sample: PeopleSample, universalVisits: number): SampleSums {
  return universalVisits >= MIN_UNIVERSAL_SAMPLE ? sample.universal : sample.shoppers;
}

// Second-order (Beale) correction of dividing by a sample estimate: E[1 ÷ x̂] ≈ (1 ÷ x)(1 + var(x̂)/x²),
// so a mean stay learned from a few dozen heavy-tailed visits overstates 1 ÷ W by about its
// relative variance (n = 25 visits with a coefficient of variation of 1.2: +6 %). Without a
// variance (fewer than two sampled visits) nothing is corrected.
function bealeFactor(relVar: number): number {
  return 1 / (1 + finiteOr(relVar, 0));
}

/**
 * Occupancy of the intervals `first` to `last − 1` of the day `w` (`intervalMs` each from the
 * day's start, the last one cut at the day's end): the identity-known visits' weighted presence
 * plus the persons behind the other randomized inside bursts (÷ (ρ · interval)), with its band.
 * Internal: the one occupancy rule of `PeopleEstimator` and `LiveOccupancy`.
 *
 * @example
 * const o = peopleEstimatorOptions();
 * const start = Date.UTC(2026, 10, 15, 15); // 2026-11-16 00:00 in Seoul
 * const day = { shopId: 101, window: "day" as const, label: "2026-11-16", start, end: start + 86_400_000 };
 * occupancyIntervals(dayModel([], day, o), day, 40, 41, o)[0]?.inside; // 0 (10:00–10:15, no one heard)
 */
export function occupancyIntervals(model: DayModel, w: SessionWindow, first: number, last: number, o: ResolvedPeopleEstimatorOptions): OccupancyInterval[] {
  const intervalMs = o.intervalMs;
  const from = w.start + first * intervalMs;
  const count = last - first;
  const knownMs = new Float64Array(count);
  const universalMs = new Float64Array(count);
  const universalPersonMs = new Float64Array(count);
  const inB = new Float64Array(count);
  const outB = new Float64Array(count);
  for (const k of model.known) {
    // Present from half a burst gap before the first burst to half one after the last.
    const half = (k.estimated - k.span) / 2;
    spread(knownMs, from, intervalMs, k.start - half, k.end + half, k.estimated * k.weight);
    if (!k.randomized) {
      spread(universalMs, from, intervalMs, k.start - half, k.end + half, k.estimated);
      spread(universalPersonMs, from, intervalMs, k.start - half, k.end + half, k.estimated * k.weight);
    }
  }
  for (const s of model.rest) {
    // Universal MACs do not probe as randomized phones do (laptops, PCs, phones on the Wi-Fi):
    // their bursts are not persons' bursts inside.
    if (strong(s)) {
      if (s.randomized) spread(inB, from, intervalMs, s.start, s.end, s.probeCount);
    } else spread(outB, from, intervalMs, s.start, s.end, s.probeCount);
  }
  const occupancy: OccupancyInterval[] = [];
  for (let i = 0; i < count; i++) {
    const start = from + i * intervalMs;
    const end = Math.min(w.end, start + intervalMs);
    const len = end - start;
    const known = { inside: knownMs[i]! / len, universal: universalMs[i]! / len, universalPersons: universalPersonMs[i]! / len };
    occupancy.push(intervalFigures(w.shopId, start, end, known, inB[i]!, outB[i]!, model, model.yardstick, model.calibration, o.level));
  }
  return occupancy;
}

// One interval's occupancy from its data — the identity-known phones' mean presence and the other
// phones' inside and outside bursts — and a rate model: the one occupancy rule, for a day's own
// model and for a pooled one (`poolPeople`).
function intervalFigures(
  shopId: number,
  start: number,
  end: number,
  known: { readonly inside: number; readonly universal: number; readonly universalPersons: number },
  b: number,
  out: number,
  model: RateModel,
  yardstick: BurstYardstick,
  calibration: CalibrationRef | null,
  level: number,
): OccupancyInterval {
  const { rate, phi, m, rateRelVar, meanDwell } = model;
  const len = end - start;
  // Persons behind the bursts, median-unbiased for the persons' spread of rates (a few phones'
  // bursts fall short of their mean more often than not).
  const rest = b > 0 ? medianPersons(b / (rate * len), Math.sqrt(phi)) : 0;
  // Persons behind the count: those present at some point of the interval (the mean inside when
  // no identity-known visit gives a stay to scale by).
  const phones = Number.isFinite(meanDwell) && meanDwell > 0 ? Math.max(1, (rest * (len + meanDwell)) / meanDwell) : Math.max(1, rest);
  // No burst heard is not no one there: persons whose phones slept through the interval.
  const [low, high] =
    b > 0 ? band(rest, [1 / b, phi / phones, rateRelVar], [Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY, m - 1], level) : [0, silentPersonsBound(yardstick, len / 60_000, level)];
  // Whether an identity-known universal-MAC device is a person is not known (its weight is a
  // share): the bounds take none of them, and all of them, as persons.
  const certain = known.inside - known.universalPersons;
  return {
    shopId,
    start,
    end,
    inside: known.inside + rest,
    insideLow: certain + low,
    insideHigh: certain + known.universal + high,
    outside: out > 0 ? out / (rate * len) : 0,
    knownInside: known.inside,
    universalInside: known.universal,
    universalPersons: known.universalPersons,
    insideBursts: b,
    outsideBursts: out,
    calibration,
  };
}

/**
 * The number of occupancy intervals of the day `w` (`intervalMs` each from its start, the last
 * one cut at its end). Internal: `PeopleEstimator` and `LiveOccupancy` lay out a day with it.
 *
 * @example
 * intervalCount({ start: 0, end: 86_400_000 }, peopleEstimatorOptions()); // 96
 */
export function intervalCount(w: Pick<SessionWindow, "start" | "end">, o: ResolvedPeopleEstimatorOptions): number {
  return Math.ceil((w.end - w.start) / o.intervalMs);
}

function estimateDay(input: readonly ClassifiedSession[], w: SessionWindow, o: ResolvedPeopleEstimatorOptions): PeopleEstimate {
  const model = dayModel(input, w, o);
  return { ...peopleOfDay(model, w, o), occupancy: occupancyIntervals(model, w, 0, intervalCount(w, o), o) };
}

/**
 * The day's people, all but the occupancy: visitors with their band, passers-by and capture
 * rate, the parts and the sample they come from. Internal: `PeopleEstimator`'s day estimate and
 * `LiveOccupancy`'s day so far.
 *
 * @example
 * const o = peopleEstimatorOptions();
 * const day = { shopId: 101, window: "day" as const, label: "2026-11-16", start: 0, end: 86_400_000 };
 * peopleOfDay(dayModel([], day, o), day, o).visitors; // 0
 */
export function peopleOfDay(model: DayModel, w: SessionWindow, o: ResolvedPeopleEstimatorOptions): Omit<PeopleEstimate, "occupancy"> {
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
    if (s.kind === "passerby" && !s.randomized && !strong(s)) {
      universalPassers++;
      universalPasserBursts += s.probeCount;
    }
    if (!strong(s)) outsideBursts += s.probeCount;
    else if (s.randomized) restBursts += s.probeCount;
  }
  // Nothing heard outside is no one outside, with or without universal passers-by to scale by.
  const passersBy = outsideBursts === 0 ? 0 : universalPassers > 0 ? outsideBursts / (universalPasserBursts / universalPassers) : Number.NaN;
  return {
    ...w,
    ...visitorFigures(knownVisitors, restBursts, passersBy, model, o.level),
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

// The day's visitors from its data — identity-known visitors, the other phones' inside bursts,
// passers-by — and a rate model: the one visitor rule, for a day's own model and for a pooled
// one (`poolPeople`).
function visitorFigures(knownVisitors: number, restBursts: number, passersBy: number, model: RateModel, level: number) {
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
      ? band(restVisitors, [1 / restBursts, burstsCv2 / Math.max(1, restVisitors), rateRelVar, dwellBandRelVar], [Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY, m - 1, n - 1], level)
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
  };
}

/**
 * A shop's days estimated together: each day's mean stay is pooled with the same shop's other
 * days in `estimates` by random effects ({@link rateModels}; the burst yardstick is each day's own:
 * the prior, or the shop's calibration aged to the day), and its visitors,
 * interval, capture rate and occupancy are worked out again from the day's own data (identity-known
 * visits, bursts per interval) with the pooled figures. One day's universal-MAC visits — a few
 * dozen, of stays that differ by a factor of ten — leave ~20 % of sampling error in the mean
 * dwell; a week of them, a third of that. Days whose samples disagree more than their sampling
 * explains (a weekend's longer stays) keep more of their own figures: the pooling estimates how
 * much the days differ and shrinks each day's figure toward the shop's only as far as its own
 * noise justifies. The universal-MAC visits are the sample when the shop's days hold at least
 * 10 of them together (each day's own rule, applied to the pool), else every identity-known visit.
 * Passers-by stay the day's own (a day has hundreds of universal passers-by).
 *
 * A day's estimate then depends on which other days were pooled with it — the same set in any
 * order gives the same figures — so pool a fixed span (the days of one input, a week, a month),
 * not "every day so far". Estimates pooled already (`pooledDays` > 1) are rejected: pool the
 * days' own estimates.
 *
 * @param estimates days of one or several shops (any order), as `PeopleEstimator` gives them
 * @param options  `level` of the intervals (as the estimator's, 0.9 by default)
 * @returns the same days, in the same order, with `pooledDays` the shop's days in `estimates`
 * @example
 * const { people } = await analyze(records, { timeZone: "Asia/Seoul" });
 * for (const day of poolPeople(people)) console.log(day.label, day.visitors.toFixed(0), `[${day.visitorsLow}, ${day.visitorsHigh}]`);
 */
export function poolPeople(estimates: readonly PeopleEstimate[], options: Pick<PeopleEstimatorOptions, "level"> = {}): PeopleEstimate[] {
  if (!Array.isArray(estimates)) throw new TypeError("poolPeople: estimates must be an array of PeopleEstimate");
  const level = peopleEstimatorOptions(options.level === undefined ? {} : { level: options.level }).level;
  const byShop = new Map<number, number[]>();
  estimates.forEach((p, i) => {
    if (typeof p?.sample?.universal !== "object" || typeof p.sample.shoppers !== "object") throw new TypeError(`poolPeople: estimate ${i} has no sample (not a PeopleEstimate?)`);
    if (p.pooledDays !== 1) throw new RangeError(`poolPeople: estimate ${i} (shop ${p.shopId}, ${p.label}) is pooled already (pooledDays ${p.pooledDays}); pool the days' own estimates`);
    const list = byShop.get(p.shopId);
    if (list === undefined) byShop.set(p.shopId, [i]);
    else list.push(i);
  });
  const out: PeopleEstimate[] = [...estimates];
  for (const indices of byShop.values()) {
    // A canonical order, so the figures do not depend on the order of `estimates`.
    indices.sort((a, b) => estimates[a]!.start - estimates[b]!.start);
    const days = indices.map((i) => estimates[i]!);
    let universalVisits = 0;
    for (const p of days) universalVisits += p.sample.universal.visits;
    const models = rateModels(days.map((p) => chosenSample(p.sample, universalVisits)));
    indices.forEach((i, j) => {
      const p = days[j]!;
      const model = models[j]!;
      out[i] = { ...reestimated(p, model, p.yardstick, p.calibration, level), pooledDays: days.length };
    });
  }
  return out;
}

/** One identity-known visit: a device's visitor sessions of the day, rejoined. */
interface KnownVisit {
  readonly device: string;
  /** Locally administered MAC. */
  readonly randomized: boolean;
  /** How much of a person the device is: 1 for a randomized MAC that held (a phone), else `universalPersonWeight`. */
  readonly weight: number;
  /** Sessions rejoined into it. */
  readonly sessions: number;
  readonly start: number;
  readonly end: number;
  /** end − start, ms. */
  readonly span: number;
  /** Burst gaps observed (bursts − 1). */
  readonly bursts: number;
  /** span plus one mean burst gap (see `estimatedDwell`), ms. */
  readonly estimated: number;
}

function knownVisits(visits: readonly ClassifiedSession[], linked: ReadonlySet<ClassifiedSession>, rejoinGapMs: number, universalShare: number): KnownVisit[] {
  const byDevice = new Map<string, ClassifiedSession[]>();
  const randomized = new Set<string>();
  for (const v of visits) {
    if (linked.has(v)) continue;
    if (v.randomized) randomized.add(v.device);
    const list = byDevice.get(v.device);
    if (list === undefined) byDevice.set(v.device, [v]);
    else list.push(v);
  }
  const out: KnownVisit[] = [];
  const close = (device: string, start: number, end: number, probes: number, sessions: number) => {
    const span = end - start;
    const isRandomized = randomized.has(device);
    const estimated = estimatedDwell(span, probes);
    const weight = isRandomized ? 1 : universalPersonWeight(device, estimated, universalShare);
    out.push({ device, randomized: isRandomized, weight, sessions, start, end, span, bursts: probes - 1, estimated });
  };
  for (const [device, list] of byDevice) {
    // Visits are sorted by start already (canonical order).
    let start = list[0]!.start;
    let end = list[0]!.end;
    let probes = list[0]!.probeCount;
    let sessions = 1;
    for (let i = 1; i < list.length; i++) {
      const s = list[i]!;
      if (s.start - end <= rejoinGapMs) {
        end = Math.max(end, s.end);
        probes += s.probeCount;
        sessions++;
      } else {
        close(device, start, end, probes, sessions);
        start = s.start;
        end = s.end;
        probes = s.probeCount;
        sessions = 1;
      }
    }
    close(device, start, end, probes, sessions);
  }
  return out;
}


/**
 * The same days estimated again with calibrations: each estimate of a shop that `calibration`
 * holds gets that calibration's yardstick (aged to its day) in place of the one it was made with,
 * and its visitors, interval and occupancy worked out again from its own data (identity-known
 * visits, bursts per interval), as `poolPeople` does with pooled figures. Estimates of other shops
 * pass unchanged. For a calibration fitted after the estimates were made (a door count of the
 * first hours, the demo), without analysing the signals again.
 *
 * @param estimates days of any shops, as `PeopleEstimator` gives them (not pooled)
 * @param calibration a calibration file or list (`calibrate`)
 * @param options `level` of the intervals and the analysis settings (0.9; the calibration's)
 * @example
 * const { people } = await analyze(records, { timeZone: "Asia/Seoul" });
 * withCalibration(people, []).length === people.length; // true
 */
export function withCalibration(
  estimates: readonly PeopleEstimate[],
  calibration: CalibrationFile | readonly Calibration[],
  options: Pick<PeopleEstimatorOptions, "level" | "intervalMs" | "timeZone"> = {},
): PeopleEstimate[] {
  const o = peopleEstimatorOptions({ ...options, calibration });
  return estimates.map((p) => {
    if (!o.calibrations.has(p.shopId)) return p;
    if (p.pooledDays !== 1) throw new RangeError(`withCalibration: estimate of shop ${p.shopId} on ${p.label} is pooled; calibrate the days' own estimates`);
    const { yardstick, calibration: ref } = yardstickFor(o, p.shopId, p.start);
    return reestimated(p, rateModels([chosenSample(p.sample, p.sample.universal.visits)])[0]!, yardstick, ref, o.level);
  });
}

// A day estimated again from its own data (identity-known visits, bursts per interval) with other
// figures: a pooled mean stay (`poolPeople`) or another yardstick (`withCalibration`).
function reestimated(p: PeopleEstimate, stays: RateModel, yardstick: BurstYardstick, calibration: CalibrationRef | null, level: number): PeopleEstimate {
  const model = withYardstick(stays, yardstick);
  return {
    ...p,
    ...visitorFigures(p.knownVisitors, p.restBursts, p.passersBy, model, level),
    yardstick,
    calibration,
    occupancy: p.occupancy.map((x) =>
      intervalFigures(x.shopId, x.start, x.end, { inside: x.knownInside, universal: x.universalInside, universalPersons: x.universalPersons }, x.insideBursts, x.outsideBursts, model, yardstick, calibration, level),
    ),
  };
}
