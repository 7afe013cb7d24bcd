import { availableParallelism } from "node:os";
import { open } from "node:fs/promises";

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
 * length of the lines in its first 64 KiB), one per core up to 3 (the engine's thread and two
 * decode threads: on the big shop-day the engine is ~60 % of the work, so a third decode thread
 * would wait on it), else 1. See `readInputInThreads`.
 *
 * @param path the file (a regular, uncompressed one)
 * @param fileBytes its size, bytes
 * @example
 * await defaultInputThreads("day.ndjson", 1024); // 1: a small file is read on one thread
 */
export async function defaultInputThreads(path: string, fileBytes: number): Promise<number> {
  // A file too small to hold that many records even of the shortest lines is not sampled.
  if (fileBytes < THREADS_MIN_RECORDS * 64) return 1;
  const handle = await open(path, "r");
  try {
    const buffer = Buffer.alloc(SAMPLE_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, SAMPLE_BYTES, 0);
    let lines = 0;
    let end = 0;
    for (let i = buffer.indexOf(10); i >= 0 && i < bytesRead; i = buffer.indexOf(10, i + 1)) {
      lines++;
      end = i + 1;
    }
    // Whole lines only (the sample cuts the last one). No line end in the sample: one long line
    // (a JSON array), not records to cut into ranges.
    const records = lines === 0 ? 0 : (fileBytes * lines) / end;
    return records >= THREADS_MIN_RECORDS ? Math.max(1, Math.min(availableParallelism(), 3)) : 1;
  } finally {
    await handle.close();
  }
}
