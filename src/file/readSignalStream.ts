import { gunzipIfCompressed } from "./gunzipIfCompressed.ts";
import type { SignalLineReader } from "./SignalLineReader.ts";

/**
 * Feeds a byte stream — a file, standard input, a pipe; decompressed when it is gzip — to a
 * `SignalLineReader` on this thread, chunk by chunk (the reader splits each chunk into lines
 * synchronously, not one await per line), and ends the reader at the stream's end. Stops, without
 * ending the reader, once `signal` is aborted, and destroys a stream that has `destroy` then (a
 * read waiting for data — a terminal, a quiet pipe — stops only when its stream does). The one
 * reading loop of streams for `analyzeFile` and `footfall analyze --input` (`readSignalInput`).
 *
 * @returns whether the stream was read to its end (false: aborted)
 * @example
 * import { createReadStream, writeFileSync } from "node:fs";
 * import { gzipSync } from "node:zlib";
 * writeFileSync("shop-day.ndjson.gz", gzipSync([...world.rawSignals(101)].map((r) => JSON.stringify(r)).join("\n")));
 * const analyzer = new Analyzer({ timeZone: "Asia/Seoul" });
 * const reader = new SignalLineReader(analyzer.decoder, (s) => analyzer.pushSignal(s));
 * await readSignalStream(createReadStream("shop-day.ndjson.gz"), reader); // true
 * analyzer.finish().days[0]!.shopId; // 101
 */
export async function readSignalStream(
  stream: AsyncIterable<Buffer> & { destroy?: () => unknown },
  reader: SignalLineReader,
  signal?: AbortSignal,
): Promise<boolean> {
  const stop = (): void => void stream.destroy?.();
  signal?.addEventListener("abort", stop, { once: true });
  try {
    for await (const chunk of gunzipIfCompressed(stream)) {
      if (signal?.aborted === true) return false;
      reader.push(chunk);
    }
  } finally {
    signal?.removeEventListener("abort", stop);
  }
  if (signal?.aborted === true) return false;
  reader.end();
  return true;
}
