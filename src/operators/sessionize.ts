import type { OperatorFunction } from "rxjs";
import type { Signal } from "../codec/Signal.ts";
import { EventTimeEngine, eventTimeEngineOptions, type EventTimeEngineOptions } from "../kernels/sessions/EventTimeEngine.ts";
import type { Session } from "../kernels/sessions/Session.ts";
import type { ProximitySlice } from "../kernels/proximity/SessionProximity.ts";
import { kernelOperator } from "./kernelOperator.ts";

/**
 * Options of {@link sessionize}: those of the `EventTimeEngine` (`gapMs`, `allowedLatenessMs`,
 * `smoothing`, `proximity`) plus the late side channel.
 *
 * @example
 * const options: SessionizeOptions = { gapMs: 300_000, allowedLatenessMs: 60_000, onLate: (s) => late.push(s) };
 */
export interface SessionizeOptions extends EventTimeEngineOptions {
  /**
   * Receives each signal that arrived more than `allowedLatenessMs` behind its shop's newest event
   * time, with the shop's watermark then (epoch ms). Such signals are not used.
   * @default undefined (late signals are only counted)
   */
  readonly onLate?: (signal: Signal, watermark: number) => void;
  /**
   * Receives each finished proximity slice (nearest sensor, distance and zone of one device in
   * one `sliceMs`), from the same engine that builds the sessions — e.g. for a live "who is
   * where now" view next to the sessions (`estimateProximity` emits only these).
   * @default undefined (slices are only folded into `Session.proximity`)
   */
  readonly onSlice?: (slice: ProximitySlice) => void;
}

/**
 * RxJS operator: decoded signals → sessions with their proximity, per shop and device, in event
 * time (docs/analytics.md, "Sessions and late records"); one `EventTimeEngine` per subscription.
 *
 * ```
 * signals:   -a1-b1-a2--------------b2-----------|       (a, b: devices; gap 5 min)
 * sessions:  ------------------(A)----------------(B|)   A = a1…a2 once the watermark passes a2 + gap
 * ```
 *
 * State rules:
 * 1. Per shop, the watermark is the newest event time seen − `allowedLatenessMs`; a signal
 *    behind it goes to `onLate` and changes nothing.
 * 2. Other signals are applied in canonical event-time order once the watermark passes them,
 *    so arrival order within the allowed lateness changes nothing.
 * 3. Signals of one shop and device no more than `gapMs` apart (inclusive) form a session; a
 *    signal that bridges two sessions merges them.
 * 4. A session is emitted once the watermark passes its end + `gapMs`, with its proximity
 *    (`Session.proximity`, unless `proximity: false`); on completion every open session is
 *    emitted, in order of end.
 * 5. Unsubscribing drops the state without emitting. Options are validated when the operator is
 *    created.
 *
 * @example
 * signals$.pipe(decodeSignals(), sessionize({ gapMs: 5 * 60_000 }))
 *   .subscribe((s) => console.log(s.device, s.dwellMs / 60_000, "min", s.proximity?.closestZone));
 */
export function sessionize(options: SessionizeOptions = {}): OperatorFunction<Signal, Session> {
  const { onLate, onSlice, ...engineOptions } = options;
  const resolved = eventTimeEngineOptions(engineOptions); // validates once, here
  if (onLate !== undefined && typeof onLate !== "function") throw new TypeError("onLate must be a function");
  if (onSlice !== undefined && typeof onSlice !== "function") throw new TypeError("onSlice must be a function");
  if (onSlice !== undefined && resolved.proximity === false) throw new TypeError("onSlice needs proximity on");
  return kernelOperator<Signal, Session>(
    (emit, next) =>
      new EventTimeEngine(resolved, {
        emit,
        // Fused before a classifier: sessions go to it unbuilt (built once, when their day is emitted).
        ...(next?.pushClosed === undefined ? {} : { closed: next.pushClosed }),
        ...(onLate === undefined ? {} : { late: onLate }),
        ...(onSlice === undefined ? {} : { slice: onSlice }),
      }),
  );
}
