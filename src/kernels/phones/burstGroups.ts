import type { SessionSensor } from "../sessions/Session.ts";
import type { ClassifiedSession } from "../visits/VisitClassifier.ts";
import { ReadingMeans } from "./ReadingMeans.ts";

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
 * What {@link burstGroups} reads of a one-burst MAC's session: a `ClassifiedSession` is one.
 *
 * @example
 * const mac: BurstMac = { device: "da:00:00:00:00:01", start: 0, sensors: [{ sensor: "s1", peakRssi: -60 }] };
 */
export interface BurstMac {
  readonly device: string;
  readonly start: number;
  readonly sensors: readonly Pick<SessionSensor, "sensor" | "peakRssi">[];
}

/**
 * One probe burst of one phone, as heard: the one-burst randomized MACs it was sent with (one,
 * or up to ten for phones that take a new MAC per frame or per channel), its start (the first
 * MAC's), and its strongest reading at each sensor that heard it.
 *
 * @example
 * const e: BurstEvent = { start: 1763600000000, sessions: [], rssi: new Map([["b8:27:eb:00:00:01", -61]]) };
 */
export interface BurstEvent<S extends BurstMac = ClassifiedSession> {
  readonly start: number;
  readonly sessions: readonly S[];
  /** Strongest raw reading per sensor (MAC), dBm. */
  readonly rssi: ReadonlyMap<string, number>;
}

function readingsOf(s: BurstMac): Map<string, number> {
  const out = new Map<string, number>();
  for (const x of s.sensors) out.set(x.sensor, x.peakRssi);
  return out;
}

// Canonical order of one-burst MACs: by start, then by MAC (the estimate must not depend on the
// order sessions were classified in).
function byStart(a: BurstMac, b: BurstMac): number {
  return a.start - b.start || (a.device < b.device ? -1 : a.device > b.device ? 1 : 0);
}

// A burst being heard: its MACs, their mean reading per sensor, and the strongest.
interface OpenBurst<S extends BurstMac> {
  readonly start: number;
  readonly sessions: S[];
  readonly means: ReadingMeans;
  readonly max: Map<string, number>;
}

/**
 * The probe bursts behind one-burst randomized MACs (`sessions`: MACs heard in one burst only,
 * any order): a MAC that starts within `burstMs` of a burst's first, and reads within
 * `burstRssiDb` of the burst's mean reading at every sensor both heard, is one more MAC of that
 * burst — a phone that takes a new MAC per frame or per channel sends two to ten of them in one
 * burst (10 of 107 captures of real phones did), and counted one burst each it would count as two
 * to ten phones. Several bursts may be under way at once (a busy shop's phones burst within the
 * same second): a MAC joins the one it shares most sensors with, then the closest by reading, and
 * opens a burst of its own when none fits. The mean, not every MAC, is what a MAC is held against:
 * each MAC of a burst is one reading of about 4 dB of noise, and ten of them all within a few dB of
 * each other is rarer than the phone that sent them. In time order, so each MAC is in exactly one
 * burst. The prior from real phones counts bursts so (frames grouped while the gap is at most a
 * second, whatever their MACs), and so must what it divides.
 *
 * @example
 * const one = (device: string, start: number, sensor: string, rssi: number) => ({ device, start, end: start, probeCount: 1, randomized: true, sensors: [{ sensor, signalCount: 1, first: start, last: start, peakRssi: rssi, peakSmoothedRssi: rssi }] }) as unknown as ClassifiedSession;
 * const bursts = burstGroups([one("da:00:00:00:00:01", 0, "s1", -60), one("da:00:00:00:00:02", 300, "s2", -70), one("da:00:00:00:00:03", 30_000, "s1", -61)], { burstMs: 1_000, burstRssiDb: 6 });
 * bursts.map((b) => b.sessions.length); // [2, 1]
 */
export function burstGroups<S extends BurstMac>(sessions: readonly S[], o: BurstGroupOptions): BurstEvent<S>[] {
  const sorted = [...sessions].sort(byStart);
  const out: BurstEvent<S>[] = [];
  // Bursts under way, by start.
  const open: OpenBurst<S>[] = [];
  const finish = (b: OpenBurst<S>): void => void out.push({ start: b.start, sessions: b.sessions, rssi: b.max });
  for (const s of sorted) {
    while (open.length > 0 && s.start - open[0]!.start > o.burstMs) finish(open.shift()!);
    const r = readingsOf(s);
    let best: OpenBurst<S> | undefined;
    let bestShared = -1;
    let bestDiff = Number.POSITIVE_INFINITY;
    for (const b of open) {
      const c = b.means.compare(r, o.burstRssiDb);
      if (c === undefined) continue;
      if (c.shared > bestShared || (c.shared === bestShared && c.meanDiff < bestDiff)) {
        best = b;
        bestShared = c.shared;
        bestDiff = c.meanDiff;
      }
    }
    if (best === undefined) {
      best = { start: s.start, sessions: [], means: new ReadingMeans(), max: new Map() };
      open.push(best);
    }
    best.sessions.push(s);
    best.means.add(r);
    for (const [sensor, v] of r) if (!((best.max.get(sensor) ?? Number.NEGATIVE_INFINITY) >= v)) best.max.set(sensor, v);
  }
  for (const b of open) finish(b);
  return out;
}
