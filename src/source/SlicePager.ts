import type { SchedulerLike } from "rxjs";
import type { Client, SignalsPageRequest } from "../client/Client.ts";
import type { RawSignal, SignalsResponse } from "../contract/rawSignal.ts";
import type { RejectedRecord } from "./SignalPage.ts";
import { SIGNALS_LIMIT_MAX } from "../contract/paths.ts";
import { parseRowKey } from "../codec/rowKey.ts";
import { fieldsInvalid, rowKeyInvalid, tsNumber, type InvalidRecord } from "../codec/InvalidRecord.ts";
import { rtsValueAt, stepRts, type RtsCodec } from "../codec/rts.ts";
import { spellRts } from "../codec/rtsSpelling.ts";
import { ContractError } from "../errors/ContractError.ts";
import { isHttpError } from "../errors/HttpError.ts";
import { TieOverflowError } from "../errors/TieOverflowError.ts";
import { lastRowKey } from "./lastRowKey.ts";
import { linkAbort } from "./linkAbort.ts";
import { recordIdentity } from "./recordIdentity.ts";
import { countsOf, multisetOf, type IdentityCounts, type SignalCursor } from "./SignalCursor.ts";
import type { SignalPage } from "./SignalPage.ts";
import { checkRtsRule, learnSpelling, learntSpelling, showsCase, type LearntSpelling } from "./serviceRts.ts";

/**
 * Configuration of one {@link SlicePager}: one shop, one time range.
 *
 * @example
 * const config: SlicePagerConfig = { client, shopId: 101, limit: 200, start: { rts: "0000019a9ed3a000", delivered: [] },
 *   endRts: undefined, mode: "backfill", settleMs: 0, codec: millisRts, scheduler: asyncScheduler, slice: 0 };
 */
export interface SlicePagerConfig {
  readonly client: Client;
  readonly shopId: number;
  /** Records per request, 1…200. */
  readonly limit: number;
  /** Where this range starts: its lower bound with nothing delivered, or a saved cursor. */
  readonly start: SignalCursor;
  /** Exclusive end RTS of the range; `undefined` = open. */
  readonly endRts: string | undefined;
  /** `"backfill"` pages are `done` once caught up; `"tail"` pages never are (until `endRts`). */
  readonly mode: "backfill" | "tail";
  /** Tail settle window, ms; 0 = off. */
  readonly settleMs: number;
  readonly codec: RtsCodec;
  readonly scheduler: SchedulerLike;
  /** Index reported in `SignalPage.slice`. */
  readonly slice: number;
  /**
   * Whether the range starts where another range of the same read ends (slices): then the
   * invalid records before its first record are the other range's to report.
   * @default false
   */
  readonly seamStart?: boolean;
  /** Whether the range ends where another range of the same read starts (slices). @default false */
  readonly seamEnd?: boolean;
  /**
   * How the service spells its RTS, as learnt from its row_keys: shared by the ranges of one
   * read (slices), so that one learns it for all. @default a fresh {@link learntSpelling}
   */
  readonly spelling?: LearntSpelling;
  /**
   * Whether a page whose last record moves the boundary sends the request its next page will
   * need (the same `since` and `limit`) before the page is delivered, so the service prepares
   * that page meanwhile:
   * - in a backfill, as soon as the page's body has arrived, before it is parsed: the client
   *   hands over the text (`SignalsPageRequest.onBody`) and its last `row_key`
   *   ({@link lastRowKey}) gives the next `since` (a backfill asks after a short page too);
   * - in a tail, or with a client that does not hand the text over, once a full page is parsed
   *   (a tail's short page has it wait, so a request sent from its body would be wasted).
   * When the page, parsed, needs another request, or the next call asks for another, or the
   * page ends the read or has the caller wait, the early one is aborted. Only where one reader
   * asks for pages one after the other (one slice): slices bound the pages they hold
   * themselves. @default false
   */
  readonly readAhead?: boolean;
}

/** A request sent ahead for the next page (see `SlicePagerConfig.readAhead`). */
interface EarlyRequest {
  readonly sent: string;
  readonly limit: number;
  readonly sendTime: number;
  readonly response: Promise<SignalsResponse>;
  /** Identifies the request to its body's callback. */
  readonly ticket: object;
}

/**
 * What aborts early requests: a controller that follows the caller's signal, kept from page to
 * page (a controller and a listener per page were a measurable part of a page's cost) until one
 * is aborted or the read stops asking.
 */
interface EarlyAbort {
  readonly parent: AbortSignal;
  readonly controller: AbortController;
  readonly unlink: () => void;
}

/** Statuses with which a service may refuse a `since` it does not serve (not a fault of the read). */
const REFUSED_SINCE: ReadonlySet<number> = new Set([400, 404, 422]);

type Stop = 0 | 1 | 2;
const STOP_NONE: Stop = 0;
const STOP_END: Stop = 1;
const STOP_HORIZON: Stop = 2;

/**
 * The cursor rule for one shop and one time range, as a state machine: each `nextPage` call
 * sends one request (a few when stuck; see below), drops what was already delivered and
 * returns the new records. It never waits on a timer and runs ahead of the caller by at most the
 * one request `readAhead` sends: the caller decides when to ask for the next page. Internal to
 * the source (exported for tests).
 *
 * Rule: request `since = boundary − 1 unit`, so the boundary's whole tie group returns whether
 * the service's `since` is inclusive or exclusive; drop records before the boundary and, at
 * the boundary, those whose identity was delivered (a multiset, so identical records are
 * counted). A full page that brings nothing new is asked again with limit 200; if it is still
 * stuck and its records at `since` prove the service inclusive, once more with `since + 1`
 * (equivalent to an exclusive `since`); then {@link TieOverflowError}. So at most three
 * requests per page, and nothing is ever skipped.
 *
 * Records out of RTS order, or before the requested `since`, are a {@link ContractError}:
 * sorting locally would not be safe, because a page that is not the first `limit` records
 * in RTS order may have left out records between the ones it holds.
 *
 * A record with a usable `row_key` but a field missing or of another type (the decoder's
 * `fieldsInvalid`) has its place: the cursor passes it, and it goes to `onInvalid` instead of
 * being delivered. A `ts` quoted as a decimal string is delivered as a number.
 *
 * A record whose `row_key` is unusable (malformed, another shop's) cannot place the cursor;
 * it goes to `onInvalid` once, attributed to the first valid record after it in the page: it
 * is reported when that record is delivered (or, at the end of the data, when the stream has
 * caught up), and not at all when that record lies outside the range — except at a seam
 * between two ranges of one read (slices), where the range before it reports it and the range
 * after it does not, so each is reported once. A full page of them
 * that the cursor cannot get past is a {@link ContractError}, never a loop.
 *
 * @example
 * const pager = new SlicePager(config);
 * const page = await pager.nextPage(new AbortController().signal);
 * page.records.length; page.cursor; page.caughtUp;
 */
export class SlicePager {
  private readonly config: SlicePagerConfig;
  private readonly prefix: string;
  /** Boundary RTS and the identities delivered there. */
  private rts: string;
  private readonly delivered: IdentityCounts;
  /** Occurrences of each identity at the old boundary within the current page. */
  private readonly pageSeen: IdentityCounts = new Map();
  /** Whether the cursor has passed a record yet (the range's first record is behind it). */
  private passedAny = false;
  /** The most records the service has sent in one page (its cap, once data is plentiful). */
  private largestPage = 0;
  /** The current page's records the cursor passed (reused page after page). */
  private readonly passed: unknown[] = [];
  /** Invalid records reported at the end of a caught-up page, not yet passed by the cursor (a multiset). */
  private readonly reportedTrailing: IdentityCounts = new Map();
  /** Settle evidence: newest RTS time seen (ms) and the scheduler time it was seen at. */
  private newest = Number.NEGATIVE_INFINITY;
  private newestAt = 0;
  /** Whether a record has shown that the service's RTS unit is the codec's. */
  private unitChecked = false;
  /** How the service spells its RTS (shared with the read's other ranges). */
  private readonly spelling: LearntSpelling;
  /** Whether this range has asked for the oldest records to learn the service's case. */
  private caseAsked = false;
  /** The request sent ahead for the next page, if any (`readAhead`), and what aborts it. */
  private early: EarlyRequest | undefined;
  private earlyAbort: EarlyAbort | undefined;
  /**
   * The page request `nextPage` is awaiting (its ticket) and the caller's signal of that call:
   * only that request's body sends one ahead, aborted with that signal.
   */
  private awaited: { readonly ticket: object; readonly signal: AbortSignal } | undefined;
  /** Requests sent so far. */
  requests = 0;

  constructor(config: SlicePagerConfig) {
    this.config = config;
    this.prefix = `${config.shopId}:`;
    this.rts = config.start.rts;
    this.delivered = countsOf(config.start.delivered);
    this.spelling = config.spelling ?? learntSpelling();
  }

  /** The cursor after everything returned so far. */
  cursor(): SignalCursor {
    return { rts: this.rts, delivered: multisetOf(this.delivered) };
  }

  /**
   * Fetches the next page (one request, up to three when stuck, plus a settle probe).
   * Throws the client's errors, {@link TieOverflowError}, {@link ContractError}, or
   * `signal.reason` when aborted.
   */
  async nextPage(signal: AbortSignal): Promise<SignalPage> {
    const { client, shopId, scheduler, settleMs } = this.config;
    let attempt = 0;
    let requests = 0;
    let capSuspected = false;
    for (;;) {
      signal.throwIfAborted();
      const baseSince = stepRts(this.rts, -1);
      // Attempt 2 is only made once the service has shown itself inclusive, where
      // `since + 1` asks for exactly what an exclusive `since` would.
      const since = attempt === 2 ? stepRts(baseSince, 1) : baseSince;
      const limit = attempt === 0 ? this.config.limit : SIGNALS_LIMIT_MAX;
      const sent = this.spell(since);
      const early = this.takeEarly(sent, limit);
      const sendTime = early?.sendTime ?? scheduler.now();
      let response: SignalsResponse;
      if (early === undefined) {
        const ticket = {};
        this.awaited = { ticket, signal };
        response = await client.getSignalsPage(shopId, this.pageRequest(sent, limit, signal, ticket));
        this.requests++;
      } else {
        this.awaited = { ticket: early.ticket, signal };
        response = await early.response;
      }
      this.awaited = undefined;
      requests++;
      const page: unknown = response?.signals;
      if (!Array.isArray(page)) throw new ContractError("signals", "expected an array");
      learnSpelling(this.spelling, page as readonly unknown[]);
      if (!this.spelling.cased && !this.caseAsked && showsCase(sent)) {
        // A `since` with a letter went out before the service's case was known, and the answer
        // does not show it (empty, or keys without a letter — which a store comparing bytes can
        // answer from the wrong place): the oldest records show it (one request, once a range).
        this.caseAsked = true;
        requests++;
        const oldest = await this.peekOldest(signal, SIGNALS_LIMIT_MAX);
        if (!this.unitChecked && oldest.length > 0) this.checkRtsUnit(oldest);
      }
      if (!this.unitChecked) {
        // An empty first answer may be the unit too: a service whose RTS counts seconds reads
        // today's `since` in ms as the far future and answers nothing, so the oldest record it
        // has is asked for (one request) and checked instead.
        if (page.length > 0) this.checkRtsUnit(page as readonly unknown[]);
        else {
          requests++;
          await this.checkRtsUnitOfOldest(signal);
        }
      }
      // The answer (or the oldest record) showed the service spells RTS otherwise than `since`
      // went out: asked again in its spelling, before anything of the answer is used.
      if (this.spell(since) !== sent) continue;
      const full = page.length >= limit;
      if (full && this.config.readAhead === true) this.sendEarly(page[page.length - 1], signal);
      const result = this.consume(page as readonly unknown[], since, full, sendTime, scheduler.now());
      if (page.length > this.largestPage) this.largestPage = page.length;
      if (
        !full &&
        result.passed === 0 &&
        page.length > 0 &&
        result.stop === STOP_NONE &&
        (this.config.mode === "backfill" || page.length === this.largestPage)
      ) {
        // A short page of nothing new (the boundary's own records, those at `since`, invalid
        // ones) is what a caught-up inclusive service answers — and what a service capping its
        // pages below `limit` answers when those fill its cap (a group of records at one RTS
        // larger than the cap can never be got past). Taking that for the end lost the rest of
        // the range (a service serving 4 a page lost 6 464 of 6 942 records, silently). A valid
        // record after the boundary tells: asked once at the end of a backfill; a tail asks when
        // the page is as long as the longest the service has sent (a capped page is; an idle
        // tail's page of the boundary's few records is not, so polling costs nothing more). The
        // page is asked again first (a tail's new records may have come in between), and only a
        // page that still brings nothing after the service showed more is stuck — unless it was
        // the records at `since` (boundary − 1) that filled it and the service is inclusive:
        // then `since + 1`, as for a full page (below).
        if (capSuspected) {
          if (attempt < 2 && result.sawSince) {
            attempt = 2;
            continue;
          }
          throw new TieOverflowError(shopId, this.rts, page.length);
        }
        requests++;
        if (await this.anyAfterBoundary(signal)) {
          capSuspected = true;
          continue;
        }
      }
      // The spec promises only "at most `limit`" records a page: a service may cap its pages
      // below the limit or cut them at its own boundaries, so a short page that brought new
      // records is not proof of the end. A backfill asks once more (one request at its end,
      // against losing the rest of its range); a tail takes it as caught up (at worst it polls
      // again after `pollIntervalMs`, losing nothing).
      // "New" counts every record the cursor passed, delivered or reported for its fields.
      let caughtUp = !full && (this.config.mode === "tail" || result.passed === 0);
      if (result.stop === STOP_END) caughtUp = false;
      else if (result.stop === STOP_HORIZON) {
        caughtUp = true;
        // A backlog cut short by the settle window: look ahead for newer data before crawling.
        if (full && result.passed * 2 < limit && settleMs > 0) {
          requests++;
          caughtUp = !(await this.probe(result.pageMaxTime + settleMs, signal));
        }
      } else if (result.passed === 0 && full) {
        // Stuck: a full page with nothing new.
        if (limit < SIGNALS_LIMIT_MAX) {
          attempt = 1;
          continue;
        }
        if (attempt < 2 && result.sawSince) {
          attempt = 2;
          continue;
        }
        if (result.pendingInvalid > 0) {
          throw new ContractError(
            `signals[${page.length - 1}].row_key`,
            `shop ${shopId}: a full page ends in ${result.pendingInvalid} record(s) with unusable row_key after RTS ${this.rts}; the cursor cannot get past them`,
          );
        }
        throw new TieOverflowError(shopId, this.rts, limit);
      }
      // A page that ends the read, or has the caller wait, needs no next page yet.
      if (caughtUp || result.stop !== STOP_NONE) this.dropEarly();
      return {
        shopId,
        records: result.records,
        cursor: this.cursor(),
        since,
        limit,
        received: page.length,
        invalid: result.rejected.length,
        rejected: result.rejected,
        requests,
        caughtUp,
        done: result.stop === STOP_END || (caughtUp && this.config.mode === "backfill"),
        slice: this.config.slice,
      };
    }
  }

  /** The RTS rule checked on `page` ({@link checkRtsRule}); checked for the read once a record could be. */
  private checkRtsUnit(page: readonly unknown[]): void {
    const rtsOf = (record: unknown): string | undefined => {
      const key = this.keyOf(record);
      return typeof key === "string" ? this.rtsOfKey(key) : undefined;
    };
    if (checkRtsRule(page, this.config.codec, this.config.shopId, rtsOf)) this.unitChecked = true;
  }

  /**
   * {@link checkRtsUnit} on the service's oldest record, when the first answer held none.
   * Checked once either way: a genuinely empty range costs one request.
   */
  private async checkRtsUnitOfOldest(signal: AbortSignal): Promise<void> {
    this.unitChecked = true;
    this.checkRtsUnit(await this.peekOldest(signal, 1));
  }

  /**
   * The service's oldest `limit` records (`since` = 0: the same in every spelling), whose keys
   * teach the spelling ({@link peek}). A service that refuses so old a `since` (400, 404, 422:
   * before its retention, say) gives none rather than fail a read that asked for nothing of
   * the kind.
   */
  private async peekOldest(signal: AbortSignal, limit: number): Promise<readonly unknown[]> {
    try {
      return await this.peek("0000000000000000", signal, limit);
    } catch (error) {
      if (isHttpError(error) && REFUSED_SINCE.has(error.status)) return [];
      throw error;
    }
  }

  /**
   * Whether the service holds a valid record after the boundary RTS (`since` = boundary + 1; up
   * to 200 records, so that invalid ones the cap lets through do not hide one behind them).
   */
  private async anyAfterBoundary(signal: AbortSignal): Promise<boolean> {
    const boundary = this.prefix + this.rts;
    return (await this.peek(stepRts(this.rts, 1), signal, SIGNALS_LIMIT_MAX)).some((record) => {
      const key = this.keyOf(record);
      return typeof key === "string" && key > boundary;
    });
  }

  /**
   * A page request; with `readAhead` in a backfill, one whose body, when it arrives while
   * `nextPage` awaits it, sends the request for the page after it (guessed from the text,
   * checked once parsed).
   */
  private pageRequest(since: string, limit: number, signal: AbortSignal, ticket: object): SignalsPageRequest {
    const { readAhead, settleMs, mode } = this.config;
    if (readAhead !== true || settleMs > 0 || mode !== "backfill") return { since, limit, signal };
    const onBody = (text: string): void => {
      // Not for a request sent ahead whose page no one awaits yet: one page ahead at most.
      const awaited = this.awaited;
      if (awaited?.ticket !== ticket || this.early !== undefined) return;
      const rowKey = lastRowKey(text);
      if (rowKey !== undefined) this.sendEarly({ row_key: rowKey }, awaited.signal);
    };
    return { since, limit, signal, onBody };
  }

  /**
   * Sends the request for the page after one whose last record is `last` now, when that record
   * moves the boundary: it has a usable key past the boundary and before the range's end, so the
   * cursor rule will ask next for `since` = that key's RTS − 1 and the configured `limit` (unless
   * something in the page stops it first: then the request goes unused). A request sent ahead for
   * another `since` is aborted. Not in tail mode's settle window, whose horizon depends on when
   * the next request is sent.
   */
  private sendEarly(last: unknown, signal: AbortSignal): void {
    const { endRts, settleMs, client, shopId, scheduler, limit } = this.config;
    if (settleMs > 0) return;
    const key = this.keyOf(last);
    if (typeof key !== "string" || key <= this.prefix + this.rts) return;
    const rts = this.rtsOfKey(key);
    if (endRts !== undefined && rts >= endRts) return;
    const sent = this.spell(stepRts(rts, -1));
    const sentAlready = this.early;
    if (sentAlready !== undefined) {
      if (sentAlready.sent === sent && sentAlready.limit === limit) return;
      this.dropEarly(sentAlready);
    }
    let abort = this.earlyAbort;
    if (abort === undefined || abort.parent !== signal) {
      abort?.unlink();
      const [controller, unlink] = linkAbort(signal);
      this.earlyAbort = abort = { parent: signal, controller, unlink };
    }
    this.requests++;
    const ticket = {};
    const response = client.getSignalsPage(shopId, this.pageRequest(sent, limit, abort.controller.signal, ticket));
    // Settled when taken; one dropped unused must not surface as an unhandled rejection.
    response.catch(() => undefined);
    this.early = { sent, limit, sendTime: scheduler.now(), response, ticket };
  }

  /** The early request, if it is the one for `sent` and `limit`; any other is aborted. */
  private takeEarly(sent: string, limit: number): EarlyRequest | undefined {
    const early = this.early;
    if (early === undefined) return undefined;
    this.early = undefined;
    if (early.sent === sent && early.limit === limit) return early;
    this.dropEarly(early);
    return undefined;
  }

  /** Aborts `early` (when given: one nothing will ask for) and lets go of the caller's signal. */
  private dropEarly(early = this.early): void {
    this.early = undefined;
    const abort = this.earlyAbort;
    if (abort === undefined) return;
    this.earlyAbort = undefined;
    if (early !== undefined) abort.controller.abort(new Error("footfall: a request sent ahead was not needed"));
    abort.unlink();
  }

  /** One request for `limit` records at or after `since` (counted): the checks above and the settle probe. */
  private async peek(since: string, signal: AbortSignal, limit = 1): Promise<readonly unknown[]> {
    this.requests++;
    const response = await this.config.client.getSignalsPage(this.config.shopId, { since: this.spell(since), limit, signal });
    const page: unknown = response?.signals;
    if (!Array.isArray(page)) throw new ContractError("signals", "expected an array");
    learnSpelling(this.spelling, page as readonly unknown[]);
    return page as readonly unknown[];
  }

  /** `rts` (footfall's spelling) as the service spells RTS, for a request. */
  private spell(rts: string): string {
    return spellRts(rts, this.spelling);
  }

  /** Settle probe: is there data at or after `fromMs`? Raises the newest-data evidence. */
  private async probe(fromMs: number, signal: AbortSignal): Promise<boolean> {
    const { codec, scheduler } = this.config;
    const page = await this.peek(codec.encode(fromMs), signal);
    let found = false;
    for (const record of page) {
      const key = this.keyOf(record);
      if (typeof key !== "string") continue;
      this.observeNewest(codec.decode(this.rtsOfKey(key)), scheduler.now());
      found = true;
    }
    return found;
  }

  private observeNewest(time: number, at: number): void {
    // Keep the evidence that gives the larger lower bound on the service's clock from now on.
    if (time - at > this.newest - this.newestAt) {
      this.newest = time;
      this.newestAt = at;
    }
  }

  /**
   * The record's canonical key `<shopId>:<rts>`, or why it has none. Canonical keys of one
   * shop share their prefix and have one length, so they compare exactly as their RTS do:
   * the hot path compares row_keys in place, with no slicing and no allocation.
   */
  private keyOf(record: unknown): string | InvalidRecord {
    const rowKey = typeof record === "object" && record !== null ? (record as { row_key?: unknown }).row_key : undefined;
    if (typeof rowKey === "string") {
      const prefix = this.prefix;
      if (rowKey.length === prefix.length + 16 && rowKey.startsWith(prefix) && rtsValueAt(rowKey, prefix.length) >= 0) return rowKey;
    }
    // The decoder's own row_key rule and reasons: one invalid-record channel.
    const invalid = rowKeyInvalid(record, this.config.shopId);
    if (invalid !== undefined) return invalid;
    // Valid but not canonical (a shop id with leading zeros, an uppercase RTS): compare by the
    // canonical form.
    return this.prefix + parseRowKey(rowKey as string).rts;
  }

  /** RTS of a canonical key. */
  private rtsOfKey(key: string): string {
    return key.slice(this.prefix.length);
  }

  /** Applies the cursor rule to one response. Mutates the boundary state for what it returns. */
  private consume(page: readonly unknown[], since: string, full: boolean, sendTime: number, receivedAt: number) {
    const { endRts, settleMs, codec } = this.config;
    const prefix = this.prefix;
    const oldKey = prefix + this.rts;
    const sinceKey = prefix + since;
    const endKey = endRts === undefined ? undefined : prefix + endRts;
    const delivered = this.delivered;
    const pageSeen = this.pageSeen;
    pageSeen.clear();

    // Settle horizon: the newest data the service had when it answered, minus the window.
    let horizonKey: string | undefined;
    let nothingSettled = false;
    let pageMaxTime = Number.NEGATIVE_INFINITY;
    if (settleMs > 0) {
      for (let i = page.length - 1; i >= 0; i--) {
        const key = this.keyOf(page[i]);
        if (typeof key === "string") {
          pageMaxTime = codec.decode(this.rtsOfKey(key));
          break;
        }
      }
      const prior = this.newest + (sendTime - this.newestAt);
      const limitMs = Math.max(prior, pageMaxTime) - settleMs;
      if (pageMaxTime > Number.NEGATIVE_INFINITY) this.observeNewest(pageMaxTime, receivedAt);
      if (!(limitMs >= 0)) nothingSettled = true;
      else horizonKey = prefix + codec.encode(limitMs);
    }

    const records: RawSignal[] = [];
    let lastKey = oldKey;
    let pastOld = false;
    let prev = sinceKey;
    let sawSince = false;
    let stop: Stop = STOP_NONE;
    // What the page reports, each placed among its records (reported when delivered, not here).
    const rejected: RejectedRecord[] = [];
    // Invalid records since the last valid one: reported with the next valid record if new.
    let run: unknown[] | undefined;
    let runErrors: InvalidRecord[] | undefined;

    // Every record the cursor passed (delivered, or reported for its fields).
    const passed = this.passed;
    passed.length = 0;

    for (let i = 0; i < page.length; i++) {
      const record = page[i];
      const key = this.keyOf(record);
      if (typeof key !== "string") {
        (run ??= []).push(record);
        (runErrors ??= []).push(key);
        continue;
      }
      if (key < prev) {
        const rts = this.rtsOfKey(key);
        throw new ContractError(
          `signals[${i}].row_key`,
          key < sinceKey ? `RTS ${rts} is before the requested since ${since}` : `RTS ${rts} goes backwards (after ${this.rtsOfKey(prev)})`,
        );
      }
      prev = key;
      if (key === sinceKey) sawSince = true;
      if (endKey !== undefined && key >= endKey) {
        stop = STOP_END;
        break;
      }
      if (nothingSettled || (horizonKey !== undefined && key > horizonKey)) {
        stop = STOP_HORIZON;
        break;
      }
      let isNew: boolean;
      // Keys ascend, so once past the old boundary every later record is new.
      if (pastOld || key > oldKey) isNew = pastOld = true;
      else if (key < oldKey) isNew = false;
      else {
        const id = recordIdentity(record as RawSignal);
        const seen = (pageSeen.get(id) ?? 0) + 1;
        pageSeen.set(id, seen);
        isNew = seen > (delivered.get(id) ?? 0);
        if (isNew) delivered.set(id, seen);
      }
      if (run !== undefined && run.length > 0) {
        if (isNew && this.ownsRun()) this.report(run, runErrors!, rejected, records.length, false);
        run.length = 0;
        runErrors!.length = 0;
      }
      if (!isNew) continue;
      this.passedAny = true;
      if (this.reportedTrailing.size > 0) this.reportedTrailing.clear();
      passed.push(record);
      lastKey = key;
      // A field missing or mistyped: the record has its place in the order (the cursor passes
      // it, so any number of them cannot stall a page) but is reported, not delivered.
      const wrong = fieldsInvalid(record as object);
      if (wrong !== undefined) {
        rejected.push({ before: records.length, invalid: wrong, placed: true });
        continue;
      }
      const ts = (record as RawSignal | { ts: string }).ts;
      // A quoted 64-bit ts (the decoder's rule read it) is delivered as the number the contract types.
      records.push(typeof ts === "string" ? { ...(record as RawSignal), ts: tsNumber(ts) } : (record as RawSignal));
    }

    const pendingInvalid = run?.length ?? 0;
    if (pendingInvalid === 0 || !this.ownsRun()) {
      // Nothing to report, or the range before this one's.
    } else if (stop === STOP_NONE && !full) {
      // Invalid records at the very end of the data: nothing valid follows them (yet).
      this.report(run!, runErrors!, rejected, records.length, true);
    } else if (stop === STOP_END && this.config.seamEnd) {
      // Invalid records between this range's last record and the next range's first: some may
      // lie on either side of the seam (their RTS is unusable), and the next range sees only
      // those past its own start. So this range reports them all, and the next one none.
      this.report(run!, runErrors!, rejected, records.length, false);
    }

    if (lastKey !== oldKey) {
      // The boundary moved: remember the identities of the new last tie group, every record the
      // cursor passed there (those reported for a field too, so the next page drops them).
      delivered.clear();
      for (let j = passed.length - 1; j >= 0; j--) {
        const record = passed[j]!;
        if (this.keyOf(record) !== lastKey) break;
        const id = recordIdentity(record as RawSignal);
        delivered.set(id, (delivered.get(id) ?? 0) + 1);
      }
      this.rts = this.rtsOfKey(lastKey);
    }
    return { records, rejected, passed: passed.length, stop, sawSince, pendingInvalid, pageMaxTime };
  }

  /**
   * Whether invalid records seen now are this range's to report: not before its first record
   * when it starts at another range's end, since that range reports every invalid record up to
   * the first valid one at or after the seam (its RTS cannot say which side it lies on) — even
   * when this range holds no valid record at all and that one lies beyond it.
   */
  private ownsRun(): boolean {
    return !(this.config.seamStart === true && !this.passedAny);
  }

  /**
   * Adds a run of records with unusable row_keys to `rejected`, placed before record `before`,
   * skipping those already reported as the trailing run of a caught-up page (counted, so
   * identical records are told apart by multiplicity).
   */
  private report(run: readonly unknown[], errors: readonly InvalidRecord[], rejected: RejectedRecord[], before: number, trailing: boolean): void {
    const already = this.reportedTrailing;
    let seen: IdentityCounts | undefined;
    for (let k = 0; k < run.length; k++) {
      const record = run[k];
      if (already.size > 0 || trailing) {
        const id = invalidIdentity(record);
        seen ??= new Map();
        const n = (seen.get(id) ?? 0) + 1;
        seen.set(id, n);
        if (n <= (already.get(id) ?? 0)) continue;
        if (trailing) already.set(id, n);
      }
      rejected.push({ before, invalid: errors[k]!, placed: false });
    }
  }
}

function invalidIdentity(record: unknown): string {
  if (typeof record === "object" && record !== null) return recordIdentity(record as RawSignal);
  return `!${JSON.stringify(record) ?? String(record)}`;
}
