import type { BurstYardstick } from "../calibration/burstYardstick.ts";
import type { CalibrationRef } from "../calibration/Calibration.ts";
import type { PeopleModel } from "../calibration/PeopleModel.ts";
import { rateModels, sampleSums, type RateModel, type SampleSums } from "./rateModel.ts";
import type { SessionWindow } from "../visits/SessionWindows.ts";
import type { ClassifiedSession } from "../visits/VisitClassifier.ts";
import { heardInside } from "../phones/heardInside.ts";
import { knownVisits, type KnownVisit } from "../phones/knownVisits.ts";
import { linkedVisits } from "../phones/linkedVisits.ts";
import { ONE_BURST_RULES, oneBurstMacs } from "../phones/oneBurstMacs.ts";
import { timerMacs } from "../phones/timerMacs.ts";
import type { PeopleSample } from "./PeopleEstimate.ts";
import type { ResolvedPeopleEstimatorOptions } from "./peopleEstimatorOptions.ts";
import { withYardstick, yardstickFor } from "./yardstickFor.ts";

/**
 * Fewest universal-MAC visits a day for them alone to give the burst rate and mean dwell: below
 * it their sampling error (a per-phone rate's coefficient of variation is ~0.7, so ~22 % at 10)
 * outweighs the bias of the other identity-known visits.
 */
const MIN_UNIVERSAL_SAMPLE = 10;

/**
 * Most sessions (split by silences longer than the session gap, rejoined within `rejoinGapMs`)
 * one shopper's visit is expected to make: even a phone with two-minute burst gaps splits a
 * typical visit no more than a few times, while staff coming and going make many.
 */
const MAX_SHOPPER_SESSIONS = 4;

// Canonical order of sessions (the estimate must not depend on the order they were classified in).
function bySession(a: ClassifiedSession, b: ClassifiedSession): number {
  return a.start - b.start || a.end - b.end || (a.device < b.device ? -1 : a.device > b.device ? 1 : 0);
}

/**
 * What one shop-day's classified sessions (the whole day, or the day so far) say about its
 * people: the identity-known visits (weighted), the yardstick the rest is counted by, and the
 * stays' sample with the sampling variances the intervals and the Beale correction need. Internal:
 * built by {@link dayModel}, read by {@link occupancyIntervals}.
 *
 * @example
 * const model: DayModel = dayModel(classified, { shopId: 101, start: 0 }, peopleEstimatorOptions());
 */
export interface DayModel extends RateModel {
  /** The day's visitor and passer-by sessions, in canonical order (the features' data). */
  readonly sessions: readonly ClassifiedSession[];
  /** The day's stationary devices' sessions, [start, end] epoch ms (the `stationary` feature). */
  readonly stationary: readonly (readonly [number, number])[];
  /**
   * The sessions counted by burst rate, in canonical order: every session but the identity-known
   * visits' (passers-by, and visitor sessions set aside as pieces of rotating phones' visits) and
   * the MACs of phones on a timer.
   */
  readonly rest: readonly ClassifiedSession[];
  /** Bursts each MAC of a burst of several stands for (1 ÷ their number; the others: 1): see {@link burstsOf}. */
  readonly burstShare: ReadonlyMap<ClassifiedSession, number>;
  /** Visitor sessions set aside as possible pieces of a rotating phone's visit. */
  readonly linked: ReadonlySet<ClassifiedSession>;
  readonly known: readonly KnownVisit[];
  /** The samples the mean dwell may come from; it came from `universal` when that holds at least 10 visits. */
  readonly sample: PeopleSample;
  /** The burst yardstick of the shop for this day (the prior, or its calibration's, aged). */
  readonly yardstick: BurstYardstick;
  /** The calibration behind `yardstick` (`null`: the prior). */
  readonly calibration: CalibrationRef | null;
  /** The shop's learned model, when its calibration has one, and the drift its age adds (variance of ln people). */
  readonly people: { readonly model: PeopleModel; readonly driftLogVariance: number } | null;
}

/**
 * The {@link DayModel} of one shop-day's visitor and passer-by sessions (any order), and its
 * stationary devices' presence. Internal: `PeopleEstimator` builds it when a day closes,
 * `LiveOccupancy` for the day so far.
 *
 * @example
 * dayModel(classified, { shopId: 101, start: 0 }, peopleEstimatorOptions()).rate * 60_000; // bursts per minute per person
 */
export function dayModel(
  input: readonly ClassifiedSession[],
  w: Pick<SessionWindow, "shopId" | "start">,
  o: ResolvedPeopleEstimatorOptions,
  stationary: readonly (readonly [number, number])[] = [],
): DayModel {
  const sessions = [...input].sort(bySession);
  const visits = sessions.filter((s) => s.kind === "visitor");
  // One-burst MACs: a burst is one burst however many MACs it was sent with, and a phone on a
  // timer (a new MAC at every burst) is one phone.
  const oneBurst = oneBurstMacs(sessions);
  // A MAC on a fast timer is one phone while it lasts, and its next MAC on the same timer the same
  // phone: neither a piece to count by bursts nor a second visitor.
  const chains = timerMacs(sessions, oneBurst.inTrain, ONE_BURST_RULES);
  const inChain = new Set(chains.flatMap((c) => c.sessions));
  const taken = new Set([...oneBurst.inTrain, ...inChain]);
  const linked = linkedVisits(sessions, o, taken);

  // Identity-known visits, per device: a phone silent for longer than the session gap splits its
  // visit into sessions, which rejoin here when they are at most `rejoinGapMs` apart.
  const { yardstick, calibration, people } = yardstickFor(o, w.shopId, w.start, sessions[0]?.visitorRssi);
  // A universal MAC the classifier called a passer-by's, heard inside: a piece of a visit if the
  // same MAC is heard inside again (`knownVisits`). Its bursts are no person's in the rest (they
  // are universal), so it counts there or nowhere.
  const returning = sessions.filter((s) => s.kind === "passerby" && !s.randomized && heardInside(s));
  const known = knownVisits(visits.filter((v) => !inChain.has(v)), linked, o.rejoinGapMs, yardstick.universalPersonShare, oneBurst.trains, chains, returning);
  // The sample that stands for the rest: universal MACs never rotate and are never set aside, so
  // they are a sample of all phones (on the shop's Wi-Fi or not, long and short visits alike);
  // randomized MACs that kept one MAC over a visit are not — a phone on the shop's Wi-Fi keeps
  // its MAC and probes rarely, and a rotating phone keeps one only over a short visit. With too
  // few universal visits, every identity-known visit (biased, see the README).
  // A device heard in more than four separate sessions of one visit comes and goes (staff
  // on a short shift, whom the classifier's 40 %-of-opening-hours rule does not catch): counted,
  // but not a shopper whose burst rate and dwell stand for the others.
  // A slow prober's visit seen only in one-burst sessions is seen when it is long (two sessions
  // more than the session gap apart): counted, but no sample of stays.
  const shoppers = known.filter((k) => k.sessions <= MAX_SHOPPER_SESSIONS && !k.passes);
  const sample: PeopleSample = { universal: sampleSums(shoppers.filter((k) => !k.randomized)), shoppers: sampleSums(shoppers) };
  const model = withYardstick(rateModels([chosenSample(sample, sample.universal.visits)])[0]!, yardstick);
  const rest = sessions.filter((s) => (s.kind !== "visitor" || linked.has(s)) && !taken.has(s));
  return { ...model, sessions, stationary, rest, burstShare: oneBurst.share, linked, known, sample, yardstick, calibration, people };
}

/**
 * The sample the mean stay is learned from: the universal-MAC visits when there are enough of
 * them (`universalVisits`: the day's, or the pooled days'), else every identity-known visit.
 * Internal: a day's model, and a day estimated again (pooled, or with a calibration).
 *
 * @example
 * const { sample } = dayModel([], { shopId: 101, start: 0 }, peopleEstimatorOptions());
 * chosenSample(sample, 0) === sample.shoppers; // true
 */
export function chosenSample(sample: PeopleSample, universalVisits: number): SampleSums {
  return universalVisits >= MIN_UNIVERSAL_SAMPLE ? sample.universal : sample.shoppers;
}

/**
 * The bursts a session of the rest counts for: its probes, shared among the MACs of a burst of
 * several (a burst is one burst, however many MACs it was sent with). Internal: the one burst
 * count of the day's estimate, its intervals and the day estimated again.
 *
 * @example
 * const model = dayModel(classified, { shopId: 101, start: 0 }, peopleEstimatorOptions());
 * model.rest.reduce((a, s) => a + burstsOf(model, s), 0) <= model.rest.reduce((a, s) => a + s.probeCount, 0); // true
 */
export function burstsOf(model: Pick<DayModel, "burstShare">, s: ClassifiedSession): number {
  return s.probeCount * (model.burstShare.get(s) ?? 1);
}
