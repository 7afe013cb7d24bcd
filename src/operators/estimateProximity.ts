import type { OperatorFunction } from "rxjs";
import type { Signal } from "../codec/Signal.ts";
import { EventTimeEngine, eventTimeEngineOptions, type EventTimeEngineOptions } from "../kernels/sessions/EventTimeEngine.ts";
import type { ProximityOptions } from "../kernels/proximity/proximityOptions.ts";
import type { ProximitySlice } from "../kernels/proximity/SessionProximity.ts";
import { kernelOperator } from "./kernelOperator.ts";

/**
 * Options of {@link estimateProximity}: the engine's (`gapMs`, `allowedLatenessMs`, `smoothing`)
 * and its proximity options (calibration, zones, `sliceMs`, `sensorStaleMs`), plus the late
 * side channel.
 *
 * @example
 * const options: EstimateProximityOptions = { sliceMs: 5_000, calibration: { default: { rssiAt1m: -43, exponent: 2.5 } } };
 */
export interface EstimateProximityOptions extends Omit<EventTimeEngineOptions, "proximity">, ProximityOptions {
  /**
   * Receives each signal that arrived more than `allowedLatenessMs` behind its shop's newest
   * event time, with the shop's watermark then (epoch ms). Such signals are not used, as in
   * `sessionize`. @default undefined (late signals are only counted)
   */
  readonly onLate?: (signal: Signal, watermark: number) => void;
}

/**
 * RxJS operator: decoded signals → per device and time slice, the nearest sensor with its
 * estimated distance (m) and zone. Per-session proximity (closest approach, time per zone,
 * timeline) rides on the sessions `sessionize` emits; both come from the same
 * `EventTimeEngine`, so a slice here and `Session.proximity` there never disagree.
 *
 * ```
 * signals:  -a-a--a---a-------|      (one device, sliceMs = 10 s)
 * slices:   -------s1----s2---(s3|)  a slice is emitted once the watermark passes its end
 * ```
 *
 * State rules:
 * 1. Watermark, reorder and late channel as in `sessionize` (the same engine).
 * 2. Per session and sensor the RSSI is smoothed (the engine's `smoothing`); a slice's nearest
 *    sensor is the one with the smallest path-loss distance among sensors heard within
 *    `sensorStaleMs` of the slice's end.
 * 3. A slice is emitted once the shop's watermark passes its end, or when its session closes;
 *    on completion every open slice is emitted.
 *
 * @example
 * signals$.pipe(decodeSignals(), estimateProximity({ sliceMs: 5_000 }))
 *   .subscribe((s) => console.log(s.device, s.sensor, s.zone, s.distanceM.toFixed(1), "m"));
 */
export function estimateProximity(options: EstimateProximityOptions = {}): OperatorFunction<Signal, ProximitySlice> {
  const { onLate, gapMs, allowedLatenessMs, smoothing, ...proximity } = options;
  const engineOptions: EventTimeEngineOptions = {
    ...(gapMs === undefined ? {} : { gapMs }),
    ...(allowedLatenessMs === undefined ? {} : { allowedLatenessMs }),
    ...(smoothing === undefined ? {} : { smoothing }),
    proximity,
  };
  const resolved = eventTimeEngineOptions(engineOptions); // validates once, here
  if (onLate !== undefined && typeof onLate !== "function") throw new TypeError("onLate must be a function");
  return kernelOperator<Signal, ProximitySlice>(
    (emit) => new EventTimeEngine(resolved, { emit: () => {}, slice: emit, ...(onLate === undefined ? {} : { late: onLate }) }),
  );
}
