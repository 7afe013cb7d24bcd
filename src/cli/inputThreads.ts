import { availableParallelism } from "node:os";

/**
 * Below this file size (bytes) a second thread is not worth starting: the decode thread loads the
 * decoder and the OUI table (~150 ms) before its first line, about what one thread spends on
 * 100 k lines (~30 MiB of `footfall signals` output).
 *
 * @example
 * THREADS_MIN_BYTES; // 33554432
 */
export const THREADS_MIN_BYTES = 32 * 1024 * 1024;

/**
 * Threads `footfall analyze --input FILE` uses when `--threads` is not given: for a file large
 * enough to repay starting decode threads, one per core up to 3 (the engine's thread and two
 * decode threads: on the bench's shop-day the engine is ~45 % of the work, so a third decode
 * thread would wait on it), else 1. See `readInputInThreads`.
 *
 * @example
 * defaultInputThreads(1024); // 1: a small file is read on one thread
 */
export function defaultInputThreads(fileBytes: number): number {
  return fileBytes >= THREADS_MIN_BYTES ? Math.max(1, Math.min(availableParallelism(), 3)) : 1;
}
