import type { Calibration, CalibrationFile } from "./calibration/Calibration.ts";
import { DwellMeter, dwellMeterOptions, type DwellMeterOptions, type WindowDwell } from "./visits/DwellMeter.ts";
import type { VisitHistoryStore } from "./visits/MemoryVisitHistory.ts";
import { PeopleEstimator } from "./people/PeopleEstimator.ts";
import type { PeopleEstimate } from "./people/PeopleEstimate.ts";
import { peopleEstimatorOptions, type PeopleEstimatorOptions } from "./people/peopleEstimatorOptions.ts";
import { markResolved, resolvedBy } from "../options/resolvedOptions.ts";
import type { Kernel, Sink } from "./sessions/Sink.ts";
import type { ClassifiedSession } from "./visits/VisitClassifier.ts";
import { VisitCounter, visitCounterOptions, type VisitCounts } from "./visits/VisitCounter.ts";

/**
 * The settings of the stages after classification, as `AnalyzeOptions` names them: one time zone
 * for all, and each stage's own options (`false` turns `hourly` or `people` off).
 *
 * @example
 * const o: SessionStageOptions = { timeZone: "Asia/Seoul", hourly: false, people: { intervalMs: 600_000 } };
 */
export interface SessionStageOptions {
  /** IANA time zone of the shops, resolved once at the edge. */
  readonly timeZone: string;
  /** Visit history for new vs repeat visitors (the daily counts'). @default a fresh MemoryVisitHistory */
  readonly history?: VisitHistoryStore;
  /** Visit counts per local hour too. @default true */
  readonly hourly?: boolean;
  /** Dwell statistics: `kinds`, `dwell` (estimated/observed). @default {} */
  readonly dwell?: Omit<DwellMeterOptions, "timeZone" | "window">;
  /** The people estimate's options, or `false` to skip it. @default {} */
  readonly people?: Omit<PeopleEstimatorOptions, "timeZone" | "calibration"> | false;
  /** People calibrations per shop. @default none */
  readonly calibration?: CalibrationFile | readonly Calibration[];
}

/**
 * One result of a stage, tagged with the stage: a day's or an hour's visit counts, a day's
 * visitor dwell, or a day's people estimate.
 *
 * @example
 * const out: SessionStageOutput = { stage: "days", value: counts };
 * if (out.stage === "people") console.log(out.value.visitors);
 */
export type SessionStageOutput =
  | { readonly stage: "days"; readonly value: VisitCounts }
  | { readonly stage: "hours"; readonly value: VisitCounts }
  | { readonly stage: "dwell"; readonly value: WindowDwell }
  | { readonly stage: "people"; readonly value: PeopleEstimate };

/**
 * One entry of {@link SESSION_STAGES}: its name (the tag of its results), the option that turns
 * it off (when one does), the resolver of its kernel's options (validating them, TypeError or
 * RangeError) and its kernel's factory over them. A kernel's late sessions (a day already
 * emitted) go to the sink's `late`.
 *
 * @example
 * const hourly = SESSION_STAGES.find((s) => s.name === "hours")!;
 * hourly.option; // "hourly"
 */
export interface SessionStage {
  readonly name: SessionStageOutput["stage"];
  /** The option whose `false` turns the stage off; none when it always runs. */
  readonly option?: "hourly" | "people";
  resolve(options: SessionStageOptions): unknown;
  create(resolved: never, sink: Sink<SessionStageOutput, ClassifiedSession>): Kernel<ClassifiedSession>;
}

// One entry, typed by its resolved options (the list holds them with that type erased).
function stage<O>(s: Omit<SessionStage, "resolve" | "create"> & { resolve(options: SessionStageOptions): O; create(resolved: O, sink: Sink<SessionStageOutput, ClassifiedSession>): Kernel<ClassifiedSession> }): SessionStage {
  return Object.freeze(s) as SessionStage;
}

/**
 * The stages after classification, in the order each session reaches them: visit counts per day
 * and per hour, visitor dwell per day, and the people estimate (visitors with their interval, and
 * occupancy per interval). The one list `Analyzer` and the `analyzeSessions` operator are built
 * from: a new per-session or per-interval estimator is one kernel and one entry here (and its
 * lines in `ANALYSIS_LINES`).
 *
 * @example
 * SESSION_STAGES.map((s) => s.name); // ["days", "hours", "dwell", "people"]
 */
export const SESSION_STAGES: readonly SessionStage[] = Object.freeze([
  stage({
    name: "days",
    resolve: ({ timeZone, history }) => visitCounterOptions({ window: "day", timeZone, ...(history === undefined ? {} : { history }) }),
    create: (o, sink) => new VisitCounter(o, { emit: (value) => sink.emit({ stage: "days", value }), late: (s, watermark) => sink.late?.(s, watermark) }),
  }),
  stage({
    name: "hours",
    option: "hourly",
    // Its own history: hourly "repeat" means seen before that hour, which must not consume the daily one.
    resolve: ({ timeZone }) => visitCounterOptions({ window: "hour", timeZone }),
    create: (o, sink) => new VisitCounter(o, { emit: (value) => sink.emit({ stage: "hours", value }) }),
  }),
  stage({
    name: "dwell",
    resolve: ({ timeZone, dwell }) => dwellMeterOptions({ ...dwell, window: "day", timeZone }),
    create: (o, sink) => new DwellMeter(o, { emit: (value) => sink.emit({ stage: "dwell", value }) }),
  }),
  stage({
    name: "people",
    option: "people",
    resolve: ({ timeZone, people, calibration }) => peopleEstimatorOptions({ ...(people === false ? {} : people), timeZone, calibration }),
    create: (o, sink) => new PeopleEstimator(o, { emit: (value) => sink.emit({ stage: "people", value }) }),
  }),
]);

/**
 * {@link SessionStageOptions} resolved: the stages they turn on, each with its kernel's resolved
 * options.
 *
 * @example
 * const r: ResolvedSessionStages = sessionStageOptions({ timeZone: "Asia/Seoul" });
 */
export type ResolvedSessionStages = readonly { readonly stage: SessionStage; readonly options: unknown }[];

/**
 * Validates {@link SessionStageOptions} eagerly (each stage's resolver: TypeError/RangeError) and
 * resolves them, once: {@link sessionStages} builds the kernels from the result without checking
 * again (an operator resolves when it is created and builds at every subscription).
 *
 * @example
 * sessionStageOptions({ timeZone: "Asia/Seoul", hourly: false }).map((s) => s.stage.name); // ["days", "dwell", "people"]
 */
export function sessionStageOptions(options: SessionStageOptions | ResolvedSessionStages): ResolvedSessionStages {
  if (resolvedBy("sessionStageOptions", options)) return options as ResolvedSessionStages;
  if (typeof options !== "object" || options === null) throw new TypeError("session stage options must be an object");
  const o = options as SessionStageOptions;
  return markResolved(
    "sessionStageOptions",
    SESSION_STAGES.filter((stage) => stage.option === undefined || o[stage.option] !== false).map((stage) => Object.freeze({ stage, options: stage.resolve(o) })),
  );
}

/**
 * The stages of {@link SESSION_STAGES} that `options` turn on, as one kernel: every classified
 * session pushed goes to each, in the list's order, and `flush` flushes each.
 *
 * @param options the stages' options, or their resolution ({@link sessionStageOptions})
 * @example
 * const out: SessionStageOutput[] = [];
 * const stages = sessionStages({ timeZone: "Asia/Seoul", hourly: false }, { emit: (o) => out.push(o) });
 * for (const s of classified) stages.push(s);
 * stages.flush();
 * out.some((o) => o.stage === "days"); // true
 */
export function sessionStages(options: SessionStageOptions | ResolvedSessionStages, sink: Sink<SessionStageOutput, ClassifiedSession>): Kernel<ClassifiedSession> {
  const kernels = sessionStageOptions(options).map(({ stage, options: resolved }) => stage.create(resolved as never, sink));
  return {
    push(session) {
      for (let i = 0; i < kernels.length; i++) kernels[i]!.push(session);
    },
    flush() {
      for (let i = 0; i < kernels.length; i++) kernels[i]!.flush();
    },
  };
}
