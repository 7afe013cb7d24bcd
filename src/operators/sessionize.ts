import { Observable, type OperatorFunction, type Subscriber } from "rxjs";
import type { Signal } from "../codec/Signal.ts";
import type { Session } from "../kernels/Session.ts";
import { SessionTracker, sessionTrackerOptions, type SessionTrackerOptions } from "../kernels/SessionTracker.ts";
import { OperatorObserver } from "./OperatorObserver.ts";

/**
 * Options of {@link sessionize}: those of `SessionTracker` (`gapMs`, `allowedLatenessMs`,
 * `smoothing`) plus the late side channel.
 *
 * @example
 * const options: SessionizeOptions = { gapMs: 300_000, allowedLatenessMs: 60_000, onLate: (s) => late.push(s) };
 */
export interface SessionizeOptions extends SessionTrackerOptions {
  /**
   * Receives each signal that arrived more than `allowedLatenessMs` behind its shop's newest event
   * time, with the shop's watermark then (epoch ms). Such signals are not used.
   * @default undefined (late signals are only counted)
   */
  readonly onLate?: (signal: Signal, watermark: number) => void;
}

/**
 * RxJS operator: decoded signals → sessions, per shop and device, in event time (DESIGN.md
 * "Session"). Signals no more than `gapMs` apart (inclusive) form a session; a signal that bridges
 * two sessions merges them; a session is emitted once the shop's watermark (newest event time −
 * `allowedLatenessMs`) passes its end + `gapMs`, and every open session is emitted when the source
 * completes. Too-late signals go to `onLate`.
 *
 * A thin wrapper over one `SessionTracker` per subscription: all state is one Map of open
 * sessions per shop (no per-device `groupBy`), so memory follows active devices. Unsubscribing
 * drops the state without emitting. Options are validated when the operator is created.
 *
 * @example
 * signals$.pipe(decodeSignals(), sessionize({ gapMs: 5 * 60_000 }))
 *   .subscribe((s) => console.log(s.device, s.dwellMs / 60_000, "min"));
 */
export function sessionize(options: SessionizeOptions = {}): OperatorFunction<Signal, Session> {
  const { onLate, ...trackerOptions } = options;
  sessionTrackerOptions(trackerOptions); // validates eagerly
  if (onLate !== undefined && typeof onLate !== "function") throw new TypeError("onLate must be a function");
  return (source) =>
    new Observable<Session>((subscriber) =>
      source.subscribe(
        new SessionizeObserver(subscriber, new SessionTracker(trackerOptions, {
          session: (s) => subscriber.next(s),
          ...(onLate === undefined ? {} : { late: onLate }),
        })),
      ),
    );
}

class SessionizeObserver extends OperatorObserver<Signal, Session> {
  readonly #tracker: SessionTracker;

  constructor(destination: Subscriber<Session>, tracker: SessionTracker) {
    super(destination);
    this.#tracker = tracker;
  }

  next(signal: Signal): void {
    if (this.stopped) return;
    try {
      this.#tracker.push(signal);
    } catch (error) {
      this.error(error);
    }
  }

  protected override finish(): void {
    this.#tracker.flush();
  }
}
