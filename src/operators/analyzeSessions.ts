import type { OperatorFunction } from "rxjs";
import { sessionStageOptions, sessionStages, type SessionStageOptions, type SessionStageOutput } from "../kernels/sessionStages.ts";
import type { ClassifiedSession } from "../kernels/visits/VisitClassifier.ts";
import { kernelOperator } from "./kernelOperator.ts";

/**
 * Options of {@link analyzeSessions}: the stages' (`SessionStageOptions`: the time zone, `history`,
 * `hourly`, `dwell`, `people`, `calibration`) plus the late side channel.
 *
 * @example
 * const options: AnalyzeSessionsOptions = { timeZone: "Asia/Seoul", hourly: false };
 */
export interface AnalyzeSessionsOptions extends SessionStageOptions {
  /** Receives sessions that reached the day counts after their day was emitted (not counted). @default undefined */
  readonly onLate?: (session: ClassifiedSession) => void;
}

/**
 * RxJS operator: classified sessions → every result of the stages after classification, in one
 * pass, tagged with its stage (`SESSION_STAGES`: `days` and `hours` visit counts, `dwell` per day,
 * `people` per day) — the stages `analyze()` runs, from the same list, where composing
 * `countVisits`, `measureDwell` and `estimatePeople` by hand takes a `connect` and a `merge`.
 * Options are validated when the operator is created; each subscription gets its own kernels.
 *
 * ```
 * classified: -a-b-c-(day ends)-d-|
 * results:    --------{days}{dwell}{people}-{hours}…|
 * ```
 *
 * @example
 * signals$.pipe(decodeSignals(), sessionize(), classifyVisits({ timeZone: "Asia/Seoul" }), analyzeSessions({ timeZone: "Asia/Seoul" }))
 *   .subscribe((out) => {
 *     if (out.stage === "people") console.log(out.value.label, Math.round(out.value.visitors), "people");
 *   });
 */
export function analyzeSessions(options: AnalyzeSessionsOptions): OperatorFunction<ClassifiedSession, SessionStageOutput> {
  if (typeof options !== "object" || options === null) throw new TypeError("analyzeSessions options must be an object");
  const { onLate, ...stageOptions } = options;
  if (onLate !== undefined && typeof onLate !== "function") throw new TypeError("onLate must be a function");
  const resolved = sessionStageOptions(stageOptions); // validates once, here
  return kernelOperator<ClassifiedSession, SessionStageOutput>((emit) => sessionStages(resolved, onLate === undefined ? { emit } : { emit, late: (s) => onLate(s) }));
}
