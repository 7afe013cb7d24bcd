// A decode thread of `footfall analyze --input --threads N` and of `analyzeFile`: claims ranges of
// the file one after another (a stream's pieces alike, as the engine's thread cuts them),
// decodes each (RangeReader) and posts its signals in columns (SignalBatch) to the thread that
// runs the engine. Started by readInputInThreads, by URL: it stays beside readInputInThreads
// (here in src/file/, and as dist/file/decodeWorker.js); not a public module.
import { parentPort, receiveMessageOnPort, workerData } from "node:worker_threads";
import { rawDevice, type DeviceId } from "../analysis/AnalysisRecord.ts";
import { Pseudonymizer } from "../privacy/Pseudonymizer.ts";
import type { InvalidRecord } from "../codec/InvalidRecord.ts";
import type { Signal } from "../codec/Signal.ts";
import type { DecodeWorkerData, PieceMessage, RangeMessage } from "./readInputInThreads.ts";
import { RangeReader } from "./RangeReader.ts";
import { SignalBatchWriter } from "./SignalBatch.ts";
import { SessionLineBatchReader } from "./SessionLineBatch.ts";
import { lowerThreadPriority } from "./lowerThreadPriority.ts";
import type { LineDevice, LinesMessage, RenderedMessage } from "./SessionLineThreads.ts";

/**
 * The decode thread's work: its first range, then every range it claims next, until none is
 * left (a stream's pieces alike, as they are cut, until the stream has ended); each range's
 * batches, then its `end`; then, when asked, the session lines of the batches the engine's thread
 * posts while it closes the day (`SessionLineThreads`). Runs when this module is a worker started
 * by readInputInThreads (its workerData says so); imported anywhere else it does nothing.
 */
function decodeRanges(data: DecodeWorkerData): void {
  const { path, ranges, first, next, credit, maxOutstanding, decode, rts, lines: lineDevice, port } = data;
  const outstanding = new Int32Array(credit);
  // No vendor lookup: the thread that applies the signals looks each device's up once, so this
  // thread never loads the OUI list (~0.2 s of its CPU on the big shop-day).
  const reader = new RangeReader(path, decode, undefined);
  const writer = new SignalBatchWriter({ rts });
  const post = (range: number): void => {
    const { batch, transfer } = writer.take();
    port.postMessage({ type: "batch", range, batch } satisfies RangeMessage, transfer);
    // Bounded read-ahead: wait while the engine thread has this many of our batches still to apply.
    Atomics.add(outstanding, 0, 1);
    for (let n = Atomics.load(outstanding, 0); n >= maxOutstanding; n = Atomics.load(outstanding, 0)) Atomics.wait(outstanding, 0, n, 1000);
  };
  // One range or piece: its batches, then its `end`.
  const decodeOne = (range: number, read: (onSignal: (signal: Signal) => void, onInvalid: (line: number, invalid: InvalidRecord) => void) => number): void => {
    const lines = read(
      (signal) => {
        if (writer.add(signal)) post(range);
      },
      (line, invalid) => writer.addInvalid(line, invalid),
    );
    post(range); // the rest, and any rejections after the last full batch
    port.postMessage({ type: "end", range, stats: reader.stats, lines } satisfies RangeMessage);
  };
  // Session-line batches that came while a stream's pieces were taken from the port (a day
  // decided while the stream is read), written first.
  const early: LinesMessage[] = [];
  const finish = (): void => {
    reader.close();
    if (lineDevice === undefined) return;
    // The lines need only be done when the engine's thread is: on a busy core it goes first.
    lowerThreadPriority();
    writeLines(lineDevice, writer.devices(), port, early);
  };
  const claimed = new Int32Array(next);
  if (path === undefined) {
    // A stream's pieces, claimed as a file's ranges are; each is posted to every decode thread
    // before it is counted as cut, so a claimed piece's message is already on the port.
    const posted = new Map<number, Uint8Array>();
    for (let r = first; ; r = Atomics.add(claimed, 0, 1)) {
      for (let cut = Atomics.load(claimed, 1); r >= cut; cut = Atomics.load(claimed, 1)) {
        if (Atomics.load(claimed, 2) === 1 && r >= Atomics.load(claimed, 1)) return finish();
        Atomics.wait(claimed, 1, cut, 1000);
      }
      while (!posted.has(r)) {
        const got = receiveMessageOnPort(port);
        if (got === undefined) throw new Error(`decode thread: piece ${r} was counted as cut but not posted`);
        const message = got.message as PieceMessage | LinesMessage;
        if (message.type === "piece") posted.set(message.range, message.bytes);
        else early.push(message);
      }
      const bytes = posted.get(r)!;
      // Every piece before it is claimed (claims rise): the others' are let go here.
      for (const earlier of posted.keys()) if (earlier <= r) posted.delete(earlier);
      decodeOne(r, (onSignal, onInvalid) => reader.readBytes(bytes, r === 0, onSignal, onInvalid));
    }
  }
  try {
    for (let r = first; r < ranges.length; r = Atomics.add(claimed, 0, 1)) decodeOne(r, (onSignal, onInvalid) => reader.read(ranges[r]!, onSignal, onInvalid));
  } catch (error) {
    reader.close();
    throw error;
  }
  finish();
}

/**
 * Writes the session lines of the batches that come on `port` until told they end: each batch's
 * lines, as UTF-8 bytes, posted back (moved) with its number. Meanwhile — the engine's thread is
 * still applying the last batches and deciding the day — the devices this thread decoded are
 * hashed, so most pseudonyms are ready when their lines come.
 */
function writeLines(lineDevice: LineDevice, devices: Iterable<string>, port: DecodeWorkerData["port"], early: readonly LinesMessage[]): void {
  const p = lineDevice === "raw" ? undefined : new Pseudonymizer(lineDevice);
  const device: DeviceId = p === undefined ? rawDevice : (mac, date) => p.pseudonym(mac, date);
  const reader = new SessionLineBatchReader();
  const encoder = new TextEncoder();
  const take = (message: LinesMessage | PieceMessage): void => {
    // A stream's pieces this thread did not claim may still be queued: not for it.
    if (message.type === "lines-end") port.close();
    else if (message.type === "lines") {
      const bytes = encoder.encode(reader.lines(message.batch, device));
      port.postMessage({ type: "rendered", index: message.index, bytes } satisfies RenderedMessage, [bytes.buffer as ArrayBuffer]);
    }
  };
  for (const message of early) take(message);
  if (p?.rotation === "none") for (const d of devices) p.pseudonym(d);
  port.on("message", take);
}

if (parentPort !== null && (workerData as Partial<DecodeWorkerData> | null)?.decodeWorker === true) {
  decodeRanges(workerData as DecodeWorkerData);
}
