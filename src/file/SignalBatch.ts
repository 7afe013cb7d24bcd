import type { InvalidRecord } from "../codec/decodeSignal.ts";
import type { Signal } from "../codec/Signal.ts";

/**
 * Decoded signals in columns, as a decode thread posts them to the thread that runs the engine:
 * typed arrays (moved, not copied) and strings interned once per thread (a device's MAC crosses
 * once, then travels as an index), so a batch costs the receiver one `Signal` literal per record
 * and no parsing. No vendor crosses: it is a function of the device, which the receiver looks up
 * once per device (a decode thread decodes without the OUI list). Batches of one input are in
 * input order; `invalid` lists the records rejected among them, with their 1-based line numbers.
 *
 * @example
 * import { decodeSignal, type Signal } from "footfall";
 * const writer = new SignalBatchWriter();
 * writer.add(decodeSignal({ row_key: "101:0000019a9ec06410", device_id: "f0:18:98:12:34:56", rssi: -61, square_mac: "b8:27:eb:00:00:01", ts: 1763600000016, local: false }) as Signal);
 * const { batch, transfer } = writer.take(); // postMessage(batch, transfer) moves the columns
 * [batch.count, batch.newDevices]; // [1, ["f0:18:98:12:34:56"]]
 */
export interface SignalBatch {
  readonly count: number;
  readonly time: Float64Array;
  readonly shopId: Float64Array;
  readonly rssi: Int8Array;
  /** Bit 0: `local`, bit 1: `randomized`, bits 2+: `flags`. */
  readonly bits: Uint8Array;
  readonly device: Int32Array;
  readonly sensor: Int32Array;
  /**
   * The RTS of every signal, 16 characters each, concatenated; empty when the writer was told the
   * receiver reads none (its signals then come out with an empty `rts`).
   */
  readonly rts: string;
  /** Strings first used in this batch, appended to the receiver's tables in order. */
  readonly newDevices: readonly string[];
  readonly newSensors: readonly string[];
  readonly invalid: readonly { readonly line: number; readonly invalid: InvalidRecord }[];
}

/** Signals per batch: large enough that posting costs little per signal, small enough to keep both threads busy. */
const BATCH = 8192;

/**
 * Fills {@link SignalBatch}es on the decoding side.
 *
 * @example
 * import { decodeSignal, type Signal } from "footfall";
 * const decodedSignals = [0, 1, 2].map((i) => decodeSignal({ row_key: `101:${(1763600000016 + i).toString(16).padStart(16, "0")}`, device_id: "f0:18:98:12:34:56", rssi: -61 - i, square_mac: "b8:27:eb:00:00:01", ts: 1763600000016 + i, local: false }) as Signal);
 * const writer = new SignalBatchWriter();
 * const batches: SignalBatch[] = [];
 * for (const s of decodedSignals) if (writer.add(s)) batches.push(writer.take().batch);
 * batches.push(writer.take().batch);
 * batches.reduce((n, b) => n + b.count, 0) === decodedSignals.length; // true
 */
export class SignalBatchWriter {
  /** Whether the RTS is written (see the constructor). */
  readonly #withRts: boolean;
  readonly #devices = new Map<string, number>();
  readonly #sensors = new Map<string, number>();
  #time = new Float64Array(BATCH);
  #shopId = new Float64Array(BATCH);
  #rssi = new Int8Array(BATCH);
  #bits = new Uint8Array(BATCH);
  #device = new Int32Array(BATCH);
  #sensor = new Int32Array(BATCH);
  // Built by `+=`, a rope that postMessage flattens once, rather than an array joined at `take`:
  // measured, add + take went from ~165 to ~60 ns per signal.
  #rts = "";
  #newDevices: string[] = [];
  #newSensors: string[] = [];
  #invalid: { line: number; invalid: InvalidRecord }[] = [];
  #count = 0;
  #lastSensor: string | undefined = undefined;
  #lastSensorIndex = -1;

  /**
   * @param options `rts: false` when nothing that reads the batches reads a signal's RTS
   * (`Analyzer.readsRts`): it is not written then. Joining ~1.7 M of them into strings, moving and
   * slicing them again cost ~0.13 s of the big shop-day's CPU for a field the analysis orders by
   * last (`canonicalSignalOrder`) and never shows. Default true.
   */
  constructor(options: { readonly rts?: boolean } = {}) {
    this.#withRts = options.rts ?? true;
  }

  /** Signals in the batch being filled. */
  get count(): number {
    return this.#count;
  }

  /** Every device MAC added so far, in the order of their indices (the receiver's `devices`). */
  devices(): IterableIterator<string> {
    return this.#devices.keys();
  }

  /** Adds one signal; returns true when the batch is full (then {@link take} it). */
  add(s: Signal): boolean {
    const i = this.#count++;
    this.#time[i] = s.time;
    this.#shopId[i] = s.shopId;
    this.#rssi[i] = s.rssi;
    this.#bits[i] = (s.local ? 1 : 0) | (s.randomized ? 2 : 0) | ((s.flags ?? 0) << 2);
    this.#device[i] = intern(this.#devices, this.#newDevices, s.device);
    // A shop has a few sensors: the last one's index is usually the one (a string compare, where
    // the table is a hash lookup).
    const sensor = s.sensor;
    if (sensor !== this.#lastSensor) {
      this.#lastSensor = sensor;
      this.#lastSensorIndex = intern(this.#sensors, this.#newSensors, sensor);
    }
    this.#sensor[i] = this.#lastSensorIndex;
    if (this.#withRts) this.#rts += s.rts;
    return this.#count === BATCH;
  }

  /** Notes a rejected record and its line. */
  addInvalid(line: number, invalid: InvalidRecord): void {
    this.#invalid.push({ line, invalid });
  }

  /** The batch so far and the buffers to transfer with it; the writer starts a new one. */
  take(): { batch: SignalBatch; transfer: ArrayBuffer[] } {
    const n = this.#count;
    const batch: SignalBatch = {
      count: n,
      time: this.#time,
      shopId: this.#shopId,
      rssi: this.#rssi,
      bits: this.#bits,
      device: this.#device,
      sensor: this.#sensor,
      rts: this.#rts,
      newDevices: this.#newDevices,
      newSensors: this.#newSensors,
      invalid: this.#invalid,
    };
    const transfer = batchBuffers(batch);
    this.#time = new Float64Array(BATCH);
    this.#shopId = new Float64Array(BATCH);
    this.#rssi = new Int8Array(BATCH);
    this.#bits = new Uint8Array(BATCH);
    this.#device = new Int32Array(BATCH);
    this.#sensor = new Int32Array(BATCH);
    this.#rts = "";
    this.#newDevices = [];
    this.#newSensors = [];
    this.#invalid = [];
    this.#count = 0;
    return { batch, transfer };
  }
}

/**
 * The buffers of a batch's columns: what `postMessage` moves rather than copies.
 *
 * @example
 * const { batch } = new SignalBatchWriter().take();
 * batchBuffers(batch).length; // 6
 */
export function batchBuffers(batch: SignalBatch): ArrayBuffer[] {
  return [batch.time, batch.shopId, batch.rssi, batch.bits, batch.device, batch.sensor].map((a) => a.buffer as ArrayBuffer);
}

/**
 * Turns {@link SignalBatch}es back into `Signal`s on the receiving side, keeping the string
 * tables of one writer. Each device's vendor comes from `vendorOfDevice` once, when the device
 * first crosses (`SignalDecoderCore#vendorOfDevice` of the receiver's decoder: `null` for a
 * universal MAC with no vendor, counted in {@link vendorless}).
 *
 * @example
 * import { decodeSignal, SignalDecoder, type Signal } from "footfall";
 * const decodedSignals = [0, 1, 2].map((i) => decodeSignal({ row_key: `101:${(1763600000016 + i).toString(16).padStart(16, "0")}`, device_id: "f0:18:98:12:34:56", rssi: -61 - i, square_mac: "b8:27:eb:00:00:01", ts: 1763600000016 + i, local: false }) as Signal);
 * const writer = new SignalBatchWriter();
 * for (const s of decodedSignals) writer.add(s);
 * const decoder = new SignalDecoder();
 * const out: Signal[] = [];
 * new SignalBatchReader((d) => decoder.vendorOfDevice(d)).read(structuredClone(writer.take().batch), (s) => out.push(s));
 * out.length === decodedSignals.length; // true
 * out[0]?.vendor; // "Apple, Inc."
 */
export class SignalBatchReader {
  readonly #vendorOfDevice: (device: string) => string | null | undefined;
  readonly #devices: string[] = [];
  /** By device index: its vendor, `null` for none found, `undefined` for none looked up. */
  readonly #vendors: (string | null | undefined)[] = [];
  readonly #sensors: string[] = [];
  /** By device index, whether the share `readShare` reads for owns it. */
  readonly #owned: boolean[] = [];
  #vendorless = 0;

  constructor(vendorOfDevice: (device: string) => string | null | undefined) {
    this.#vendorOfDevice = vendorOfDevice;
  }

  /** Every device MAC read so far, by index: the writer's `devices()` once every batch is read. */
  get devices(): readonly string[] {
    return this.#devices;
  }

  /** Signals read so far whose universal device MAC has no vendor (the decoder's `vendorless` for them). */
  get vendorless(): number {
    return this.#vendorless;
  }

  /**
   * Reads the batch for one share of a device split: each record of a device the share `owns` to
   * `own` as a signal, each other to `tick` as its shop, sensor and time only (no object is made
   * of it), in order. `owns` is asked once per device.
   */
  readShare(
    batch: SignalBatch,
    owns: (device: string) => boolean,
    own: (signal: Signal) => void,
    tick: (shopId: number, sensor: string, time: number) => void,
  ): void {
    this.#addStrings(batch);
    const owned = this.#owned;
    for (let d = owned.length; d < this.#devices.length; d++) owned.push(owns(this.#devices[d]!));
    const { time, shopId, device, sensor } = batch;
    const sensors = this.#sensors;
    const vendors = this.#vendors;
    let from = 0;
    // Runs of owned records are read as signals; the others cost a call each.
    for (let i = 0; i < batch.count; i++) {
      const d = device[i]!;
      if (owned[d]) continue;
      if (i > from) this.#readRange(batch, from, i, own);
      if (vendors[d] === null) this.#vendorless++;
      const id = shopId[i]!;
      tick((id | 0) === id ? id | 0 : id, sensors[sensor[i]!]!, time[i]!);
      from = i + 1;
    }
    if (batch.count > from) this.#readRange(batch, from, batch.count, own);
  }

  /** Calls `each` with every signal of the batch, in order. */
  read(batch: SignalBatch, each: (signal: Signal) => void): void {
    this.#addStrings(batch);
    this.#readRange(batch, 0, batch.count, each);
  }

  #addStrings(batch: SignalBatch): void {
    for (const d of batch.newDevices) {
      this.#devices.push(d);
      this.#vendors.push(this.#vendorOfDevice(d));
    }
    for (const d of batch.newSensors) this.#sensors.push(d);
  }

  #readRange(batch: SignalBatch, from: number, to: number, each: (signal: Signal) => void): void {
    const { time, shopId, rssi, bits, device, sensor, rts } = batch;
    // An empty column: the writer was told nobody reads the RTS; its signals' stays empty too.
    const withRts = rts.length > 0;
    const devices = this.#devices;
    const sensors = this.#sensors;
    const vendors = this.#vendors;
    let vendorless = 0;
    for (let i = from; i < to; i++) {
      const b = bits[i]!;
      const d = device[i]!;
      const v = vendors[d];
      if (v === null) vendorless++;
      // A Float64Array element is a double; the decoder's SHOP ID is a small integer. Stored as
      // it comes, it gave these Signals a map of their own (the field a double), so the engine
      // saw two maps in every threaded read (3 % more CPU on the big shop-day). Integers of
      // int32 range go back to small integers.
      const id = shopId[i]!;
      // The decoder's literal, fields in its order: one hidden class for every Signal.
      each({
        shopId: (id | 0) === id ? id | 0 : id,
        rts: withRts ? rts.slice(i * 16, i * 16 + 16) : "",
        time: time[i]!,
        device: devices[d]!,
        rssi: rssi[i]!,
        sensor: sensors[sensor[i]!]!,
        local: (b & 1) !== 0,
        randomized: (b & 2) !== 0,
        vendor: v ?? undefined,
        flags: b >> 2,
      });
    }
    this.#vendorless += vendorless;
  }
}

function intern(table: Map<string, number>, added: string[], value: string): number {
  let i = table.get(value);
  if (i === undefined) {
    i = table.size;
    table.set(value, i);
    added.push(value);
  }
  return i;
}
