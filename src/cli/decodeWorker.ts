// A decode thread of `footfall analyze --input --threads N`: reads its byte ranges of the file,
// splits lines, parses and decodes each record (SignalLineReader), and posts the signals in
// columns (SignalBatch) to the thread that runs the engine, in input order. Started by readInputInThreads; not a
// public module.
import { createReadStream } from "node:fs";
import { parentPort, workerData, type MessagePort } from "node:worker_threads";
import { SignalDecoder, type InvalidRecord } from "../codec/decodeSignal.ts";
import { rtsCodecForUnit } from "../codec/rts.ts";
import { SignalLineReader } from "./SignalLineReader.ts";
import { SignalBatchWriter } from "./SignalBatch.ts";
import type { DecodeWorkerData, DecodeWorkerMessage } from "./readInputInThreads.ts";

/**
 * The decode thread's work: reads its ranges in order, posting each one's batches and then its
 * `end`. Runs when this module is a worker started by readInputInThreads (its workerData says so);
 * imported anywhere else it does nothing.
 */
async function decodeRanges(data: DecodeWorkerData, port: MessagePort): Promise<void> {
  const { path, ranges, credit, maxOutstanding, decode } = data;
  const outstanding = new Int32Array(credit);
  const writer = new SignalBatchWriter();
  // Assigned below, before any record is decoded: rejections carry the reader's line number.
  let reader: SignalLineReader | undefined;
  const decoder = new SignalDecoder({
    onInvalid: (invalid: InvalidRecord) => writer.addInvalid(reader?.line ?? 0, invalid),
    clockOffsetsMs: decode.clockOffsetsMs,
    ...(decode.rtsUnit === undefined ? {} : { rtsCodec: rtsCodecForUnit(decode.rtsUnit) }),
  });

  function post(): void {
    const { batch, transfer } = writer.take();
    port.postMessage({ type: "batch", batch } satisfies DecodeWorkerMessage, transfer);
    // Bounded read-ahead: wait while the engine thread has this many of our batches still to apply.
    Atomics.add(outstanding, 0, 1);
    for (let n = Atomics.load(outstanding, 0); n >= maxOutstanding; n = Atomics.load(outstanding, 0)) Atomics.wait(outstanding, 0, n, 1000);
  }

  for (const [start, end] of ranges) {
    reader = new SignalLineReader(
      decoder,
      (signal) => {
        if (writer.add(signal)) post();
      },
      // Only the first range starts the file: a byte order mark later on is content, as on one thread.
      { byteOrderMark: start === 0 ? "drop" : "keep" },
    );
    // `end` is exclusive here, inclusive for createReadStream.
    const stream = createReadStream(path, { start, ...(end === undefined ? {} : { end: end - 1 }), highWaterMark: 1 << 20 });
    for await (const chunk of stream) reader.push(chunk as Buffer);
    reader.end();
    post(); // the rest, and any rejections after the last full batch
    // The reader's line is now the range's last: the next range's line numbers start after it.
    port.postMessage({ type: "end", stats: decoder.stats, lines: reader.line } satisfies DecodeWorkerMessage);
  }
}

if (parentPort !== null && (workerData as Partial<DecodeWorkerData> | null)?.decodeWorker === true) {
  await decodeRanges(workerData as DecodeWorkerData, parentPort);
}
