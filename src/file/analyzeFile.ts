import { stat } from "node:fs/promises";
import { Analyzer, type AnalyzeOptions, type AnalyzeResult } from "../analysis/analyze.ts";
import type { InvalidRecord, SignalDecoderOptions, SignalDecoderStats } from "../codec/decodeSignal.ts";
import { microsRts, millisRts, nanosRts, secondsRts, type RtsCodec } from "../codec/rts.ts";
import type { ThreadDecoderOptions } from "./RangeReader.ts";
import { readSignalInput } from "./readSignalInput.ts";

/**
 * Options of {@link analyzeFile}: those of `analyze` (`AnalyzeOptions`), and how the file is read.
 *
 * @example
 * const options: AnalyzeFileOptions = { timeZone: "Asia/Seoul", threads: 2, onInvalidLine: (x, line) => console.error(`line ${line}: ${x.message}`) };
 */
export interface AnalyzeFileOptions extends AnalyzeOptions {
  /**
   * Threads to read the file on, at most: this one, which runs the analysis, and decode threads
   * that read, parse and decode parts of the file beside it (see `readInputInThreads`). The
   * results are the same whatever the number. A gzip file or a named pipe is cut into parts as it
   * is decompressed and read. A file whose `decode.rtsCodec` is not one of the preset codecs is
   * read on this thread alone, whatever is asked (a codec of the caller's own cannot be copied to
   * a thread).
   * @default 1 below about 500 000 records (`THREADS_MIN_RECORDS`, from the file's size and its
   *   first lines, decompressed for a gzip file: decode threads do not repay their start on
   *   less), else one per core, up to 3; 1 for a named pipe (no size to tell by)
   */
  readonly threads?: number | undefined;
  /**
   * Shares of the devices the analysis is split into: each share's sessions are built by an
   * engine of its own, on a thread of its own beside `threads` (share 0 on this one), then put
   * back into one engine's order and classified here (see `Analyzer.splitByDevice`). The results
   * are the same whatever the number. Options that see the engine's signals as one engine calls
   * them (`onLate`, `onSlice`, `accumulators`, `liveOccupancy`) are analysed with one engine.
   * @default 1
   */
  readonly shares?: number | undefined;
  /** Stops reading: `analyzeFile` then rejects with `signal.reason`. @default undefined (never) */
  readonly signal?: AbortSignal | undefined;
  /**
   * Receives each rejected record with its 1-based line number in the file (after gzip
   * decompression), in file order; `decode.onInvalid`, when given, receives each one as well.
   * @default undefined
   */
  readonly onInvalidLine?: ((invalid: InvalidRecord, line: number) => void) | undefined;
}

/**
 * `analyze` over a file of signal records, read the way `footfall analyze --input FILE` reads it:
 * NDJSON, one service record per line (or a page body or JSON array of records on a line, as
 * `footfall signals` and the service's own exports write them), gzip-compressed or not (told by
 * its first two bytes, not its name), on one thread or several (`threads`). Returns what
 * `analyze` returns for the same records in the same order, identical whatever the number of
 * threads; rejected records are counted in `decoder` and reported to `onInvalidLine`.
 *
 * One read: sensor clocks that disagree and records later than the allowed lateness are only
 * reported (`quality`, `late`); `secondReading` says whether to call it again and with what
 * options, as the CLI does. Rejects with the file system's error when the file cannot be read
 * (ENOENT, EISDIR …), with zlib's for a corrupt or cut gzip stream, and with TypeError or
 * RangeError for invalid options.
 *
 * @example
 * import { writeFileSync } from "node:fs";
 * import { gzipSync } from "node:zlib";
 * const lines = [...world.rawSignals(101)].map((r) => JSON.stringify(r)).join("\n");
 * writeFileSync("shop-day.ndjson", lines);
 * writeFileSync("shop-day.ndjson.gz", gzipSync(lines));
 * const result = await analyzeFile("shop-day.ndjson.gz", { timeZone: "Asia/Seoul" });
 * result.days[0]!.shopId; // 101
 * const threaded = await analyzeFile("shop-day.ndjson", { timeZone: "Asia/Seoul", threads: 2, shares: 2 });
 * threaded.days[0]!.visitors === result.days[0]!.visitors; // true
 */
export async function analyzeFile(path: string, options: AnalyzeFileOptions = {}): Promise<AnalyzeResult> {
  if (typeof options !== "object" || options === null) throw new TypeError("analyzeFile options must be an object");
  const { threads, shares, signal, onInvalidLine, ...analysis } = options;
  if (threads !== undefined && !(Number.isSafeInteger(threads) && threads >= 1)) {
    throw new RangeError(`analyzeFile: threads must be a whole number from 1, got ${String(threads)}`);
  }
  if (shares !== undefined && !(Number.isSafeInteger(shares) && shares >= 1)) {
    throw new RangeError(`analyzeFile: shares must be a whole number from 1, got ${String(shares)}`);
  }
  signal?.throwIfAborted();
  const onInvalid = analysis.decode?.onInvalid;
  // One invalid-record channel, as the CLI has: the one-thread reader's rejections come through
  // the analyzer's decoder (its line is the reader's), the decode threads' with their lines.
  let line = (): number => 0;
  const both = (x: InvalidRecord, at: number): void => {
    onInvalid?.(x);
    onInvalidLine?.(x, at);
  };
  const analyzer = new Analyzer(
    onInvalidLine === undefined ? analysis : { ...analysis, decode: { ...analysis.decode, onInvalid: (x: InvalidRecord) => both(x, line()) } },
  );
  const info = await stat(path);
  // An abort from here on stops the read; one before it would not be heard by the readers.
  signal?.throwIfAborted();
  let decoded: SignalDecoderStats | undefined;
  try {
    decoded = await readSignalInput({ path, info }, analyzer, {
      threads,
      shares,
      decode: threadDecoderOptions(analysis.decode),
      signal: signal ?? new AbortController().signal,
      onInvalidLine: both,
      onReader: (reader) => (line = () => reader.line),
    });
  } catch (error) {
    // Both readers stop on an abort with an error of their own; the caller's reason is the one to give.
    if (signal?.aborted === true) throw signal.reason;
    throw error;
  }
  signal?.throwIfAborted();
  return analyzer.finish(decoded);
}

const PRESET_CODECS: readonly RtsCodec[] = [secondsRts, millisRts, microsRts, nanosRts];

// The decoder options a decode thread can be given (plain data), or undefined when they hold a
// codec of the caller's own, which cannot be copied to a thread (the file is then read here).
function threadDecoderOptions(decode: SignalDecoderOptions | undefined): ThreadDecoderOptions | undefined {
  if (decode === undefined) return {};
  const codec = decode.rtsCodec;
  if (codec !== undefined && !PRESET_CODECS.includes(codec)) return undefined;
  return {
    clockOffsetsMs: decode.clockOffsetsMs,
    rtsUnit: codec?.unit,
    shopId: decode.shopId,
    tsUnit: decode.tsUnit,
    vendors: decode.vendors,
    tsToleranceMs: decode.tsToleranceMs,
  };
}
