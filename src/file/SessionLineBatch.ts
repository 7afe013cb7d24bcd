import type { DeviceId } from "../analysis/AnalysisRecord.ts";
import { sessionRecord, type SessionRecordSource } from "../analysis/sessionRecord.ts";

/**
 * What session lines show of classified sessions, in columns, as the thread that classifies
 * posts them to a thread that writes their lines (`SessionLineThreads`): numbers in one typed
 * array, the few texts a day's sessions repeat — date, vendor, nearest sensor,
 * kind, closest zone — as indices into a table each string crosses once, and the devices (MACs)
 * as they are. Made by {@link SessionLineBatchWriter}, read by {@link SessionLineBatchReader}.
 *
 * @example
 * const writer = new SessionLineBatchWriter();
 * writer.add(result.sessions[0]!);
 * const batch = writer.take(); // postMessage(batch) copies it; the writer reuses its arrays
 * batch.count; // 1
 */
export interface SessionLineBatch {
  readonly count: number;
  /**
   * Per session {@link NUMBERS} numbers: shop, start, end, dwell, estimated dwell, signals, peak
   * smoothed RSSI, closest distance, and bits (1 randomized, 2 late, 4 with proximity).
   */
  readonly numbers: Float64Array;
  /** Per session {@link STRINGS} indices into the string table: date, vendor, nearest sensor, kind, closest zone (-1: none). */
  readonly strings: Int32Array;
  readonly devices: readonly string[];
  /** Strings first used in this batch, appended to the reader's table in order. */
  readonly newStrings: readonly string[];
}

/** Sessions per batch: small enough that the last one, written after the analysis ends, is quick. */
export const LINES_PER_BATCH = 2048;
const NUMBERS = 9;
const STRINGS = 5;
const RANDOMIZED = 1;
const LATE = 2;
const PROXIMITY = 4;

/**
 * Fills {@link SessionLineBatch}es on the classifying side.
 *
 * @example
 * const writer = new SessionLineBatchWriter();
 * const batches: SessionLineBatch[] = [];
 * for (const s of result.sessions) if (writer.add(s)) batches.push(structuredClone(writer.take()));
 * batches.push(structuredClone(writer.take()));
 */
export class SessionLineBatchWriter {
  readonly #table = new Map<string, number>();
  readonly #size: number;
  #numbers: Float64Array;
  #strings: Int32Array;
  #devices: string[] = [];
  #newStrings: string[] = [];
  #count = 0;

  /** @param size sessions a batch holds, from 1 ({@link LINES_PER_BATCH} by default) */
  constructor(size = LINES_PER_BATCH) {
    if (!Number.isSafeInteger(size) || size < 1) throw new RangeError(`SessionLineBatchWriter: size must be a whole number from 1, got ${String(size)}`);
    this.#size = size;
    this.#numbers = new Float64Array(size * NUMBERS);
    this.#strings = new Int32Array(size * STRINGS);
  }

  /** Sessions in the batch being filled. */
  get count(): number {
    return this.#count;
  }

  /** Adds one session; returns true when the batch is full (then {@link take} it before adding more). */
  add(s: SessionRecordSource): boolean {
    if (this.#count === this.#size) throw new Error("SessionLineBatchWriter: the batch is full (take it first)");
    const i = this.#count++;
    const n = this.#numbers;
    const at = i * NUMBERS;
    const p = s.proximity;
    n[at] = s.shopId;
    n[at + 1] = s.start;
    n[at + 2] = s.end;
    n[at + 3] = s.dwellMs;
    n[at + 4] = s.estimatedDwellMs;
    n[at + 5] = s.signalCount;
    n[at + 6] = s.peakSmoothedRssi;
    n[at + 7] = p === undefined ? Number.NaN : p.closestDistanceM;
    n[at + 8] = (s.randomized ? RANDOMIZED : 0) | (s.late ? LATE : 0) | (p === undefined ? 0 : PROXIMITY);
    const t = this.#strings;
    const st = i * STRINGS;
    t[st] = this.#intern(s.date);
    t[st + 1] = s.vendor === undefined ? -1 : this.#intern(s.vendor);
    t[st + 2] = this.#intern(s.nearestSensor);
    t[st + 3] = this.#intern(s.kind);
    t[st + 4] = p === undefined ? -1 : this.#intern(p.closestZone);
    this.#devices.push(s.device);
    return this.#count === this.#size;
  }

  /**
   * The batch so far; the writer starts the next one in the same typed arrays, so post (or copy)
   * the batch before adding more. `postMessage` copies them (~0.2 MB a batch): cheaper than two
   * new zeroed arrays a batch, whose fresh pages cost more than the copy.
   */
  take(): SessionLineBatch {
    const batch: SessionLineBatch = { count: this.#count, numbers: this.#numbers, strings: this.#strings, devices: this.#devices, newStrings: this.#newStrings };
    this.#devices = [];
    this.#newStrings = [];
    this.#count = 0;
    return batch;
  }

  #intern(value: string): number {
    let i = this.#table.get(value);
    if (i === undefined) {
      i = this.#table.size;
      this.#table.set(value, i);
      this.#newStrings.push(value);
    }
    return i;
  }
}

/**
 * Reads {@link SessionLineBatch}es of one writer, in the order they were taken, on the writing
 * side: each session as what its line shows ({@link SessionRecordSource}), or its lines at once.
 *
 * @example
 * const some = result.sessions.slice(0, 10);
 * const writer = new SessionLineBatchWriter();
 * for (const s of some) writer.add(s);
 * const text = new SessionLineBatchReader().lines(structuredClone(writer.take()), rawDevice);
 * text.split("\n").length - 1 === some.length; // true
 */
export class SessionLineBatchReader {
  readonly #table: string[] = [];

  /** Calls `each` with every session of the batch, in order. */
  read(batch: SessionLineBatch, each: (s: SessionRecordSource) => void): void {
    const table = this.#table;
    for (const s of batch.newStrings) table.push(s);
    const { numbers: n, strings: t, devices } = batch;
    for (let i = 0; i < batch.count; i++) {
      const at = i * NUMBERS;
      const st = i * STRINGS;
      const bits = n[at + 8]!;
      const vendor = t[st + 1]!;
      each({
        shopId: n[at]!,
        device: devices[i]!,
        start: n[at + 1]!,
        end: n[at + 2]!,
        date: table[t[st]!]!,
        dwellMs: n[at + 3]!,
        estimatedDwellMs: n[at + 4]!,
        signalCount: n[at + 5]!,
        kind: table[t[st + 3]!] as SessionRecordSource["kind"],
        randomized: (bits & RANDOMIZED) !== 0,
        vendor: vendor < 0 ? undefined : table[vendor],
        peakSmoothedRssi: n[at + 6]!,
        nearestSensor: table[t[st + 2]!]!,
        late: (bits & LATE) !== 0,
        proximity: (bits & PROXIMITY) === 0 ? undefined : { closestZone: table[t[st + 4]!] as NonNullable<SessionRecordSource["proximity"]>["closestZone"], closestDistanceM: n[at + 7]! },
      });
    }
  }

  /** The batch's session lines (`sessionRecord`, as `footfall analyze --format ndjson` prints them), each ending in a line feed. */
  lines(batch: SessionLineBatch, device: DeviceId): string {
    let text = "";
    this.read(batch, (s) => {
      text += `${JSON.stringify(sessionRecord(s, device))}\n`;
    });
    return text;
  }
}
