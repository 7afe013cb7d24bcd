import { DwellMeter, type WindowDwell } from "../kernels/DwellMeter.ts";
import { PeopleEstimator } from "../kernels/people/PeopleEstimator.ts";
import type { PeopleEstimate } from "../kernels/people/PeopleEstimate.ts";
import type { ClassifiedSession } from "../kernels/VisitClassifier.ts";
import { VisitCounter, type VisitCounts } from "../kernels/VisitCounter.ts";
import type { AnalyzeOptions } from "./analyze.ts";

/**
 * What the session stages of one analysis collect, by the stage that fills it: the rows
 * {@link Analyzer}'s `finish` assembles its result from.
 *
 * @example
 * const collected: SessionStageResults = { dayCounts: [], hourCounts: [], dayDwell: [], people: [], lateSessions: 0 };
 */
export interface SessionStageResults {
  /** Per shop and local day (`days`). */
  readonly dayCounts: VisitCounts[];
  /** Per shop and local hour (`hours`; empty when `hourly` is false). */
  readonly hourCounts: VisitCounts[];
  /** Visitor dwell per shop and local day (`dwell`). */
  readonly dayDwell: WindowDwell[];
  /** People per shop and local day (`people`; empty when `people` is false). */
  readonly people: PeopleEstimate[];
  /** Sessions that reached the day counts after their day was emitted. */
  lateSessions: number;
}

/**
 * One stage fed every classified session of an analysis: a kernel with `push` and `flush`.
 *
 * @example
 * const stage: SessionConsumer = { push: () => {}, flush: () => {} };
 */
export interface SessionConsumer {
  push(session: ClassifiedSession): void;
  flush(): void;
}

/**
 * One entry of {@link SESSION_STAGES}: its name, the option that turns it off (when one does),
 * and its kernel's factory over the analysis's options (with the time zone resolved once, at the
 * edge) and the results it collects into.
 *
 * @example
 * const hourly = SESSION_STAGES.find((s) => s.name === "hours")!;
 * hourly.option; // "hourly"
 */
export interface SessionStage {
  readonly name: string;
  /** The `AnalyzeOptions` key whose `false` turns the stage off; none when it always runs. */
  readonly option?: keyof AnalyzeOptions;
  create(options: AnalyzeOptions, timeZone: string, out: SessionStageResults): SessionConsumer;
}

/**
 * The stages after classification, in the order each session reaches them: visit counts per day
 * and per hour, visitor dwell per day, and the people estimate (visitors with their interval, and
 * occupancy per interval). The one list {@link Analyzer} is built from: a new per-session or
 * per-interval estimator is one kernel and one entry here (and its lines in `ANALYSIS_LINES`).
 *
 * @example
 * SESSION_STAGES.map((s) => s.name); // ["days", "hours", "dwell", "people"]
 */
export const SESSION_STAGES: readonly SessionStage[] = Object.freeze([
  {
    name: "days",
    create: (options, timeZone, out) =>
      new VisitCounter(
        { window: "day", timeZone, ...(options.history === undefined ? {} : { history: options.history }) },
        { emit: (c) => void out.dayCounts.push(c), late: () => void out.lateSessions++ },
      ),
  },
  {
    name: "hours",
    option: "hourly",
    // Its own history: hourly "repeat" means seen before that hour, which must not consume the daily one.
    create: (_options, timeZone, out) => new VisitCounter({ window: "hour", timeZone }, { emit: (c) => void out.hourCounts.push(c) }),
  },
  {
    name: "dwell",
    create: (options, timeZone, out) => new DwellMeter({ ...options.dwell, window: "day", timeZone }, { emit: (d) => void out.dayDwell.push(d) }),
  },
  {
    name: "people",
    option: "people",
    create: (options, timeZone, out) =>
      new PeopleEstimator(
        { ...(options.people === false ? {} : options.people), timeZone, calibration: options.calibration },
        { emit: (p) => void out.people.push(p) },
      ),
  },
]);
