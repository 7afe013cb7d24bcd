import type { TwoSided } from "../../stats/twoSided.ts";
import type { BurstYardstick } from "../calibration/burstYardstick.ts";

/**
 * The most persons (a fraction: a mean over the interval) that could be inside with none of their
 * bursts heard in `minutes`, at a two-sided `interval`'s coverage: each person's rate is
 * log-normal with the yardstick's mean and coefficient of variation (taken at the low end of its
 * own uncertainty), so a person is silent that long with probability P₀ = E[e^(−r·t)], and N
 * persons with P₀^N. The bound is the N at which that falls to the interval's tail,
 * (1 − level) ÷ 2. Without it, an interval with no burst would claim no one inside with
 * certainty, and a phone that sleeps for a quarter of an hour is not rare (real phones' p10 is
 * 0.22 bursts a minute).
 *
 * @param y the yardstick
 * @param minutes the interval's length, minutes
 * @param interval the two-sided interval's critical values (`twoSided(0.9)`)
 * @example
 * Math.round(silentPersonsBound(realPhonesPrior, 15, twoSided(0.9)) * 10) / 10; // 1.5
 */
export function silentPersonsBound(y: BurstYardstick, minutes: number, interval: TwoSided): number {
  const sigma2 = Math.log(1 + y.personCv * y.personCv);
  const sigma = Math.sqrt(sigma2);
  // The rate at the yardstick's own lower end (one-sided, at the interval's z), so an uncertain
  // yardstick allows more silent persons.
  const z = interval.z;
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
  return Math.log(interval.tail) / Math.log(p0);
}
