import type { OperatorFunction } from "rxjs";
import { PeopleEstimator } from "../kernels/people/PeopleEstimator.ts";
import { peopleEstimatorOptions, type PeopleEstimatorOptions } from "../kernels/people/peopleEstimatorOptions.ts";
import type { OccupancyInterval } from "../kernels/people/PeopleEstimate.ts";
import type { ClassifiedSession } from "../kernels/visits/VisitClassifier.ts";
import { kernelOperator } from "./kernelOperator.ts";

/**
 * Options of {@link estimateOccupancy}: those of `PeopleEstimator` (`intervalMs`, `timeZone`,
 * linking, `level`) plus the late side channel.
 *
 * @example
 * const options: EstimateOccupancyOptions = { intervalMs: 15 * 60_000, timeZone: "Asia/Seoul" };
 */
export interface EstimateOccupancyOptions extends PeopleEstimatorOptions {
  /** Receives sessions that arrived after their day was estimated (they are not used). @default undefined */
  readonly onLate?: (session: ClassifiedSession) => void;
}

/**
 * RxJS operator: classified sessions → the estimated mean number of people inside (with a 90 %
 * interval) and outside each shop, per interval (15 min by default), counting people rather than
 * MACs (see `PeopleEstimator`). One `PeopleEstimator` per subscription; its per-day estimates
 * are flattened into their intervals.
 *
 * ```
 * classified:  -c1-c2-----c3(day 1 complete)-------c4-|
 * occupancy:   -----------(i1 i2 … i96)--------------(j1 … j96|)
 * ```
 *
 * State rules:
 * 1. A session belongs to the local day of its start; staff and equipment are left out.
 * 2. A day is estimated once every session starting in it has arrived
 *    (`ClassifiedSession.complete` passes its end — the watermark has passed every interval
 *    of the day and every session overlapping it has closed); its intervals are then emitted
 *    in order, all of them, empty ones with 0.
 * 3. A session arriving after its day was estimated goes to `onLate`, not into any figure.
 * 4. On completion every open day is estimated and emitted, in order.
 *
 * @example
 * signals$.pipe(decodeSignals(), sessionize(), classifyVisits(), estimateOccupancy())
 *   .subscribe((o) => console.log(new Date(o.start).toISOString(), o.inside.toFixed(1), `[${o.insideLow.toFixed(1)}, ${o.insideHigh.toFixed(1)}]`));
 */
export function estimateOccupancy(options: EstimateOccupancyOptions = {}): OperatorFunction<ClassifiedSession, OccupancyInterval> {
  const { onLate, ...estimatorOptions } = options;
  const resolved = peopleEstimatorOptions(estimatorOptions); // validates once, here
  if (onLate !== undefined && typeof onLate !== "function") throw new TypeError("onLate must be a function");
  return kernelOperator<ClassifiedSession, OccupancyInterval>((emit) => {
    const sink = {
      emit: (day: { readonly occupancy: readonly OccupancyInterval[] }) => {
        for (const interval of day.occupancy) emit(interval);
      },
    };
    return new PeopleEstimator(resolved, onLate === undefined ? sink : { ...sink, late: (s: ClassifiedSession) => onLate(s) });
  });
}
