import { Observable, type OperatorFunction } from "rxjs";
import { VisitCounter, visitCounterOptions, type VisitCounterOptions, type VisitCounts } from "../kernels/VisitCounter.ts";
import type { ClassifiedSession } from "../kernels/VisitClassifier.ts";

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
 * staff and equipment — overall and for universal and randomized MACs separately. A window is
 * emitted once every session starting in it has arrived, the rest on completion. A thin wrapper
 * over one `VisitCounter` per subscription (without a `history` option, each subscription gets
 * its own in-memory history).
 *
 * @example
 * signals$.pipe(decodeSignals(), sessionize(), classifyVisits(), countVisits({ window: "hour" }))
 *   .subscribe((c) => console.log(c.label, c.visitors, c.captureRate));
 */
export function countVisits(options: CountVisitsOptions = {}): OperatorFunction<ClassifiedSession, VisitCounts> {
  const { onLate, ...counterOptions } = options;
  visitCounterOptions(counterOptions); // validates eagerly
  if (onLate !== undefined && typeof onLate !== "function") throw new TypeError("onLate must be a function");
  return (source) =>
    new Observable<VisitCounts>((subscriber) => {
      const counter = new VisitCounter(counterOptions, (c) => subscriber.next(c), onLate);
      return source.subscribe({
        next(session) {
          try {
            counter.push(session);
          } catch (error) {
            subscriber.error(error);
          }
        },
        error: (error: unknown) => subscriber.error(error),
        complete() {
          try {
            counter.flush();
          } catch (error) {
            subscriber.error(error);
            return;
          }
          subscriber.complete();
        },
      });
    });
}
