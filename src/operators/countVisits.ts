import { Observable, type OperatorFunction, type Subscriber } from "rxjs";
import { VisitCounter, visitCounterOptions, type VisitCounterOptions, type VisitCounts } from "../kernels/VisitCounter.ts";
import type { ClassifiedSession } from "../kernels/VisitClassifier.ts";
import { OperatorObserver } from "./OperatorObserver.ts";

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
    new Observable<VisitCounts>((subscriber) =>
      source.subscribe(new CountObserver(subscriber, new VisitCounter(counterOptions, (c) => subscriber.next(c), onLate))),
    );
}

class CountObserver extends OperatorObserver<ClassifiedSession, VisitCounts> {
  readonly #counter: VisitCounter;

  constructor(destination: Subscriber<VisitCounts>, counter: VisitCounter) {
    super(destination);
    this.#counter = counter;
  }

  next(session: ClassifiedSession): void {
    if (this.stopped) return;
    try {
      this.#counter.push(session);
    } catch (error) {
      this.error(error);
    }
  }

  protected override finish(): void {
    this.#counter.flush();
  }
}
