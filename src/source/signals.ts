import type { Observable } from "rxjs";
import type { Client } from "../client/Client.ts";
import type { RawSignal } from "../contract/rawSignal.ts";
import { resolveSignalsOptions, type SignalsOptions } from "./signalsOptions.ts";
import { sourceObservable } from "./sourceObservable.ts";

/**
 * A shop's Wi-Fi signal records as an Observable: every record in [since, until) exactly
 * once, in the service's order (ascending RTS), unchanged. This is the source of the
 * analytics pipeline (decode → sessionize → …).
 *
 * - **Pull, not push.** Pages are requested one at a time, one request in flight per shop
 *   (per time range with `slices`). When a page arrives and more data is known to follow
 *   (it was full), the request for the next one is sent as the page is handed over, so the
 *   service prepares page n + 1 while the subscriber handles page n; page n + 1 is emitted
 *   only after every record of page n has been emitted (and checkpointed). So at most one
 *   page is fetched ahead of the consumer (parallel `slices`: bounded by
 *   `sliceBufferPages`). A synchronous subscriber consumes each page as it is emitted; an
 *   asynchronous one (`mergeMap` to a promise, `observeOn`) buffers on its own side, as
 *   RxJS does.
 * - **Cursor rule.** Next `since` = one unit before the largest RTS delivered; what was
 *   already delivered is dropped by identity (all six fields, counted); a full page that
 *   brings nothing new is retried with limit 200, then fails with `TieOverflowError`. Right
 *   whether the service's `since` is inclusive or exclusive. RTS out of order in a page:
 *   `ContractError` (a local sort would not be safe).
 * - **Modes.** `"backfill"` completes at `until`, or once caught up (a short page that brought
 *   nothing new: "at most `limit`" lets a service serve short pages before its end);
 *   `"tail"` polls every `pollIntervalMs` once caught up, `settleMs` behind the newest data.
 * - **Unsubscribing** aborts the request in flight (through the client's `AbortSignal`) and
 *   any pending wait; no request is sent after it. Aborting `options.signal` does the same
 *   and errors the stream with the signal's reason.
 * - **Checkpoint.** Saved after each page has been emitted and before the next page is
 *   emitted (which waits for it); a subscriber that unsubscribes mid-page gets a
 *   checkpoint of exactly the records it received. So for a synchronous consumer a stop —
 *   unsubscribe, error, abort, or a crash while a request is in flight — resumes with
 *   nothing lost or repeated; a crash between emitting a page and its save completing
 *   repeats that one page (at-least-once).
 * - **Invalid records** (an unusable `row_key`, a field missing or of another type) are not
 *   emitted; they go to `onInvalid` with the decoder's reasons, and the stream reads on. A `ts`
 *   the service quoted as a decimal string is emitted as a number.
 *
 * Options are validated when this is called (TypeError / RangeError), not on subscribe.
 *
 * @example
 * signals(client, { shopId: 101, since: new Date("2026-11-20T00:00:00Z"), until: new Date("2026-11-21T00:00:00Z") })
 *   .subscribe((record) => console.log(record.row_key, record.device_id, record.rssi));
 */
export function signals(client: Client, options: SignalsOptions): Observable<RawSignal> {
  const o = resolveSignalsOptions(options);
  return sourceObservable<RawSignal>(client, o, (subscriber, page, report) => {
    const records = page.records;
    let i = 0;
    for (; i < records.length && !subscriber.closed; i++) {
      report(i);
      subscriber.next(records[i]!);
    }
    if (i === records.length) report(i);
    return i;
  });
}
