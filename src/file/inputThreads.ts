import { availableParallelism } from "node:os";
import { open } from "node:fs/promises";
import { constants, gunzipSync } from "node:zlib";

/**
 * Below about this many records decode threads do not pay: each loads the decoder and the OUI
 * table and starts with cold code, and every signal crosses to the engine's thread as columns.
 * Records, not bytes, because the work is per record, and a line of raw service records is half
 * as long as one `footfall signals` writes. Measured on 2 cores, `--threads 2` against
 * `--threads 1` (medians of 3, 2026-12-06): `footfall signals` lines, 250 k records 1.38 against
 * 1.21 s, 450 k 1.35 against 1.43 s, 700 k 1.50 against 1.84 s; raw service records, 450 k 1.36
 * against 1.36 s, 720 k (103 MB) 1.58 against 1.66 s, 1.7 M (246 MB) 2.57 against 3.03 s.
 *
 * @example
 * THREADS_MIN_RECORDS; // 500000
 */
export const THREADS_MIN_RECORDS = 500_000;

/** Bytes sampled from the start of a file for its mean line length. */
const SAMPLE_BYTES = 64 * 1024;

/**
 * Threads `footfall analyze --input FILE` and `analyzeFile` use when `--threads` (`threads`) is
 * not given: for a file of about {@link THREADS_MIN_RECORDS} records or more (its size ÷ the mean
 * length of the lines in its first 64 KiB; for a gzip file, its size × how much its first 64 KiB
 * grow when decompressed, ÷ the mean length of their lines), one per core up to 3 (the engine's
 * thread and two decode threads: on the big shop-day the engine is ~60 % of the work, so a third
 * decode thread would wait on it), else 1. A gzip file counts one core less: zlib inflates on
 * one of libuv's threads beside the reading thread, so on two cores a decode thread has no core
 * of its own (the big shop-day gzip-compressed, 2 cores: 4.6–5.7 s on one thread, 4.6–5.9 s with
 * a decode thread and 1–2 s more CPU). See `readInputInThreads`.
 *
 * @param path the file (a regular one)
 * @param fileBytes its size, bytes
 * @param gzip whether it is gzip-compressed (read as one stream, cut into pieces for the threads)
 * @example
 * await defaultInputThreads("day.ndjson", 1024); // 1: a small file is read on one thread
 */
export async function defaultInputThreads(path: string, fileBytes: number, gzip = false): Promise<number> {
  // A file too small to hold that many records even of the shortest lines is not sampled (a gzip
  // file always is: how much it holds is what the sample tells).
  if (!gzip && fileBytes < THREADS_MIN_RECORDS * 64) return 1;
  const handle = await open(path, "r");
  try {
    const sample = Buffer.alloc(SAMPLE_BYTES);
    const { bytesRead } = await handle.read(sample, 0, SAMPLE_BYTES, 0);
    // The first 64 KiB of a gzip stream, decompressed as far as they go (no error at their cut).
    const buffer = gzip ? gunzipSync(sample.subarray(0, bytesRead), { finishFlush: constants.Z_SYNC_FLUSH }) : sample.subarray(0, bytesRead);
    const inputBytes = gzip ? (fileBytes * buffer.length) / bytesRead : fileBytes;
    let lines = 0;
    let end = 0;
    for (let i = buffer.indexOf(10); i >= 0; i = buffer.indexOf(10, i + 1)) {
      lines++;
      end = i + 1;
    }
    // Whole lines only (the sample cuts the last one). No line end in the sample: one long line
    // (a JSON array), not records to cut into ranges.
    const records = lines === 0 ? 0 : (inputBytes * lines) / end;
    return records >= THREADS_MIN_RECORDS ? Math.max(1, Math.min(availableParallelism() - (gzip ? 1 : 0), 3)) : 1;
  } finally {
    await handle.close();
  }
}
