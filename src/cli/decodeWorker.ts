// The decode thread of `footfall analyze --input --threads N`: reads the file, splits lines,
// parses and decodes each record, and posts the signals in columns (SignalBatch) to the thread
// that runs the engine, in input order. Started by readInputInThreads; not a public module.
import { createReadStream } from "node:fs";
import { parentPort, workerData } from "node:worker_threads";
import { SignalDecoder, type InvalidRecord } from "../codec/decodeSignal.ts";
import { notJson, parseSignalLine } from "../codec/parseSignalLine.ts";
import { LineSplitter } from "../text/LineSplitter.ts";
import { SignalBatchWriter } from "./SignalBatch.ts";
import type { DecodeWorkerData, DecodeWorkerMessage } from "./readInputInThreads.ts";

const { path, credit, maxOutstanding } = workerData as DecodeWorkerData;
const port = parentPort!;
const outstanding = new Int32Array(credit);
const writer = new SignalBatchWriter();
let lineNo = 0;
const decoder = new SignalDecoder({ onInvalid: (invalid: InvalidRecord) => writer.addInvalid(lineNo, invalid) });

function post(): void {
  const { batch, transfer } = writer.take();
  port.postMessage({ type: "batch", batch } satisfies DecodeWorkerMessage, transfer);
  // Bounded read-ahead: wait while the engine thread has this many batches still to apply.
  Atomics.add(outstanding, 0, 1);
  for (let n = Atomics.load(outstanding, 0); n >= maxOutstanding; n = Atomics.load(outstanding, 0)) Atomics.wait(outstanding, 0, n, 1000);
}

const splitter = new LineSplitter((text, line) => {
  if (text.trim() === "") return;
  lineNo = line;
  let record: unknown;
  try {
    record = parseSignalLine(text);
  } catch {
    decoder.reject(notJson(text));
    return;
  }
  const signal = decoder.decode(record);
  if (signal !== undefined && writer.add(signal)) post();
});

const stream = createReadStream(path, { highWaterMark: 1 << 20, encoding: "utf8" });
for await (const chunk of stream) splitter.push(chunk as string);
splitter.end();
post(); // the rest, and any rejections after the last full batch
port.postMessage({ type: "end", stats: decoder.stats } satisfies DecodeWorkerMessage);
