// A decode thread of `footfall analyze --input --threads N` and of `analyzeFile`: claims ranges of
// the file one after another, decodes each (RangeReader) and posts its signals in columns
// (SignalBatch) to the thread that runs the engine. Started by readInputInThreads, by URL: it
// stays beside readInputInThreads (here in src/file/, and as dist/file/decodeWorker.js); not a
// public module.
import { parentPort, workerData } from "node:worker_threads";
import { Pseudonymizer } from "../privacy/Pseudonymizer.ts";
import type { DecodeThreadMessage, DecodeWorkerData, RangeMessage } from "./readInputInThreads.ts";
import { RangeReader } from "./RangeReader.ts";
import { SignalBatchWriter } from "./SignalBatch.ts";

/**
 * The decode thread's work: its first range, then every range it claims next, until none is
 * left; each range's batches, then its `end`; then, when asked, the pseudonyms of every device it
 * decoded, while the engine's thread applies the last batches and closes the day. Runs when this
 * module is a worker started by readInputInThreads (its workerData says so); imported anywhere
 * else it does nothing.
 */
function decodeRanges(data: DecodeWorkerData): void {
  const { path, ranges, first, next, credit, maxOutstanding, decode, pseudonyms, port } = data;
  const claimed = new Int32Array(next);
  const outstanding = new Int32Array(credit);
  // No vendor lookup: the thread that applies the signals looks each device's up once, so this
  // thread never loads the OUI list (~0.2 s of its CPU on the big shop-day).
  const file = new RangeReader(path, decode, undefined);
  const writer = new SignalBatchWriter();
  const post = (range: number): void => {
    const { batch, transfer } = writer.take();
    port.postMessage({ type: "batch", range, batch } satisfies RangeMessage, transfer);
    // Bounded read-ahead: wait while the engine thread has this many of our batches still to apply.
    Atomics.add(outstanding, 0, 1);
    for (let n = Atomics.load(outstanding, 0); n >= maxOutstanding; n = Atomics.load(outstanding, 0)) Atomics.wait(outstanding, 0, n, 1000);
  };
  try {
    for (let r = first; r < ranges.length; r = Atomics.add(claimed, 0, 1)) {
      const lines = file.read(
        ranges[r]!,
        (signal) => {
          if (writer.add(signal)) post(r);
        },
        (line, invalid) => writer.addInvalid(line, invalid),
      );
      post(r); // the rest, and any rejections after the last full batch
      port.postMessage({ type: "end", range: r, stats: file.stats, lines } satisfies RangeMessage);
    }
  } finally {
    file.close();
  }
  if (pseudonyms !== undefined) {
    const p = new Pseudonymizer(pseudonyms);
    const out: string[] = [];
    for (const device of writer.devices()) out.push(p.pseudonym(device));
    port.postMessage({ type: "pseudonyms", pseudonyms: out } satisfies DecodeThreadMessage);
  }
}

if (parentPort !== null && (workerData as Partial<DecodeWorkerData> | null)?.decodeWorker === true) {
  decodeRanges(workerData as DecodeWorkerData);
}
