import { normalQuantile, tQuantile } from "./stdlibQuantiles.ts";

/** Degrees of freedom from which the t quantile is the normal one (to 10⁻¹⁰). */
const NORMAL_FROM_DF = 1e10;

/**
 * The quantile of Student's t distribution with `df` degrees of freedom: the t with
 * P(T ≤ t) = `p`, for `p` in (0, 1) and `df` > 0 (whole or not), and the standard normal
 * quantile for infinite `df`. The quantile to use when a variance is estimated from a sample of
 * n (df = n − 1) rather than known: with a few dozen sampled visits the normal quantile makes a
 * "90 %" interval hold the truth less often. @stdlib's inverse incomplete beta function, exact to
 * double precision; this adds the infinite `df` (a variance taken as known) and eager checks,
 * and takes the normal quantile from `df` = 10¹⁰ on: there they agree to 10⁻¹⁰ (the difference
 * is about (z³ + z) ÷ 4df), while @stdlib's t quantile loses its precision from about 10¹⁵ and
 * returns 0 from 10²⁰ (a Welch–Satterthwaite df can be that large).
 *
 * @example
 * Math.round(studentQuantile(0.95, 1) * 1e4) / 1e4;   // 6.3138
 * Math.round(studentQuantile(0.95, 10) * 1e4) / 1e4;  // 1.8125
 * Math.round(studentQuantile(0.05, 30) * 1e4) / 1e4;  // -1.6973
 * Math.round(studentQuantile(0.95, Infinity) * 1e4) / 1e4; // 1.6449
 * Math.round(studentQuantile(0.95, 1e30) * 1e4) / 1e4;     // 1.6449
 */
export function studentQuantile(p: number, df: number): number {
  if (!(p > 0 && p < 1)) throw new RangeError(`studentQuantile: p must be in (0, 1), got ${p}`);
  if (!(df > 0)) throw new RangeError(`studentQuantile: df must be > 0, got ${df}`);
  return df >= NORMAL_FROM_DF ? normalQuantile(p, 0, 1) : tQuantile(p, df);
}
