import { createReadStream, type Stats } from "node:fs";
import type { Analyzer } from "../analysis/analyze.ts";
import type { InvalidRecord, SignalDecoderStats } from "../codec/decodeSignal.ts";
import { startsLikeGzip } from "./gunzipIfCompressed.ts";
import { defaultInputThreads } from "./inputThreads.ts";
import type { ThreadDecoderOptions } from "./RangeReader.ts";
import { readSignalFile } from "./readSignalFile.ts";
import { readSignalStream } from "./readSignalStream.ts";
import type { SessionLinesRequest } from "./SessionLineThreads.ts";
import { SignalLineReader } from "./SignalLineReader.ts";

/**
 * Why input asked to be read on several threads is read on one: `"codec"` (an RTS codec of the
 * caller's own, which cannot be copied to a thread).
 *
 * @example
 * const why: OneThreadReason = "codec";
 */
export type OneThreadReason = "codec";

/**
 * What {@link readSignalInput} reads: a file, by its path and its `stat` (taken once by the caller,
 * which reports a missing file its way), or a stream (standard input).
 *
 * @example
 * const input: SignalInput = { stream: process.stdin };
 */
export type SignalInput = { readonly path: string; readonly info: Stats } | { readonly stream: AsyncIterable<Buffer> & { destroy?: () => unknown } };

/**
 * Options of {@link readSignalInput}.
 *
 * @example
 * const options: ReadSignalInputOptions = { threads: 2, decode: {}, signal: new AbortController().signal, onInvalidLine: () => {} };
 */
export interface ReadSignalInputOptions {
  /** Threads in all, this one included; `undefined` → `defaultInputThreads` (by the file's records). */
  readonly threads?: number | undefined;
  /**
   * Shares of the devices the analysis is split into, each with an engine of its own (share 0 on
   * this thread, the others on threads of their own: `readInputInThreads`); identical results.
   * @default 1
   */
  readonly shares?: number | undefined;
  /** The decoder options decode threads build their decoders from; `undefined`: none can be (one thread). */
  readonly decode: ThreadDecoderOptions | undefined;
  /** Session lines for the decode threads to write beside the close of the day (`readInputInThreads`); none without decode threads. */
  readonly sessionLines?: SessionLinesRequest | undefined;
  /** Stops the read (the readers then stop with an error of their own, or return early). */
  readonly signal: AbortSignal;
  /**
   * The decode threads' rejected records, each with its 1-based line. On one thread the
   * analyzer's own decoder reports them; `onReader` hands over the reader whose `line` they are at.
   */
  readonly onInvalidLine: (invalid: InvalidRecord, line: number) => void;
  /** Receives the line reader when the file is read on this thread (its `line` is the line being read). */
  readonly onReader?: ((reader: SignalLineReader) => void) | undefined;
  /** Told why, when `threads` above 1 were asked and the input is read on one; throw to refuse. */
  readonly onOneThread?: ((why: OneThreadReason) => void) | undefined;
}

/**
 * Feeds the signal records of `input` to `analyzer`, read the one way footfall reads a file or
 * standard input (`footfall analyze --input`, `analyzeFile`):
 * - a regular uncompressed file on several threads, decode threads reading ranges of it beside
 *   this one (`readInputInThreads`), or on this one straight into the reader's memory
 *   (`readSignalFile`);
 * - a gzip file (told by its first two bytes), anything that is not a regular file, or a stream:
 *   one stream, decompressed as it is read; on several threads, cut into pieces at line ends that
 *   decode threads decode beside this one (`readInputInThreads` again), else on this thread
 *   (`readSignalStream`). Threads by default for a gzip file of about `THREADS_MIN_RECORDS`
 *   records or more, leaving zlib a core (`defaultInputThreads`); a pipe or standard input has
 *   no size to tell by, and is read on several threads when `threads` says so.
 *
 * @returns the decode threads' counters when threads decoded (for `analyzer.finish`), else
 *          `undefined` (the analyzer's decoder did)
 *
 * @example
 * import { writeFileSync } from "node:fs";
 * import { stat } from "node:fs/promises";
 * writeFileSync("shop-day.ndjson", [...world.rawSignals(101)].map((r) => JSON.stringify(r)).join("\n"));
 * const analyzer = new Analyzer({ timeZone: "Asia/Seoul" });
 * const decoded = await readSignalInput({ path: "shop-day.ndjson", info: await stat("shop-day.ndjson") }, analyzer,
 *   { decode: {}, signal: new AbortController().signal, onInvalidLine: (x, line) => console.error(line, x.message) });
 * analyzer.finish(decoded).days[0]!.shopId; // 101
 */
export async function readSignalInput(input: SignalInput, analyzer: Analyzer, options: ReadSignalInputOptions): Promise<SignalDecoderStats | undefined> {
  const { threads, decode, signal, shares = 1 } = options;
  const file = "path" in input ? input : undefined;
  // A regular file can be read at any offset: sniffed for gzip, split among threads.
  const regular = file !== undefined && file.info.isFile();
  const gzip = regular && (await startsLikeGzip(file.path));
  if (((threads !== undefined && threads > 1) || shares > 1) && decode === undefined) options.onOneThread?.("codec");
  // A stream, or a file that is read as one (gzip, a named pipe): decompressed as it is read.
  const stream = (): AsyncIterable<Buffer> & { destroy?: () => unknown } => ("stream" in input ? input.stream : createReadStream(input.path, { highWaterMark: 1 << 20 }));
  if (decode !== undefined) {
    const n = threads ?? (regular ? await defaultInputThreads(file.path, file.info.size, gzip) : 1);
    if (n > 1 || shares > 1) {
      // Loaded only for a threaded read (worker_threads and the thread's module).
      const { readInputInThreads } = await import("./readInputInThreads.ts");
      const source = regular && !gzip ? file.path : { stream: stream() };
      return readInputInThreads(source, n, analyzer, options.onInvalidLine, signal, { decode, sessionLines: options.sessionLines, shares });
    }
  }
  const reader = new SignalLineReader(analyzer.decoder, (s) => analyzer.pushSignal(s));
  options.onReader?.(reader);
  if (regular && !gzip) await readSignalFile(file.path, reader, signal);
  // Large reads: the reader splits each chunk into lines synchronously, not one await per line.
  else await readSignalStream(stream(), reader, signal);
  return undefined;
}
