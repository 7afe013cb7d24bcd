import { Buffer } from "node:buffer";
import type { SignalDecoder, SignalFields } from "../codec/decodeSignal.ts";
import { notJson, parseSignalLine, recordsOfLine, scanSignalLine } from "../codec/parseSignalLine.ts";
import type { Signal } from "../codec/Signal.ts";
import { dropsByteOrderMark, type LineSplitterOptions } from "../text/LineSplitter.ts";
import { splitLines, type LineRangeHandler } from "../text/splitLines.ts";

/**
 * Options of {@link SignalLineReader}: those of `LineSplitter` (`byteOrderMark`: `"drop"` when the
 * bytes start a file, `"keep"` for a part read from its middle).
 *
 * @example
 * const options: SignalLineReaderOptions = { byteOrderMark: "keep" };
 */
export type SignalLineReaderOptions = LineSplitterOptions;

/**
 * Reads an NDJSON input of signal records from its bytes (chunks of a file or of standard input)
 * — a record per line, or a page body or JSON array of records on a line (`recordsOfLine`) — into
 * `decoder`, calling `onSignal` with each signal in input order; rejected lines go to the
 * decoder's one invalid-record channel (`not-json` for a line that is not JSON), and {@link line}
 * tells which line is being read while it reports them.
 *
 * Why bytes: the chunks are read as Latin-1 (a copy, no UTF-8 decoding) and split into lines by
 * the one line rule, `splitLines` (LF, CRLF, lone CR; blank lines skipped), and a line of the
 * service's common shape is read by `scanSignalLine` straight into the decoder
 * (`SignalDecoder.decodeFields`), with no string or object per field. Any other line — and a
 * record of that shape that the decoder would reject — is decoded from UTF-8 and read by
 * `parseSignalLine` and `SignalDecoder.decode`, as every line once was. On a big shop-day
 * (1.7 M lines) this took the parse path from about half of `footfall analyze --input` to well
 * under it; the results, rejections included, are those of reading UTF-8 text line by line.
 *
 * @example
 * import { SignalDecoder, type Signal } from "footfall";
 * const got: Signal[] = [];
 * const decoder = new SignalDecoder();
 * const reader = new SignalLineReader(decoder, (s) => got.push(s));
 * reader.push(Buffer.from('{"row_key":"101:0000019a9ec06410","device_id":"f0:18:98:12:34:56","rssi":-61,'));
 * reader.push(Buffer.from('"square_mac":"b8:27:eb:00:00:01","ts":1763600000016,"local":false}\n{oops\n'));
 * reader.end();
 * [got.length, got[0]?.rssi, decoder.stats.invalidByReason["not-json"]]; // [1, -61, 1]
 */
export class SignalLineReader {
  readonly #decoder: SignalDecoder;
  readonly #onSignal: (signal: Signal) => void;
  readonly #dropBom: boolean;
  // One object, refilled for every line the fast reader takes.
  readonly #fields: SignalFields = { shopId: 0, rts: "", rtsValue: 0, device: "", rssi: 0, sensor: "", ts: 0, local: false };
  readonly #emit: LineRangeHandler = (text, start, end) => this.#read(text, start, end);
  /** The unfinished last line of the chunks so far. */
  #rest: Buffer = Buffer.alloc(0);
  /** The bytes `splitLines` is splitting now (the rest and a chunk), of which it splits the Latin-1 reading. */
  #bytes: Buffer = this.#rest;
  #line = 0;

  constructor(decoder: SignalDecoder, onSignal: (signal: Signal) => void, options: SignalLineReaderOptions = {}) {
    this.#decoder = decoder;
    this.#onSignal = onSignal;
    this.#dropBom = dropsByteOrderMark(options);
  }

  /** The 1-based number of the line being read (after {@link end}: of the last line; 0 before the first). */
  get line(): number {
    return this.#line;
  }

  /** Reads the lines a chunk of the input completes. */
  push(chunk: Uint8Array): void {
    let bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    if (this.#rest.length > 0) {
      // Only the line that spans the two chunks is copied (not the whole chunk): up to the chunk's
      // first LF, after which every line lies in the chunk (an LF always ends a line, and the CR of
      // a CRLF comes before it).
      const lf = bytes.indexOf(10);
      if (lf < 0) bytes = Buffer.concat([this.#rest, bytes]);
      else {
        const joined = Buffer.concat([this.#rest, bytes.subarray(0, lf + 1)]);
        this.#split(joined, false);
        bytes = bytes.subarray(lf + 1);
      }
    }
    this.#rest = bytes.subarray(this.#split(bytes, false));
  }

  /** Reads the last line (one without a line end). */
  end(): void {
    this.#split(this.#rest, true);
    this.#rest = Buffer.alloc(0);
  }

  #split(bytes: Buffer, final: boolean): number {
    this.#bytes = bytes;
    return splitLines(bytes.toString("latin1"), final, this.#emit);
  }

  #read(text: string, start: number, end: number): void {
    const lineNo = ++this.#line;
    const bytes = this.#bytes;
    if (lineNo === 1 && this.#dropBom && end - start >= 3 && bytes[start] === 0xef && bytes[start + 1] === 0xbb && bytes[start + 2] === 0xbf) start += 3;
    const decoder = this.#decoder;
    const fields = this.#fields;
    if (scanSignalLine(bytes, text, start, end, fields)) {
      const signal = decoder.decodeFields(fields);
      if (signal !== undefined) {
        this.#onSignal(signal);
        return;
      }
    }
    // The line as the input's text: decoded from UTF-8 on its own, which gives what decoding the
    // whole input does (a byte below 0x80 always stands for itself, even after a broken sequence).
    const line = bytes.toString("utf8", start, end);
    if (line.trim() === "") return;
    let record: unknown;
    try {
      // JSON.parse's result for every field the decoder reads, without building the rest.
      record = parseSignalLine(line);
    } catch {
      decoder.reject(notJson(line));
      return;
    }
    const records = recordsOfLine(record);
    if (records === undefined) {
      const signal = decoder.decode(record);
      if (signal !== undefined) this.#onSignal(signal);
      return;
    }
    for (const one of records) {
      const signal = decoder.decode(one);
      if (signal !== undefined) this.#onSignal(signal);
    }
  }
}
