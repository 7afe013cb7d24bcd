import { compactNumber } from "./compactNumber.ts";
import { estimatedDwell } from "./estimatedDwell.ts";
import type { OpenSession } from "./OpenSession.ts";
import { PROXIMITY_ZONES, type ProximityZone } from "../proximity/proximityZone.ts";
import type { Session, SessionSensor } from "./Session.ts";
import type { ProximityTimelineEntry, SensorZoneMs, SessionProximity } from "../proximity/SessionProximity.ts";

/**
 * What the classifier's day rule (`ShopRoles`) reads of a session. Internal.
 *
 * @example
 * const s: DayRuleSession = session; // any Session is one
 */
export type DayRuleSession = Pick<
  Session,
  "shopId" | "device" | "start" | "end" | "dwellMs" | "probeCount" | "periodicGaps" | "randomized" | "peakSmoothedRssi" | "watermark" | "complete"
>;

/**
 * Held sessions as plain data, to post to another thread (`SessionColumns.toMessage`): their
 * rows' numbers and strings, and per session where its row is and what its {@link HeldSession}
 * holds besides. Internal.
 *
 * @example
 * const message: HeldSessionsMessage = SessionColumns.toMessage([]);
 */
export interface HeldSessionsMessage {
  readonly chunks: readonly { readonly numbers: Float64Array; readonly strings: readonly (string | undefined)[] }[];
  /** Per session 8 numbers: chunk, at, firstString, shopId, dwellMs, probeCount, periodicGaps, randomized (0/1). */
  readonly rows: Float64Array;
  readonly devices: readonly string[];
}

/** Numbers per session in {@link HeldSessionsMessage.rows}. */
const MESSAGE_ROW = 8;

/**
 * Numbers a store's first chunk holds; each next one holds twice as many, up to the largest (rows
 * never straddle chunks, so a row's chunk never moves, and nothing is copied as a day grows). A
 * chunk holds a quarter as many strings as numbers.
 */
const FIRST_CHUNK = 1 << 10;
const LARGEST_SHIFT = 5;

/** Cleared stores kept for the next day's sessions, at most this many, of at most this many numbers each. */
const POOLED_STORES = 2;
const POOLED_NUMBERS = 1 << 19;
const pool: SessionColumns[] = [];

interface Chunk {
  readonly numbers: Float64Array;
  readonly strings: (string | undefined)[];
  /** Numbers and strings in use. */
  n: number;
  s: number;
}

/**
 * A session held in a {@link SessionColumns} until its day is decided: what the classifier's day
 * rule reads of it is kept here, and every other field of the `Session` it is is read from its
 * row (timestamps, numbers that are not small integers, its sensors and proximity, the last two
 * built anew at each read), so it is one heap object, not forty. It is read once more, when its
 * day is emitted: copied into the classified session (`classifiedSession`) or into a plain
 * `Session` (`SessionColumns.session`), with no session in between. Internal: made by
 * `SessionColumns.add`.
 *
 * @example
 * const columns = new SessionColumns();
 * const held: HeldSession = columns.add(newSession(signals[0]!, 101, undefined, undefined, null, undefined), 101, 0, 0, false);
 * columns.session(held).dwellMs === held.dwellMs; // true
 */
export class HeldSession implements Session {
  constructor(
    readonly chunk: Chunk,
    readonly at: number,
    readonly firstString: number,
    readonly shopId: number,
    readonly device: string,
    readonly dwellMs: number,
    readonly probeCount: number,
    readonly periodicGaps: number,
    readonly randomized: boolean,
  ) {}

  get start(): number {
    return this.chunk.numbers[this.at]!;
  }

  get end(): number {
    return this.chunk.numbers[this.at + 1]!;
  }

  get peakSmoothedRssi(): number {
    return this.chunk.numbers[this.at + 2]!;
  }

  get watermark(): number {
    return this.chunk.numbers[this.at + 3]!;
  }

  get complete(): number {
    return this.chunk.numbers[this.at + 4]!;
  }

  get estimatedDwellMs(): number {
    const n = this.chunk.numbers;
    return estimatedDwell(n[this.at + 1]! - n[this.at]!, n[this.at + 11]!);
  }

  get signalCount(): number {
    return this.chunk.numbers[this.at + 6]!;
  }

  get squaredGapsMs2(): number {
    return this.chunk.numbers[this.at + 11]!;
  }

  get local(): boolean {
    return this.chunk.numbers[this.at + 8] === 1;
  }

  get vendor(): string | undefined {
    return this.chunk.strings[this.firstString];
  }

  get peakRssi(): number {
    return compactNumber(this.chunk.numbers[this.at + 10]!);
  }

  get nearestSensor(): string {
    return this.chunk.strings[this.firstString + 1]!;
  }

  /** Built from its row at each call, as {@link sensors} is. */
  get proximity(): SessionProximity | undefined {
    const n = this.chunk.numbers;
    if (n[this.at + 5] !== 1) return undefined;
    // The proximity's numbers and strings follow the sensors' (5 numbers and 1 string each).
    const count = n[this.at + 9]!;
    return proximityOf(n, this.chunk.strings, this.at + 12 + 5 * count, this.firstString + 2 + count);
  }

  /**
   * Its sensors as the `Session` has them, built from its row at each call: what data quality's
   * clock pairs read of it (a held session is a `ClosedSessionSensors`).
   */
  get sensors(): SessionSensor[] {
    const n = this.chunk.numbers;
    const strings = this.chunk.strings;
    const count = n[this.at + 9]!;
    const sensors: SessionSensor[] = new Array(count);
    let s = this.firstString + 2;
    for (let k = 0, i = this.at + 12; k < count; k++, i += 5) {
      sensors[k] = {
        sensor: strings[s++]!,
        signalCount: n[i]!,
        first: n[i + 1]!,
        last: n[i + 2]!,
        peakRssi: compactNumber(n[i + 3]!),
        peakSmoothedRssi: n[i + 4]!,
      };
    }
    return sensors;
  }

  /** Internal (a device split's merge): the `complete` of one engine over every device, epoch ms. */
  setComplete(complete: number): void {
    this.chunk.numbers[this.at + 4] = complete;
  }
}

/**
 * Closed sessions in columns: their numbers in `Float64Array` chunks, their strings in arrays
 * beside them, and a small {@link HeldSession} each for the day rule. The one way a closed
 * session's values are taken from the engine's open state (`add`) and the one way a `Session` is
 * built (`session`): the engine builds what it emits through it, and the classifier keeps a day's
 * sessions in it until the day is decided, so each is built only as it is emitted.
 *
 * Why: a built session is ~45 heap objects (a number field that is not a small integer is a
 * heap object of its own), and held for a day they all go through the old generation; numbers in
 * a typed array are one allocation the collector never scans (docs/performance.md, Row 2).
 * Cleared chunks are kept for the next rows, and a classifier takes its days' stores from a small
 * pool (`take`, `give`), so a store reused day after day allocates nothing: fresh memory costs a
 * page fault per 4 KiB (~10 µs on a VM).
 *
 * @example
 * const columns = new SessionColumns();
 * const open = newSession(signals[0]!, 101, undefined, undefined, null, undefined);
 * const held = columns.add(open, 101, 0, 0, false); // open may be reused from here on
 * columns.session(held).signalCount; // 1
 * columns.clear(); // rows are gone; held sessions must not be built after this
 */
export class SessionColumns {
  readonly #chunks: Chunk[] = [];
  /** Index in #chunks of the chunk rows go to. */
  #current = -1;
  #rows = 0;
  /** Numbers the chunks hold in all. */
  #capacity = 0;

  /**
   * A cleared store from the pool, or a new one: where a classifier holds a day's sessions.
   *
   * @example
   * const columns = SessionColumns.take();
   * columns.give(); // cleared, and back in the pool if it is not too large
   */
  static take(): SessionColumns {
    return pool.pop() ?? new SessionColumns();
  }

  /**
   * Internal (a device split): held sessions, of any stores, as plain data for `postMessage`
   * (their rows copied); {@link fromMessage} makes them held sessions again on the other side.
   *
   * @example
   * const columns = new SessionColumns();
   * const held = columns.add(newSession(signals[0]!, 101, undefined, undefined, null, undefined), 101, 0, 0, false);
   * SessionColumns.fromMessage(structuredClone(SessionColumns.toMessage([held])))[0]!.device === held.device; // true
   */
  static toMessage(held: readonly HeldSession[]): HeldSessionsMessage {
    const index = new Map<Chunk, number>();
    const chunks: { numbers: Float64Array; strings: (string | undefined)[] }[] = [];
    const rows = new Float64Array(held.length * MESSAGE_ROW);
    const devices: string[] = new Array(held.length);
    for (let i = 0; i < held.length; i++) {
      const h = held[i]!;
      let c = index.get(h.chunk);
      if (c === undefined) {
        c = chunks.length;
        index.set(h.chunk, c);
        chunks.push({ numbers: h.chunk.numbers.slice(0, h.chunk.n), strings: h.chunk.strings.slice(0, h.chunk.s) });
      }
      const r = i * MESSAGE_ROW;
      rows[r] = c;
      rows[r + 1] = h.at;
      rows[r + 2] = h.firstString;
      rows[r + 3] = h.shopId;
      rows[r + 4] = h.dwellMs;
      rows[r + 5] = h.probeCount;
      rows[r + 6] = h.periodicGaps;
      rows[r + 7] = h.randomized ? 1 : 0;
      devices[i] = h.device;
    }
    return { chunks, rows, devices };
  }

  /** Internal: the held sessions of a {@link toMessage} message, in its order. */
  static fromMessage(message: HeldSessionsMessage): HeldSession[] {
    const chunks: Chunk[] = message.chunks.map((c) => ({ numbers: c.numbers, strings: c.strings as (string | undefined)[], n: c.numbers.length, s: c.strings.length }));
    const rows = message.rows;
    const out: HeldSession[] = new Array(message.devices.length);
    for (let i = 0; i < out.length; i++) {
      const r = i * MESSAGE_ROW;
      // Numbers crossed as doubles: the whole ones go back to small integers, as `add` stores them.
      out[i] = new HeldSession(
        chunks[rows[r]!]!,
        rows[r + 1]!,
        rows[r + 2]!,
        compactNumber(rows[r + 3]!),
        message.devices[i]!,
        compactNumber(rows[r + 4]!),
        compactNumber(rows[r + 5]!),
        compactNumber(rows[r + 6]!),
        rows[r + 7] === 1,
      );
    }
    return out;
  }

  /** Clears the store and gives it back to the pool (kept if the pool has room and it is not large); no held session of it may be built after. */
  give(): void {
    this.clear();
    if (pool.length < POOLED_STORES && this.#capacity <= POOLED_NUMBERS && !pool.includes(this)) pool.push(this);
  }

  /** Rows held. */
  get length(): number {
    return this.#rows;
  }

  /**
   * Stores a closed session's values (its proximity's too when `withProximity`, which must be
   * finished: `SessionProximityAccumulator.finish`) and returns what the day rule reads. Reads
   * `open` only now: the engine may reuse it once this returns.
   */
  add(open: OpenSession, shopId: number, watermark: number, complete: number, withProximity: boolean): HeldSession {
    const accs = open.sensors;
    const d = withProximity ? open.proximity : undefined;
    const zoneSensors = d === undefined ? 0 : d.zoneSensors.length;
    const entries = d === undefined ? 0 : d.timelineSensors.length;
    const chunk = this.#room(
      12 + 5 * accs.length + (d === undefined ? 0 : 11 + 3 * zoneSensors + 3 * entries),
      2 + accs.length + (d === undefined ? 0 : 1 + zoneSensors + entries),
    );
    const n = chunk.numbers;
    const strings = chunk.strings;
    const at = chunk.n;
    const firstString = chunk.s;
    let s = firstString;
    n[at] = open.start;
    n[at + 1] = open.end;
    n[at + 3] = watermark;
    n[at + 4] = complete;
    n[at + 5] = d === undefined ? 0 : 1;
    n[at + 6] = open.count;
    n[at + 7] = open.probes;
    n[at + 8] = open.local ? 1 : 0;
    n[at + 9] = accs.length;
    n[at + 11] = open.squaredGaps;
    strings[s] = open.vendor;
    s += 2;
    let peakRssi = Number.NEGATIVE_INFINITY;
    let peakSmoothed = Number.NEGATIVE_INFINITY;
    let nearest = "";
    let i = at + 12;
    for (let k = 0; k < accs.length; k++) {
      const a = accs[k]!;
      n[i] = a.count;
      n[i + 1] = a.first;
      n[i + 2] = a.last;
      n[i + 3] = a.peakRssi;
      n[i + 4] = a.peakSmoothed;
      i += 5;
      strings[s++] = a.sensor;
      if (a.peakRssi > peakRssi) peakRssi = a.peakRssi;
      // The strongest smoothed RSSI's sensor is the nearest; the first heard wins a tie.
      if (a.peakSmoothed > peakSmoothed) {
        peakSmoothed = a.peakSmoothed;
        nearest = a.sensor;
      }
    }
    n[at + 2] = peakSmoothed;
    n[at + 10] = peakRssi;
    strings[firstString + 1] = nearest;
    if (d !== undefined) {
      n[i] = d.slices;
      n[i + 1] = d.closestDistanceM;
      n[i + 2] = d.closestRssi;
      n[i + 3] = d.closestTime;
      n[i + 4] = d.closestZone;
      n[i + 5] = d.zoneMs0;
      n[i + 6] = d.zoneMs1;
      n[i + 7] = d.zoneMs2;
      n[i + 8] = zoneSensors;
      n[i + 9] = d.timelineTruncated ? 1 : 0;
      i += 10;
      strings[s++] = d.closestSensor;
      const ms = d.zoneSensorMs;
      for (let k = 0; k < zoneSensors; k++) {
        strings[s++] = d.zoneSensors[k];
        n[i] = ms[k * 3]!;
        n[i + 1] = ms[k * 3 + 1]!;
        n[i + 2] = ms[k * 3 + 2]!;
        i += 3;
      }
      n[i++] = entries;
      const numbers = d.timelineNumbers;
      for (let k = 0; k < entries; k++) {
        strings[s++] = d.timelineSensors[k];
        n[i] = numbers[k * 3]!;
        n[i + 1] = numbers[k * 3 + 1]!;
        n[i + 2] = numbers[k * 3 + 2]!;
        i += 3;
      }
    }
    chunk.n = i;
    chunk.s = s;
    this.#rows++;
    return new HeldSession(chunk, at, firstString, shopId, open.device, compactNumber(open.end - open.start), open.probes, open.periodicGaps, open.randomized);
  }

  /** The `Session` a held session is (see the class comment), as a plain object; built anew at each call. */
  session(held: HeldSession): Session {
    if (!(held instanceof HeldSession)) throw new TypeError("SessionColumns.session: not a held session");
    return {
      shopId: held.shopId,
      device: held.device,
      start: held.start,
      end: held.end,
      dwellMs: held.dwellMs,
      estimatedDwellMs: held.estimatedDwellMs,
      signalCount: held.signalCount,
      probeCount: held.probeCount,
      periodicGaps: held.periodicGaps,
      squaredGapsMs2: held.squaredGapsMs2,
      randomized: held.randomized,
      local: held.local,
      vendor: held.vendor,
      peakRssi: held.peakRssi,
      peakSmoothedRssi: held.peakSmoothedRssi,
      nearestSensor: held.nearestSensor,
      sensors: held.sensors,
      watermark: held.watermark,
      complete: held.complete,
      proximity: held.proximity,
    };
  }

  /**
   * The `Session` a closed session is, built at once and nothing kept (the store must hold no
   * rows): where a session is emitted as soon as it closes.
   *
   * @example
   * new SessionColumns().build(newSession(signals[0]!, 101, undefined, undefined, null, undefined), 101, 0, 0, false).probeCount; // 1
   */
  build(open: OpenSession, shopId: number, watermark: number, complete: number, withProximity: boolean): Session {
    const session = this.session(this.add(open, shopId, watermark, complete, withProximity));
    this.clear();
    return session;
  }

  /** Forgets every row; the chunks are kept for the next ones (with no string left in them). */
  clear(): void {
    for (let c = 0; c <= this.#current; c++) {
      const chunk = this.#chunks[c]!;
      chunk.strings.fill(undefined, 0, chunk.s);
      chunk.n = 0;
      chunk.s = 0;
    }
    this.#current = this.#chunks.length === 0 ? -1 : 0;
    this.#rows = 0;
  }

  // The chunk a row of `numbers` numbers and `strings` strings goes to: the current one if it has
  // room, else the next kept one, else a new one (as large as the row if the row is larger).
  #room(numbers: number, strings: number): Chunk {
    const chunks = this.#chunks;
    let chunk = chunks[this.#current];
    while (chunk === undefined || chunk.n + numbers > chunk.numbers.length || chunk.s + strings > chunk.strings.length) {
      this.#current++;
      chunk = chunks[this.#current];
      if (chunk === undefined) {
        const size = FIRST_CHUNK << Math.min(chunks.length, LARGEST_SHIFT);
        chunk = {
          numbers: new Float64Array(Math.max(size, numbers)),
          strings: new Array<string | undefined>(Math.max(size >> 2, strings)),
          n: 0,
          s: 0,
        };
        chunks.push(chunk);
        this.#capacity += chunk.numbers.length;
      }
    }
    return chunk;
  }
}

/**
 * The zone times of a session whose proximity follows the closest approach only (`zoneTimes:
 * false`), and the lists of one with none: shared by every such session, as read-only as their
 * types. A day's sessions are held until it is decided, and three objects and three boxed NaNs a
 * session that say nothing were ~2 % of the big shop-day's run, in collecting them.
 */
const NO_ZONE_MS: SessionProximity["zoneMs"] = Object.freeze({ immediate: Number.NaN, near: Number.NaN, far: Number.NaN });
const NO_ENTRIES: readonly never[] = Object.freeze([]);

// The SessionProximity of a row whose proximity numbers start at `i` and strings at `s`.
function proximityOf(n: Float64Array, strings: readonly (string | undefined)[], i: number, s: number): SessionProximity {
  const zoneSensors = n[i + 8]!;
  const closestSensor = strings[s++]!;
  const bySensor: SensorZoneMs[] | readonly never[] = zoneSensors === 0 ? NO_ENTRIES : zonesBySensor(n, strings, i + 10, s, zoneSensors);
  s += zoneSensors;
  let k = i + 10 + 3 * zoneSensors;
  const entries = n[k++]!;
  let timeline: ProximityTimelineEntry[] | readonly never[] = NO_ENTRIES;
  if (entries > 0) {
    // Sized up front: a list grown by push from [] reserves 17 slots for its first element.
    const list: ProximityTimelineEntry[] = new Array(entries);
    for (let e = 0; e < entries; e++) {
      list[e] = { time: n[k]!, sensor: strings[s++]!, zone: PROXIMITY_ZONES[n[k + 1]!] as ProximityZone, distanceM: n[k + 2]! };
      k += 3;
    }
    timeline = list;
  }
  const immediate = n[i + 5]!;
  const near = n[i + 6]!;
  const far = n[i + 7]!;
  return {
    slices: n[i]!,
    closestSensor,
    closestDistanceM: n[i + 1]!,
    closestRssi: n[i + 2]!,
    closestTime: n[i + 3]!,
    closestZone: PROXIMITY_ZONES[n[i + 4]!] as ProximityZone,
    zoneMs: immediate !== immediate && near !== near && far !== far ? NO_ZONE_MS : { immediate: compactNumber(immediate), near: compactNumber(near), far: compactNumber(far) },
    zoneMsBySensor: bySensor,
    timeline,
    timelineTruncated: n[i + 9] === 1,
  };
}

// The zone times by nearest sensor of a row, from `k` (numbers) and `s` (strings), by sensor MAC.
function zonesBySensor(n: Float64Array, strings: readonly (string | undefined)[], k: number, s: number, count: number): SensorZoneMs[] {
  const bySensor: SensorZoneMs[] = new Array(count);
  for (let z = 0; z < count; z++) {
    bySensor[z] = { sensor: strings[s++]!, immediate: compactNumber(n[k]!), near: compactNumber(n[k + 1]!), far: compactNumber(n[k + 2]!) };
    k += 3;
  }
  // Insertion sort by MAC (sensors are distinct): a session has one to a few nearest sensors, and
  // Array.prototype.sort allocates a work copy and a comparator per session.
  for (let a = 1; a < bySensor.length; a++) {
    const x = bySensor[a]!;
    let b = a;
    while (b > 0 && bySensor[b - 1]!.sensor > x.sensor) {
      bySensor[b] = bySensor[b - 1]!;
      b--;
    }
    bySensor[b] = x;
  }
  return bySensor;
}
