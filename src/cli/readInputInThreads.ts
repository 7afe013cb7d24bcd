import { Worker } from "node:worker_threads";
import type { Analyzer } from "../analyze.ts";
import type { InvalidRecord, SignalDecoderStats } from "../codec/decodeSignal.ts";
import { SignalBatchReader, type SignalBatch } from "./SignalBatch.ts";

/** What the decode thread is started with. */
export interface DecodeWorkerData {
  readonly path: string;
  /** One Int32: batches posted and not yet applied (the read-ahead bound). */
  readonly credit: SharedArrayBuffer;
  readonly maxOutstanding: number;
}

/** What the decode thread posts. */
export type DecodeWorkerMessage =
  | { readonly type: "batch"; readonly batch: SignalBatch }
  | { readonly type: "end"; readonly stats: SignalDecoderStats };

/** Batches read ahead of the engine at most (each ~8 k signals). */
const MAX_OUTSTANDING = 16;

/**
 * Reads an NDJSON file of signal records with two threads: a decode thread reads, splits,
 * parses and decodes the lines (the `parseSignalLine` + `SignalDecoder` work) and posts the
 * signals in columns, in input order; this thread applies them to `analyzer` (the engine,
 * classification, counts). The analyzer sees exactly the signals, in exactly the order, that
 * reading on one thread gives it, so the results are identical — only the decoding runs beside
 * the engine instead of before it. Rejected records reach `onInvalid` with their line numbers,
 * in input order; returns the decode thread's counters for `Analyzer.finish`.
 *
 * Why a pipeline of two and not more threads partitioned by device: the engine's watermark, the
 * late rule and every session's `complete` depend on the order of all records of a shop, so a
 * device partition would have to read every record in every thread anyway (or give different
 * results); the engine is then the one serial stage, and a second decode thread has nothing to
 * win on two cores.
 *
 * @example
 * const analyzer = new Analyzer();
 * const stats = await readInputInThreads("day.ndjson", analyzer, (x, line) => console.error(line, x.message), signal);
 * const result = analyzer.finish(stats);
 */
export async function readInputInThreads(
  path: string,
  analyzer: Analyzer,
  onInvalid: (invalid: InvalidRecord, line: number) => void,
  signal: AbortSignal,
): Promise<SignalDecoderStats> {
  const credit = new SharedArrayBuffer(4);
  const outstanding = new Int32Array(credit);
  const source = import.meta.url.endsWith(".ts");
  const worker = new Worker(new URL(source ? "./decodeWorker.ts" : "./decodeWorker.js", import.meta.url), {
    workerData: { path, credit, maxOutstanding: MAX_OUTSTANDING } satisfies DecodeWorkerData,
    // Running from the TypeScript sources (tests, notebooks): the worker needs the same loader.
    ...(source ? { execArgv: ["--import", "tsx"] } : {}),
  });
  const reader = new SignalBatchReader();
  const push = (s: Parameters<Analyzer["pushSignal"]>[0]): void => analyzer.pushSignal(s);
  try {
    return await new Promise<SignalDecoderStats>((resolve, reject) => {
      const abort = (): void => {
        void worker.terminate();
        reject(new Error("interrupted"));
      };
      signal.addEventListener("abort", abort, { once: true });
      worker.on("message", (message: DecodeWorkerMessage) => {
        try {
          if (message.type === "batch") {
            for (const x of message.batch.invalid) onInvalid(x.invalid, x.line);
            reader.read(message.batch, push);
            Atomics.sub(outstanding, 0, 1);
            Atomics.notify(outstanding, 0);
          } else {
            signal.removeEventListener("abort", abort);
            resolve(message.stats);
          }
        } catch (error) {
          reject(error);
        }
      });
      worker.once("error", (error) => {
        signal.removeEventListener("abort", abort);
        reject(error);
      });
      worker.once("exit", (code) => {
        if (code !== 0) reject(new Error(`decode thread exited with code ${code}`));
      });
    });
  } finally {
    await worker.terminate();
  }
}
