import type { InvalidRecord } from "../codec/decodeSignal.ts";
import type { RawSignal } from "../contract/rawSignal.ts";
import type { SignalCursor } from "./SignalCursor.ts";

/**
 * One page as the source delivers it: the records that are new (never delivered before, in
 * range, settled), in the service's order (ascending RTS), and the cursor after them.
 * Pages with no new records are delivered too (a caught-up poll, an empty time range), so a
 * consumer sees every step; `records` is then empty.
 *
 * @example
 * for await (const page of signalPages(client, { shopId: 101, since: new Date("2026-11-20") })) {
 *   console.log(page.records.length, page.cursor.rts);
 * }
 */
export interface SignalPage {
  /** The shop the records belong to. */
  readonly shopId: number;
  /** New records, ascending RTS, unchanged from the service. */
  readonly records: readonly RawSignal[];
  /** Where the stream stands once `records` are delivered; what a checkpoint stores. */
  readonly cursor: SignalCursor;
  /** The `since` of this page's request (RTS, lowercase: sent in the service's own case). */
  readonly since: string;
  /** The `limit` sent for this page (200 after a retry of a page that brought nothing new). */
  readonly limit: number;
  /** Records the service returned for this page, including ones already delivered. */
  readonly received: number;
  /** Records of this page reported to `onInvalid` (an unusable `row_key`, a field missing or mistyped): `rejected.length`. */
  readonly invalid: number;
  /**
   * Those records, each placed among `records`: the source hands each to `onInvalid` just before
   * the record it precedes, so a consumer that stops mid-page has been told of exactly the ones
   * its checkpoint passes, and a resume reports none twice.
   */
  readonly rejected: readonly RejectedRecord[];
  /** Requests this page took (1, or more after retries with limit 200 and settle probes). */
  readonly requests: number;
  /**
   * True when the page ended at the newest data: in a backfill a short page that brought nothing
   * new, in a tail any short page (a service may serve fewer than `limit` before its end).
   */
  readonly caughtUp: boolean;
  /** True on the last page of a backfill (reached `until`, or caught up). */
  readonly done: boolean;
  /** Index of the time range (parallel backfill) this page came from; 0 otherwise. */
  readonly slice: number;
}

/**
 * Progress of a source, reported after each delivered page (see `SignalsOptions.onProgress`);
 * what the CLI draws its progress bar from.
 *
 * @example
 * signals(client, { shopId: 101, since, until, onProgress: (p) => bar.update(p.fraction ?? 0) });
 */
export interface SignalProgress {
  readonly shopId: number;
  /** Pages delivered so far (including empty ones). */
  readonly pages: number;
  /** Records delivered so far. */
  readonly records: number;
  /** Records reported invalid so far. */
  readonly invalid: number;
  /** Requests sent so far (including retries and probes; the client's own retries not counted). */
  readonly requests: number;
  /** The cursor's boundary time, epoch ms (decoded with the RTS codec). */
  readonly cursorTime: number;
  /** Share of [since, until) done, 0…1 by time; `undefined` without `until`. */
  readonly fraction: number | undefined;
  /** Pages fetched ahead by parallel slices and held in memory right now. */
  readonly bufferedPages: number;
  /** True once the source has finished (backfill only). */
  readonly done: boolean;
}

/**
 * A record of a page that the source reports instead of delivering, where it lies among the
 * page's records.
 *
 * @example
 * const r: RejectedRecord = { before: 0, placed: false, invalid: { reason: "bad-row-key", field: "row_key", message: "row_key: …", record: {} } };
 */
export interface RejectedRecord {
  /** How many of the page's records come before it (`records.length`: after the last). */
  readonly before: number;
  /** Why, with the record (the decoder's reasons). */
  readonly invalid: InvalidRecord;
  /**
   * Whether its `row_key` placed it in the order (a field was wrong, not the key): the cursor
   * passes it, so a checkpoint counts it among the records at its RTS.
   */
  readonly placed: boolean;
}
