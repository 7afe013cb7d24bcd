import type { OperatorFunction } from "rxjs";
import { PeopleEstimator } from "../kernels/people/PeopleEstimator.ts";
import { peopleEstimatorOptions, type PeopleEstimatorOptions } from "../kernels/people/peopleEstimatorOptions.ts";
import type { PeopleEstimate } from "../kernels/people/PeopleEstimate.ts";
import type { ClassifiedSession } from "../kernels/visits/VisitClassifier.ts";
import { kernelOperator } from "./kernelOperator.ts";

/**
 * Options of {@link estimatePeople}: those of `PeopleEstimator` plus the late side channel.
 *
 * @example
 * const options: EstimatePeopleOptions = { timeZone: "Asia/Seoul", level: 0.9 };
 */
export interface EstimatePeopleOptions extends PeopleEstimatorOptions {
  /** Receives sessions that arrived after their day was estimated (they are not used). @default undefined */
  readonly onLate?: (session: ClassifiedSession) => void;
}

/**
 * RxJS operator: classified sessions → per shop and local day the estimated number of people
 * who visited (with a 90 % interval), passers-by, capture rate, and the day's occupancy
 * intervals — people, not MACs (see `PeopleEstimator`). One `PeopleEstimator` per subscription.
 *
 * ```
 * classified:  -c1-c2-----c3(day 1 complete)---c4-|
 * people:      -----------P1-------------------(P2|)
 * ```
 *
 * State rules: days as in `estimateOccupancy` (a session in the day of its start, staff and
 * equipment left out; a day emitted once every session starting in it has arrived; later ones
 * to `onLate`; the rest on completion).
 *
 * @example
 * signals$.pipe(decodeSignals(), sessionize(), classifyVisits(), estimatePeople())
 *   .subscribe((p) => console.log(p.label, Math.round(p.visitors), `[${p.visitorsLow}, ${p.visitorsHigh}]`));
 */
export function estimatePeople(options: EstimatePeopleOptions = {}): OperatorFunction<ClassifiedSession, PeopleEstimate> {
  const { onLate, ...estimatorOptions } = options;
  const resolved = peopleEstimatorOptions(estimatorOptions); // validates once, here
  if (onLate !== undefined && typeof onLate !== "function") throw new TypeError("onLate must be a function");
  return kernelOperator<ClassifiedSession, PeopleEstimate>(
    (emit) => new PeopleEstimator(resolved, onLate === undefined ? { emit } : { emit, late: (s) => onLate(s) }),
  );
}
