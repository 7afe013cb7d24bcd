import { Observable, type Subscriber } from "rxjs";
import type { Client } from "../client/Client.ts";
import { linkAbort } from "./linkAbort.ts";
import { openSignalPages } from "./openSignalPages.ts";
import { ProgressTracker } from "./ProgressTracker.ts";
import { advanceCursor, type SignalCursor } from "./SignalCursor.ts";
import type { SignalPage } from "./SignalPage.ts";
import type { ResolvedSignalsOptions } from "./signalsOptions.ts";

/**
 * Hands one page to a subscriber; returns how many of its records were delivered. It calls
 * `report(i)` before handing out record `i` (and `report(records.length)` once all are), which
 * reports the page's rejected records placed up to there to `onInvalid`.
 *
 * @example
 * const deliver: DeliverPage<SignalPage> = (subscriber, page, report) => (report(page.records.length), subscriber.next(page), page.records.length);
 */
export type DeliverPage<T> = (subscriber: Subscriber<T>, page: SignalPage, report: (upTo: number) => void) => number;

/**
 * The Observable behind {@link signals} and {@link signalPagesObservable}: pulls pages
 * from the core one at a time (the core fetches at most two pages ahead), hands each to
 * `deliver`, saves the checkpoint once `deliver` has returned (a synchronous subscriber has
 * consumed the page) and only then takes the next page; aborts the request in flight or
 * the pending wait on unsubscribe. Internal.
 *
 * @example
 * const pages$ = sourceObservable<SignalPage>(client, resolveSignalsOptions(options), (s, page) => (s.next(page), page.records.length));
 */
export function sourceObservable<T>(client: Client, o: ResolvedSignalsOptions, deliver: DeliverPage<T>): Observable<T> {
  return new Observable<T>((subscriber) => {
    const [controller, unlink] = linkAbort(o.signal);
    run(client, o, controller.signal, subscriber, deliver).then(
      () => subscriber.complete(),
      (error: unknown) => subscriber.error(error),
    );
    return () => {
      unlink();
      controller.abort();
    };
  });
}

async function run<T>(
  client: Client,
  o: ResolvedSignalsOptions,
  signal: AbortSignal,
  subscriber: Subscriber<T>,
  deliver: DeliverPage<T>,
): Promise<void> {
  const opened = await openSignalPages(client, o, signal);
  const progress = new ProgressTracker(o, opened);
  let cursor: SignalCursor = opened.start;
  try {
    while (!subscriber.closed) {
      const next = await opened.pages.next();
      if (next.done === true) return;
      const page = next.value;
      const rejected = page.rejected;
      let reported = 0;
      const report = (upTo: number): void => {
        for (; reported < rejected.length && rejected[reported]!.before <= upTo; reported++) o.onInvalid?.(rejected[reported]!.invalid);
      };
      const delivered = deliver(subscriber, page, report);
      const before = cursor;
      // A consumer that stopped mid-page (take(n), an error) gets a checkpoint of exactly
      // what it received and was told of, so a resume repeats nothing.
      cursor = delivered === page.records.length ? page.cursor : advanceCursor(before, page.records, delivered, rejected);
      progress.page(page, delivered, cursor);
      if (o.checkpoint !== undefined && (delivered > 0 || cursor.rts !== before.rts)) {
        await o.checkpoint.save(o.checkpointKey, cursor);
      }
    }
  } finally {
    await opened.pages.return();
  }
}
