import { open } from "node:fs/promises";
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from "node:worker_threads";
import { addDecoderStats, type Analyzer } from "../analysis/analyze.ts";
import type { InvalidRecord, SignalDecoderStats } from "../codec/decodeSignal.ts";
import { vendorOfNormal } from "../codec/oui.ts";
import { RangeReader, type ByteRange, type ThreadDecoderOptions } from "./RangeReader.ts";
import { SignalBatchReader, type SignalBatch } from "./SignalBatch.ts";
import type { Signal } from "../codec/Signal.ts";
import { ShareThreads } from "./ShareThreads.ts";
import { SessionLineThreads, type LineDevice, type RenderedMessage, type SessionLinesRequest } from "./SessionLineThreads.ts";
import { workerUrl } from "./workerUrl.ts";
import { gunzipIfCompressed } from "./gunzipIfCompressed.ts";

/** What a decode thread is started with. */
export interface DecodeWorkerData {
  /** Marks the worker's data, so importing decodeWorker.ts elsewhere does nothing. */
  readonly decodeWorker: true;
  /** The file; undefined for a stream, whose pieces the engine's thread posts as it cuts them ({@link PieceMessage}). */
  readonly path: string | undefined;
  /**
   * The file's byte ranges, in file order: each from the first byte of a line to (exclusive) the
   * byte after a LF, or to the end of the file.
   */
  readonly ranges: readonly ByteRange[];
  /** The thread's first range (each decode thread is given one, so each starts at once). */
  readonly first: number;
  /**
   * Int32s: [0] the next range nobody has claimed (`Atomics.add` claims it); for a stream also
   * [1] the pieces cut so far and [2] 1 once the stream has ended (no piece will follow).
   */
  readonly next: SharedArrayBuffer;
  /** One Int32: batches posted and not yet applied (the read-ahead bound). */
  readonly credit: SharedArrayBuffer;
  readonly maxOutstanding: number;
  /** The decoder's options that are not the defaults. */
  readonly decode: ThreadDecoderOptions;
  /** Whether the signals' RTS is sent (`Analyzer.readsRts`; `SignalBatchWriter`'s `rts`). */
  readonly rts: boolean;
  /** When set, the thread's last work: session lines, their devices written so (`SessionLineThreads`). */
  readonly lines: LineDevice | undefined;
  /**
   * Where the thread posts its messages: a channel of its own rather than the worker's port, so
   * that the engine's thread can take what has arrived synchronously (`receiveMessageOnPort`).
   */
  readonly port: MessagePort;
}

/**
 * What a decode thread posts for range number `range`: its batches, then its `end` with the
 * range's lines and the thread's counters so far.
 */
export type RangeMessage =
  | { readonly type: "batch"; readonly range: number; readonly batch: SignalBatch }
  | { readonly type: "end"; readonly range: number; readonly stats: SignalDecoderStats; readonly lines: number };

/**
 * What a decode thread posts: its ranges' messages, then, after its last range and when asked,
 * the session lines of the batches it is given.
 */
export type DecodeThreadMessage = RangeMessage | RenderedMessage;

/**
 * What the engine's thread posts every decode thread reading a stream: each piece as it is cut
 * (whole lines, in shared memory: posted to all, copied to none); a thread decodes those it
 * claims.
 *
 * @example
 * const message: PieceMessage = { type: "piece", range: 0, bytes: new Uint8Array(new SharedArrayBuffer(0)) };
 */
export type PieceMessage = { readonly type: "piece"; readonly range: number; readonly bytes: Uint8Array };

/**
 * A stream of NDJSON signal records (gzip or not) for {@link readInputInThreads}: standard input,
 * a gzip file's read stream.
 *
 * @example
 * const input: ThreadStream = { stream: process.stdin };
 */
export interface ThreadStream {
  readonly stream: AsyncIterable<Uint8Array> & { destroy?: () => unknown };
}

/**
 * Options of {@link readInputInThreads}.
 *
 * @example
 * let written: SessionLineThreads | undefined;
 * const options: ThreadReadOptions = { decode: { rtsUnit: "ms" }, sessionLines: { device: "raw", onThreads: (lines) => (written = lines) } };
 */
export interface ThreadReadOptions {
  /** The decoder's options that are not the defaults. @default {} */
  readonly decode?: ThreadDecoderOptions | undefined;
  /** Bytes per range. @default 4 MiB */
  readonly rangeBytes?: number | undefined;
  /**
   * Session lines written by the decode threads once they have no range left, beside this thread's
   * close of the day (`SessionLineThreads`): `onThreads` is given them before the first record
   * (not when the input is read without decode threads: write the lines from the result then).
   * @default undefined
   */
  readonly sessionLines?: SessionLinesRequest | undefined;
  /**
   * Shares of the devices the analysis is split into (`Analyzer.splitByDevice`): this thread
   * runs share 0's engine beside classification; each other share runs on a thread of its own,
   * fed every batch this thread applies. 1, or an analyzer whose options cannot be split
   * (`Analyzer.shareOptions`): one engine, on this thread.
   * @default 1
   */
  readonly shares?: number | undefined;
}

/** Ranges this thread applies ahead of the last one whose sessions every share has posted, at most. */
const RUNS_AHEAD = 8;

/** Batches a decode thread reads ahead of the thread that applies them, at most (each ~8 k signals). */
const MAX_OUTSTANDING = 16;

/** A stream's pieces cut and not yet applied, at most (the read waits): ~64 MiB of input. */
const PIECES_AHEAD = 16;

/**
 * Bytes per range (~14 k lines of `footfall signals` output): the unit of work the threads claim.
 * Small enough that no thread is left with much when the others run out, large enough that a
 * range costs little to start.
 */
const RANGE_BYTES = 4 * 1024 * 1024;

/**
 * Reads an NDJSON file of signal records on `threads` threads: this one, which applies the signals
 * to `analyzer` (the engine, classification, counts), and `threads − 1` decode threads. The file
 * is cut at line ends into ranges of about `rangeBytes`, which the threads claim in file order,
 * one at a time. A decode thread reads, splits, parses and decodes its range (`RangeReader`: the
 * `SignalLineReader` + `SignalDecoder` work, about two fifths of a one-thread run) and posts the
 * signals in columns. This thread applies range after range in file order; it reads range 0
 * itself (while the decode threads load), and whenever it has to wait for a decode thread it
 * claims the next free range for itself, which it reads straight into the engine when its turn
 * comes. So the work balances between decoding and the engine whatever their costs on the
 * machine and the data. The analyzer sees exactly the signals, in exactly the order, that reading
 * on one thread gives it, so the results are identical. Rejected records reach `onInvalid` with
 * their line numbers in the whole file, in input order; returns the decoders' counters (summed)
 * for `Analyzer.finish`.
 *
 * A stream (`{ stream }`: standard input, a gzip file, a named pipe) is read on this thread,
 * decompressed when it is gzip, and cut into pieces at line ends as it comes; each piece is put
 * in shared memory, posted to every decode thread and then counted as cut, and the threads claim
 * the pieces as they claim a file's ranges (a decode thread waits for the one it claimed to be
 * cut). This thread gives its read a turn after each range it applies, so pieces are cut ahead.
 *
 * Memory: each decode thread reads at most 16 batches (~130 k signals) ahead of this one; a
 * stream is read at most 16 pieces (~64 MiB) ahead of the range being applied; a split by device
 * holds at most 8 ranges' batches and sessions that the share threads have not finished.
 *
 * With `sessionLines`, the decode threads then write the session lines while this thread applies
 * the last batches and closes the day (the read returns without waiting for them; they end once
 * told the lines end, and keep the process alive no longer than that): ~0.1 s of the big
 * shop-day's serial tail.
 *
 * With `shares` above 1 the analysis is split by device too (`ShareThreads`, one run per range): this
 * thread runs share 0's engine and posts every batch it applies — a decode thread's as it came,
 * its own ranges' as it writes them — to each share thread, which runs its share's engine over
 * them in input order and posts, after each range, the sessions it closed; this thread merges
 * each range's sessions of every share into one engine's order and classifies them. It applies
 * at most 8 ranges ahead of the last one merged, so a share thread that falls behind holds it back.
 *
 * @param input a file's path, or a stream ({@link ThreadStream})
 * @example
 * const analyzer = new Analyzer();
 * const stats = await readInputInThreads("day.ndjson", 2, analyzer, (x, line) => console.error(line, x.message), signal, { decode: { rtsUnit: "ms" } });
 * const result = analyzer.finish(stats);
 */
export async function readInputInThreads(
  input: string | ThreadStream,
  threads: number,
  analyzer: Analyzer,
  onInvalid: (invalid: InvalidRecord, line: number) => void,
  signal: AbortSignal,
  options: ThreadReadOptions = {},
): Promise<SignalDecoderStats> {
  const { decode = {}, rangeBytes = RANGE_BYTES, sessionLines } = options;
  const shareOptions = analyzer.shareOptions;
  const shares = shareOptions === undefined ? 1 : Math.max(1, options.shares ?? 1);
  const path = typeof input === "string" ? input : undefined;
  // A file's ranges are known before the read; a stream's pieces are cut as it is read, each kept
  // here until applied (this thread may claim it).
  const ranges = path === undefined ? [] : await lineRanges(path, rangeBytes);
  const pieces: (Uint8Array | undefined)[] = [];
  let inputDone = path !== undefined;
  const known = (): number => (path === undefined ? pieces.length : ranges.length);
  const workers = path === undefined ? Math.max(0, threads - 1) : Math.max(0, Math.min(threads - 1, ranges.length - 1));
  const url = workerUrl("decodeWorker");
  // Range 0 is this thread's; decode thread i starts with range i + 1; the rest are claimed.
  // Given beforehand, not claimed once the thread has loaded: this thread would then read on
  // without it, which on a file it reads faster than a thread loads (a test's) leaves the decode
  // threads nothing to do, and on the bench file gained ~50 ms of the ~200 ms it waits at first.
  // (A stream's pieces alike: decode thread i waits for piece i + 1 to be cut.)
  const next = new SharedArrayBuffer(12);
  const claimed = new Int32Array(next);
  claimed[0] = workers + 1;
  const mine = ranges.map((_, r) => r === 0);
  // This thread's reader, whose decoder also gives the decode threads' signals their vendors.
  const file = new RangeReader(path, decode, vendorOfNormal);
  // What each range's decode thread has posted so far.
  const queues: RangeMessage[][] = ranges.map(() => []);
  // Session lines are written by decode threads: none without them.
  const lines = workers > 0 ? sessionLines : undefined;
  const parts = Array.from({ length: workers }, (_, i) => {
    const credit = new SharedArrayBuffer(4);
    const { port1: port, port2 } = new MessageChannel();
    const worker = new Worker(url, {
      workerData: { decodeWorker: true, path, ranges, first: i + 1, next, credit, maxOutstanding: MAX_OUTSTANDING, decode, rts: analyzer.readsRts, lines: lines?.device, port: port2 } satisfies DecodeWorkerData,
      transferList: [port2],
    });
    // Each decode thread interns its own strings: one reader (string table) per thread, which
    // reads that thread's batches in the order they were posted (its ranges are applied in order).
    return {
      worker,
      port,
      reader: new SignalBatchReader((device) => file.vendorOfDevice(device)),
      outstanding: new Int32Array(credit),
      stats: undefined as SignalDecoderStats | undefined,
    };
  });
  // The session lines the decode threads write, fed every classified session from here on.
  let written: SessionLineThreads | undefined;
  if (lines !== undefined) {
    const threads = new SessionLineThreads(parts.map((p) => p.port), lines.batch);
    analyzer.tapSessions((s) => threads.push(s));
    lines.onThreads(threads);
    written = threads;
  }
  type Part = (typeof parts)[number];
  // Whose decode thread posted each range's messages.
  const owner = new Map<number, Part>();
  const accept = (part: Part, message: DecodeThreadMessage): void => {
    if (message.type === "rendered") return written!.accept(message);
    queues[message.range]!.push(message);
    owner.set(message.range, part);
  };
  /** Takes every message the decode threads have posted and this thread has not yet received; true when there was one. */
  const receivePending = (): boolean => {
    let any = false;
    for (const part of parts) {
      for (let got = receiveMessageOnPort(part.port); got !== undefined; got = receiveMessageOnPort(part.port)) {
        accept(part, got.message as DecodeThreadMessage);
        any = true;
      }
    }
    return any;
  };
  // Applies what has come, while reading (set below).
  let wake = (): void => {};
  for (const part of parts) {
    part.worker.once("exit", () => {
      // What the thread posted before it ended (its last batches, its lines), then nothing more.
      receivePending();
      part.port.close();
      written?.ended(parts.indexOf(part));
      wake();
    });
  }
  // A device split: share 0 here, the others on threads of their own (see `shares`).
  const split = shares > 1 ? new ShareThreads(analyzer, shares, (device) => file.vendorOfDevice(device)) : undefined;
  let read = false;
  const push: (s: Signal) => void = split === undefined ? (s) => analyzer.pushSignal(s) : (s) => split.push(s);
  // A decode thread's batch: applied here (and handed on to the share threads as it came).
  const pushBatch =
    split === undefined
      ? (part: Part, batch: SignalBatch): void => part.reader.read(batch, push)
      : (part: Part, batch: SignalBatch): void => split.pushBatch(parts.indexOf(part) + 1, part.reader, batch);
  try {
    const stats = await new Promise<SignalDecoderStats>((resolve, reject) => {
      let current = 0; // the range being applied
      let lineOffset = 0;
      let ahead = false; // whether this thread has claimed a range after the current one
      let settled = false;
      // A stream's read, waiting for the ranges before it to be applied (see `PIECES_AHEAD`).
      let applied = (): void => {};
      const fail = (error: unknown): void => {
        if (settled) return;
        settled = true;
        signal.removeEventListener("abort", abort);
        if (path === undefined) (input as ThreadStream).stream.destroy?.();
        applied();
        reject(error);
      };
      const abort = (): void => fail(new Error("interrupted"));
      signal.addEventListener("abort", abort, { once: true });
      // The next range nobody has claimed, now this thread's (-1: none, or a stream's not yet cut).
      const claim = (): number => {
        if (path !== undefined) {
          const r = Atomics.add(claimed, 0, 1);
          return r < ranges.length ? r : -1;
        }
        const r = Atomics.load(claimed, 0);
        return r < known() && Atomics.compareExchange(claimed, 0, r, r + 1) === r ? r : -1;
      };
      // On to the next range once one is applied. While a stream is read, this thread then gives
      // its read a turn (true: drain goes on after it), so pieces are cut ahead for the decode
      // threads rather than only when this thread has nothing to apply.
      const nextRange = (): boolean => {
        split?.endRun();
        current++;
        applied();
        if (path !== undefined || inputDone) return false;
        setImmediate(guarded);
        return true;
      };
      // Applies what is ready, in file order; returns to wait for a decode thread's message.
      const drain = (): void => {
        // A device split waits here while the share threads are too far behind (they post a range's sessions).
        while (!settled && current < known() && (split === undefined || current - split.merged < RUNS_AHEAD)) {
          if (mine[current]) {
            const offset = lineOffset;
            const onLineInvalid = (line: number, x: InvalidRecord): void => onInvalid(x, offset + line);
            if (path !== undefined) {
              lineOffset += file.read(ranges[current]!, push, onLineInvalid);
            } else {
              lineOffset += file.readBytes(pieces[current]!, current === 0, push, onLineInvalid);
              pieces[current] = undefined;
            }
            ahead = false;
            if (nextRange()) return;
            continue;
          }
          let message = queues[current]!.shift();
          // Messages posted but not yet dispatched to this thread (it has been busy, as with a
          // range of its own) are taken now: only when there are none does this thread wait.
          if (message === undefined && receivePending()) message = queues[current]!.shift();
          if (message === undefined) {
            // The range is nobody's yet (the decode threads are between ranges): read it now.
            // Else this thread waits for a decode thread, which is then the slower side: it takes
            // on the next free range (read when its turn comes), one at a time. Each wait moves a
            // range's decoding to this thread until it no longer waits: then the decode threads
            // fill their read-ahead and this thread has work at every turn.
            if (Atomics.load(claimed, 0) === current || !ahead) {
              const r = claim();
              if (r >= 0) {
                mine[r] = true;
                if (r === current) continue;
                ahead = true;
              }
            }
            return;
          }
          const part = owner.get(current)!;
          if (message.type === "batch") {
            for (const x of message.batch.invalid) onInvalid(x.invalid, lineOffset + x.line);
            pushBatch(part, message.batch);
            Atomics.sub(part.outstanding, 0, 1);
            Atomics.notify(part.outstanding, 0);
          } else {
            part.stats = message.stats;
            if (path === undefined) pieces[current] = undefined;
            lineOffset += message.lines;
            owner.delete(current);
            if (nextRange()) return;
          }
        }
        if (settled || !inputDone || current < known() || finishing) return;
        if (split !== undefined) {
          // The input has ended: every share closes its last sessions; done when all are merged.
          finishing = true;
          split.finish().then(() => {
            if (!settled) done();
          }, fail);
          return;
        }
        done();
      };
      let finishing = false;
      const done = (): void => {
        settled = true;
        signal.removeEventListener("abort", abort);
        // A decode thread looks up no vendors: its signals' vendorless are counted where they were read.
        const threads = parts.flatMap((p) => (p.stats === undefined ? [] : [{ ...p.stats, vendorless: p.stats.vendorless + p.reader.vendorless }]));
        resolve([file.stats, ...threads].reduce(addDecoderStats));
      };
      const guarded = (): void => {
        try {
          drain();
        } catch (error) {
          fail(error);
        }
      };
      wake = guarded;
      split?.listen({ merged: guarded, fail });
      for (const part of parts) {
        part.port.on("message", (message: DecodeThreadMessage) => {
          accept(part, message);
          if (message.type !== "rendered" && message.range === current) guarded();
        });
        part.worker.once("error", fail);
        part.worker.once("exit", (code) => {
          if (code !== 0 && (current < known() || !inputDone)) fail(new Error(`decode thread exited with code ${code}`));
        });
      }
      if (path !== undefined) {
        guarded();
        return;
      }
      // A stream: cut into pieces at line ends as it is read, each posted to every decode thread
      // (in shared memory), then counted as cut: a thread claims it as it claims a file's range.
      const cut = (piece: Uint8Array): void => {
        const r = pieces.length;
        queues.push([]);
        mine.push(r === 0);
        pieces.push(piece);
        for (const part of parts) part.port.postMessage({ type: "piece", range: r, bytes: piece } satisfies PieceMessage);
        Atomics.store(claimed, 1, r + 1);
        Atomics.notify(claimed, 1);
        guarded();
      };
      const ended = (): void => {
        Atomics.store(claimed, 2, 1);
        Atomics.notify(claimed, 1);
      };
      const readStream = async (): Promise<void> => {
        let held: Uint8Array[] = [];
        let heldBytes = 0;
        // The held bytes in one piece of shared memory.
        const joined = (): Uint8Array => {
          const all = new Uint8Array(new SharedArrayBuffer(heldBytes));
          let at = 0;
          for (const chunk of held) {
            all.set(chunk, at);
            at += chunk.length;
          }
          return all;
        };
        for await (const chunk of gunzipIfCompressed((input as ThreadStream).stream)) {
          if (settled) return;
          held.push(chunk);
          heldBytes += chunk.length;
          if (heldBytes >= rangeBytes) {
            const all = joined();
            const lf = all.lastIndexOf(10);
            if (lf >= 0) {
              // The unfinished last line starts the next piece.
              const rest = all.slice(lf + 1);
              held = rest.length > 0 ? [rest] : [];
              heldBytes = rest.length;
              cut(all.subarray(0, lf + 1));
            } else {
              held = [all];
            }
          }
          while (!settled && known() - current > PIECES_AHEAD) await new Promise<void>((resolve) => (applied = resolve));
          applied = () => {};
        }
        if (settled) return;
        if (heldBytes > 0) cut(joined());
        inputDone = true;
        ended();
        guarded();
      };
      readStream().catch(fail);
    });
    read = true;
    return stats;
  } finally {
    file.close();
    await split?.close();
    if (read && written !== undefined) {
      // The threads write the session lines of the close to come, and end once told they end;
      // they keep the process alive no longer than it has work of its own.
      for (const part of parts) {
        part.worker.on("error", (error) => written.fail(error));
        part.worker.unref();
      }
    } else {
      written?.fail(new Error("the input was not read"));
      await Promise.all(parts.map((p) => p.worker.terminate()));
    }
  }
}

/**
 * Cuts the file into ranges of about `bytes` that each start a line: each cut is moved to just
 * after the next LF (a file with lone CRs only is one range). An empty file is one empty range.
 */
async function lineRanges(path: string, bytes: number): Promise<ByteRange[]> {
  const file = await open(path, "r");
  try {
    const size = (await file.stat()).size;
    const cuts: number[] = [0];
    const buffer = Buffer.alloc(1 << 16);
    for (let pos = bytes; pos < size; pos = cuts.at(-1)! + bytes) {
      let cut = -1;
      while (cut < 0 && pos < size) {
        const { bytesRead } = await file.read(buffer, 0, buffer.length, pos);
        if (bytesRead === 0) break;
        const lf = buffer.subarray(0, bytesRead).indexOf(10);
        if (lf >= 0) cut = pos + lf + 1;
        else pos += bytesRead;
      }
      if (cut < 0 || cut >= size) break;
      cuts.push(cut);
    }
    return cuts.map((start, i) => [start, cuts[i + 1]]);
  } finally {
    await file.close();
  }
}
