import { SessionWindows, type SessionWindow } from "../visits/SessionWindows.ts";
import { checkSink, type Sink } from "../sessions/Sink.ts";
import type { ClassifiedSession } from "../visits/VisitClassifier.ts";
import { dayModel } from "./dayModel.ts";
import { intervalCount, occupancyIntervals } from "./occupancyIntervals.ts";
import { peopleOfDay } from "./peopleOfDay.ts";
import type { PeopleEstimate } from "./PeopleEstimate.ts";
import { peopleEstimatorOptions, type PeopleEstimatorOptions, type ResolvedPeopleEstimatorOptions } from "./peopleEstimatorOptions.ts";

interface DayAcc {
  readonly sessions: ClassifiedSession[];
  /** Stationary devices' sessions, [start, end] (a feature of a shop's calibration model). */
  readonly stationary: [number, number][];
}

/**
 * The randomization-aware people estimator: per shop and local day, visitors (people) with an
 * interval, and the mean number of people inside and outside per interval, from classified
 * sessions. A MAC is not a person — phones rotate randomized MACs, many at every probe burst, and
 * a person may carry a laptop or a watch too — so it counts people in two parts (docs/people.md):
 *
 * 1. **Identity-known visits**: visitor sessions whose MAC held across the visit, by their exact
 *    presence, each weighted by how much of a person it is: a randomized MAC that held is a phone
 *    (1), a universal MAC a person only when a phone maker's on a shopper's stay
 *    (`universalPersonWeight`), else the yardstick's `universalPersonShare` (laptops, PCs, phones
 *    of persons already counted). A randomized visitor session is *set aside* instead when it has
 *    a possible rotation partner ({@link linkedVisits}: a new short randomized MAC heard inside,
 *    within `linkGapMs` of one of its ends, by the sensors of its burst at that end, peaks within
 *    `linkRssiDb`; for a visit shorter than `linkShortMs`, by any of its sensors): it may be one
 *    piece of a rotating phone's visit, and its bursts go to part 2.
 * 2. **The rest, by the burst yardstick**: every other randomized burst heard inside (peak
 *    smoothed RSSI at the session's `visitorRssi`, less 7.5 dB for a MAC of one or two readings)
 *    over an interval T gives x = bursts ÷ (ρ · T) person-equivalents, ρ the yardstick (bursts
 *    heard per person per minute: the prior from real phones, or the shop's calibration). The
 *    persons behind them are median-unbiased for the persons' spread of rates
 *    (`medianPersons`). Universal-MAC bursts are not persons' bursts. Visitors by Little's law:
 *    Σ bursts ÷ (ρ · W̄), W̄ the mean estimated stay of the identity-known visits.
 *
 * Uncertainty, on the log scale: 1/B (burst counting) + cv²/n (persons differ in rate, n behind
 * the count; for visitors, the CV² of a visit's bursts, rate × stay) + var(ln ρ) (the prior's
 * place-to-place spread, or the calibration's standard error, day-to-day spread and ageing)
 * (+ var(W̄)/W̄² for visitors, at least Cox's log-normal variance), with Student's t at the
 * Welch–Satterthwaite degrees of freedom. An interval with no burst still allows the persons whose
 * phones slept through it (`silentPersonsBound`), and the bounds take none and all of the
 * identity-known universal devices as persons. Staff and equipment (present most of the day, or
 * probing on a timer) are not people inside; bursts of one MAC within 1 s are one burst
 * (`Session.probeCount`); devices rejoined from more than four sessions a day stay out of the
 * stays' sample.
 *
 * Per-interval, not per-signal work: sessions are kept per open day and the estimate runs once
 * when the day closes (every session starting in it has been classified).
 *
 * @example
 * const out: PeopleEstimate[] = [];
 * const estimator = new PeopleEstimator({ timeZone: "Asia/Seoul" }, { emit: (p) => out.push(p) });
 * for (const s of classified) estimator.push(s);
 * estimator.flush();
 * out[0]?.occupancy[40]?.inside; // mean people inside 10:00–10:15
 */
export class PeopleEstimator extends SessionWindows<DayAcc, PeopleEstimate> {
  /** The resolved options. */
  readonly options: ResolvedPeopleEstimatorOptions;

  /**
   * @param options see {@link PeopleEstimatorOptions}; validated here
   * @param sink `emit`: one estimate per shop and local day; `late`: sessions whose day was already estimated
   */
  constructor(options: PeopleEstimatorOptions, sink: Sink<PeopleEstimate, ClassifiedSession>) {
    const o = peopleEstimatorOptions(options);
    super(
      "day",
      o.timeZone,
      {
        create: () => ({ sessions: [], stationary: [] }),
        add: (acc, s) => {
          // Staff and equipment are not shoppers: neither inside nor outside people.
          if (s.kind === "visitor" || s.kind === "passerby") acc.sessions.push(s);
          else if (s.kind === "stationary") acc.stationary.push([s.start, s.end]);
        },
        finish: (acc, w) => estimateDay(acc.sessions, acc.stationary, w, o),
      },
      checkSink("PeopleEstimator", sink),
    );
    this.options = o;
  }
}

function estimateDay(input: readonly ClassifiedSession[], stationary: readonly (readonly [number, number])[], w: SessionWindow, o: ResolvedPeopleEstimatorOptions): PeopleEstimate {
  const model = dayModel(input, w, o, stationary);
  const occupancy = occupancyIntervals(model, w, 0, intervalCount(w, o), o);
  return { ...peopleOfDay(model, w, o, occupancy), occupancy };
}
