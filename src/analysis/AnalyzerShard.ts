import type { Signal } from "../codec/Signal.ts";
import { DataQuality, type DataQualityPart } from "../kernels/quality/dataQuality.ts";
import { EventTimeEngine, type EngineAccumulator, type EventTimeEngineStats } from "../kernels/sessions/EventTimeEngine.ts";
import type { ShardSessions } from "../kernels/sessions/mergeShardSessions.ts";
import { SessionColumns, type HeldSession, type HeldSessionsMessage } from "../kernels/sessions/SessionColumns.ts";
import { deviceShare } from "../kernels/sessions/deviceShare.ts";
import type { AnalyzeOptions } from "./analyze.ts";

// For the file readers, whose area may import analysis but not the kernels.
export type { ShardSessions };

/**
 * The options a share of a device split runs with: the engine's and the data-quality report's
 * (plain data: they cross to a thread).
 *
 * @example
 * const options: AnalyzerShardOptions = { sessions: { gapMs: 300_000 }, quality: {} };
 */
export type AnalyzerShardOptions = Pick<AnalyzeOptions, "sessions" | "proximity" | "quality">;

/**
 * {@link ShardSessions} as plain data, to post from a thread (`AnalyzerShard.toMessage`).
 *
 * @example
 * const message: ShardSessionsMessage = AnalyzerShard.toMessage({ held: [], seq: [], opens: [] });
 */
export interface ShardSessionsMessage {
  readonly sessions: HeldSessionsMessage;
  readonly seq: Float64Array;
  readonly opens: Float64Array;
}

/**
 * One share of an analysis split by device: an `EventTimeEngine` that is pushed every record of
 * the input, in input order, and builds the sessions of its share of the devices only (the others'
 * times still move its watermark, so every share closes each session at the same record, with the
 * same watermark, as one engine over all would). What it closes is
 * taken run by run ({@link endRun}) and put back into one engine's order by
 * `mergeShardSessions`, on the thread that classifies (see `Analyzer.splitByDevice`). Signals'
 * data quality is counted here too: the share given the analyzer's `DataQuality` counts every
 * signal's time and its own devices, the others their devices (`DataQuality.absorb` joins them).
 *
 * @example
 * const records = [...world.rawSignals(101)].slice(0, 20_000).map((r) => decodeSignal(r)!);
 * const shares = [0, 1].map((i) => new AnalyzerShard({ quality: false }, i, 2));
 * for (const s of records) for (const share of shares) share.push(s);
 * const closed = shares.map((share) => share.flush());
 * closed.every((c, i) => c.held.every((h) => deviceShare(h.device, 2) === i)); // true
 */
export class AnalyzerShard {
  readonly #engine: EventTimeEngine;
  /** This share's data quality: the analyzer's own (times of every signal too), or one of its own devices'. */
  readonly quality: DataQuality | undefined;
  #columns = new SessionColumns();
  #held: HeldSession[] = [];
  #seq: number[] = [];
  #pushes = 0;
  #flushing = false;
  /** Shops in the order of their first record: the order a flush closes them in. */
  readonly #shops = new Map<number, number>();
  #lastShop = Number.NaN;
  readonly #owned = new Map<string, boolean>();
  /** Which share of the devices this is, from 0. */
  readonly share: number;
  /** How many shares there are. */
  readonly shares: number;

  /**
   * @param options the engine's and data quality's (see {@link AnalyzerShardOptions})
   * @param share which share of the devices this is, from 0
   * @param shares how many shares there are
   * @param quality the analyzer's own `DataQuality`, for the share that counts every signal's time (share 0)
   */
  constructor(options: AnalyzerShardOptions, share: number, shares: number, quality?: DataQuality) {
    if (!(Number.isSafeInteger(shares) && shares >= 1 && Number.isSafeInteger(share) && share >= 0 && share < shares)) {
      throw new RangeError(`AnalyzerShard: share ${String(share)} of ${String(shares)}`);
    }
    this.share = share;
    this.shares = shares;
    const accumulators: EngineAccumulator[] = [];
    let tick: ((shopId: number, sensor: string, time: number) => void) | undefined;
    if (quality !== undefined) {
      this.quality = quality;
      accumulators.push({ signal: (s) => quality.signal(s) });
      tick = (shopId, sensor, time) => quality.signalTime(shopId, sensor, time);
    } else if (options.quality !== false) {
      const own = (this.quality = new DataQuality(options.quality ?? {}));
      // Its sessions go to the analyzer (`pushShares`), whose data quality counts their devices.
      own.countBySession({ signals: false });
      accumulators.push({ signal: (s) => own.signalDevice(s) });
    }
    const withProximity = options.proximity !== false;
    this.#engine = new EventTimeEngine(
      { ...options.sessions, proximity: options.proximity ?? {} },
      {
        emit: () => {
          throw new Error("AnalyzerShard: sessions are taken closed");
        },
        closed: (open, shopId, watermark, complete) => {
          this.#held.push(this.#columns.add(open, shopId, watermark, complete, withProximity));
          this.#seq.push(this.#flushing ? this.#pushes + 1 + this.#shops.get(shopId)! : this.#pushes);
        },
      },
      accumulators,
      tick === undefined ? {} : { tick },
    );
  }

  /** Whether this share builds `device`'s sessions. */
  owns(device: string): boolean {
    let mine = this.#owned.get(device);
    if (mine === undefined) this.#owned.set(device, (mine = deviceShare(device, this.shares) === this.share));
    return mine;
  }

  /** Feeds the next record of the input (every share is fed every one, in the same order). */
  push(signal: Signal): void {
    if (this.owns(signal.device)) this.pushOwn(signal);
    else this.pushTick(signal.shopId, signal.sensor, signal.time);
  }

  /** Feeds the next record, of a device this share owns (see {@link owns}). */
  pushOwn(signal: Signal): void {
    this.#count(signal.shopId);
    this.#engine.push(signal);
  }

  /** Feeds the next record, of a device another share owns: its shop, sensor and time are all this share needs of it. */
  pushTick(shopId: number, sensor: string, time: number): void {
    this.#count(shopId);
    this.#engine.pushTick(shopId, sensor, time);
  }

  #count(shopId: number): void {
    this.#pushes++;
    if (shopId !== this.#lastShop) {
      this.#lastShop = shopId;
      if (!this.#shops.has(shopId)) this.#shops.set(shopId, this.#shops.size);
    }
  }

  /** The sessions closed since the last run ended, and the shops' oldest open starts now. */
  endRun(): ShardSessions {
    const opens: number[] = [];
    this.#engine.openStarts((shopId, start) => opens.push(shopId, start));
    const run: ShardSessions = { held: this.#held, seq: this.#seq, opens };
    // The rows stay where they are, read by the held sessions; the next run's go to a new store.
    this.#columns = new SessionColumns();
    this.#held = [];
    this.#seq = [];
    return run;
  }

  /** Closes every session (the input has ended) and returns the last run. */
  flush(): ShardSessions {
    this.#flushing = true;
    this.#engine.flush();
    return this.endRun();
  }

  /** The engine's counters: late and leaping signals of this share's devices. */
  get stats(): EventTimeEngineStats {
    return this.#engine.stats;
  }

  /** What this share's data quality counted, for the analyzer's `DataQuality.absorb` (undefined when off). */
  get qualityPart(): DataQualityPart | undefined {
    return this.quality?.part;
  }

  /** A run as plain data, to post from a thread. */
  static toMessage(run: ShardSessions): ShardSessionsMessage {
    return { sessions: SessionColumns.toMessage(run.held), seq: Float64Array.from(run.seq), opens: Float64Array.from(run.opens) };
  }

  /** A posted run, its sessions held again. */
  static fromMessage(message: ShardSessionsMessage): ShardSessions {
    return { held: SessionColumns.fromMessage(message.sessions), seq: message.seq, opens: message.opens };
  }
}
