import { Buffer } from "node:buffer";
import { readSync } from "node:fs";
import type { SignalDecoderCore, SignalFields } from "../codec/SignalDecoderCore.ts";
import { notJson, parseSignalLine, recordsOfLine } from "../codec/parseSignalLine.ts";
import type { Signal } from "../codec/Signal.ts";
import { SignalRecordReader } from "../codec/SignalRecordReader.ts";
import { dropsByteOrderMark, type LineSplitterOptions } from "../text/LineSplitter.ts";

/**
 * Options of {@link SignalLineReader}: those of `LineSplitter` (`byteOrderMark`: `"drop"` when the
 * bytes start a file, `"keep"` for a part read from its middle), and the `SignalRecordReader` to
 * read with (default: one of its own). A caller that reads many inputs one after another, as a
 * decode thread reads its ranges, passes one reader to each line reader in turn and so keeps one
 * memory and the keys it learned; two line readers in use at once must not share one.
 *
 * @example
 * const options: SignalLineReaderOptions = { byteOrderMark: "keep", records: new SignalRecordReader() };
 */
export type SignalLineReaderOptions = LineSplitterOptions & { readonly records?: SignalRecordReader | undefined };

/**
 * Reads an NDJSON input of signal records from its bytes (chunks of a file or of standard input)
 * — a record per line, or a page body or JSON array of records on a line (`recordsOfLine`) — into
 * `decoder`, calling `onSignal` with each signal in input order; rejected lines go to the
 * decoder's one invalid-record channel (`not-json` for a line that is not JSON), and {@link line}
 * tells which line is being read while it reports them.
 *
 * Why bytes: a line of the service's usual shape is read by `SignalRecordReader` straight from the
 * input's bytes into the decoder (`SignalDecoder.decodeFields`) — no UTF-8 decoding, no string for
 * the line or its fields, one pass over each MAC — and its end found on the way (the line ends
 * right after the record's `}`). Any other line is found by the line rule and read the general
 * way: decoded from UTF-8, `parseSignalLine` (`JSON.parse`) and `SignalDecoder.decode`; so is a
 * record of the usual shape that the decoder's remaining checks refuse, which the general path
 * then rejects with its reason, message and record. The line rule is `splitLines`': LF, CRLF and a
 * lone CR end a line, blank lines count and are skipped. So the results, rejections and line
 * numbers included, are those of reading the input as UTF-8 text line by line with `JSON.parse`
 * (a property test compares the two on arbitrary bytes and chunking, and on real captures). A
 * backfill line of the big shop-day (bench row 8) takes ~0.35 µs in the record reader
 * (docs/performance.md, "The byte reader").
 *
 * The input is read from the record reader's memory: `push` copies a chunk there (so the caller
 * may reuse its chunk once `push` returns), and {@link reserve} and {@link commit} let a caller
 * read the next bytes straight into it, as `RangeReader` does from a file. The unfinished last line
 * stays there, before the next bytes.
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
  readonly #decoder: SignalDecoderCore;
  readonly #onSignal: (signal: Signal) => void;
  readonly #dropBom: boolean;
  readonly #records: SignalRecordReader;
  // One object, refilled for every record the byte reader takes.
  readonly #fields: SignalFields = { shopId: 0, rts: "", rtsValue: 0, device: "", rssi: 0, sensor: "", ts: 0, local: false };
  /** Bytes of the unfinished last line, at the start of the record reader's input. */
  #rest = 0;
  /** Bytes of the room the last `reserve` gave, until it is committed. */
  #reserved = 0;
  #line = 0;

  constructor(decoder: SignalDecoderCore, onSignal: (signal: Signal) => void, options: SignalLineReaderOptions = {}) {
    this.#decoder = decoder;
    this.#onSignal = onSignal;
    this.#dropBom = dropsByteOrderMark(options);
    this.#records = options.records ?? new SignalRecordReader();
  }

  /** The 1-based number of the line being read (after {@link end}: of the last line; 0 before the first). */
  get line(): number {
    return this.#line;
  }

  /**
   * Reads the lines a chunk of the input completes. The chunk is not kept: the caller may refill
   * its memory once `push` returns.
   */
  push(chunk: Uint8Array): void {
    this.reserve(chunk.length).set(chunk);
    this.commit(chunk.length);
  }

  /**
   * Room for the next `size` bytes of the input in the reader's own memory, to read them into
   * straight from a file (no copy); then {@link commit} the bytes written. Valid until the next
   * call of any other method.
   *
   * @example
   * const got: Signal[] = [];
   * const lines = new SignalLineReader(new SignalDecoder(), (s) => got.push(s));
   * const into = lines.reserve(1 << 20); // as readSync(fd, into, 0, into.length, position) would fill it:
   * const written = into.write('{"row_key":"101:0000019a9ec06410","device_id":"f0:18:98:12:34:56","rssi":-61,' +
   *   '"square_mac":"b8:27:eb:00:00:01","ts":1763600000016,"local":false}\n', "latin1");
   * lines.commit(written);
   * got.length; // 1
   */
  reserve(size: number): Buffer {
    const input = this.#records.input(this.#rest + size);
    this.#reserved = size;
    return Buffer.from(input.buffer, input.byteOffset + this.#rest, size);
  }

  /**
   * Reads up to `size` bytes of the file `fd` at `position` (null: where the file is) straight into
   * the reader's memory ({@link reserve}, `readSync`, {@link commit}) and reads the lines they
   * complete; returns the bytes read (0: the end of the file).
   *
   * @example
   * import { closeSync, openSync, writeFileSync } from "node:fs";
   * writeFileSync("one.ndjson", '{"row_key":"101:0000019a9ec06410","device_id":"f0:18:98:12:34:56","rssi":-61,' +
   *   '"square_mac":"b8:27:eb:00:00:01","ts":1763600000016,"local":false}\n');
   * const got: Signal[] = [];
   * const lines = new SignalLineReader(new SignalDecoder(), (s) => got.push(s));
   * const fd = openSync("one.ndjson", "r");
   * while (lines.readFrom(fd, null) > 0);
   * closeSync(fd);
   * lines.end();
   * got.length; // 1
   */
  readFrom(fd: number, position: number | null, size: number = READ_BYTES): number {
    const into = this.reserve(size);
    const read = readSync(fd, into, 0, size, position);
    this.commit(read);
    return read;
  }

  /** Reads the lines of the first `written` bytes of the room {@link reserve} gave. */
  commit(written: number): void {
    if (!(Number.isSafeInteger(written) && written >= 0 && written <= this.#reserved)) {
      throw new RangeError(`SignalLineReader.commit: ${written} bytes written in a room of ${this.#reserved}`);
    }
    this.#reserved = 0;
    const length = this.#rest + written;
    const input = this.#records.input(length);
    const bytes = Buffer.from(input.buffer, input.byteOffset, length);
    const at = this.#read(bytes, false);
    bytes.copyWithin(0, at, length);
    this.#rest = length - at;
  }

  /** Reads the last line (one without a line end). */
  end(): void {
    const input = this.#records.input(this.#rest);
    this.#read(Buffer.from(input.buffer, input.byteOffset, this.#rest), true);
    this.#rest = 0;
  }

  /**
   * Reads every line `bytes` ends (with `final`, the rest too) and returns where the unfinished
   * rest starts. The line rule is `splitLines`': LF, CRLF and a lone CR each end a line (a CR at
   * the very end is held back, as the next chunk may begin with its LF); blank lines count.
   */
  #read(bytes: Buffer, final: boolean): number {
    const decoder = this.#decoder;
    const records = this.#records;
    const fields = this.#fields;
    const length = bytes.length;
    // The next LF and CR at or after `at` (−1: none), each searched (natively) only once passed,
    // so a file of lines the byte reader leaves to the general path stays linear.
    let lf = -2;
    let cr = -2;
    let at = 0;
    while (at < length) {
      let start = at;
      if (this.#line === 0 && this.#dropBom && length - start >= 3 && bytes[start] === 0xef && bytes[start + 1] === 0xbb && bytes[start + 2] === 0xbf) start += 3;
      // A record of the usual shape is read from its bytes, and its end found on the way: the
      // line ends right after its `}`, or it is not a line of that shape.
      const end = records.read(start, length, fields);
      if (end >= 0) {
        const next = end < length ? lineAfter(bytes, end, final) : final ? length : HELD;
        if (next === HELD) return at;
        if (next >= 0) {
          this.#line++;
          const signal = decoder.decodeFields(fields);
          if (signal !== undefined) this.#onSignal(signal);
          // A record the decoder's remaining checks refuse: rejected by the general path, which
          // gives its reason, message and record.
          else this.#readText(bytes, start, end);
          at = next;
          continue;
        }
      }
      // Any other line: found by the line rule, then read as text.
      if (lf !== -1 && lf < at) lf = bytes.indexOf(LF, at);
      if (cr !== -1 && cr < at) cr = bytes.indexOf(CR, at);
      const stop = lf < 0 ? (cr < 0 ? length : cr) : cr < 0 ? lf : Math.min(lf, cr);
      const next = stop < length ? lineAfter(bytes, stop, final) : final ? length : HELD;
      if (next === HELD) return at;
      this.#line++;
      this.#readText(bytes, start, stop);
      at = next;
    }
    return at;
  }

  /**
   * The general path for the line `bytes[start, end)`: decoded from UTF-8 on its own (which gives
   * what decoding the whole input does: a byte below 0x80 always stands for itself, even after a
   * broken sequence), `JSON.parse`, and `SignalDecoder.decode` for its record or records.
   */
  #readText(bytes: Buffer, start: number, end: number): void {
    const decoder = this.#decoder;
    const line = bytes.toString("utf8", start, end);
    if (line.trim() === "") return;
    let record: unknown;
    try {
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

/**
 * Bytes {@link SignalLineReader.readFrom} reads at a time unless told: a megabyte, which the
 * reader's memory holds once however many reads there are.
 *
 * @example
 * READ_BYTES; // 1048576
 */
export const READ_BYTES = 1 << 20;

const LF = 10;
const CR = 13;
/** What {@link lineAfter} returns for a CR that ends the bytes so far: the next chunk decides. */
const HELD = -2;

/**
 * Where the next line starts when a line ends at `at` (a byte of `bytes`): after its LF, CRLF or
 * lone CR; −1 when the byte there ends no line; {@link HELD} for a CR at the very end of bytes that
 * are not `final` (its LF may come in the next chunk).
 */
function lineAfter(bytes: Uint8Array, at: number, final: boolean): number {
  const b = bytes[at];
  if (b === LF) return at + 1;
  if (b !== CR) return -1;
  if (at + 1 < bytes.length) return bytes[at + 1] === LF ? at + 2 : at + 1;
  return final ? at + 1 : HELD;
}
