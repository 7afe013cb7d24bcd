/**
 * Random-effects pooling of k estimates of related quantities: {@link randomEffects}' result.
 *
 * @example
 * const r: RandomEffects = randomEffects([10, 12, 11], [1, 1, 1]);
 */
export interface RandomEffects {
  /** Weighted mean of the estimates, each weighted by 1 ÷ (its variance + `tau2`). */
  readonly mean: number;
  /** Variance of `mean`: 1 ÷ the sum of the weights. */
  readonly meanVariance: number;
  /** Between-estimate variance τ² (Sidik–Jonkman, ≥ 0): how much the quantities themselves differ. */
  readonly tau2: number;
  /**
   * Each estimate shrunk toward `mean` by how much of its spread is its own noise:
   * mean + B·(y − mean), B = τ² ÷ (τ² + v). An estimate without a variance (NaN, ≤ 0 or infinite)
   * is `mean`.
   */
  readonly shrunk: readonly number[];
  /**
   * Mean squared error of each shrunk value: B·v + (1 − B)²·`meanVariance` (τ² + `meanVariance`
   * for an estimate without a variance), taking τ² as known. (Prasad and Rao's term for τ² being
   * estimated, 2·v²·var(τ̂²)/(τ² + v)³, was tried: a nominal 90 % band then held the truth 93–99 %
   * of the time in the simulated test, and pooled days' intervals came out wider than a day's own.)
   */
  readonly shrunkVariance: readonly number[];
}

/**
 * Pools k estimates `y` of quantities that differ between units (a shop's days), each with its
 * sampling variance `v`, in the random-effects model y_i = θ_i + e_i, θ_i = μ + a_i,
 * a_i ~ (0, τ²), e_i ~ (0, v_i). τ² is Sidik and Jonkman's estimator (J. R. Stat. Soc. C 54,
 * 2005): the weighted spread of the estimates around their mean, weights from a first,
 * unweighted guess of τ². Unlike DerSimonian–Laird's it is never 0 unless the estimates agree
 * exactly: with a week of days DerSimonian–Laird's often is, which pools days that truly differ
 * as if they did not (a fuzzed week with 20 % day-to-day variation of dwell: the 90 % interval
 * held the truth on 40 of 56 days, against 45 with this one); the cost is a little less pooling
 * when the days do not differ. Each θ_i is then estimated by shrinking y_i toward μ̂ (the best
 * linear unbiased predictor) — far when its own sample is small, not at all when the units differ
 * much more than their samples do. With one usable estimate it is returned as it is. Entries
 * whose `y` or `v` is not a finite number (v > 0) take no part in the fit and get μ̂.
 *
 * @param y  the estimates
 * @param v  their sampling variances (same length)
 * @example
 * // Three days' mean dwell (min) that agree exactly are pooled fully.
 * randomEffects([22, 22, 22], [16, 16, 16]).shrunk; // [22, 22, 22]
 * // Days that differ far beyond their noise keep their own values, nearly.
 * randomEffects([10, 30], [0.01, 0.01]).shrunk.map(Math.round); // [10, 30]
 * // Days that differ about as much as their noise are pulled toward each other.
 * randomEffects([18, 26], [16, 16]).shrunk; // [20, 24]
 */
export function randomEffects(y: readonly number[], v: readonly number[]): RandomEffects {
  if (y.length !== v.length) throw new RangeError(`randomEffects: y and v must have the same length, got ${y.length} and ${v.length}`);
  const usable: number[] = [];
  for (let i = 0; i < y.length; i++) if (Number.isFinite(y[i]) && Number.isFinite(v[i]) && v[i]! > 0) usable.push(i);
  const k = usable.length;
  if (k === 0) return { mean: Number.NaN, meanVariance: Number.NaN, tau2: Number.NaN, shrunk: y.map(() => Number.NaN), shrunkVariance: y.map(() => Number.NaN) };
  const tau2 = k > 1 ? sidikJonkman(usable.map((i) => y[i]!), usable.map((i) => v[i]!)) : 0;
  let rw = 0;
  let rwy = 0;
  for (const i of usable) {
    const w = 1 / (v[i]! + tau2);
    rw += w;
    rwy += w * y[i]!;
  }
  const mean = rwy / rw;
  const meanVariance = 1 / rw;
  const shrunk: number[] = [];
  const shrunkVariance: number[] = [];
  for (let i = 0; i < y.length; i++) {
    const vi = v[i]!;
    if (!(Number.isFinite(y[i]) && Number.isFinite(vi) && vi > 0)) {
      shrunk.push(mean);
      shrunkVariance.push(tau2 + meanVariance);
      continue;
    }
    const b = tau2 / (tau2 + vi);
    shrunk.push(mean + b * (y[i]! - mean));
    shrunkVariance.push(b * vi + (1 - b) * (1 - b) * meanVariance);
  }
  return { mean, meanVariance, tau2, shrunk, shrunkVariance };
}

// Sidik–Jonkman τ²: τ0² = Σ (y − ȳ)² ÷ k; w_i = τ0² ÷ (v_i + τ0²); τ² = Σ w_i (y_i − μ_w)² ÷ (k − 1).
function sidikJonkman(y: readonly number[], v: readonly number[]): number {
  const k = y.length;
  let mean = 0;
  for (const x of y) mean += x;
  mean /= k;
  let tau0 = 0;
  for (const x of y) tau0 += (x - mean) ** 2;
  tau0 /= k;
  if (!(tau0 > 0)) return 0;
  let sw = 0;
  let swy = 0;
  for (let i = 0; i < k; i++) {
    const w = tau0 / (v[i]! + tau0);
    sw += w;
    swy += w * y[i]!;
  }
  const mu = swy / sw;
  let q = 0;
  for (let i = 0; i < k; i++) q += (tau0 / (v[i]! + tau0)) * (y[i]! - mu) ** 2;
  return q / (k - 1);
}
