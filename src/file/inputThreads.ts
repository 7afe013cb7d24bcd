import { availableParallelism } from "node:os";

/**
 * Below this file size (bytes) decode threads do not pay: each loads the decoder and the OUI table
 * and starts with cold code, and every signal crosses to the engine's thread as columns. Measured
 * on 2 cores, `--threads 2` against `--threads 1` (medians of 3): 64 MiB of `footfall signals`
 * lines 1.16 s against 0.95 s, 128 MiB 1.41 against 1.34 s, 256 MiB 2.08 against 2.23 s, 495 MiB
 * 3.28 against 3.76 s; raw service records, 120 MiB 1.67 against 1.63 s, 190 MiB 2.41 against
 * 2.45 s.
 *
 * @example
 * THREADS_MIN_BYTES; // 268435456
 */
export const THREADS_MIN_BYTES = 256 * 1024 * 1024;

/**
 * Threads `footfall analyze --input FILE` and `analyzeFile` use when `--threads` (`threads`) is
 * not given: for a file large enough to repay starting decode threads, one per core up to 3 (the
 * engine's thread and two decode threads: on the bench's shop-day the engine is ~45 % of the
 * work, so a third decode thread would wait on it), else 1. See `readInputInThreads`.
 *
 * @example
 * defaultInputThreads(1024); // 1: a small file is read on one thread
 */
export function defaultInputThreads(fileBytes: number): number {
  return fileBytes >= THREADS_MIN_BYTES ? Math.max(1, Math.min(availableParallelism(), 3)) : 1;
}
