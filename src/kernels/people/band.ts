import type { TwoSided } from "../../stats/twoSided.ts";

/**
 * The two-sided interval (`interval`: its critical values) of a rate-based estimate `x` (> 0)
 * whose relative variance is the sum of `relVars`, each known exactly (df `Infinity`: the Poisson
 * count) or estimated from a sample with the given degrees of freedom. On the log scale — x is a count divided by a rate
 * learned from a few dozen heavy-tailed visits, so its error is multiplicative and skewed, and
 * its lower bound stays above 0 — with Student's t at the Welch–Satterthwaite degrees of
 * freedom of the sum: variances estimated from a sample of n make a normal quantile too narrow.
 * A variance that cannot be estimated (NaN: fewer than two sampled visits) makes the interval
 * unbounded above and 0 below: nothing supports a narrower one. Internal: the intervals of the
 * visitors and of the occupancy.
 *
 * @example
 * band(100, [Number.NaN], [10], twoSided(0.9)); // [0, Infinity]
 * band(100, [0.01], [Number.POSITIVE_INFINITY], twoSided(0.9))[0] < 100; // true
 */
export function band(x: number, relVars: readonly number[], dfs: readonly number[], interval: TwoSided): [number, number] {
  let total = 0;
  let denominator = 0;
  for (let i = 0; i < relVars.length; i++) {
    const v = relVars[i]!;
    total += v;
    if (v > 0 && dfs[i]! < Number.POSITIVE_INFINITY) denominator += (v * v) / dfs[i]!;
  }
  if (!Number.isFinite(total)) return [0, Number.POSITIVE_INFINITY];
  const df = denominator > 0 ? (total * total) / denominator : Number.POSITIVE_INFINITY;
  const spread = Math.exp(interval.t(df) * Math.sqrt(total));
  return [x / spread, x * spread];
}
