import type { OperatorFunction } from "rxjs";
import { VisitCounter, visitCounterOptions, type VisitCounterOptions, type VisitCounts } from "../kernels/visits/VisitCounter.ts";
import type { ClassifiedSession } from "../kernels/visits/VisitClassifier.ts";
import { kernelOperator } from "./kernelOperator.ts";

/**
 * Options of {@link countVisits}: those of `VisitCounter` (`window`, `timeZone`, `history`) plus the
 * late side channel.
 *
 * @example
 * const options: CountVisitsOptions = { window: "hour", timeZone: "Asia/Seoul" };
 */
export interface CountVisitsOptions extends VisitCounterOptions {
  /** Receives sessions that arrived after their window was emitted (they are not counted). @default undefined */
  readonly onLate?: (session: ClassifiedSession) => void;
}

/**
 * RxJS operator: classified sessions → per shop and local window (hour or day, shop time zone)
 * visitors (unique visitor devices), visits (visitor sessions), passers-by, unique devices,
 * capture rate (visitors ÷ unique devices), new vs repeat visitors (from the visit-history store),
 * staff and equipment — overall and for universal and randomized MACs separately. One
 * `VisitCounter` per subscription (without a `history` option, each subscription gets its own
 * in-memory history).
 *
 * ```
 * classified:  -c1-c2-----c3(window 1 complete)---c4-|
 * counts:      -----------W1-------------------------(W2|)
 * ```
 *
 * State rules:
 * 1. A session counts in the window of its start.
 * 2. A window is emitted once every session starting in it has arrived
 *    (`ClassifiedSession.complete` passes its end); windows without sessions are not emitted.
 * 3. A session arriving after its window was emitted goes to `onLate`, not into any count.
 * 4. On completion every open window is emitted, in order.
 *
 * @example
 * signals$.pipe(decodeSignals(), sessionize(), classifyVisits(), countVisits({ window: "hour" }))
 *   .subscribe((c) => console.log(c.label, c.visitors, c.captureRate));
 */
export function countVisits(options: CountVisitsOptions = {}): OperatorFunction<ClassifiedSession, VisitCounts> {
  const { onLate, ...counterOptions } = options;
  const resolved = visitCounterOptions(counterOptions); // validates once, here
  if (onLate !== undefined && typeof onLate !== "function") throw new TypeError("onLate must be a function");
  return kernelOperator<ClassifiedSession, VisitCounts>(
    (emit) => new VisitCounter(resolved, onLate === undefined ? { emit } : { emit, late: (s) => onLate(s) }),
  );
}
