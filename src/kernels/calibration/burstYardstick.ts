import { rejectUnknownKeys } from "../../options/rejectUnknownKeys.ts";
import { checkNumberOption } from "../../options/checkNumberOption.ts";

/**
 * What one person inside is worth in probe bursts heard: the yardstick the people estimate
 * divides a count of bursts by. As installed it is the prior taken from real phones
 * ({@link realPhonesPrior}); a calibration fitted on counted people replaces it for a shop
 * (`Calibration`). Units are per minute so that the figures read as the sources give them.
 *
 * @example
 * const y: BurstYardstick = { burstsPerMinute: 1.44, logVariance: 0.36, personCv: 1.98, df: Number.POSITIVE_INFINITY, universalPersonShare: 0.24 };
 */
export interface BurstYardstick {
  /** Mean bursts heard inside per person per minute (ρ): a person's randomized-MAC bursts, all their devices together. */
  readonly burstsPerMinute: number;
  /**
   * Variance of ln ρ: how well the yardstick is known for this shop (0 = exactly). As installed,
   * the spread of ρ between places (phones idle on a desk or in use, several devices or none);
   * calibrated, the fit's standard error² plus the day-to-day spread and the ageing since the fit.
   */
  readonly logVariance: number;
  /** Degrees of freedom behind `logVariance` (`Infinity` for a prior taken as known in shape). */
  readonly df: number;
  /**
   * Coefficient of variation of the burst rate between persons (phones differ ×100: screen on or
   * off, vendor, power saving). A few persons' bursts stray from their mean by √(CV² ÷ N),
   * relatively, on top of Poisson counting.
   */
  readonly personCv: number;
  /**
   * The chance that an identity-known universal-MAC device inside (a MAC that holds across its
   * visit: laptops, PCs, phones on the Wi-Fi, older phones) is a person not already counted
   * through randomized bursts.
   */
  readonly universalPersonShare: number;
}

/**
 * The yardstick as installed, from real phones (see docs/people.md, "The prior, as installed"):
 * the 107 captures of 22 labelled phones that the simulator's real phones replay (10–20 min each,
 * channels 1, 6 and 11; `phones: "real"`) sent a mean of 1.44 probe bursts a minute (median 0.46,
 * p90 2.9, max 18.5), bursts counted as footfall counts them (frames within a second, whatever
 * their MACs), with a coefficient of variation of 1.98 between captures; 26 of the 107 showed a
 * universal MAC at all. The place-to-place spread of the mean (idle or busy phones, persons with
 * two devices or none, walls that keep some bursts out of reach) is taken as a log-normal with
 * σ = 0.6 (×1.8 at one σ): wide, because nothing but a count of people can narrow it.
 *
 * @example
 * realPhonesPrior.burstsPerMinute; // 1.44
 */
export const realPhonesPrior: BurstYardstick = Object.freeze({
  burstsPerMinute: 1.44,
  logVariance: 0.36,
  df: Number.POSITIVE_INFINITY,
  personCv: 1.98,
  universalPersonShare: 0.24,
});

const YARDSTICK_KEYS: ReadonlySet<string> = new Set(Object.keys(realPhonesPrior));

/**
 * Validates a partial {@link BurstYardstick} (TypeError/RangeError, unknown keys rejected) and
 * fills it from {@link realPhonesPrior}.
 *
 * @param what the option's name in messages
 * @example
 * burstYardstick({ burstsPerMinute: 0.9 }).personCv; // 1.98
 */
export function burstYardstick(partial: Partial<BurstYardstick> | undefined, what = "prior"): BurstYardstick {
  if (partial === undefined) return realPhonesPrior;
  if (typeof partial !== "object" || partial === null) throw new TypeError(`${what} must be an object`);
  rejectUnknownKeys(partial, YARDSTICK_KEYS, what);
  const r = realPhonesPrior;
  return Object.freeze({
    burstsPerMinute: checkNumberOption(`${what}.burstsPerMinute`, partial.burstsPerMinute ?? r.burstsPerMinute, { min: Number.MIN_VALUE, unit: "bursts/min" }),
    logVariance: checkNumberOption(`${what}.logVariance`, partial.logVariance ?? r.logVariance, { min: 0 }),
    df: checkNumberOption(`${what}.df`, partial.df ?? r.df, { min: 1, finite: false }),
    personCv: checkNumberOption(`${what}.personCv`, partial.personCv ?? r.personCv, { min: 0 }),
    universalPersonShare: checkNumberOption(`${what}.universalPersonShare`, partial.universalPersonShare ?? r.universalPersonShare, { min: 0, max: 1 }),
  });
}
