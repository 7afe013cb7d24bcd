import { closeSync, openSync } from "node:fs";
import { SignalRecordReader } from "../codec/SignalRecordReader.ts";
import type { InvalidRecord } from "../codec/InvalidRecord.ts";
import { SignalDecoderCore, type SignalDecoderStats, type VendorLookup } from "../codec/SignalDecoderCore.ts";
import type { EpochUnit } from "../codec/inferEpochUnit.ts";
import { rtsCodecForUnit } from "../codec/rts.ts";
import type { Signal } from "../codec/Signal.ts";
import { READ_BYTES, SignalLineReader } from "./SignalLineReader.ts";

/** A byte range of a file: first byte, and the byte after its last (undefined: the end of the file). */
export type ByteRange = readonly [start: number, end: number | undefined];

/**
 * The decoder options of a range reader: those of `SignalDecoderOptions` that can cross to a
 * decode thread (plain data, copied into the thread's `workerData`). A codec crosses as its
 * preset's unit; `onInvalid` does not cross: rejections come back with the batches.
 *
 * @example
 * const decode: ThreadDecoderOptions = { rtsUnit: "ms", clockOffsetsMs: { "b8:27:eb:00:00:01": 2500 } };
 */
export interface ThreadDecoderOptions {
  readonly clockOffsetsMs?: Readonly<Record<string, number>> | undefined;
  readonly rtsUnit?: EpochUnit | undefined;
  readonly shopId?: number | undefined;
  readonly tsUnit?: "auto" | EpochUnit | undefined;
  readonly vendors?: boolean | undefined;
  readonly tsToleranceMs?: number | undefined;
}

/**
 * Reads byte ranges of an NDJSON file of signal records with one decoder: splits lines, parses
 * and decodes each record (`SignalLineReader` + `SignalDecoder`), synchronously. One per decode
 * thread, and one on the thread that runs the engine (see `readInputInThreads`). Vendors are
 * looked up with `vendorOf` (the IEEE list's `vendorOfNormal`) unless `options.vendors` is false;
 * a decode thread gives none, so it does not load the list: its signals get their vendors where
 * they are applied ({@link vendorOfDevice}).
 *
 * @example
 * const file = new RangeReader("day.ndjson", {}, vendorOfNormal);
 * const lines = file.read([0, undefined], (s) => analyzer.pushSignal(s), (line, x) => console.error(line, x.reason));
 * file.stats.decoded; // signals decoded so far, over every range read
 * file.close();
 */
export class RangeReader {
  /** The file's descriptor; -1 for a reader of pieces in memory. */
  readonly #fd: number;
  readonly #decoder: SignalDecoderCore;
  #onInvalid: (line: number, invalid: InvalidRecord) => void = () => {};
  #reader: SignalLineReader | undefined;
  /** One record reader for every range: the file is read into its memory, and it keeps the keys it learns. */
  readonly #records = new SignalRecordReader();

  /**
   * @param path the file whose ranges {@link read} reads, or undefined for a reader of pieces
   *   handed over in memory ({@link readBytes}: a stream's, cut at line ends)
   */
  constructor(path: string | undefined, options: ThreadDecoderOptions, vendorOf: VendorLookup | undefined) {
    this.#fd = path === undefined ? -1 : openSync(path, "r");
    this.#decoder = new SignalDecoderCore({
      onInvalid: (invalid: InvalidRecord) => this.#onInvalid(this.#reader!.line, invalid),
      clockOffsetsMs: options.clockOffsetsMs,
      ...(options.rtsUnit === undefined ? {} : { rtsCodec: rtsCodecForUnit(options.rtsUnit) }),
      // Only those given: the decoder's defaults stay its own.
      ...(options.shopId === undefined ? {} : { shopId: options.shopId }),
      ...(options.tsUnit === undefined ? {} : { tsUnit: options.tsUnit }),
      ...(options.vendors === undefined ? {} : { vendors: options.vendors }),
      ...(options.tsToleranceMs === undefined ? {} : { tsToleranceMs: options.tsToleranceMs }),
    }, vendorOf);
  }

  /** The vendor this reader's decoder gives a signal of `device` (see `SignalDecoderCore#vendorOfDevice`). */
  vendorOfDevice(device: string): string | null | undefined {
    return this.#decoder.vendorOfDevice(device);
  }

  /** The decoder's counters, over every range read so far (a snapshot). */
  get stats(): SignalDecoderStats {
    return this.#decoder.stats;
  }

  /**
   * Reads a range: every decoded signal to `onSignal`, every rejected record to `onInvalid` with
   * its 1-based line number within the range, in order; returns the range's lines. A range that
   * starts the file (byte 0) drops a byte order mark, as reading the whole file on one thread does.
   */
  read([start, end]: ByteRange, onSignal: (signal: Signal) => void, onInvalid: (line: number, invalid: InvalidRecord) => void): number {
    this.#onInvalid = onInvalid;
    // Only the range that starts the file drops a byte order mark: later on it is content.
    const reader = new SignalLineReader(this.#decoder, onSignal, { byteOrderMark: start === 0 ? "drop" : "keep", records: this.#records });
    this.#reader = reader;
    for (let at = start; end === undefined || at < end; ) {
      const read = reader.readFrom(this.#fd, at, end === undefined ? READ_BYTES : Math.min(READ_BYTES, end - at));
      if (read === 0) break;
      at += read;
    }
    reader.end();
    return reader.line;
  }

  /** Closes the file. */
  /**
   * Reads one piece of a stream held in memory: whole lines (the stream cut after a LF, or its
   * last bytes), the first piece's byte order mark dropped. Returns the lines read, as {@link read}.
   *
   * @param bytes the piece (not kept: the caller may reuse its memory once this returns)
   * @param first whether it starts the stream
   * @example
   * const analyzer = new Analyzer();
   * const pieces = new RangeReader(undefined, {}, vendorOfNormal);
   * const piece = Buffer.from('{"row_key":"101:0000019a9ec06410","device_id":"f0:18:98:12:34:56","rssi":-61,' +
   *   '"square_mac":"b8:27:eb:00:00:01","ts":1763600000016,"local":false}\n');
   * pieces.readBytes(piece, true, (s) => analyzer.pushSignal(s), (line, x) => console.error(line, x.reason)); // 1
   */
  readBytes(bytes: Uint8Array, first: boolean, onSignal: (signal: Signal) => void, onInvalid: (line: number, invalid: InvalidRecord) => void): number {
    this.#onInvalid = onInvalid;
    const reader = new SignalLineReader(this.#decoder, onSignal, { byteOrderMark: first ? "drop" : "keep", records: this.#records });
    this.#reader = reader;
    reader.push(bytes);
    reader.end();
    return reader.line;
  }

  close(): void {
    if (this.#fd >= 0) closeSync(this.#fd);
  }
}
