import type { BurstYardstick } from "../calibration/burstYardstick.ts";
import type { TwoSided } from "../../stats/twoSided.ts";
import { medianPersons } from "./medianPersons.ts";
import { silentPersonsBound } from "./silentPersonsBound.ts";
import type { CalibrationRef } from "../calibration/Calibration.ts";
import type { PeopleModel } from "../calibration/PeopleModel.ts";
import { modelledPeople } from "./modelledPeople.ts";
import type { RateModel } from "./rateModel.ts";
import type { SessionWindow } from "../visits/SessionWindows.ts";
import { band } from "./band.ts";
import { burstsOf, type DayModel } from "./dayModel.ts";
import { heardInside } from "../phones/heardInside.ts";
import { intervalFeatures } from "./intervalFeatures.ts";
import type { OccupancyInterval } from "./PeopleEstimate.ts";
import type { ResolvedPeopleEstimatorOptions } from "./peopleEstimatorOptions.ts";

// Adds `amount`, spread uniformly over [from, to] (a point when equal), to the day's interval bins.
function spread(bins: Float64Array, dayStart: number, intervalMs: number, from: number, to: number, amount: number): void {
  const n = bins.length;
  if (to <= from) {
    const i = Math.floor((from - dayStart) / intervalMs);
    if (i >= 0 && i < n) bins[i]! += amount;
    return;
  }
  const first = Math.max(0, Math.floor((from - dayStart) / intervalMs));
  const last = Math.min(n - 1, Math.floor((to - dayStart) / intervalMs));
  for (let i = first; i <= last; i++) {
    const a = Math.max(from, dayStart + i * intervalMs);
    const b = Math.min(to, dayStart + (i + 1) * intervalMs);
    if (b > a) bins[i]! += (amount * (b - a)) / (to - from);
  }
}

/**
 * Occupancy of the intervals `first` to `last − 1` of the day `w` (`intervalMs` each from the
 * day's start, the last one cut at the day's end): the identity-known visits' weighted presence
 * plus the persons behind the other randomized inside bursts (÷ (ρ · interval)), with its band —
 * or, for a shop whose calibration learned a model, the model's people from the interval's
 * features. Internal: the one occupancy rule of `PeopleEstimator` and `LiveOccupancy`.
 *
 * @example
 * const o = peopleEstimatorOptions();
 * const start = Date.UTC(2026, 10, 15, 15); // 2026-11-16 00:00 in Seoul
 * const day = { shopId: 101, window: "day" as const, label: "2026-11-16", start, end: start + 86_400_000 };
 * occupancyIntervals(dayModel([], day, o), day, 40, 41, o)[0]?.inside; // 0 (10:00–10:15, no one heard)
 */
export function occupancyIntervals(model: DayModel, w: SessionWindow, first: number, last: number, o: ResolvedPeopleEstimatorOptions): OccupancyInterval[] {
  const intervalMs = o.intervalMs;
  const from = w.start + first * intervalMs;
  const count = last - first;
  const knownMs = new Float64Array(count);
  const universalMs = new Float64Array(count);
  const universalPersonMs = new Float64Array(count);
  const inB = new Float64Array(count);
  const outB = new Float64Array(count);
  for (const k of model.known) {
    // Present from half a burst gap before the first burst to half one after the last.
    const half = (k.estimated - k.span) / 2;
    spread(knownMs, from, intervalMs, k.start - half, k.end + half, k.estimated * k.weight);
    if (!k.randomized) {
      spread(universalMs, from, intervalMs, k.start - half, k.end + half, k.estimated);
      spread(universalPersonMs, from, intervalMs, k.start - half, k.end + half, k.estimated * k.weight);
    }
  }
  for (const s of model.rest) {
    // Universal MACs do not probe as randomized phones do (laptops, PCs, phones on the Wi-Fi):
    // their bursts are not persons' bursts inside.
    if (heardInside(s)) {
      if (s.randomized) spread(inB, from, intervalMs, s.start, s.end, burstsOf(model, s));
    } else spread(outB, from, intervalMs, s.start, s.end, burstsOf(model, s));
  }
  const features = intervalFeatures(model.sessions, model.burstShare, model.stationary, w.start, w.end, intervalMs, first, last);
  const occupancy: OccupancyInterval[] = [];
  for (let i = 0; i < count; i++) {
    const start = from + i * intervalMs;
    const end = Math.min(w.end, start + intervalMs);
    const len = end - start;
    const known = { inside: knownMs[i]! / len, universal: universalMs[i]! / len, universalPersons: universalPersonMs[i]! / len };
    occupancy.push(intervalFigures(w.shopId, start, end, known, inB[i]!, outB[i]!, features[i]!, model, model.yardstick, model.calibration, model.people, o.interval));
  }
  return occupancy;
}

/**
 * One interval's occupancy from its data — the identity-known phones' mean presence, the other
 * phones' inside and outside bursts, its features — and a rate model: the one occupancy rule, for
 * a day's own model and for a pooled one (`poolPeople`). With a shop's learned model (`people`),
 * `inside` and its bounds are the model's; the parts stay beside it as data. Internal:
 * {@link occupancyIntervals} and a day estimated again.
 *
 * @example
 * const model = dayModel([], { shopId: 101, start: 0 }, peopleEstimatorOptions());
 * const known = { inside: 2, universal: 0, universalPersons: 0 };
 * intervalFigures(101, 0, 900_000, known, 0, 0, new Array(11).fill(0), model, model.yardstick, null, null, twoSided(0.9)).inside; // 2
 */
export function intervalFigures(
  shopId: number,
  start: number,
  end: number,
  known: { readonly inside: number; readonly universal: number; readonly universalPersons: number },
  b: number,
  out: number,
  features: readonly number[],
  model: RateModel,
  yardstick: BurstYardstick,
  calibration: CalibrationRef | null,
  people: { readonly model: PeopleModel; readonly driftLogVariance: number } | null,
  interval: TwoSided,
): OccupancyInterval {
  const { rate, phi, m, rateRelVar, meanDwell } = model;
  const len = end - start;
  // Persons behind the bursts, median-unbiased for the persons' spread of rates (a few phones'
  // bursts fall short of their mean more often than not).
  const rest = b > 0 ? medianPersons(b / (rate * len), Math.sqrt(phi)) : 0;
  // Persons behind the count: those present at some point of the interval (the mean inside when
  // no identity-known visit gives a stay to scale by).
  const phones = Number.isFinite(meanDwell) && meanDwell > 0 ? Math.max(1, (rest * (len + meanDwell)) / meanDwell) : Math.max(1, rest);
  // No burst heard is not no one there: persons whose phones slept through the interval.
  const [low, high] =
    b > 0 ? band(rest, [1 / b, phi / phones, rateRelVar], [Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY, m - 1], interval) : [0, silentPersonsBound(yardstick, len / 60_000, interval)];
  // Whether an identity-known universal-MAC device is a person is not known (its weight is a
  // share): the bounds take none of them, and all of them, as persons.
  const certain = known.inside - known.universalPersons;
  const learned = people === null ? undefined : modelledPeople(people.model, features, interval, people.driftLogVariance);
  return {
    shopId,
    start,
    end,
    inside: learned?.inside ?? known.inside + rest,
    insideLow: learned?.low ?? certain + low,
    insideHigh: learned?.high ?? certain + known.universal + high,
    outside: out > 0 ? out / (rate * len) : 0,
    knownInside: known.inside,
    universalInside: known.universal,
    universalPersons: known.universalPersons,
    insideBursts: b,
    outsideBursts: out,
    features,
    calibration,
  };
}

/**
 * The number of occupancy intervals of the day `w` (`intervalMs` each from its start, the last
 * one cut at its end). Internal: `PeopleEstimator` and `LiveOccupancy` lay out a day with it.
 *
 * @example
 * intervalCount({ start: 0, end: 86_400_000 }, peopleEstimatorOptions()); // 96
 */
export function intervalCount(w: Pick<SessionWindow, "start" | "end">, o: ResolvedPeopleEstimatorOptions): number {
  return Math.ceil((w.end - w.start) / o.intervalMs);
}
