import type { MessagePort } from "node:worker_threads";
import type { PseudonymizerOptions } from "../privacy/Pseudonymizer.ts";
import type { SessionRecordSource } from "../analysis/sessionRecord.ts";
import { LINES_PER_BATCH, SessionLineBatchWriter, type SessionLineBatch } from "./SessionLineBatch.ts";

/**
 * How the session lines that decode threads write show a device: with the output's pseudonymizer
 * (its `copyOptions()`: every thread gives the same pseudonyms), or as the raw MAC (`--raw-macs`).
 *
 * @example
 * const device: LineDevice = new Pseudonymizer({ key: new Uint8Array(16).fill(1) }).copyOptions();
 */
export type LineDevice = Required<PseudonymizerOptions> | "raw";

/**
 * Session lines wanted from a read's decode threads (`readInputInThreads`, `readSignalInput`):
 * how they write a device, and what is given the lines they write, before the first record.
 *
 * @example
 * let written: SessionLineThreads | undefined;
 * const request: SessionLinesRequest = { device: "raw", onThreads: (lines) => (written = lines) };
 */
export interface SessionLinesRequest {
  readonly device: LineDevice;
  /** Sessions a batch holds. @default LINES_PER_BATCH (2 048) */
  readonly batch?: number | undefined;
  readonly onThreads: (lines: SessionLineThreads) => void;
}

/**
 * What the thread that classifies posts a decode thread that writes session lines: a batch of
 * sessions (number `index` of all), or the end (no batch follows; the thread may end).
 */
export type LinesMessage = { readonly type: "lines"; readonly index: number; readonly batch: SessionLineBatch } | { readonly type: "lines-end" };

/** What a decode thread posts back: batch number `index`'s lines as UTF-8 bytes. */
export type RenderedMessage = { readonly type: "rendered"; readonly index: number; readonly bytes: Uint8Array };

/**
 * The session lines of one analysis, written by its decode threads while this thread goes on
 * (`readInputInThreads` with `sessionLines`): once a file is read, a decode thread has nothing to
 * do while this one closes the day — the classification, the people estimate — and writing 47 000
 * session lines was a fifth of that close on the big shop-day. Each classified session is put in
 * a column batch here as it is emitted ({@link push}); each full batch goes to the threads in
 * turn, which write its lines with the one `sessionRecord` and post them back as bytes;
 * {@link finish} sends the last batch and gives every batch's lines in order. The lines are
 * exactly those `analysisRecords` gives for the analysis's `sessions`.
 *
 * @example
 * // (readInputInThreads gives it the decode threads' ports and taps the analyzer: lines.push(s).)
 * const { port1 } = new MessageChannel();
 * const lines = new SessionLineThreads([port1]);
 * const written = await lines.finish(); // no session pushed: no batch to wait for
 * port1.close();
 * written.length; // 0
 */
export class SessionLineThreads {
  readonly #ports: readonly MessagePort[];
  /** One per thread: a thread's batches share a string table that only it reads. */
  readonly #writers: SessionLineBatchWriter[];
  readonly #chunks: Uint8Array[] = [];
  /** Per thread, batches posted to it whose lines have not come back. */
  readonly #outstanding: number[];
  #posted = 0;
  #received = 0;
  #ended = false;
  #failure: unknown = undefined;
  #settle: ((error?: unknown) => void) | undefined;

  /**
   * @param ports where the decode threads take batches ({@link LinesMessage}); their {@link RenderedMessage}s go to {@link accept}
   * @param batch sessions a batch holds
   */
  constructor(ports: readonly MessagePort[], batch = LINES_PER_BATCH) {
    if (ports.length === 0) throw new RangeError("SessionLineThreads: no thread to write lines on");
    this.#ports = ports;
    this.#outstanding = ports.map(() => 0);
    this.#writers = ports.map(() => new SessionLineBatchWriter(batch));
  }

  /** One classified session, in the order of the analysis's `sessions`. */
  push(s: SessionRecordSource): void {
    if (this.#ended) throw new Error("SessionLineThreads: push after finish");
    if (this.#writers[this.#posted % this.#ports.length]!.add(s)) this.#post();
  }

  /** Batch `index`'s lines, from a decode thread. */
  accept(message: RenderedMessage): void {
    this.#chunks[message.index] = message.bytes;
    this.#outstanding[message.index % this.#ports.length]!--;
    this.#received++;
    this.#check();
  }

  /**
   * Thread number `thread` (of the ports' order) has ended, its messages all taken: if it ended
   * before the lines did, or with batches of its own not written, {@link finish} rejects.
   */
  ended(thread: number): void {
    if (!this.#ended || this.#outstanding[thread]! > 0) this.fail(new Error("a decode thread ended before writing its session lines"));
  }

  /** Stops with `error`: {@link finish} rejects with it (a thread failed or ended too soon). */
  fail(error: unknown): void {
    if (this.#failure !== undefined || (this.#ended && this.#received === this.#posted)) return;
    this.#failure = error;
    this.#check();
  }

  /**
   * Sends the last batch and tells the threads no more follow; resolves with every batch's lines
   * in order once all are back, rejects when a thread fails first. Call once.
   */
  finish(): Promise<readonly Uint8Array[]> {
    if (this.#ended) throw new Error("SessionLineThreads: finish twice");
    if (this.#failure === undefined && this.#writers[this.#posted % this.#ports.length]!.count > 0) this.#post();
    this.#ended = true;
    if (this.#failure === undefined) for (const port of this.#ports) port.postMessage({ type: "lines-end" } satisfies LinesMessage);
    return new Promise<readonly Uint8Array[]>((resolve, reject) => {
      this.#settle = (error) => (error === undefined ? resolve(this.#chunks) : reject(error));
      this.#check();
    });
  }

  #post(): void {
    const index = this.#posted;
    const thread = index % this.#ports.length;
    const batch = this.#writers[thread]!.take();
    if (this.#failure !== undefined) return; // nobody will write it
    this.#posted++;
    this.#outstanding[thread]!++;
    this.#ports[thread]!.postMessage({ type: "lines", index, batch } satisfies LinesMessage);
  }

  #check(): void {
    const settle = this.#settle;
    if (settle === undefined) return;
    if (this.#failure !== undefined) settle(this.#failure);
    else if (this.#received === this.#posted) settle();
    else return;
    this.#settle = undefined;
  }
}
