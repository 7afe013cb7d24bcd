import type { ClassifiedSession } from "../visits/VisitClassifier.ts";

/**
 * How the randomized MACs of one burst are told apart from two phones' (`PeopleEstimatorOptions`'
 * `burstMs` and `burstRssiDb`).
 *
 * @example
 * const o: BurstGroupOptions = { burstMs: 1_000, burstRssiDb: 6 };
 */
export interface BurstGroupOptions {
  /** Longest time from a burst's first MAC to its last, ms: a burst visits every channel within about a second. */
  readonly burstMs: number;
  /** Largest difference of two MACs' peaks at a sensor that heard both, dB, for them to be one burst's. */
  readonly burstRssiDb: number;
}

/**
 * One probe burst of one phone, as heard: the one-burst randomized MACs it was sent with (one,
 * or up to ten for phones that take a new MAC per frame or per channel), its start (the first
 * MAC's), and its strongest reading at each sensor that heard it.
 *
 * @example
 * const e: BurstEvent = { start: 1763600000000, sessions: [], rssi: new Map([["b8:27:eb:00:00:01", -61]]) };
 */
export interface BurstEvent {
  readonly start: number;
  readonly sessions: readonly ClassifiedSession[];
  /** Strongest raw reading per sensor (MAC), dBm. */
  readonly rssi: ReadonlyMap<string, number>;
}

/**
 * Whether two bursts (or MACs) may be one phone's by their readings: at every sensor both were
 * heard by, their strongest readings differ by at most `db` (a phone does not move far between
 * its frames, nor in one timer period of a phone left on a table). Bursts heard by no sensor in
 * common may be: a phone that takes a new MAC per channel is heard on each channel by the sensors
 * listening there only.
 *
 * @example
 * closeReadings(new Map([["s1", -60]]), new Map([["s1", -63]]), 6); // true
 * closeReadings(new Map([["s1", -60]]), new Map([["s1", -75]]), 6); // false
 */
export function closeReadings(a: ReadonlyMap<string, number>, b: ReadonlyMap<string, number>, db: number): boolean {
  for (const [sensor, rssi] of a) {
    const other = b.get(sensor);
    if (other !== undefined && Math.abs(other - rssi) > db) return false;
  }
  return true;
}

function readingsOf(s: ClassifiedSession): Map<string, number> {
  const out = new Map<string, number>();
  for (const x of s.sensors) out.set(x.sensor, x.peakRssi);
  return out;
}

// Canonical order of one-burst MACs: by start, then by MAC (the estimate must not depend on the
// order sessions were classified in).
function byStart(a: ClassifiedSession, b: ClassifiedSession): number {
  return a.start - b.start || (a.device < b.device ? -1 : a.device > b.device ? 1 : 0);
}

/**
 * The probe bursts behind one-burst randomized MACs (`sessions`: MACs heard in one burst only,
 * any order): MACs that start within `burstMs` of a burst's first, whose readings are close to
 * every MAC of it already (`closeReadings`), are one burst — a phone that takes a new MAC per
 * frame or per channel sends two to ten of them in one burst (10 of 107 captures of real phones
 * did), and counted one burst each it would count as two to ten phones. Grouped greedily in
 * time order; each MAC is in exactly one burst. The prior from real phones counts bursts so (frames
 * grouped while the gap is at most a second, whatever their MACs), and so must what it divides.
 *
 * @example
 * const one = (device: string, start: number, sensor: string, rssi: number) => ({ device, start, end: start, probeCount: 1, randomized: true, sensors: [{ sensor, signalCount: 1, first: start, last: start, peakRssi: rssi, peakSmoothedRssi: rssi }] }) as unknown as ClassifiedSession;
 * const bursts = burstGroups([one("da:00:00:00:00:01", 0, "s1", -60), one("da:00:00:00:00:02", 300, "s2", -70), one("da:00:00:00:00:03", 30_000, "s1", -61)], { burstMs: 1_000, burstRssiDb: 6 });
 * bursts.map((b) => b.sessions.length); // [2, 1]
 */
export function burstGroups(sessions: readonly ClassifiedSession[], o: BurstGroupOptions): BurstEvent[] {
  const sorted = [...sessions].sort(byStart);
  const out: BurstEvent[] = [];
  let members: ClassifiedSession[] = [];
  let readings: Map<string, number>[] = [];
  let start = Number.NEGATIVE_INFINITY;
  const close = (): void => {
    if (members.length === 0) return;
    const rssi = new Map<string, number>();
    for (const r of readings) for (const [sensor, v] of r) if (!((rssi.get(sensor) ?? Number.NEGATIVE_INFINITY) >= v)) rssi.set(sensor, v);
    out.push({ start, sessions: members, rssi });
  };
  for (const s of sorted) {
    const r = readingsOf(s);
    if (s.start - start <= o.burstMs && readings.every((m) => closeReadings(m, r, o.burstRssiDb))) {
      members.push(s);
      readings.push(r);
      continue;
    }
    close();
    members = [s];
    readings = [r];
    start = s.start;
  }
  close();
  return out;
}
