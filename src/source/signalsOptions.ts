import { asyncScheduler, type SchedulerLike } from "rxjs";
import { millisRts, type RtsCodec } from "../codec/rts.ts";
import { canonicalRts } from "../codec/rtsSpelling.ts";
import type { InvalidRecord } from "../codec/decodeSignal.ts";
import { SIGNALS_LIMIT_MAX } from "../contract/paths.ts";
import type { CursorStore } from "./CursorStore.ts";
import type { SignalProgress } from "./SignalPage.ts";

/**
 * A point in time as the source accepts it: a `Date`, epoch milliseconds, or an RTS string
 * (taken as is; the others are converted with the `rtsCodec` option).
 *
 * @example
 * const since: SignalTime = new Date("2026-11-20T00:00:00+09:00");
 */
export type SignalTime = Date | number | string;

/**
 * Options of {@link signals}, {@link signalPages} and {@link signalPagesObservable}.
 *
 * @example
 * const options: SignalsOptions = {
 *   shopId: 101, since: new Date("2026-11-20T00:00:00Z"), until: new Date("2026-11-21T00:00:00Z"),
 *   limit: 200, slices: 2, checkpoint: fileCursorStore("cp.json"),
 * };
 */
export interface SignalsOptions {
  /** SHOP ID whose signals are read (a non-negative safe integer). */
  readonly shopId: number;
  /**
   * First time wanted, inclusive: records with RTS ≥ since. A `Date` or epoch ms is converted
   * with `rtsCodec`; a string must be an RTS. Required for `"backfill"`; a tail without it
   * resumes from its checkpoint, or starts at the scheduler's "now" (subscription time).
   */
  readonly since?: SignalTime;
  /** End, exclusive: records with RTS ≥ until are not delivered and end the stream. */
  readonly until?: SignalTime;
  /** Records per request, 1…200. @default 200 */
  readonly limit?: number;
  /**
   * `"backfill"` completes at `until` or once caught up (a short page that brought nothing new),
   * whichever comes first;
   * `"tail"` keeps polling every `pollIntervalMs` once caught up, until `until` or unsubscribe.
   * @default "backfill"
   */
  readonly mode?: "backfill" | "tail";
  /** Tail: wait between polls once caught up, ms (through `scheduler`). @default 5000 */
  readonly pollIntervalMs?: number;
  /**
   * Tail: how far behind the newest data the stream stays, ms of RTS time. A record is
   * delivered (and the cursor passes it) only once it is at least this much older than the
   * newest data the service has shown, counting the scheduler time elapsed since — so records
   * that reach the service up to `settleMs` late are not missed. 0 turns it off.
   * @default 0
   */
  readonly settleMs?: number;
  /**
   * Backfill only, needs `until`: number of concurrent workers. [since, until) is cut into
   * `slices × rangesPerSlice` equal time ranges taken in time order; each stops at its end;
   * output is identical to `slices: 1`.
   * @default 1
   */
  readonly slices?: number;
  /** With `slices` > 1: time ranges per worker (finer ranges keep buffers small). @default 16 */
  readonly rangesPerSlice?: number;
  /**
   * With `slices` > 1: most pages a range ahead of the one being delivered may hold; when
   * full, its worker waits. Memory ≤ (slices − 1) × this × limit records.
   * @default 64
   */
  readonly sliceBufferPages?: number;
  /**
   * Where to load and save the cursor. Loaded on subscription: a saved cursor at or after
   * `since` takes its place, and without `since` (a tail) any saved cursor does, so a restarted
   * tail picks up where it stopped. Saved after each page is delivered, before the next page is.
   */
  readonly checkpoint?: CursorStore;
  /** Key of this stream in `checkpoint`. @default `shop:${shopId}` */
  readonly checkpointKey?: string;
  /** Converts `since`/`until` and progress times between epoch ms and RTS. @default millisRts */
  readonly rtsCodec?: RtsCodec;
  /** Aborting it stops the source: the request in flight is aborted, the stream errors with the reason. */
  readonly signal?: AbortSignal;
  /** Clock and timer of every wait (use a VirtualTimeScheduler in tests). @default asyncScheduler */
  readonly scheduler?: SchedulerLike;
  /** Called after each delivered page. */
  readonly onProgress?: (progress: SignalProgress) => void;
  /**
   * Called once per record the service sent that the source cannot deliver — its `row_key`
   * unusable (not an object, missing, malformed, another shop's) or a field missing or of
   * another type — with the decoder's {@link InvalidRecord} (typed reason, message, the record):
   * the same channel and reasons as `SignalDecoder`'s `onInvalid`, so one handler serves both.
   * Called in the record's place among the records delivered, so a checkpoint never repeats one.
   */
  readonly onInvalid?: (invalid: InvalidRecord) => void;
}

/**
 * Defaults of {@link SignalsOptions}.
 *
 * @example
 * defaultSignalsOptions.limit; // 200
 */
export const defaultSignalsOptions = {
  limit: SIGNALS_LIMIT_MAX,
  mode: "backfill",
  pollIntervalMs: 5_000,
  settleMs: 0,
  slices: 1,
  rangesPerSlice: 16,
  sliceBufferPages: 64,
  rtsCodec: millisRts,
  scheduler: asyncScheduler,
} as const satisfies Partial<SignalsOptions>;

/**
 * Options after validation and defaults; RTS bounds computed. Internal.
 *
 * @example
 * const o: ResolvedSignalsOptions = resolveSignalsOptions({ shopId: 101, since: 0 });
 */
export interface ResolvedSignalsOptions {
  readonly shopId: number;
  /** `undefined` = tail from "now" (resolved at subscription). */
  readonly sinceRts: string | undefined;
  readonly untilRts: string | undefined;
  readonly limit: number;
  readonly mode: "backfill" | "tail";
  readonly pollIntervalMs: number;
  readonly settleMs: number;
  readonly slices: number;
  readonly rangesPerSlice: number;
  readonly sliceBufferPages: number;
  readonly checkpoint: CursorStore | undefined;
  readonly checkpointKey: string;
  readonly codec: RtsCodec;
  readonly signal: AbortSignal | undefined;
  readonly scheduler: SchedulerLike;
  readonly onProgress: ((progress: SignalProgress) => void) | undefined;
  readonly onInvalid: ((invalid: InvalidRecord) => void) | undefined;
}

/**
 * Validates `options` eagerly (TypeError / RangeError naming the option) and fills defaults.
 *
 * @example
 * resolveSignalsOptions({ shopId: 1, since: 0 }).limit; // 200
 */
export function resolveSignalsOptions(options: SignalsOptions): ResolvedSignalsOptions {
  if (typeof options !== "object" || options === null) throw new TypeError("signals: options must be an object");
  const { shopId } = options;
  if (typeof shopId !== "number" || !Number.isSafeInteger(shopId) || shopId < 0) {
    throw new TypeError(`signals: shopId must be a non-negative integer, got ${String(shopId)}`);
  }
  const codec = options.rtsCodec ?? defaultSignalsOptions.rtsCodec;
  if (typeof codec?.encode !== "function" || typeof codec.decode !== "function") {
    throw new TypeError("signals: rtsCodec must have encode and decode");
  }
  const mode = options.mode ?? defaultSignalsOptions.mode;
  if (mode !== "backfill" && mode !== "tail") throw new TypeError(`signals: mode must be "backfill" or "tail"`);
  const limit = options.limit ?? defaultSignalsOptions.limit;
  if (!Number.isInteger(limit) || limit < 1 || limit > SIGNALS_LIMIT_MAX) {
    throw new RangeError(`signals: limit must be an integer 1…${SIGNALS_LIMIT_MAX}, got ${String(limit)}`);
  }
  const pollIntervalMs = nonNegative("pollIntervalMs", options.pollIntervalMs ?? defaultSignalsOptions.pollIntervalMs);
  const settleMs = nonNegative("settleMs", options.settleMs ?? defaultSignalsOptions.settleMs);
  const slices = positiveInteger("slices", options.slices ?? defaultSignalsOptions.slices);
  const rangesPerSlice = positiveInteger("rangesPerSlice", options.rangesPerSlice ?? defaultSignalsOptions.rangesPerSlice);
  const sliceBufferPages = positiveInteger(
    "sliceBufferPages",
    options.sliceBufferPages ?? defaultSignalsOptions.sliceBufferPages,
  );
  const sinceRts = options.since === undefined ? undefined : toRts("since", options.since, codec);
  const untilRts = options.until === undefined ? undefined : toRts("until", options.until, codec);
  if (sinceRts === undefined && mode === "backfill") throw new TypeError("signals: since is required for a backfill");
  if (slices > 1 && (mode !== "backfill" || untilRts === undefined)) {
    throw new RangeError("signals: slices > 1 needs a backfill with until");
  }
  const checkpoint = options.checkpoint;
  if (checkpoint !== undefined && (typeof checkpoint.load !== "function" || typeof checkpoint.save !== "function")) {
    throw new TypeError("signals: checkpoint must be a CursorStore (load and save)");
  }
  const checkpointKey = options.checkpointKey ?? `shop:${shopId}`;
  if (typeof checkpointKey !== "string" || checkpointKey === "") throw new TypeError("signals: checkpointKey must be a non-empty string");
  const signal = options.signal;
  // Duck-typed: an AbortSignal from another realm (a test DOM, Deno) is just as good.
  if (signal !== undefined && (typeof signal.aborted !== "boolean" || typeof signal.addEventListener !== "function")) {
    throw new TypeError("signals: signal must be an AbortSignal");
  }
  const scheduler = options.scheduler ?? defaultSignalsOptions.scheduler;
  if (typeof scheduler?.schedule !== "function" || typeof scheduler.now !== "function") {
    throw new TypeError("signals: scheduler must be an RxJS SchedulerLike");
  }
  for (const name of ["onProgress", "onInvalid"] as const) {
    if (options[name] !== undefined && typeof options[name] !== "function") throw new TypeError(`signals: ${name} must be a function`);
  }
  return {
    shopId,
    sinceRts,
    untilRts,
    limit,
    mode,
    pollIntervalMs,
    settleMs,
    slices,
    rangesPerSlice,
    sliceBufferPages,
    checkpoint,
    checkpointKey,
    codec,
    signal,
    scheduler,
    onProgress: options.onProgress,
    onInvalid: options.onInvalid,
  };
}

/**
 * Converts a {@link SignalTime} to an RTS (footfall's spelling) with `codec`. Strings must
 * already be RTS (`canonicalRts`: 16 hex digits of either case, or fewer without leading zeros).
 *
 * @example
 * toRts("since", 255, millisRts);                // "00000000000000ff"
 * toRts("since", "00000000000000FF", millisRts); // "00000000000000ff"
 */
export function toRts(name: string, value: SignalTime, codec: RtsCodec): string {
  if (typeof value === "string") {
    const rts = canonicalRts(value);
    if (rts === undefined) throw new TypeError(`signals: ${name} string must be an RTS (hex digits); pass a Date for a datetime`);
    return rts;
  }
  const ms = value instanceof Date ? value.getTime() : value;
  if (typeof ms !== "number" || !Number.isFinite(ms) || ms < 0) {
    throw new RangeError(`signals: ${name} must be a valid time at or after 1970, got ${String(value)}`);
  }
  return codec.encode(ms);
}

function nonNegative(name: string, value: unknown): number {
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0) {
    throw new RangeError(`signals: ${name} must be a finite number ≥ 0, got ${String(value)}`);
  }
  return value;
}

function positiveInteger(name: string, value: unknown): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < 1 || value > 1024) {
    throw new RangeError(`signals: ${name} must be an integer 1…1024, got ${String(value)}`);
  }
  return value;
}
