import { closeSync, openSync } from "node:fs";
import { setImmediate as turn } from "node:timers/promises";
import type { SignalLineReader } from "./SignalLineReader.ts";

/** Reads between two turns of the event loop (where an abort, a timer or a progress bar runs). */
const READS_A_TURN = 8;

/**
 * Feeds an uncompressed file to a `SignalLineReader` on this thread, reading it straight into the
 * reader's memory (`readFrom`: no chunk allocated per read and no copy), and ends the
 * reader at the file's end. Stops, without ending the reader, once `signal` is aborted (checked
 * every 8 MiB, where the event loop takes a turn). What `readSignalStream` does for a stream
 * (standard input, a pipe, a gzip file), for a regular file: on the big shop-day's 495 MiB it
 * spares ~0.3 s of allocating, faulting in and copying a fresh megabyte a read, and of waiting for
 * each read on libuv's thread (a read from the page cache takes ~0.2 ms; docs/performance.md).
 *
 * @returns whether the file was read to its end (false: aborted)
 * @example
 * import { writeFileSync } from "node:fs";
 * writeFileSync("shop-day.ndjson", [...world.rawSignals(101)].map((r) => JSON.stringify(r)).join("\n"));
 * const analyzer = new Analyzer({ timeZone: "Asia/Seoul" });
 * const reader = new SignalLineReader(analyzer.decoder, (s) => analyzer.pushSignal(s));
 * await readSignalFile("shop-day.ndjson", reader); // true
 * analyzer.finish().days[0]!.shopId; // 101
 */
export async function readSignalFile(path: string, reader: SignalLineReader, signal?: AbortSignal): Promise<boolean> {
  const aborted = (): boolean => signal?.aborted === true;
  const fd = openSync(path, "r");
  try {
    for (let reads = 1; ; reads++) {
      if (reads % READS_A_TURN === 0) await turn();
      if (aborted()) return false;
      if (reader.readFrom(fd, null) === 0) break;
    }
  } finally {
    closeSync(fd);
  }
  if (aborted()) return false;
  reader.end();
  return true;
}
