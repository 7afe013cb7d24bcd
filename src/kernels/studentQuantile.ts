import { normalQuantile } from "./normalQuantile.ts";

/**
 * The quantile of Student's t distribution with `df` degrees of freedom: the t with
 * P(T ≤ t) = `p`, for `p` in (0, 1) and `df` > 0 (whole or not). The quantile to use when a
 * variance is estimated from a sample of n (df = n − 1) rather than known: with a few dozen
 * sampled visits the normal quantile makes a "90 %" interval hold the truth less often.
 * Closed forms for df = 1 and 2, Hill's algorithm 396 (CACM 1970: P(T ≤ t) is within 1e-5 of
 * `p` for p from 0.75 up, tested) otherwise, and the normal quantile for infinite df.
 *
 * @example
 * Math.round(studentQuantile(0.95, 1) * 1e4) / 1e4;   // 6.3138
 * Math.round(studentQuantile(0.95, 10) * 1e4) / 1e4;  // 1.8125
 * Math.round(studentQuantile(0.05, 30) * 1e4) / 1e4;  // -1.6973
 * studentQuantile(0.95, Infinity) === normalQuantile(0.95); // true
 */
export function studentQuantile(p: number, df: number): number {
  if (!(p > 0 && p < 1)) throw new RangeError(`studentQuantile: p must be in (0, 1), got ${p}`);
  if (!(df > 0)) throw new RangeError(`studentQuantile: df must be > 0, got ${df}`);
  if (p < 0.5) return -studentQuantile(1 - p, df);
  if (p === 0.5) return 0;
  if (df === Number.POSITIVE_INFINITY) return normalQuantile(p);
  // Hill's algorithm takes the two-tailed probability P = 2 (1 − p).
  const P = 2 * (1 - p);
  if (df === 1) return 1 / Math.tan((Math.PI * P) / 2);
  if (df === 2) return Math.sqrt(2 / (P * (2 - P)) - 2);
  const a = 1 / (df - 0.5);
  const b = 48 / (a * a);
  let c = (((20700 * a) / b - 98) * a - 16) * a + 96.36;
  const d = ((94.5 / (b + c) - 3) / b + 1) * Math.sqrt((a * Math.PI) / 2) * df;
  let x = d * P;
  let y = x ** (2 / df);
  if (y > 0.05 + a) {
    // Asymptotic inverse expansion about the normal quantile.
    x = normalQuantile(P / 2);
    y = x * x;
    if (df < 5) c += 0.3 * (df - 4.5) * (x + 0.6);
    c = (((0.05 * d * x - 5) * x - 7) * x - 2) * x + b + c;
    y = (((((0.4 * y + 6.3) * y + 36) * y + 94.5) / c - y - 3) / b + 1) * x;
    y = a * y * y;
    y = y > 0.002 ? Math.exp(y) - 1 : 0.5 * y * y + y;
  } else {
    y = ((1 / ((((df + 6) / (df * y) - 0.089 * d - 0.822) * (df + 2) * 3)) + 0.5 / (df + 4)) * y - 1) * ((df + 1) / (df + 2)) + 1 / y;
  }
  return Math.sqrt(df * y);
}
