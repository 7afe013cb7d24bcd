import type { Client } from "../client/Client.ts";
import type { ResolvedSignalsOptions } from "./signalsOptions.ts";
import type { SignalCursor } from "./SignalCursor.ts";
import type { SignalPage } from "./SignalPage.ts";
import { SlicePager, type SlicePagerConfig } from "./SlicePager.ts";
import { learntSpelling } from "./serviceRts.ts";
import { splitRange } from "./splitRange.ts";
import { waitFor } from "./waitFor.ts";

/**
 * An opened source: where it starts, its pages, and counters for progress. Internal.
 *
 * @example
 * const opened: OpenedSignalPages = await openSignalPages(client, resolveSignalsOptions(options), signal);
 * for await (const page of opened.pages) console.log(page.records.length, opened.requests());
 */
export interface OpenedSignalPages {
  /** The cursor before the first page (from the checkpoint, or `since` with nothing delivered). */
  readonly start: SignalCursor;
  /** Pages in time order; pulled one at a time. */
  readonly pages: AsyncGenerator<SignalPage, void, undefined>;
  /** Requests sent so far. */
  requests(): number;
  /** Pages fetched ahead by parallel slices and held right now. */
  buffered(): number;
}

/**
 * Opens the page stream of one shop: loads the checkpoint (never saves it: the drivers do,
 * once a page has been delivered) and pages one range, or several concurrently with
 * `slices` > 1. Internal to the source; {@link signalPages} and the Observables drive it.
 *
 * @example
 * const { start, pages } = await openSignalPages(client, resolveSignalsOptions(options), signal);
 */
export async function openSignalPages(
  client: Client,
  o: ResolvedSignalsOptions,
  signal: AbortSignal,
): Promise<OpenedSignalPages> {
  const sinceRts = o.sinceRts ?? o.codec.encode(o.scheduler.now());
  let start: SignalCursor = { rts: sinceRts, delivered: [] };
  if (o.checkpoint !== undefined) {
    const saved = await o.checkpoint.load(o.checkpointKey);
    // Without `since` (a tail), the saved cursor is where the last run stopped: resuming from
    // it, not from "now", is what makes a restart lose nothing. With `since`, a checkpoint
    // behind it belongs to an earlier, wider run: `since` wins.
    if (saved !== undefined && (o.sinceRts === undefined || saved.rts >= sinceRts)) start = saved;
  }
  // One read learns once how the service spells RTS, for all its ranges.
  const spelling = learntSpelling();
  const base = {
    client,
    shopId: o.shopId,
    limit: o.limit,
    mode: o.mode,
    settleMs: o.mode === "tail" ? o.settleMs : 0,
    codec: o.codec,
    scheduler: o.scheduler,
    spelling,
  } as const;

  if (o.untilRts !== undefined && start.rts >= o.untilRts) {
    return { start, pages: (async function* () {})(), requests: () => 0, buffered: () => 0 };
  }

  if (o.slices === 1) {
    const pager = new SlicePager({ ...base, start, endRts: o.untilRts, slice: 0, readAhead: true });
    const pages = async function* (): AsyncGenerator<SignalPage, void, undefined> {
      let ahead: Promise<SignalPage> | undefined;
      for (;;) {
        const page = await (ahead ?? pager.nextPage(signal));
        ahead = undefined;
        if (!page.done && !page.caughtUp) {
          // More is waiting: request it while the consumer handles this page, so the service's
          // work and ours overlap. One page ahead at most (and, read ahead, the request for
          // the one after it); an abandoned request is aborted with `signal` by whoever stops
          // the stream (hence the no-op catch).
          ahead = pager.nextPage(signal);
          ahead.catch(() => undefined);
        }
        yield page;
        if (page.done) return;
        if (page.caughtUp) await waitFor(o.pollIntervalMs, o.scheduler, signal);
      }
    };
    return { start, pages: pages(), requests: () => pager.requests, buffered: () => 0 };
  }

  const bounds = splitRange(start.rts, o.untilRts!, o.slices * o.rangesPerSlice);
  const ranges: SlicePagerConfig[] = [];
  for (let i = 0; i + 1 < bounds.length; i++) {
    ranges.push({
      ...base,
      mode: "backfill",
      start: i === 0 ? start : { rts: bounds[i]!, delivered: [] },
      endRts: bounds[i + 1]!,
      slice: i,
      seamStart: i > 0,
      seamEnd: i + 2 < bounds.length,
    });
  }
  return orderedRanges(start, ranges, o.slices, o.sliceBufferPages, signal);
}

interface RangeState {
  readonly pager: SlicePager;
  readonly queue: SignalPage[];
  finished: boolean;
  failed: boolean;
  error: unknown;
}

/**
 * Pages `ranges` with `workers` concurrent workers, each taking the next range in time order,
 * and yields their pages in range order. The range being delivered (the head) fetches only
 * when its previous page has been taken (one page ahead at most); the others may run ahead
 * while fewer than `(workers − 1) × bufferPages` pages are held in all, then wait — so memory
 * is bounded however the data is spread. An error in a range surfaces when that range is
 * reached, after every earlier range has been delivered, exactly as one worker would.
 */
function orderedRanges(
  start: SignalCursor,
  ranges: readonly SlicePagerConfig[],
  workers: number,
  bufferPages: number,
  outer: AbortSignal,
): OpenedSignalPages {
  const inner = new AbortController();
  const onOuterAbort = (): void => inner.abort(outer.reason);
  outer.addEventListener("abort", onOuterAbort, { once: true });
  const signal = inner.signal;
  // Whoever waits (workers, the consumer) re-checks `signal` when woken.
  signal.addEventListener("abort", () => notify(), { once: true });
  const states: RangeState[] = ranges.map((config) => ({
    pager: new SlicePager(config),
    queue: [],
    finished: false,
    failed: false,
    error: undefined,
  }));
  const budget = (workers - 1) * bufferPages;
  let head = 0;
  let nextRange = 0;
  let active = 0;
  let firstFailure = states.length;
  /** Pages held by ranges other than the head, and requests of theirs in flight. */
  let held = 0;
  let reserved = 0;
  let waiters: (() => void)[] = [];

  const notify = (): void => {
    const list = waiters;
    waiters = [];
    for (const wake of list) wake();
  };
  const changed = (): Promise<void> => new Promise((resolve) => waiters.push(resolve));

  const launch = (): void => {
    while (active < workers && nextRange < states.length && nextRange < firstFailure && !signal.aborted) {
      const index = nextRange++;
      active++;
      void work(index);
    }
  };

  const work = async (index: number): Promise<void> => {
    const st = states[index]!;
    try {
      for (;;) {
        // The head keeps at most one page ahead of the consumer; others share the budget,
        // reserving their slot before the request so concurrent workers cannot overshoot it.
        while (!signal.aborted && (index === head ? st.queue.length >= 1 : held + reserved >= budget)) await changed();
        if (signal.aborted) return;
        const reserve = index !== head;
        if (reserve) reserved++;
        let page: SignalPage;
        try {
          page = await st.pager.nextPage(signal);
        } finally {
          if (reserve) reserved--;
        }
        st.queue.push(page);
        if (index !== head) held++;
        notify();
        if (page.done) break;
      }
      st.finished = true;
    } catch (error) {
      st.failed = true;
      st.error = error;
      if (index < firstFailure) firstFailure = index;
    } finally {
      active--;
      notify();
      launch();
    }
  };

  const last = states.length - 1;
  const pages = async function* (): AsyncGenerator<SignalPage, void, undefined> {
    launch();
    try {
      while (head <= last) {
        const st = states[head]!;
        const page = st.queue.shift();
        if (page !== undefined) {
          notify();
          yield head === last || !page.done ? page : { ...page, done: false };
          continue;
        }
        if (st.failed) throw st.error;
        if (st.finished) {
          head++;
          if (head <= last) held -= states[head]!.queue.length;
          notify();
          continue;
        }
        signal.throwIfAborted();
        await changed();
      }
    } finally {
      outer.removeEventListener("abort", onOuterAbort);
      inner.abort(outer.aborted ? outer.reason : new Error("signal pages closed"));
      notify();
    }
  };
  return {
    start,
    pages: pages(),
    requests: () => states.reduce((sum, st) => sum + st.pager.requests, 0),
    buffered: () => held,
  };
}
