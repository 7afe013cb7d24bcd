import { Observable, type OperatorFunction, type Subscriber } from "rxjs";
import type { Signal } from "../codec/Signal.ts";
import {
  ProximityTracker,
  type ProximitySlice,
  type ProximitySummary,
  type ProximityTrackerOptions,
} from "../kernels/ProximityTracker.ts";
import { OperatorObserver } from "./OperatorObserver.ts";

/**
 * Options of {@link estimateProximity}: those of `ProximityTracker` (calibration, smoothing,
 * zones, sliceMs, gapMs, allowedLatenessMs, …) without its callbacks, plus what to emit.
 *
 * @example
 * const options: EstimateProximityOptions = { sliceMs: 5_000, emit: "summaries" };
 */
export interface EstimateProximityOptions extends Omit<ProximityTrackerOptions, "onSlice" | "onSummary"> {
  /**
   * What to emit: per-slice nearest sensor (`"slices"`), per-session summaries
   * (`"summaries"`) or both, interleaved in the order they complete.
   * @default "both"
   */
  readonly emit?: "slices" | "summaries" | "both";
  /**
   * Receives each signal that arrived more than `allowedLatenessMs` behind its shop's newest
   * event time, with the shop's watermark then (epoch ms). Such signals are not used, as in
   * `sessionize`. @default undefined (late signals are only skipped)
   */
  readonly onLate?: (signal: Signal, watermark: number) => void;
}

/**
 * What {@link estimateProximity} emits, told apart by `type`.
 *
 * @example
 * const isSummary = (e: ProximityEvent) => e.type === "proximitySummary";
 */
export type ProximityEvent = ProximitySlice | ProximitySummary;

/**
 * Defaults of {@link EstimateProximityOptions} beyond the tracker's own.
 *
 * @example
 * defaultEstimateProximity.emit; // "both"
 */
export const defaultEstimateProximity = Object.freeze({ emit: "both" as const });

/**
 * RxJS operator over decoded signals: per device, the nearest sensor, estimated distance (m)
 * and zone per time slice, and per device session the closest approach, time per zone and
 * nearest-sensor timeline. A thin wrapper over one {@link ProximityTracker} per subscription;
 * in event time, so it runs the same on a live stream and a replay. On completion every open
 * session is flushed; unsubscribing drops the state. Too-late signals go to `onLate`.
 *
 * Options are validated when the operator is created (RangeError / TypeError).
 *
 * @example
 * signals$.pipe(estimateProximity({ calibration: { default: { rssiAt1m: -43, exponent: 2.5 } }, emit: "summaries" }))
 *   .subscribe((s) => console.log(s.device, s.type === "proximitySummary" ? s.closestZone : s.zone));
 */
export function estimateProximity(options: EstimateProximityOptions = {}): OperatorFunction<Signal, ProximityEvent> {
  const emit = options.emit ?? defaultEstimateProximity.emit;
  if (emit !== "slices" && emit !== "summaries" && emit !== "both") {
    throw new RangeError(`emit must be "slices", "summaries" or "both", got ${String(emit)}`);
  }
  const { emit: _emit, onLate, ...trackerOptions } = options;
  if (onLate !== undefined && typeof onLate !== "function") throw new TypeError("onLate must be a function");
  new ProximityTracker(trackerOptions); // validates eagerly, before anyone subscribes
  return (source) =>
    new Observable<ProximityEvent>((subscriber) => {
      const next = (event: ProximityEvent) => subscriber.next(event);
      const tracker = new ProximityTracker({
        ...trackerOptions,
        ...(emit !== "summaries" ? { onSlice: next } : {}),
        // Without onSummary the tracker would retain summaries for takeSummary; push them instead.
        onSummary: emit !== "slices" ? next : () => {},
      });
      return source.subscribe(new ProximityObserver(subscriber, tracker, onLate));
    });
}

class ProximityObserver extends OperatorObserver<Signal, ProximityEvent> {
  readonly #tracker: ProximityTracker;
  readonly #onLate: ((signal: Signal, watermark: number) => void) | undefined;

  constructor(destination: Subscriber<ProximityEvent>, tracker: ProximityTracker, onLate: ((signal: Signal, watermark: number) => void) | undefined) {
    super(destination);
    this.#tracker = tracker;
    this.#onLate = onLate;
  }

  next(signal: Signal): void {
    if (this.stopped) return;
    try {
      if (!this.#tracker.add(signal) && this.#onLate !== undefined) this.#onLate(signal, this.#tracker.watermark(signal.shopId));
    } catch (error) {
      this.error(error);
    }
  }

  protected override finish(): void {
    this.#tracker.flush();
  }
}
