import { internMac } from "./internMac.ts";
import type { SignalFields } from "./SignalDecoderCore.ts";
import { RECORD_LAYOUT, RECORD_OUT } from "./signalRecordLayout.ts";
import { SIGNAL_RECORD_WASM } from "./signalRecordWasm.ts";

const PAGE = 65_536;

/** The module, compiled once per thread on first use (~3 KB: synchronous compiling is allowed and quick). */
let compiled: WebAssembly.Module | undefined;

/** What the module exports. */
interface RecordExports {
  readonly memory: WebAssembly.Memory;
  readonly record: (start: number, limit: number) => number;
}

/**
 * Footfall's one fast path for signal records: reads a record of the service's usual shape
 * straight from its bytes into `out`, for `SignalDecoder.decodeFields`, without a string or object
 * for the line or its fields (only the RTS becomes a string, and each MAC once per MAC, interned by
 * its value). Any other record is read by `JSON.parse` and `SignalDecoder.decode`, the one general
 * path, which this reader never contradicts: it only recognises, the decoder decides.
 *
 * The rule runs in WebAssembly (`signalRecordWat.ts` says it byte by byte), over input the caller
 * writes into the reader's own memory: {@link input} gives that memory as a `Uint8Array`, and
 * {@link read} reads one record of it. The usual shape: `{"row_key":"<shop digits>:<16 hex
 * digits>","device_id":"<MAC>","rssi":<int>,"square_mac":"<MAC>","ts":<int ≥ 0>,"local":<true|false>`
 * — the six service fields first, in the interface's order, without whitespace — then any further
 * fields with plain values (those `footfall signals backfill` adds, or others) and `}`. Within it,
 * what the decoder's syntax checks accept in the same form: a SHOP ID of at most 15 digits, an RTS
 * of either case (given in lowercase, as the decoder does), MACs in every layout `toNormalMac`
 * accepts (given in their normal form), integers that are safe (exact) for `rssi` and `ts`.
 * Anything else — escapes, whitespace, another key order, a missing, repeated or differently typed
 * field, a fraction or exponent, a leading zero, a negative `ts`, a MAC or RTS in no accepted form,
 * nested values, a record cut short by the limit — is left to the general path (−1).
 *
 * Only ASCII is compared, and every other byte is treated alike, so a multi-byte character, valid
 * UTF-8 or not, is accepted exactly where `JSON.parse` of the decoded text accepts it: inside a
 * string of a further field. One reader per input being read (`SignalLineReader` keeps one): it
 * learns the further fields' keys from record to record, and its memory holds one input.
 *
 * @example
 * const reader = new SignalRecordReader();
 * const line = '{"row_key":"101:0000019A9EC06410","device_id":"F0-18-98-12-34-56","rssi":-61,' +
 *   '"square_mac":"b8:27:eb:00:00:01","ts":1763600000016,"local":false,"shopId":101}';
 * const { written: length } = new TextEncoder().encodeInto(line, reader.input(line.length));
 * const out = {} as SignalFields;
 * reader.read(0, length, out) === line.length;                // true
 * [out.shopId, out.rts, out.device, out.rssi];   // [101, "0000019a9ec06410", "f0:18:98:12:34:56", -61]
 * reader.read(0, length - 1, out);                            // -1: cut short
 */
export class SignalRecordReader {
  readonly #memory: WebAssembly.Memory;
  readonly #record: (start: number, limit: number) => number;
  /** Views of the whole memory, made again when it grows (growing detaches the old buffer). */
  #bytes: Uint8Array;
  #doubles: Float64Array;
  #ints: Int32Array;
  /** Input bytes the memory holds, from RECORD_LAYOUT.input (its padding after them). */
  #capacity: number;

  constructor() {
    compiled ??= new WebAssembly.Module(Uint8Array.from(atob(SIGNAL_RECORD_WASM), (c) => c.charCodeAt(0)));
    const exports = new WebAssembly.Instance(compiled).exports as unknown as RecordExports;
    this.#memory = exports.memory;
    this.#record = exports.record;
    this.#bytes = new Uint8Array(0);
    this.#doubles = new Float64Array(0);
    this.#ints = new Int32Array(0);
    this.#capacity = 0;
    this.#views();
  }

  /**
   * The reader's input, `length` bytes of its memory (growing it as needed), to write into:
   * {@link read} reads from it, offsets counted from its start. Growing the memory detaches the
   * arrays given before, so take a new one after each call; what they held is kept.
   */
  input(length: number): Uint8Array {
    if (!Number.isSafeInteger(length) || length < 0) throw new RangeError(`SignalRecordReader.input: a byte count, got ${length}`);
    if (length > this.#capacity) {
      const needed = RECORD_LAYOUT.input + length + RECORD_LAYOUT.padding;
      this.#memory.grow(Math.ceil(needed / PAGE) - this.#memory.buffer.byteLength / PAGE);
      this.#views();
    }
    return new Uint8Array(this.#memory.buffer, RECORD_LAYOUT.input, length);
  }

  /**
   * Reads the record of the usual shape that starts at `start` of the input and ends before `limit`
   * (≤ the input's length; no byte at or after it is read as part of the record) into `out`:
   * returns the offset after its `}` (the caller checks that the line ends there), or −1 when the
   * bytes are not such a record (then `out` is left as it was or partly written).
   */
  read(start: number, limit: number, out: SignalFields): number {
    if (!(limit <= this.#capacity)) throw new RangeError(`SignalRecordReader.read: limit ${limit} is past the input (${this.#capacity} bytes)`);
    const base = RECORD_LAYOUT.input;
    const end = this.#record(base + start, base + limit);
    if (end < 0) return -1;
    const doubles = this.#doubles;
    const ints = this.#ints;
    out.shopId = doubles[DOUBLE_SHOP_ID]!;
    out.rts = this.#rtsText(ints[INT_RTS_AT]!);
    out.rtsValue = doubles[DOUBLE_RTS_VALUE]!;
    out.device = internMac(ints[INT_DEVICE_HIGH]!, ints[INT_DEVICE_LOW]!);
    out.rssi = doubles[DOUBLE_RSSI]!;
    out.sensor = internMac(ints[INT_SENSOR_HIGH]!, ints[INT_SENSOR_LOW]!);
    out.ts = doubles[DOUBLE_TS]!;
    out.local = ints[INT_LOCAL] === 1;
    return end - base;
  }

  #views(): void {
    const buffer = this.#memory.buffer;
    this.#bytes = new Uint8Array(buffer);
    this.#doubles = new Float64Array(buffer, 0, RECORD_LAYOUT.learned / 8);
    this.#ints = new Int32Array(buffer, 0, RECORD_LAYOUT.learned / 4);
    this.#capacity = buffer.byteLength - RECORD_LAYOUT.input - RECORD_LAYOUT.padding;
  }

  /**
   * The 16 hex digits at `at` as a lowercase string (footfall's one spelling of an RTS): one flat
   * string of its own, never a view into the input (a signal can outlive its chunk in the engine's
   * reorder buffer). `| 0x20` lowercases a hex letter and leaves a digit as it is.
   */
  #rtsText(at: number): string {
    const b = this.#bytes;
    return String.fromCharCode(
      b[at]! | 0x20, b[at + 1]! | 0x20, b[at + 2]! | 0x20, b[at + 3]! | 0x20,
      b[at + 4]! | 0x20, b[at + 5]! | 0x20, b[at + 6]! | 0x20, b[at + 7]! | 0x20,
      b[at + 8]! | 0x20, b[at + 9]! | 0x20, b[at + 10]! | 0x20, b[at + 11]! | 0x20,
      b[at + 12]! | 0x20, b[at + 13]! | 0x20, b[at + 14]! | 0x20, b[at + 15]! | 0x20,
    );
  }
}

// Indexes of the outputs in the memory's doubles and ints (RECORD_OUT's offsets, from RECORD_LAYOUT.out).
const DOUBLE_SHOP_ID = (RECORD_LAYOUT.out + RECORD_OUT.shopId) / 8;
const DOUBLE_RTS_VALUE = (RECORD_LAYOUT.out + RECORD_OUT.rtsValue) / 8;
const DOUBLE_RSSI = (RECORD_LAYOUT.out + RECORD_OUT.rssi) / 8;
const DOUBLE_TS = (RECORD_LAYOUT.out + RECORD_OUT.ts) / 8;
const INT_DEVICE_HIGH = (RECORD_LAYOUT.out + RECORD_OUT.deviceHigh) / 4;
const INT_DEVICE_LOW = (RECORD_LAYOUT.out + RECORD_OUT.deviceLow) / 4;
const INT_SENSOR_HIGH = (RECORD_LAYOUT.out + RECORD_OUT.sensorHigh) / 4;
const INT_SENSOR_LOW = (RECORD_LAYOUT.out + RECORD_OUT.sensorLow) / 4;
const INT_LOCAL = (RECORD_LAYOUT.out + RECORD_OUT.local) / 4;
const INT_RTS_AT = (RECORD_LAYOUT.out + RECORD_OUT.rtsAt) / 4;
