import { markResolved, resolvedBy } from "../../options/resolvedOptions.ts";
import { twoSided, type TwoSided } from "../../stats/twoSided.ts";
import { assertTimeZone } from "../../time/timeZone.ts";
import { burstYardstick, type BurstYardstick } from "../calibration/burstYardstick.ts";
import { calibrationsByShop, type Calibration, type CalibrationFile } from "../calibration/Calibration.ts";
import { checkNumberOption } from "../../options/checkNumberOption.ts";

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
   * every true continuation. A false link costs no bias (see {@link footfall!PeopleEstimator}).
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
   * The burst yardstick as installed (fields override {@link footfall!realPhonesPrior}): bursts heard per
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
  /** `level`'s critical values, worked out once for every interval of an estimate. */
  readonly interval: TwoSided;
};

/**
 * The bounds of `intervalMs`, whole ms: one minute to one day. The one statement of them; the
 * CLI's `--interval` parses its duration against the same.
 *
 * @example
 * INTERVAL_MS_LIMITS.max / 3_600_000; // 24
 */
export const INTERVAL_MS_LIMITS = Object.freeze({ min: 60_000, max: 86_400_000, integer: true, unit: "ms" });

/**
 * Validates {@link PeopleEstimatorOptions} eagerly (TypeError/RangeError) and fills in defaults.
 *
 * @example
 * peopleEstimatorOptions({ intervalMs: 600_000 }).linkGapMs; // 120000
 */
export function peopleEstimatorOptions(options: PeopleEstimatorOptions = {}): ResolvedPeopleEstimatorOptions {
  if (resolvedBy("peopleEstimatorOptions", options)) return options as unknown as ReturnType<typeof peopleEstimatorOptions>;
  if (typeof options !== "object" || options === null) throw new TypeError("people estimator options must be an object");
  const d = defaultPeopleEstimator;
  const timeZone = options.timeZone ?? d.timeZone;
  assertTimeZone(timeZone);
  const level = checkNumberOption("level", options.level ?? d.level, { min: 0.5 });
  if (!(level < 1)) throw new RangeError(`level must be < 1, got ${level}`);
  return markResolved("peopleEstimatorOptions", {
    intervalMs: checkNumberOption("intervalMs", options.intervalMs ?? d.intervalMs, INTERVAL_MS_LIMITS),
    timeZone,
    linkGapMs: checkNumberOption("linkGapMs", options.linkGapMs ?? d.linkGapMs, { min: 0, unit: "ms" }),
    linkRssiDb: checkNumberOption("linkRssiDb", options.linkRssiDb ?? d.linkRssiDb, { min: 0, unit: "dB" }),
    linkShortMs: checkNumberOption("linkShortMs", options.linkShortMs ?? d.linkShortMs, { min: 0, unit: "ms" }),
    rejoinGapMs: checkNumberOption("rejoinGapMs", options.rejoinGapMs ?? d.rejoinGapMs, { min: 0, unit: "ms" }),
    level,
    interval: twoSided(level),
    prior: burstYardstick(options.prior),
    calibrations: calibrationsByShop(options.calibration),
  });
}
