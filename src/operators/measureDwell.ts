import type { OperatorFunction } from "rxjs";
import { DwellMeter, dwellMeterOptions, type DwellMeterOptions, type WindowDwell } from "../kernels/visits/DwellMeter.ts";
import type { ClassifiedSession } from "../kernels/visits/VisitClassifier.ts";
import { kernelOperator } from "./kernelOperator.ts";

/**
 * Options of {@link measureDwell}: those of `DwellMeter` plus the late side channel.
 *
 * @example
 * const options: MeasureDwellOptions = { window: "hour", timeZone: "Asia/Seoul" };
 */
export interface MeasureDwellOptions extends DwellMeterOptions {
  /** Receives sessions that arrived after their window was emitted (they are not measured). @default undefined */
  readonly onLate?: (session: ClassifiedSession) => void;
}

/**
 * RxJS operator: classified sessions → per shop and local window (hour or day of the session's
 * start, shop time zone) the dwell count, mean, median, p90 and buckets (<5 min, 5–20 min,
 * 20–60 min, 1–6 h, ≥6 h) of visitors (or the `kinds` asked for). One `DwellMeter` per
 * subscription.
 *
 * ```
 * classified:  -c1-c2-----c3(window 1 complete)---c4-|
 * dwell:       -----------W1-------------------------(W2|)
 * ```
 *
 * State rules: windows as in `countVisits` (a session in the window of its start; a window
 * emitted once every session starting in it has arrived; later ones to `onLate`; the rest on
 * completion).
 *
 * @example
 * signals$.pipe(decodeSignals(), sessionize(), classifyVisits(), measureDwell({ window: "day" }))
 *   .subscribe((d) => console.log(d.label, d.count, d.medianMs / 60_000, "min"));
 */
export function measureDwell(options: MeasureDwellOptions = {}): OperatorFunction<ClassifiedSession, WindowDwell> {
  const { onLate, ...meterOptions } = options;
  const resolved = dwellMeterOptions(meterOptions); // validates once, here
  if (onLate !== undefined && typeof onLate !== "function") throw new TypeError("onLate must be a function");
  return kernelOperator<ClassifiedSession, WindowDwell>(
    (emit) => new DwellMeter(resolved, onLate === undefined ? { emit } : { emit, late: (s) => onLate(s) }),
  );
}
