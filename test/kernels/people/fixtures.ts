/**
 * Classified sessions and a yardstick known exactly, shared by the people estimator's tests
 * (PeopleEstimator.test.ts, poolPeople.test.ts).
 */
import type { ClassifiedSession, VisitKind } from "../../../src/kernels/visits/VisitClassifier.ts";
import { estimatedDwell } from "../../../src/kernels/sessions/estimatedDwell.ts";
import normalQuantile from "@stdlib/stats-base-dists-normal-quantile";
import { PeopleEstimator } from "../../../src/kernels/people/PeopleEstimator.ts";
import type { PeopleEstimate } from "../../../src/kernels/people/PeopleEstimate.ts";
import type { PeopleEstimatorOptions } from "../../../src/kernels/people/peopleEstimatorOptions.ts";

export const MIN = 60_000;
// 2026-11-16 00:00 in Seoul (UTC+9).
export const DAY = Date.UTC(2026, 10, 15, 15);
export const NOON = DAY + 12 * 60 * MIN;
export const SENSOR = "b8:27:eb:00:00:01";

let next = 0;
export function session(o: { start: number; end?: number; bursts?: number; kind?: VisitKind; randomized?: boolean; rssi?: number; device?: string }): ClassifiedSession {
  const end = o.end ?? o.start;
  const bursts = o.bursts ?? 1;
  const rssi = o.rssi ?? -55;
  // Bursts evenly spaced over the session: bursts − 1 gaps of span ÷ (bursts − 1).
  const squaredGapsMs2 = bursts > 1 ? (end - o.start) ** 2 / (bursts - 1) : 0;
  // A fresh MAC per session (three counter octets: the unbiasedness trials make > 65 536 sessions,
  // and a universal MAC's vendor is looked up, so it must be a MAC).
  const hex = (b: number) => (b & 255).toString(16).padStart(2, "0");
  const device = o.device ?? `${o.randomized === false ? "f0" : "da"}:00:00:${hex(next >> 16)}:${hex(next >> 8)}:${hex(next++)}`;
  return {
    shopId: 101,
    device,
    start: o.start,
    end,
    dwellMs: end - o.start,
    estimatedDwellMs: estimatedDwell(end - o.start, squaredGapsMs2),
    signalCount: bursts * 5,
    probeCount: bursts,
    periodicGaps: 0,
    squaredGapsMs2,
    randomized: o.randomized ?? true,
    local: o.randomized ?? true,
    vendor: undefined,
    peakRssi: rssi,
    peakSmoothedRssi: rssi,
    nearestSensor: SENSOR,
    sensors: [{ sensor: SENSOR, signalCount: bursts * 5, first: o.start, last: end, peakRssi: rssi, peakSmoothedRssi: rssi }],
    watermark: end,
    complete: o.start,
    proximity: undefined,
    kind: o.kind ?? "passerby",
    date: "2026-11-16",
    late: false,
    visitorRssi: -65,
  };
}

export function estimate(sessions: readonly ClassifiedSession[], options: PeopleEstimatorOptions = {}): PeopleEstimate[] {
  const out: PeopleEstimate[] = [];
  const e = new PeopleEstimator({ timeZone: "Asia/Seoul", ...options }, { emit: (p) => out.push(p) });
  for (const s of sessions) e.push(s);
  e.flush();
  return out;
}

// A yardstick known exactly, for exact arithmetic: every person's bursts are heard once a minute
// (all alike: personCv 0), in every place (logVariance 0). Then B bursts in T minutes are B ÷ T
// persons (medianPersons(x, 0) = x) and the band is burst counting's alone, ×/÷ e^(z·√(1/B)).
export const EXACT = { burstsPerMinute: 1, personCv: 0, logVariance: 0 } as const;
// z of a two-sided 90 % interval (df Infinity: every term known in shape).
export const Z90 = normalQuantile(0.95, 0, 1);
// `n` MACs `prefix:00:hh:ll` (a three-octet OUI prefix).
export const macs = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}:00:${(i >> 8).toString(16).padStart(2, "0")}:${(i & 255).toString(16).padStart(2, "0")}`);
export const APPLE = "f0:76:6f"; // a phone maker's OUI
export const INTEL = "dc:fb:48"; // laptops and PCs

// Visitors whose MAC holds: 11 bursts over 10 min (one burst a minute), staggered through the afternoon.
export function keptVisits(n: number, randomized = false): ClassifiedSession[] {
  return Array.from({ length: n }, (_, i) => session({ start: NOON + i * 7 * MIN, end: NOON + i * 7 * MIN + 10 * MIN, bursts: 11, kind: "visitor", randomized }));
}
