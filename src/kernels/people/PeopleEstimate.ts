import type { BurstYardstick } from "../calibration/burstYardstick.ts";
import type { CalibrationRef } from "../calibration/Calibration.ts";
import type { DwellStats } from "../visits/dwellStats.ts";
import type { SampleSums } from "./rateModel.ts";
import type { SessionWindow } from "../visits/SessionWindows.ts";

/**
 * Estimated mean number of people inside and outside one shop over one interval, with a
 * two-sided interval (`level`, 90 % by default) for `inside`.
 *
 * @example
 * const o: OccupancyInterval = { shopId: 101, start: 1794790800000, end: 1794791700000, inside: 7.4, insideLow: 6.1, insideHigh: 8.7, outside: 21.3, knownInside: 3.2, universalInside: 0.5, universalPersons: 0.2, insideBursts: 410, outsideBursts: 1900, features: [3, 8, 2, 0, 0, 0.4, 0, 0, 0, 0, 1], calibration: null };
 */
export interface OccupancyInterval {
  /** SHOP ID. */
  readonly shopId: number;
  /** Interval start, epoch ms (inclusive). */
  readonly start: number;
  /** Interval end, epoch ms (exclusive). */
  readonly end: number;
  /** Mean people inside over the interval (visitors; staff and equipment excluded): the estimate as installed, or a calibration's. */
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
  /**
   * What was heard, as a shop's calibration model reads it (`CALIBRATION_FEATURES`, in that
   * order): randomized MACs and universal devices by RSSI band, stationary devices present.
   */
  readonly features: readonly number[];
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
  /** The relative variance of `meanDwellMs` (Var W̄ ÷ W̄², from the same sample): what a calibration's day fit weighs the day by. */
  readonly dwellRelVar: number;
  /** The day's samples as sums, from which `meanDwellMs` was learned: what {@link poolPeople} pools a shop's days by. */
  readonly sample: PeopleSample;
  /** Days whose samples gave `meanDwellMs`: 1 for the day alone, more once {@link poolPeople} pooled it with the shop's other days (`burstsPerMinute` is the yardstick's, never pooled). */
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
