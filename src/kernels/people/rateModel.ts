import { randomEffects } from "../../stats/randomEffects.ts";

/**
 * A sample of identity-known visits of one shop-day, as sums: all the people estimate needs to
 * learn the per-phone burst rate and the mean dwell from it, and to pool a shop's days
 * (`rateModels`). Sums, not visits, so a day's sample is a few numbers to store (the fleet)
 * and days add up without their sessions.
 *
 * @example
 * const s: SampleSums = sampleSums([{ bursts: 40, span: 1_200_000, estimated: 1_230_000 }]);
 * s.visits; // 1
 */
export interface SampleSums {
  /** Visits in the sample (n, behind the mean dwell). */
  readonly visits: number;
  /** Σ estimated dwell, ms. */
  readonly dwellSum: number;
  /** Σ estimated dwell², ms². */
  readonly dwellSumSq: number;
  /** Σ ln(estimated dwell / ms). */
  readonly logDwellSum: number;
  /** Σ ln(estimated dwell / ms)². */
  readonly logDwellSumSq: number;
  /** Visits with a burst gap and a span (m, behind the burst rate). */
  readonly rateVisits: number;
  /** Σ burst gaps (bursts − 1) of those visits. */
  readonly bursts: number;
  /** Σ span (last − first burst) of those visits, ms. */
  readonly span: number;
  /** Σ (bursts − 1)². */
  readonly burstsSq: number;
  /** Σ (bursts − 1) · span, ms. */
  readonly burstsSpan: number;
  /** Σ span², ms². */
  readonly spanSq: number;
}

/**
 * The {@link SampleSums} of identity-known visits: `bursts` is a visit's burst gaps (bursts − 1),
 * `span` its last − first burst (ms), `estimated` its estimated dwell (ms, > 0).
 *
 * @example
 * sampleSums([{ bursts: 40, span: 1_200_000, estimated: 1_230_000 }, { bursts: 0, span: 0, estimated: 60_000 }]).rateVisits; // 1
 */
export function sampleSums(visits: readonly { readonly bursts: number; readonly span: number; readonly estimated: number }[]): SampleSums {
  let dwellSum = 0;
  let dwellSumSq = 0;
  let logDwellSum = 0;
  let logDwellSumSq = 0;
  let rateVisits = 0;
  let bursts = 0;
  let span = 0;
  let burstsSq = 0;
  let burstsSpan = 0;
  let spanSq = 0;
  for (const k of visits) {
    const d = k.estimated;
    const l = Math.log(d);
    dwellSum += d;
    dwellSumSq += d * d;
    logDwellSum += l;
    logDwellSumSq += l * l;
    if (k.bursts >= 1 && k.span > 0) {
      rateVisits++;
      bursts += k.bursts;
      span += k.span;
      burstsSq += k.bursts * k.bursts;
      burstsSpan += k.bursts * k.span;
      spanSq += k.span * k.span;
    }
  }
  return { visits: visits.length, dwellSum, dwellSumSq, logDwellSum, logDwellSumSq, rateVisits, bursts, span, burstsSq, burstsSpan, spanSq };
}

/**
 * What a sample says about the phones it stands for: the per-phone burst rate and the mean
 * dwell, with the sampling variances the people estimate's interval and Beale correction need.
 *
 * @example
 * const m: RateModel = rateModels([sampleSums([{ bursts: 40, span: 1_200_000, estimated: 1_230_000 }])])[0]!;
 * m.rate * 60_000; // bursts per minute per phone
 */
export interface RateModel {
  /** Bursts per ms per phone: Σ (bursts − 1) ÷ Σ span (a ratio estimator); NaN without a sampled visit. */
  readonly rate: number;
  /** Squared coefficient of variation of the per-phone rate (φ). */
  readonly phi: number;
  /** Visits behind `rate` (effective, when days are pooled). */
  readonly m: number;
  /** var(r̂)/r̂². */
  readonly rateRelVar: number;
  /**
   * Squared coefficient of variation of a visit's bursts (rate × dwell: phones differ in both),
   * within days: how far the bursts of n other visits stray from n times their mean, relatively
   * (CV²/n), on top of how well the mean is known.
   */
  readonly burstsCv2: number;
  /** Mean estimated dwell, ms (the W of Little's law). */
  readonly meanDwell: number;
  /** Visits behind `meanDwell` (effective, when days are pooled). */
  readonly n: number;
  /** var(W̄)/W̄². */
  readonly dwellRelVar: number;
  /** var(W̄)/W̄² of a log-normal with the sample's spread of log dwell (Cox's method: s²/n + s⁴/(2(n − 1))). */
  readonly dwellCoxRelVar: number;
}

/**
 * The {@link RateModel} of each of a shop's days from their samples. One day alone is its own
 * sample: rate Σ (bursts − 1) ÷ Σ span, φ and var(r̂) from the ratio estimator's residuals, the
 * sample mean of estimated dwell and its variance, Cox's variance from the spread of log dwell.
 * Several days are pooled by random effects ({@link randomEffects}, DerSimonian–Laird), the rate
 * and the mean dwell each: each day's own estimate is shrunk toward the days' mean by how much
 * of the days' disagreement its sampling noise explains, with the within-day variances (the
 * per-visit spread of rate and dwell) pooled over the days. A day with a small sample then
 * borrows from the others, and days that truly differ (a weekend's longer stays) keep most of
 * their own figure. `m` and `n` are the effective sample sizes (the pooled per-visit variance ÷
 * the pooled estimate's variance), which the interval's degrees of freedom use.
 *
 * @param days one sample per day (a single day: its own model)
 * @example
 * const one = sampleSums([{ bursts: 40, span: 1_200_000, estimated: 1_230_000 }, { bursts: 20, span: 900_000, estimated: 945_000 }]);
 * Math.round(rateModels([one])[0]!.meanDwell); // 1087500
 */
export function rateModels(days: readonly SampleSums[]): RateModel[] {
  // Within-day spreads, pooled: per-visit variance of dwell and of the rate's residuals.
  let dwellSs = 0;
  let logSs = 0;
  let visits = 0;
  let residSs = 0;
  let burstsSs = 0;
  let burstTotal = 0;
  let rateVisits = 0;
  let spanTotal = 0;
  let daysWithDwell = 0;
  let daysWithRate = 0;
  const dayRate: number[] = [];
  const dayDwell: number[] = [];
  for (const d of days) {
    const w = d.visits > 0 ? d.dwellSum / d.visits : Number.NaN;
    const r = d.span > 0 ? d.bursts / d.span : Number.NaN;
    dayDwell.push(w);
    dayRate.push(r);
    if (d.visits > 0) {
      daysWithDwell++;
      visits += d.visits;
      dwellSs += Math.max(0, d.dwellSumSq - d.visits * w * w);
      logSs += Math.max(0, d.logDwellSumSq - (d.logDwellSum * d.logDwellSum) / d.visits);
    }
    if (d.rateVisits > 0) {
      daysWithRate++;
      rateVisits += d.rateVisits;
      spanTotal += d.span;
      // Σ (b − r·s)² and Σ (b − b̄)² from the sums.
      residSs += Math.max(0, d.burstsSq - 2 * r * d.burstsSpan + r * r * d.spanSq);
      burstsSs += Math.max(0, d.burstsSq - (d.bursts * d.bursts) / d.rateVisits);
      burstTotal += d.bursts;
    }
  }
  const dwellVar = visits > daysWithDwell ? dwellSs / (visits - daysWithDwell) : Number.NaN;
  const logVar = visits > daysWithDwell ? logSs / (visits - daysWithDwell) : Number.NaN;
  const residVar = rateVisits > daysWithRate ? residSs / (rateVisits - daysWithRate) : Number.NaN;
  // var(W̄_d) = σ²/n_d; var(r̂_d) = σ_e² · m_d / span_d² (ratio estimator, mean span span_d/m_d).
  // Without a positive pooled variance (no day with two visits, or visits all alike) there is
  // nothing to weigh days by: each keeps its own figure, with that variance (NaN or 0).
  const dwell =
    dwellVar > 0
      ? randomEffects(
          dayDwell,
          days.map((d) => (d.visits > 0 ? dwellVar / d.visits : Number.NaN)),
        )
      : undefined;
  const rate =
    residVar > 0
      ? randomEffects(
          dayRate,
          days.map((d) => (d.span > 0 ? (residVar * d.rateVisits) / (d.span * d.span) : Number.NaN)),
        )
      : undefined;
  const meanSpan = rateVisits > 0 ? spanTotal / rateVisits : Number.NaN;
  const meanBursts = rateVisits > 0 ? burstTotal / rateVisits : Number.NaN;
  const burstsCv2 = rateVisits > daysWithRate ? burstsSs / (rateVisits - daysWithRate) / (meanBursts * meanBursts) : Number.NaN;
  return days.map((d, i) => {
    const r = rate === undefined ? dayRate[i]! : rate.shrunk[i]!;
    const w = dwell === undefined ? dayDwell[i]! : dwell.shrunk[i]!;
    const rVar = rate === undefined ? residVar : rate.shrunkVariance[i]!;
    const wVar = dwell === undefined ? dwellVar : dwell.shrunkVariance[i]!;
    const m = residVar > 0 ? residVar / (rVar * meanSpan * meanSpan) : d.rateVisits;
    const n = dwellVar > 0 ? dwellVar / wVar : d.visits;
    const phi = residVar / (r * r * meanSpan * meanSpan);
    return {
      rate: r,
      phi: Number.isFinite(phi) ? phi : Number.NaN,
      m: Number.isFinite(m) ? m : d.rateVisits,
      rateRelVar: rVar / (r * r),
      burstsCv2,
      meanDwell: w,
      n: Number.isFinite(n) ? n : d.visits,
      dwellRelVar: wVar / (w * w),
      dwellCoxRelVar: n > 1 ? logVar / n + (logVar * logVar) / (2 * (n - 1)) : Number.NaN,
    };
  });
}
