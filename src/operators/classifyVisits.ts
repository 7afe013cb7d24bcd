import { Observable, type OperatorFunction, type Subscriber } from "rxjs";
import type { Session } from "../kernels/Session.ts";
import {
  VisitClassifier,
  visitClassifierOptions,
  type ClassifiedSession,
  type VisitClassifierOptions,
} from "../kernels/VisitClassifier.ts";
import { OperatorObserver } from "./OperatorObserver.ts";

/**
 * Options of {@link classifyVisits}: those of `VisitClassifier`.
 *
 * @example
 * const options: ClassifyVisitsOptions = { minDwellMs: 60_000, visitorRssi: "auto", timeZone: "Asia/Seoul" };
 */
export type ClassifyVisitsOptions = VisitClassifierOptions;

/**
 * RxJS operator: sessions (from {@link sessionize}) → classified sessions: `visitor` (dwell ≥
 * `minDwellMs` and smoothed RSSI reached `visitorRssi`), `passerby`, `staff` (present most of the
 * opening hours that day) or `stationary` (never leaves).
 *
 * Staff presence is a property of a whole local day, so sessions are held per shop until their
 * day is decided (every session starting in it has arrived, per `Session.complete`) and then
 * emitted in order of start; see `VisitClassifier`. On completion every held day is emitted.
 * A thin wrapper over one `VisitClassifier` per subscription; options are validated when the
 * operator is created.
 *
 * @example
 * signals$.pipe(decodeSignals(), sessionize(), classifyVisits({ timeZone: "Asia/Seoul" }))
 *   .subscribe((s) => console.log(s.date, s.device, s.kind));
 */
export function classifyVisits(options: ClassifyVisitsOptions = {}): OperatorFunction<Session, ClassifiedSession> {
  visitClassifierOptions(options); // validates eagerly
  return (source) =>
    new Observable<ClassifiedSession>((subscriber) =>
      source.subscribe(new ClassifyObserver(subscriber, new VisitClassifier(options, { session: (s) => subscriber.next(s) }))),
    );
}

class ClassifyObserver extends OperatorObserver<Session, ClassifiedSession> {
  readonly #classifier: VisitClassifier;

  constructor(destination: Subscriber<ClassifiedSession>, classifier: VisitClassifier) {
    super(destination);
    this.#classifier = classifier;
  }

  next(session: Session): void {
    if (this.stopped) return;
    try {
      this.#classifier.push(session);
    } catch (error) {
      this.error(error);
    }
  }

  protected override finish(): void {
    this.#classifier.flush();
  }
}
