import { readFileSync } from "node:fs";
import { open } from "node:fs/promises";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { addDecoderStats, type Analyzer } from "../analyze.ts";
import type { InvalidRecord, SignalDecoderStats } from "../codec/decodeSignal.ts";
import type { EpochUnit } from "../codec/inferEpochUnit.ts";
import { SignalBatchReader, type SignalBatch } from "./SignalBatch.ts";

/** What a decode thread is started with. */
export interface DecodeWorkerData {
  /** Marks the worker's data, so importing decodeWorker.ts elsewhere does nothing. */
  readonly decodeWorker: true;
  readonly path: string;
  /**
   * The thread's byte ranges of the file, in file order: each from the first byte of a line to
   * (exclusive) the byte after a LF, or to the end of the file.
   */
  readonly ranges: readonly ByteRange[];
  /** One Int32: batches posted and not yet applied (the read-ahead bound). */
  readonly credit: SharedArrayBuffer;
  readonly maxOutstanding: number;
  /** The decoder's options that are not the defaults. */
  readonly decode: ThreadDecoderOptions;
}

/**
 * The decoder options of a decode thread: what `footfall analyze` sets (a codec crosses threads
 * as its preset's unit).
 */
export interface ThreadDecoderOptions {
  readonly clockOffsetsMs?: Readonly<Record<string, number>> | undefined;
  readonly rtsUnit?: EpochUnit | undefined;
}

/** A byte range of a file: first byte, and the byte after its last (undefined: the end of the file). */
export type ByteRange = readonly [start: number, end: number | undefined];

/**
 * What a decode thread posts: the batches of a range, then its `end` with the range's lines and
 * the thread's counters so far.
 */
export type DecodeWorkerMessage =
  | { readonly type: "batch"; readonly batch: SignalBatch }
  | { readonly type: "end"; readonly stats: SignalDecoderStats; readonly lines: number };

/** Batches a decode thread reads ahead of the thread that applies them, at most (each ~8 k signals). */
const MAX_OUTSTANDING = 16;

/**
 * Bytes per range (~55 k lines of `footfall signals` output): ranges are dealt to the decode
 * threads in turn, so every thread decodes while the engine applies, from the first range to the
 * last. (With one range per thread, the engine applied the last range alone while the other core
 * idled: bench row 8's default-threads median was 3.53 s, dealt 3.41 s.)
 */
const RANGE_BYTES = 16 * 1024 * 1024;

/**
 * Reads an NDJSON file of signal records with `threads` decode threads beside this one: the file
 * is cut at line ends into ranges of about `rangeBytes`, dealt to the threads in turn; each
 * decode thread reads, splits, parses and decodes its ranges (the `SignalLineReader` +
 * `SignalDecoder` work, about two fifths of a one-thread run) and posts the signals in columns;
 * this thread applies them to `analyzer` (the engine, classification, counts) range after range,
 * in input order. The analyzer sees exactly the signals, in exactly the order, that reading on
 * one thread gives it, so the results are identical. Rejected records reach `onInvalid` with
 * their line numbers in the whole file, in input order; returns the decode threads' counters
 * (summed) for `Analyzer.finish`.
 *
 * Memory: each decode thread reads at most 16 batches (~130 k signals) ahead of this one.
 *
 * Why not threads partitioned by device, each with its own engine: the engine's watermark, the
 * late rule and every session's `complete` depend on the order of all records of a shop, so a
 * device partition would have to read every record in every thread anyway (or give different
 * results). Decoding is what parallelises; the engine stays one serial stage.
 *
 * @example
 * const analyzer = new Analyzer();
 * const stats = await readInputInThreads("day.ndjson", 2, analyzer, (x, line) => console.error(line, x.message), signal);
 * const result = analyzer.finish(stats);
 */
export async function readInputInThreads(
  path: string,
  threads: number,
  analyzer: Analyzer,
  onInvalid: (invalid: InvalidRecord, line: number) => void,
  signal: AbortSignal,
  decode: ThreadDecoderOptions = {},
  rangeBytes = RANGE_BYTES,
): Promise<SignalDecoderStats> {
  const ranges = await lineRanges(path, rangeBytes);
  // Range r is thread r mod n's: no more threads than ranges.
  const n = Math.min(threads, ranges.length);
  const url = workerUrl();
  const parts = Array.from({ length: n }, (_, t) => {
    const credit = new SharedArrayBuffer(4);
    const worker = new Worker(url, {
      workerData: {
        decodeWorker: true,
        path,
        ranges: ranges.filter((_, r) => r % n === t),
        credit,
        maxOutstanding: MAX_OUTSTANDING,
        decode,
      } satisfies DecodeWorkerData,
    });
    // Each decode thread interns its own strings: one reader (string table) per thread, which
    // reads that thread's batches in the order they were posted (its ranges are applied in order).
    return {
      worker,
      reader: new SignalBatchReader(),
      outstanding: new Int32Array(credit),
      queue: [] as DecodeWorkerMessage[],
      stats: undefined as SignalDecoderStats | undefined,
    };
  });
  const push = (s: Parameters<Analyzer["pushSignal"]>[0]): void => analyzer.pushSignal(s);
  try {
    return await new Promise<SignalDecoderStats>((resolve, reject) => {
      let current = 0; // the range being applied
      let lineOffset = 0;
      const fail = (error: unknown): void => {
        signal.removeEventListener("abort", abort);
        reject(error);
      };
      const abort = (): void => fail(new Error("interrupted"));
      signal.addEventListener("abort", abort, { once: true });
      // Applies what the current range's thread has posted, moving on to the next range at its end.
      const drain = (): void => {
        while (current < ranges.length) {
          const part = parts[current % n]!;
          const message = part.queue.shift();
          if (message === undefined) return;
          if (message.type === "batch") {
            for (const x of message.batch.invalid) onInvalid(x.invalid, lineOffset + x.line);
            part.reader.read(message.batch, push);
            Atomics.sub(part.outstanding, 0, 1);
            Atomics.notify(part.outstanding, 0);
          } else {
            part.stats = message.stats; // the thread's counters so far
            lineOffset += message.lines;
            current++;
          }
        }
        signal.removeEventListener("abort", abort);
        resolve(parts.map((p) => p.stats!).reduce(addDecoderStats));
      };
      parts.forEach((part, t) => {
        part.worker.on("message", (message: DecodeWorkerMessage) => {
          part.queue.push(message);
          if (current % n === t) {
            try {
              drain();
            } catch (error) {
              fail(error);
            }
          }
        });
        part.worker.once("error", fail);
        part.worker.once("exit", (code) => {
          if (code !== 0 && current < ranges.length) fail(new Error(`decode thread exited with code ${code}`));
        });
      });
    });
  } finally {
    await Promise.all(parts.map((p) => p.worker.terminate()));
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

/**
 * The decode thread's module: the compiled `decodeWorker.js` beside this file; when running from
 * the TypeScript sources (tests, notebooks), a small module that registers tsx's loader first
 * and then imports `decodeWorker.ts` (a worker's `execArgv` cannot bring a loader in time for its
 * own entry module). tsx is resolved from this file, not from the working directory.
 */
function workerUrl(): URL {
  if (!import.meta.url.endsWith(".ts")) return new URL("./decodeWorker.js", import.meta.url);
  // tsx's ESM API (`tsx/esm/api`, its `import` target read from tsx's own exports map, since a
  // require-resolution gives the CommonJS build): `register()` installs the loader in this thread.
  const pkgPath = createRequire(import.meta.url).resolve("tsx/package.json");
  const pkg = JSON.parse(readFileSync(pkgPath, "utf8")) as { exports: Record<string, { import: { default: string } }> };
  const api = new URL(pkg.exports["./esm/api"]!.import.default, pathToFileURL(pkgPath)).href;
  const entry = new URL("./decodeWorker.ts", import.meta.url).href;
  const code = `import { register } from ${JSON.stringify(api)}; register(); await import(${JSON.stringify(entry)});`;
  return new URL(`data:text/javascript,${encodeURIComponent(code)}`);
}
