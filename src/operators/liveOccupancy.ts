import type { OperatorFunction } from "rxjs";
import type { Signal } from "../codec/Signal.ts";
import { EventTimeEngine, eventTimeEngineOptions, type EventTimeEngineOptions } from "../kernels/sessions/EventTimeEngine.ts";
import { LiveOccupancy, liveOccupancyOptions, type LiveOccupancyInterval, type LiveOccupancyOptions } from "../kernels/people/LiveOccupancy.ts";
import { kernelOperator } from "./kernelOperator.ts";

/**
 * Options of {@link liveOccupancy}: those of `LiveOccupancy` (the estimate's `intervalMs`,
 * `timeZone`, linking and `level`; `classify`, the classifier's) plus the engine's session rule.
 *
 * @example
 * const options: LiveOccupancyOperatorOptions = { timeZone: "Asia/Seoul", sessions: { allowedLatenessMs: 120_000 } };
 */
export interface LiveOccupancyOperatorOptions extends LiveOccupancyOptions {
  /** The session rule (`gapMs`, `allowedLatenessMs`, `smoothing`), as in `sessionize`; proximity is not needed. @default {} */
  readonly sessions?: Omit<EventTimeEngineOptions, "proximity">;
}

/**
 * RxJS operator: decoded signals → the estimated mean number of people inside (with a 90 %
 * interval) and outside each shop per interval (15 min by default), with the day so far
 * (`today`: people who came in, with their interval; the MAC-level counts), **as the day goes on**: an
 * interval is emitted as soon as the shop's watermark passes its end (when the first signal after
 * it is applied). People, not MACs, by the rules of the day's final estimate (`estimateOccupancy`)
 * applied to the day so far: provisional — staff are known once present while the shop was
 * closed, for `staffShare` of the opening hours, or on recent days, and the burst rate is learned
 * from the visits so far (see `LiveOccupancy`). One `EventTimeEngine` (proximity off) with a
 * `LiveOccupancy` accumulator per subscription; `analyze(records, { liveOccupancy: true })` gives
 * the same intervals.
 *
 * ```
 * signals:    -a-b-c-d-(first signal after 10:15)-e-f-(first after 10:30)-g-|
 * occupancy:  ---------(10:00–10:15)-------------------(10:15–10:30)-------(10:30–10:45|)
 * ```
 *
 * State rules:
 * 1. Per shop, signals behind the watermark (newest event time − `allowedLatenessMs`) are late
 *    and unused; the others are applied in canonical event-time order, as in `sessionize`.
 * 2. When the first signal at or after an interval's end is applied, every interval of the shop
 *    ending by then is emitted, in order (empty ones with 0), from the sessions known at that
 *    moment: closed ones and open ones as they are. Arrival order within the allowed lateness
 *    and chunking change nothing.
 * 3. Intervals are aligned to the local day's start; the first is the interval of the shop's
 *    first signal. As a day ends, its classification is committed (learned threshold, staff
 *    remembered for the next days).
 * 4. On completion, every interval up to the one holding the shop's last signal is emitted.
 *
 * @example
 * signals$.pipe(decodeSignals(), liveOccupancy({ timeZone: "Asia/Seoul" }))
 *   .subscribe((o) => console.log(new Date(o.end).toISOString(), "inside", o.inside.toFixed(1), `[${o.insideLow.toFixed(1)}, ${o.insideHigh.toFixed(1)}]`, "so far", o.today.visitors.toFixed(0)));
 */
export function liveOccupancy(options: LiveOccupancyOperatorOptions = {}): OperatorFunction<Signal, LiveOccupancyInterval> {
  if (typeof options !== "object" || options === null) throw new TypeError("liveOccupancy options must be an object");
  const { sessions, ...estimate } = options;
  // Validated once, here; each subscription builds its kernels from the resolved options.
  const engineOptions = eventTimeEngineOptions({ ...sessions, proximity: false });
  const occupancyOptions = liveOccupancyOptions(estimate);
  return kernelOperator<Signal, LiveOccupancyInterval>(
    (emit) => new EventTimeEngine(engineOptions, { emit: () => {} }, [new LiveOccupancy(occupancyOptions, { emit })]),
  );
}
