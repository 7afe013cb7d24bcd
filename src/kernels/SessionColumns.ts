import { compactNumber } from "./compactNumber.ts";
import { estimatedDwell } from "./estimatedDwell.ts";
import type { OpenSession } from "./OpenSession.ts";
import { PROXIMITY_ZONES, type ProximityZone } from "./proximityZone.ts";
import type { Session, SessionSensor } from "./Session.ts";
import type { ProximityTimelineEntry, SensorZoneMs, SessionProximity } from "./SessionProximity.ts";

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
 * What the classifier's day rule reads of a session, and where the rest of it is: a closed
 * session held in a {@link SessionColumns} until its day is decided. Internal: the engine's and
 * the classifier's.
 *
 * @example
 * const held: HeldSession = columns.add(open, 101, watermark, complete, true);
 * columns.session(held).dwellMs === held.dwellMs; // true
 */
export interface HeldSession extends DayRuleSession {
  /** Where its other values start in the columns that hold it. */
  readonly row: number;
}

/**
 * Whether a session the classifier holds is a {@link HeldSession} (built when emitted) rather
 * than a built `Session`.
 *
 * @example
 * isHeldSession(columns.add(open, 101, 0, 0, true)); // true
 */
export function isHeldSession(s: HeldSession | Session): s is HeldSession {
  return (s as Partial<HeldSession>).row !== undefined;
}

const INITIAL_NUMBERS = 1024;

/**
 * Closed sessions in columns: their numbers in one `Float64Array`, their strings in one array,
 * and a small {@link HeldSession} each for the day rule. The one way a closed
 * session's values are taken from the engine's open state (`add`) and the one way a `Session` is
 * built (`session`): the engine builds what it emits through it, and the classifier keeps a day's
 * sessions in it until the day is decided, so each is built only as it is emitted.
 *
 * Why: a built session is ~45 heap objects (a number field that is not a small integer is a
 * heap object of its own), and held for a day they all go through the old generation; numbers in
 * a typed array are one allocation the collector never scans (docs/performance.md, Row 2).
 *
 * @example
 * const columns = new SessionColumns();
 * const held = columns.add(open, 101, watermark, complete, true);
 * const session: Session = columns.session(held);
 * columns.clear(); // rows are gone; held sessions must not be built after this
 */
export class SessionColumns {
  #numbers = new Float64Array(INITIAL_NUMBERS);
  #size = 0;
  readonly #strings: (string | undefined)[] = [];

  /** Rows held (numbers in use, for tests and stats). */
  get length(): number {
    return this.#size;
  }

  /**
   * Stores a closed session's values (its proximity's too when `withProximity`, which must be
   * finished: `SessionProximityAccumulator.finish`) and returns what the day rule reads, with its
   * row. Reads `open` only now: the engine may reuse it once this returns.
   */
  add(open: OpenSession, shopId: number, watermark: number, complete: number, withProximity: boolean): HeldSession {
    const accs = open.sensors;
    const d = withProximity ? open.proximity : undefined;
    const zoneSensors = d === undefined ? 0 : d.zoneSensors.length;
    const entries = d === undefined ? 0 : d.timelineSensors.length;
    const row = this.#reserve(7 + 5 * accs.length + (d === undefined ? 0 : 11 + 3 * zoneSensors + 3 * entries));
    const n = this.#numbers;
    const strings = this.#strings;
    n[row] = strings.length;
    n[row + 1] = d === undefined ? 0 : 1;
    n[row + 2] = open.count;
    n[row + 3] = open.probes;
    n[row + 4] = open.local ? 1 : 0;
    n[row + 5] = accs.length;
    strings.push(open.vendor);
    let peakRssi = Number.NEGATIVE_INFINITY;
    let peakSmoothed = Number.NEGATIVE_INFINITY;
    let nearest = "";
    let i = row + 7;
    for (let k = 0; k < accs.length; k++) {
      const a = accs[k]!;
      n[i] = a.count;
      n[i + 1] = a.first;
      n[i + 2] = a.last;
      n[i + 3] = a.peakRssi;
      n[i + 4] = a.peakSmoothed;
      i += 5;
      strings.push(a.sensor);
      if (a.peakRssi > peakRssi) peakRssi = a.peakRssi;
      // The strongest smoothed RSSI's sensor is the nearest; the first heard wins a tie.
      if (a.peakSmoothed > peakSmoothed) {
        peakSmoothed = a.peakSmoothed;
        nearest = a.sensor;
      }
    }
    n[row + 6] = peakRssi;
    strings.push(nearest);
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
      strings.push(d.closestSensor);
      const ms = d.zoneSensorMs;
      for (let k = 0; k < zoneSensors; k++) {
        strings.push(d.zoneSensors[k]);
        n[i] = ms[k * 3]!;
        n[i + 1] = ms[k * 3 + 1]!;
        n[i + 2] = ms[k * 3 + 2]!;
        i += 3;
      }
      n[i++] = entries;
      const numbers = d.timelineNumbers;
      for (let k = 0; k < entries; k++) {
        strings.push(d.timelineSensors[k]);
        n[i] = numbers[k * 3]!;
        n[i + 1] = numbers[k * 3 + 1]!;
        n[i + 2] = numbers[k * 3 + 2]!;
        i += 3;
      }
    }
    return {
      shopId,
      device: open.device,
      start: open.start,
      end: open.end,
      dwellMs: compactNumber(open.end - open.start),
      probeCount: open.probes,
      periodicGaps: open.periodicGaps,
      randomized: open.randomized,
      peakSmoothedRssi: peakSmoothed,
      watermark,
      complete,
      row,
    };
  }

  /** The `Session` a held session is (see the class comment); built anew at each call. */
  session(held: HeldSession): Session {
    const n = this.#numbers;
    const strings = this.#strings;
    const row = held.row;
    let s = n[row]!;
    const withProximity = n[row + 1] === 1;
    const probes = n[row + 3]!;
    const count = n[row + 5]!;
    const vendor = strings[s++];
    const sensors: SessionSensor[] = new Array(count);
    let i = row + 7;
    for (let k = 0; k < count; k++) {
      sensors[k] = {
        sensor: strings[s++]!,
        signalCount: n[i]!,
        first: n[i + 1]!,
        last: n[i + 2]!,
        peakRssi: compactNumber(n[i + 3]!),
        peakSmoothedRssi: n[i + 4]!,
      };
      i += 5;
    }
    const nearest = strings[s++]!;
    const dwellMs = held.end - held.start;
    return {
      shopId: held.shopId,
      device: held.device,
      start: held.start,
      end: held.end,
      dwellMs: compactNumber(dwellMs),
      estimatedDwellMs: estimatedDwell(dwellMs, probes),
      signalCount: n[row + 2]!,
      probeCount: probes,
      periodicGaps: held.periodicGaps,
      randomized: held.randomized,
      local: n[row + 4] === 1,
      vendor,
      peakRssi: compactNumber(n[row + 6]!),
      peakSmoothedRssi: held.peakSmoothedRssi,
      nearestSensor: nearest,
      sensors,
      watermark: held.watermark,
      complete: held.complete,
      proximity: withProximity ? this.#proximity(i, s) : undefined,
    };
  }

  /** Forgets every row (the arrays are kept for the next ones). */
  clear(): void {
    this.#size = 0;
    this.#strings.length = 0;
  }

  #proximity(i: number, s: number): SessionProximity {
    const n = this.#numbers;
    const strings = this.#strings;
    const zoneSensors = n[i + 8]!;
    const closestSensor = strings[s++]!;
    // Sized up front: a list grown by push from [] reserves 17 slots for its first element.
    const bySensor: SensorZoneMs[] = new Array(zoneSensors);
    let k = i + 10;
    for (let z = 0; z < zoneSensors; z++) {
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
    const entries = n[k]!;
    const timeline: ProximityTimelineEntry[] = new Array(entries);
    k++;
    for (let e = 0; e < entries; e++) {
      timeline[e] = { time: n[k]!, sensor: strings[s++]!, zone: PROXIMITY_ZONES[n[k + 1]!] as ProximityZone, distanceM: n[k + 2]! };
      k += 3;
    }
    return {
      slices: n[i]!,
      closestSensor,
      closestDistanceM: n[i + 1]!,
      closestRssi: n[i + 2]!,
      closestTime: n[i + 3]!,
      closestZone: PROXIMITY_ZONES[n[i + 4]!] as ProximityZone,
      zoneMs: { immediate: compactNumber(n[i + 5]!), near: compactNumber(n[i + 6]!), far: compactNumber(n[i + 7]!) },
      zoneMsBySensor: bySensor,
      timeline,
      timelineTruncated: n[i + 9] === 1,
    };
  }

  // Room for `count` more numbers; returns where they start.
  #reserve(count: number): number {
    const row = this.#size;
    const need = row + count;
    if (need > this.#numbers.length) {
      let capacity = this.#numbers.length * 2;
      while (capacity < need) capacity *= 2;
      const grown = new Float64Array(capacity);
      grown.set(this.#numbers.subarray(0, row));
      this.#numbers = grown;
    }
    this.#size = need;
    return row;
  }
}
