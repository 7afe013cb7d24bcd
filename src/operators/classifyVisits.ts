import type { OperatorFunction } from "rxjs";
import type { Session } from "../kernels/sessions/Session.ts";
import { VisitClassifier, visitClassifierOptions, type ClassifiedSession, type VisitClassifierOptions } from "../kernels/visits/VisitClassifier.ts";
import { kernelOperator } from "./kernelOperator.ts";

/**
 * Options of {@link classifyVisits}: those of `VisitClassifier`.
 *
 * @example
 * const options: ClassifyVisitsOptions = { minDwellMs: 120_000, visitorRssi: -68, timeZone: "Asia/Seoul" };
 */
export type ClassifyVisitsOptions = VisitClassifierOptions;

/**
 * RxJS operator: sessions → the same sessions classified as visitor, passer-by, staff or
 * stationary, with their local date; one `VisitClassifier` per subscription.
 *
 * ```
 * sessions:    -s1--s2----s3(day 1 complete)----s4-|
 * classified:  -----------(c1 c2 c3)---------------(c4|)   a day at a time, by start
 * ```
 *
 * State rules:
 * 1. Sessions are held per shop and local day until every session starting in that day has
 *    arrived (`Session.complete` passes the day's end), or a watermark whose sessions have all
 *    arrived (a later one has been seen) is `maxDayWaitMs` past it.
 * 2. Then the day is decided: staff and stationary devices from their presence over the whole
 *    day; with `visitorRssi: "auto"` the shop's threshold is refitted over its sessions so far;
 *    the day's sessions are emitted sorted by start.
 * 3. A session whose day was already decided is classified on its own and emitted with
 *    `late: true`.
 * 4. On completion every held day is decided.
 *
 * @example
 * signals$.pipe(decodeSignals(), sessionize(), classifyVisits({ visitorRssi: -70 }))
 *   .subscribe((s) => console.log(s.date, s.kind, s.device));
 */
export function classifyVisits(options: ClassifyVisitsOptions = {}): OperatorFunction<Session, ClassifiedSession> {
  const resolved = visitClassifierOptions(options); // validates once, here
  return kernelOperator<Session, ClassifiedSession>((emit) => new VisitClassifier(resolved, { emit }));
}
