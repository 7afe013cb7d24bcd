import type { Observable } from "rxjs";
import type { Client } from "../client/Client.ts";
import type { SignalPage } from "./SignalPage.ts";
import { resolveSignalsOptions, type SignalsOptions } from "./signalsOptions.ts";
import { sourceObservable } from "./sourceObservable.ts";

/**
 * The page-level form of {@link signals}: one emission per page, `{ records, cursor, … }`,
 * for consumers that batch (writers, bulk decoders) or want the cursor. Same options, pull
 * semantics and checkpointing as `signals`: at most two pages are fetched ahead while the
 * consumer's `next(page)` runs, and the checkpoint is saved after each emitted page, before
 * the page after it is emitted. Pages with no new records are emitted too (e.g. every
 * caught-up poll of a tail).
 *
 * @example
 * signalPagesObservable(client, { shopId: 101, since: new Date("2026-11-20T00:00:00Z") })
 *   .subscribe((page) => console.log(page.records.length, page.cursor.rts));
 */
export function signalPagesObservable(client: Client, options: SignalsOptions): Observable<SignalPage> {
  const o = resolveSignalsOptions(options);
  return sourceObservable<SignalPage>(client, o, (subscriber, page, report) => {
    if (subscriber.closed) return 0;
    report(page.records.length);
    subscriber.next(page);
    return page.records.length;
  });
}
