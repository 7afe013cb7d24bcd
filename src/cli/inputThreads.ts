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
 * Threads `footfall analyze --input FILE` uses when `--threads` is not given: 2 when the machine
 * has two cores or more and the file is large enough to repay starting a decode thread, else 1.
 * More would not help: see `readInputInThreads`.
 *
 * @example
 * defaultInputThreads(1024); // 1: a small file is read on one thread
 */
export function defaultInputThreads(fileBytes: number): number {
  return availableParallelism() >= 2 && fileBytes >= THREADS_MIN_BYTES ? 2 : 1;
}
