import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from "node:worker_threads";
import type { Analyzer, ShareTotals } from "../analysis/analyze.ts";
import { AnalyzerShard, type ShardSessions } from "../analysis/AnalyzerShard.ts";
import type { Signal } from "../codec/Signal.ts";
import { batchBuffers, SignalBatchWriter, type SignalBatch, type SignalBatchReader } from "./SignalBatch.ts";
import type { FromShareMessage, ShareWorkerData, ToShareMessage } from "./shareWorker.ts";
import { workerUrl } from "./workerUrl.ts";

/**
 * Records per run where the input has no ranges of its own (a fleet worker's pages): each run's
 * sessions are merged once every share has posted them, so a run bounds how far the merge lags.
 *
 * @example
 * SHARE_RUN_SIGNALS; // 32768
 */
export const SHARE_RUN_SIGNALS = 32_768;

/**
 * Where records decoded one at a time go (a service's pages, for `analyze --shop` and a fleet
 * worker's shop-day): the analyzer itself, or, split by device, its {@link ShareThreads}.
 *
 * @example
 * const analyzer = new Analyzer({ timeZone: "Asia/Seoul" });
 * const feed = signalFeed(analyzer, 2);
 * try {
 *   for (const record of records) {
 *     const s = analyzer.decoder.decode(record);
 *     if (s !== undefined) feed.push(s);
 *   }
 *   await feed.finish();
 * } finally {
 *   await feed.close();
 * }
 * analyzer.finish().sessions.length > 0; // true
 */
export interface SignalFeed {
  /** Feeds the next decoded record. */
  push(signal: Signal): void;
  /** The input has ended: resolves once every share's sessions are in the analyzer (at once when not split). */
  finish(): Promise<void>;
  /** Stops the share threads, if any (always call it, also after a failure). */
  close(): Promise<void>;
}

/**
 * A {@link SignalFeed} for `analyzer` (no record pushed yet): split by device over `shares`
 * threads, runs of {@link SHARE_RUN_SIGNALS} records, when `shares` is above 1 and the analyzer's
 * options can be split (`Analyzer.shareOptions`: not with live occupancy, `onLate`, `onSlice` or
 * accumulators of its own); else straight into the analyzer.
 *
 * @param analyzer the analysis; its decoder gives the share threads' sessions their vendors
 * @param shares 1 or more
 * @example
 * const analyzer = new Analyzer();
 * const feed = signalFeed(analyzer, 1); // no thread: push is analyzer.pushSignal
 */
export function signalFeed(analyzer: Analyzer, shares: number): SignalFeed {
  if (!Number.isInteger(shares) || shares < 1) throw new RangeError(`signalFeed: shares must be a positive integer, got ${shares}`);
  if (shares === 1 || analyzer.shareOptions === undefined) {
    return { push: (s) => analyzer.pushSignal(s), finish: () => Promise.resolve(), close: () => Promise.resolve() };
  }
  const decoder = analyzer.decoder;
  const split = new ShareThreads(analyzer, shares, (device) => decoder.vendorOfDevice(device));
  let inRun = 0;
  return {
    push: (s) => {
      split.push(s);
      if (++inRun === SHARE_RUN_SIGNALS) {
        inRun = 0;
        split.endRun();
      }
    },
    finish: () => split.finish(),
    close: () => split.close(),
  };
}

/**
 * What a {@link ShareThreads} tells the thread that feeds it.
 *
 * @example
 * const events: ShareThreadsEvents = { merged: () => {}, fail: (error) => console.error(error) };
 */
export interface ShareThreadsEvents {
  /** More runs have been merged into the analyzer ({@link ShareThreads.merged} rose). */
  merged(): void;
  /** A share thread failed or ended before the input did; nothing more will be merged. */
  fail(error: unknown): void;
}

/**
 * The threads of an analysis split by device (`Analyzer.splitByDevice`), fed from the thread that
 * runs the analyzer: share 0 runs there, each other share on a thread of its own, and every share
 * is given every record in the same order, cut into the same runs. After each run every share
 * posts the sessions it closed, and the runs are merged into the analyzer in run order
 * (`Analyzer.pushShares`): the results are those of one engine, byte for byte.
 *
 * One implementation for every input: `readInputInThreads` ends a run at each range of a file or
 * a stream, and a {@link signalFeed} (the service's pages: `analyze --shop`, a fleet worker's
 * shop-day) every {@link SHARE_RUN_SIGNALS} records. A share thread loads no OUI list: the
 * sessions it builds get their vendors here (`vendorOfDevice`, the feeding thread's decoder's).
 *
 * Internal.
 *
 * @example
 * const analyzer = new Analyzer({ timeZone: "Asia/Seoul" });
 * const split = new ShareThreads(analyzer, 2, (device) => analyzer.decoder.vendorOfDevice(device));
 * for (const record of records) {
 *   const s = analyzer.decoder.decode(record);
 *   if (s !== undefined) split.push(s);
 * }
 * await split.finish();
 * await split.close();
 * analyzer.finish().sessions.length > 0; // true
 */
export class ShareThreads {
  /** Shares in all (this thread's share 0 and the threads' shares 1 …). */
  readonly #shares: number;
  readonly #analyzer: Analyzer;
  readonly #share0: AnalyzerShard;
  /** How share 0 reads another thread's batch: its own devices' records as signals, the others' as times. */
  readonly #owns: (device: string) => boolean;
  readonly #own0: (signal: Signal) => void;
  readonly #tick0: (shopId: number, sensor: string, time: number) => void;
  readonly #threads: readonly { readonly worker: Worker; readonly port: MessagePort }[];
  readonly #vendorOfDevice: (device: string) => string | null | undefined;
  /**
   * This thread's own signals, in batches for the share threads (source 0; a decode thread's are
   * its own), without their RTS: a split analysis hands no signal out (`Analyzer.shareOptions`).
   */
  readonly #own = new SignalBatchWriter({ rts: false });
  /** Each run's sessions of every share (share 0's first), until merged in run order. */
  readonly #runs: (ShardSessions | undefined)[][] = [];
  #merged = 0;
  #ended = 0;
  /** After {@link finish}: each share's last run (its flush) and the other shares' counters. */
  #last: (ShardSessions | undefined)[] | undefined;
  readonly #totals: ShareTotals[] = [];
  #settle: { resolve: () => void; reject: (error: unknown) => void } | undefined;
  #failure: { readonly error: unknown } | undefined;
  /** Finished, or closed: a thread's end is then no failure. */
  #over = false;
  #events: ShareThreadsEvents = { merged: () => {}, fail: () => {} };

  /**
   * Splits `analyzer` (before any record is pushed to it) and starts `shares − 1` share threads.
   *
   * @param analyzer an analyzer whose options can be split (`Analyzer.shareOptions`), with no record yet
   * @param shares 2 or more
   * @param vendorOfDevice a device's vendor as this thread's decoder gives it (`SignalDecoder.vendorOfDevice`)
   */
  constructor(analyzer: Analyzer, shares: number, vendorOfDevice: (device: string) => string | null | undefined) {
    if (!Number.isInteger(shares) || shares < 2) throw new RangeError(`ShareThreads: shares must be an integer ≥ 2, got ${shares}`);
    const options = analyzer.shareOptions;
    if (options === undefined) throw new Error("ShareThreads: these analyze options cannot be split by device (see Analyzer.shareOptions)");
    this.#shares = shares;
    this.#analyzer = analyzer;
    this.#vendorOfDevice = vendorOfDevice;
    const share0 = (this.#share0 = analyzer.splitByDevice(shares));
    this.#owns = (device) => share0.owns(device);
    this.#own0 = (s) => share0.pushOwn(s);
    this.#tick0 = (shopId, sensor, time) => share0.pushTick(shopId, sensor, time);
    this.#threads = Array.from({ length: shares - 1 }, (_, i) => {
      const { port1: port, port2 } = new MessageChannel();
      const worker = new Worker(workerUrl("shareWorker"), {
        workerData: { shareWorker: true, share: i + 1, shares, options, port: port2 } satisfies ShareWorkerData,
        transferList: [port2],
      });
      port.on("message", (message: FromShareMessage) => this.#guard(() => this.#receive(i, message)));
      worker.once("error", (error) => this.#fail(error));
      worker.once("exit", (code) => {
        // What the thread posted before it ended, then nothing more.
        this.#guard(() => {
          for (let got = receiveMessageOnPort(port); got !== undefined; got = receiveMessageOnPort(port)) this.#receive(i, got.message as FromShareMessage);
        });
        if (this.#last?.[i + 1] === undefined) this.#fail(new Error(`share thread exited with code ${code} before the input was read`));
      });
      return { worker, port };
    });
  }

  /** Where progress and failures go (a failure before this call is told at once). */
  listen(events: ShareThreadsEvents): void {
    this.#events = events;
    if (this.#failure !== undefined) events.fail(this.#failure.error);
  }

  /** Runs merged into the analyzer so far (runs are numbered from 0 as {@link endRun} ends them). */
  get merged(): number {
    return this.#merged;
  }

  /** Feeds the next record, decoded on this thread. */
  push(signal: Signal): void {
    this.#share0.push(signal);
    if (this.#own.add(signal)) this.#forwardOwn();
  }

  /**
   * Feeds the next records, a batch another thread decoded (`source`: which, from 1; each has
   * its string tables, read here by `reader`), then hands it on to the share threads as it came
   * (its columns are moved to the last of them).
   */
  pushBatch(source: number, reader: SignalBatchReader, batch: SignalBatch): void {
    reader.readShare(batch, this.#owns, this.#own0, this.#tick0);
    this.#forward(source, batch, batchBuffers(batch));
  }

  /** Ends the current run: every share posts the sessions it closed since the last one. */
  endRun(): void {
    this.#forwardOwn();
    const run = this.#ended++;
    for (const { port } of this.#threads) port.postMessage({ type: "end", range: run } satisfies ToShareMessage);
    (this.#runs[run] ??= [])[0] = this.#share0.endRun();
    this.#merge();
  }

  /**
   * The input has ended: every share closes its last sessions. Resolves once every run and the
   * last ones are merged, with the other shares' counters (then `analyzer.finish()` gives the
   * results); rejects if a share thread failed.
   */
  finish(): Promise<void> {
    if (this.#last !== undefined) throw new Error("ShareThreads: finish once");
    this.#forwardOwn();
    for (const { port } of this.#threads) port.postMessage({ type: "finish" } satisfies ToShareMessage);
    this.#last = [this.#share0.flush()];
    return new Promise<void>((resolve, reject) => {
      if (this.#failure !== undefined) return reject(this.#failure.error);
      this.#settle = { resolve, reject };
      this.#tryFinish();
    });
  }

  /** Stops the share threads (after {@link finish}, or to give up). */
  async close(): Promise<void> {
    this.#over = true;
    await Promise.all(this.#threads.map(({ worker }) => worker.terminate()));
  }

  #forwardOwn(): void {
    if (this.#own.count === 0) return;
    const { batch, transfer } = this.#own.take();
    this.#forward(0, batch, transfer);
  }

  #forward(source: number, batch: SignalBatch, transfer: ArrayBuffer[]): void {
    const threads = this.#threads;
    threads.forEach(({ port }, i) => port.postMessage({ type: "batch", source, batch } satisfies ToShareMessage, i === threads.length - 1 ? transfer : []));
  }

  #receive(i: number, message: FromShareMessage): void {
    // A share thread has no OUI list: its sessions get their vendors here.
    const run = AnalyzerShard.fromMessage(message.run);
    for (const held of run.held) held.chunk.strings[held.firstString] = this.#vendorOfDevice(held.device) ?? undefined;
    if (message.type === "sessions") {
      (this.#runs[message.range] ??= [])[i + 1] = run;
      const before = this.#merged;
      this.#merge();
      if (this.#merged > before) this.#events.merged();
    } else {
      this.#last![i + 1] = run;
      this.#totals[i] = { late: message.late, maxLateMs: message.maxLateMs, ahead: message.ahead, quality: message.quality };
    }
    this.#tryFinish();
  }

  #merge(): void {
    const shares = this.#shares;
    for (let run = this.#runs[this.#merged]; run !== undefined && run.length === shares && !run.includes(undefined); run = this.#runs[this.#merged]) {
      this.#analyzer.pushShares(run as ShardSessions[]);
      this.#runs[this.#merged++] = [];
    }
  }

  #tryFinish(): void {
    const last = this.#last;
    const settle = this.#settle;
    if (settle === undefined || last === undefined || this.#merged < this.#ended) return;
    for (let i = 0; i < this.#shares; i++) if (last[i] === undefined) return;
    this.#settle = undefined;
    this.#over = true;
    this.#analyzer.pushShares(last as ShardSessions[], this.#totals);
    settle.resolve();
  }

  #guard(work: () => void): void {
    try {
      work();
    } catch (error) {
      this.#fail(error);
    }
  }

  #fail(error: unknown): void {
    if (this.#over || this.#failure !== undefined) return;
    this.#failure = { error };
    const settle = this.#settle;
    this.#settle = undefined;
    settle?.reject(error);
    this.#events.fail(error);
  }
}
