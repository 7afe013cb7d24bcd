import { rateModels } from "./rateModel.ts";
import { chosenSample } from "./dayModel.ts";
import type { PeopleEstimate } from "./PeopleEstimate.ts";
import { peopleEstimatorOptions, type PeopleEstimatorOptions } from "./peopleEstimatorOptions.ts";
import { reestimated } from "./reestimated.ts";

/**
 * A shop's days estimated together: each day's mean stay is pooled with the same shop's other
 * days in `estimates` by random effects (`rateModels`; the burst yardstick is each day's own:
 * the prior, or the shop's calibration aged to the day), and its visitors,
 * interval, capture rate and occupancy are worked out again from the day's own data (identity-known
 * visits, bursts per interval) with the pooled figures. One day's universal-MAC visits — a few
 * dozen, of stays that differ by a factor of ten — leave ~20 % of sampling error in the mean
 * dwell; a week of them, a third of that. Days whose samples disagree more than their sampling
 * explains (a weekend's longer stays) keep more of their own figures: the pooling estimates how
 * much the days differ and shrinks each day's figure toward the shop's only as far as its own
 * noise justifies. The universal-MAC visits are the sample when the shop's days hold at least
 * 10 of them together (each day's own rule, applied to the pool), else every identity-known visit.
 * Passers-by stay the day's own (a day has hundreds of universal passers-by).
 *
 * A day's estimate then depends on which other days were pooled with it — the same set in any
 * order gives the same figures — so pool a fixed span (the days of one input, a week, a month),
 * not "every day so far". Estimates pooled already (`pooledDays` > 1) are rejected: pool the
 * days' own estimates.
 *
 * @param estimates days of one or several shops (any order), as `PeopleEstimator` gives them
 * @param options  `level` of the intervals (as the estimator's, 0.9 by default)
 * @returns the same days, in the same order, with `pooledDays` the shop's days in `estimates`
 * @example
 * const { people } = await analyze(records, { timeZone: "Asia/Seoul" });
 * for (const day of poolPeople(people)) console.log(day.label, day.visitors.toFixed(0), `[${day.visitorsLow}, ${day.visitorsHigh}]`);
 */
export function poolPeople(estimates: readonly PeopleEstimate[], options: Pick<PeopleEstimatorOptions, "level"> = {}): PeopleEstimate[] {
  if (!Array.isArray(estimates)) throw new TypeError("poolPeople: estimates must be an array of PeopleEstimate");
  const interval = peopleEstimatorOptions(options.level === undefined ? {} : { level: options.level }).interval;
  const byShop = new Map<number, number[]>();
  estimates.forEach((p, i) => {
    if (typeof p?.sample?.universal !== "object" || typeof p.sample.shoppers !== "object") throw new TypeError(`poolPeople: estimate ${i} has no sample (not a PeopleEstimate?)`);
    if (p.pooledDays !== 1) throw new RangeError(`poolPeople: estimate ${i} (shop ${p.shopId}, ${p.label}) is pooled already (pooledDays ${p.pooledDays}); pool the days' own estimates`);
    const list = byShop.get(p.shopId);
    if (list === undefined) byShop.set(p.shopId, [i]);
    else list.push(i);
  });
  const out: PeopleEstimate[] = [...estimates];
  for (const indices of byShop.values()) {
    // A canonical order, so the figures do not depend on the order of `estimates`.
    indices.sort((a, b) => estimates[a]!.start - estimates[b]!.start);
    const days = indices.map((i) => estimates[i]!);
    let universalVisits = 0;
    for (const p of days) universalVisits += p.sample.universal.visits;
    const models = rateModels(days.map((p) => chosenSample(p.sample, universalVisits)));
    indices.forEach((i, j) => {
      const p = days[j]!;
      const model = models[j]!;
      out[i] = { ...reestimated(p, model, p.yardstick, p.calibration, null, interval), pooledDays: days.length };
    });
  }
  return out;
}
