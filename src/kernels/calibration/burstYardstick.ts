import { rejectUnknownKeys } from "../../options/rejectUnknownKeys.ts";
import { checkNumberOption } from "../../options/checkNumberOption.ts";
import normalQuantile from "@stdlib/stats-base-dists-normal-quantile";

/**
 * What one person inside is worth in probe bursts heard: the yardstick the people estimate
 * divides a count of bursts by. As installed it is the prior taken from real phones
 * ({@link realPhonesPrior}); a calibration fitted on counted people replaces it for a shop
 * (`Calibration`). Units are per minute so that the figures read as the sources give them.
 *
 * @example
 * const y: BurstYardstick = { burstsPerMinute: 1.59, logVariance: 0.36, personCv: 1.86, df: Number.POSITIVE_INFINITY, universalPersonShare: 0.25 };
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
 * The yardstick as installed, from real phones (see docs/analytics.md, "People"): a public
 * labelled capture of 22 phones (97 captures of 10–20 min, channels 1, 6 and 11) sent a mean of
 * 1.59 probe bursts a minute (median 0.56, p90 3.08, max 18.5) with a coefficient of variation
 * of 1.86; only 21 of the 97 captures showed a universal MAC at all. The place-to-place spread of
 * the mean (idle or busy phones, persons with two devices or none, walls that keep some bursts
 * out of reach) is taken as a log-normal with σ = 0.6 (×1.8 at one σ): wide, because nothing but a
 * count of people can narrow it.
 *
 * @example
 * realPhonesPrior.burstsPerMinute; // 1.59
 */
export const realPhonesPrior: BurstYardstick = Object.freeze({
  burstsPerMinute: 1.59,
  logVariance: 0.36,
  df: Number.POSITIVE_INFINITY,
  personCv: 1.86,
  universalPersonShare: 0.25,
});

/**
 * Persons behind `x` person-equivalents of bursts (bursts ÷ (ρ · interval)), median-unbiased:
 * the bursts of N persons whose rates spread with coefficient of variation `cv` sum to a skewed
 * total whose median lies below its mean by about e^(−σ²/2), σ² = ln(1 + cv²/N) (Fenton–Wilkinson),
 * so a few phones are seen below their number more often than above it. Solves
 * N = x · √(1 + cv²/N) by fixed-point iteration (a few steps: the map is a contraction). With
 * many persons it is x; with cv = 0, x.
 *
 * @param x bursts ÷ (ρ · interval), ≥ 0
 * @param cv coefficient of variation of the per-person rate
 * @example
 * Math.round(medianPersons(100, 1.86)); // 102
 * Math.round(medianPersons(3, 1.86) * 100) / 100; // 4.08
 */
export function medianPersons(x: number, cv: number): number {
  if (!(x > 0)) return 0;
  const cv2 = cv * cv;
  let n = x;
  for (let i = 0; i < 50; i++) {
    const next = x * Math.sqrt(1 + cv2 / n);
    if (Math.abs(next - n) <= 1e-9 * next) return next;
    n = next;
  }
  return n;
}

const YARDSTICK_KEYS: ReadonlySet<string> = new Set(Object.keys(realPhonesPrior));

/**
 * Validates a partial {@link BurstYardstick} (TypeError/RangeError, unknown keys rejected) and
 * fills it from {@link realPhonesPrior}.
 *
 * @param what the option's name in messages
 * @example
 * burstYardstick({ burstsPerMinute: 0.9 }).personCv; // 1.86
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

/**
 * The most persons (a fraction: a mean over the interval) that could be inside with none of their
 * bursts heard in `minutes`, at two-sided `level`: each person's rate is log-normal with the
 * yardstick's mean and coefficient of variation (taken at the low end of its own uncertainty), so
 * a person is silent that long with probability P₀ = E[e^(−r·t)], and N persons with P₀^N. The
 * bound is the N at which that falls to (1 − level) ÷ 2. Without it, an interval with no burst
 * would claim no one inside with certainty, and a phone that sleeps for a quarter of an hour is
 * not rare (real phones' p10 is 0.27 bursts a minute).
 *
 * @param y the yardstick
 * @param minutes the interval's length, minutes
 * @param level two-sided coverage (0.9)
 * @example
 * Math.round(silentPersonsBound(realPhonesPrior, 15, 0.9) * 10) / 10; // 1.4
 */
export function silentPersonsBound(y: BurstYardstick, minutes: number, level: number): number {
  const sigma2 = Math.log(1 + y.personCv * y.personCv);
  const sigma = Math.sqrt(sigma2);
  // The rate at the yardstick's own lower end (one-sided at `level`), so an uncertain yardstick
  // allows more silent persons.
  const z = normalQuantile(0.5 + level / 2, 0, 1);
  const mean = y.burstsPerMinute * Math.exp(-z * Math.sqrt(y.logVariance));
  const mu = Math.log(mean) - sigma2 / 2;
  // E[exp(−r·t)] over ln r ~ N(μ, σ²), by the midpoint rule on ±6 σ.
  const steps = 240;
  let p0 = 0;
  for (let i = 0; i < steps; i++) {
    const u = -6 + (12 * (i + 0.5)) / steps;
    const weight = Math.exp(-0.5 * u * u) / Math.sqrt(2 * Math.PI) * (12 / steps);
    p0 += weight * Math.exp(-Math.exp(mu + sigma * u) * minutes);
  }
  if (!(p0 > 0)) return 0;
  if (p0 >= 1) return Number.POSITIVE_INFINITY;
  return Math.log((1 - level) / 2) / Math.log(p0);
}
