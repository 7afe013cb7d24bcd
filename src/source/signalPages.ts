import type { Client } from "../client/Client.ts";
import { linkAbort } from "./linkAbort.ts";
import { openSignalPages } from "./openSignalPages.ts";
import { ProgressTracker } from "./ProgressTracker.ts";
import type { SignalCursor } from "./SignalCursor.ts";
import type { SignalPage } from "./SignalPage.ts";
import { resolveSignalsOptions, type ResolvedSignalsOptions, type SignalsOptions } from "./signalsOptions.ts";

/**
 * A shop's signal pages as an async iterable: the pull-based core under {@link signals}.
 * The first page is requested when the loop first asks (`next()`); when a page is full
 * (more data follows), the next one is requested as it is handed to the loop (and a full
 * page sends the request for the one after it as it arrives), so at most one request is in
 * flight and at most two pages are fetched ahead (parallel `slices`: see
 * `SignalsOptions.sliceBufferPages`). Leaving the loop early aborts the request in flight.
 *
 * Checkpoint (`options.checkpoint`): a page's cursor is saved when the loop asks for the
 * next page — that is, after the loop body has finished with it — and before that page is
 * handed over; the last one when the iteration completes. Leaving the loop early (or a crash)
 * does not save the page being handled, so it comes again on resume: at-least-once, with
 * at most that one page repeated.
 *
 * Options are validated when this is called (TypeError / RangeError).
 *
 * @example
 * for await (const page of signalPages(client, { shopId: 101, since: new Date("2026-11-20T00:00:00Z") })) {
 *   for (const record of page.records) console.log(record.row_key);
 * }
 */
export function signalPages(client: Client, options: SignalsOptions): AsyncIterable<SignalPage> {
  const o = resolveSignalsOptions(options);
  return { [Symbol.asyncIterator]: () => iterate(client, o) };
}

async function* iterate(client: Client, o: ResolvedSignalsOptions): AsyncGenerator<SignalPage, void, undefined> {
  const [controller, unlink] = linkAbort(o.signal);
  try {
    const opened = await openSignalPages(client, o, controller.signal);
    const progress = new ProgressTracker(o, opened);
    let unsaved: SignalCursor | undefined;
    try {
      for (;;) {
        if (unsaved !== undefined && o.checkpoint !== undefined) await o.checkpoint.save(o.checkpointKey, unsaved);
        unsaved = undefined;
        const next = await opened.pages.next();
        if (next.done === true) break;
        const page = next.value;
        // Reported as the page is handed out (not when fetched ahead), so a stop between pages
        // leaves the next page's rejections to the resumed read.
        for (const r of page.rejected) o.onInvalid?.(r.invalid);
        progress.page(page, page.records.length, page.cursor);
        unsaved = page.cursor;
        yield page;
      }
      if (unsaved !== undefined && o.checkpoint !== undefined) await o.checkpoint.save(o.checkpointKey, unsaved);
    } finally {
      await opened.pages.return();
    }
  } finally {
    unlink();
    controller.abort();
  }
}
