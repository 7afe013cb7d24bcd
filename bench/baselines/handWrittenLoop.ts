/**
 * The baseline of the operator-chain bench (issue 9, rows 2 and 4): the same work as
 * decode → sessionize → classify → dwell / visits / proximity, written the way one would by hand
 * for one shop's records — one loop, a plain array holding records for the allowed lateness, one
 * Map of open sessions swept for stale ones every 10 s of event time, Kalman smoothing inline, no
 * RxJS, no kernel classes;
 * days are classified after the loop instead of streamed. It decodes with the codec's
 * `SignalDecoder` (decoding is the codec's job, benched on its own in row 1) and picks the visitor
 * threshold with `suggestRssiThreshold` (once per day, negligible), so its counts can be checked
 * against the chain's.
 *
 * @example
 * const result = handWrittenLoop(records);            // records: parsed raw service records
 * result.days.map((d) => [d.date, d.visitors]);
 */
import { mean, quantileSorted } from "simple-statistics";
import { SignalDecoder } from "../../src/codec/decodeSignal.ts";
import type { Signal } from "../../src/codec/Signal.ts";
import { LocalCalendar } from "../../src/time/LocalCalendar.ts";
import { suggestRssiThreshold } from "../../src/kernels/visits/suggestRssiThreshold.ts";

const GAP = 300_000;
const LATENESS = 60_000;
const MIN_DWELL = 60_000;
const FALLBACK_RSSI = -75;
const OPEN_H = 10;
const CLOSE_H = 22;
const STAFF_SHARE = 0.4;
const STATIONARY_SHARE = 0.75;
// Kalman, one per device × sensor, feeding classification and proximity (as the engine does): process noise dB²/s, measurement noise dB².
const Q = 3;
const R = 25;
// Proximity: log-distance model, zones, slices.
const RSSI_1M = -45;
const EXPONENT = 2.7;
const IMMEDIATE_M = 1;
const NEAR_M = 4;
const SLICE_MS = 10_000;
const STALE_MS = 30_000;
const H = 3_600_000;

interface SensorState {
  sensor: string;
  x: number;
  p: number;
  t: number;
  peak: number;
}

interface Open {
  device: string;
  randomized: boolean;
  start: number;
  end: number;
  probeStart: number;
  squaredGaps: number;
  sensors: SensorState[];
  slice: number;
  closestM: number;
  closestSensor: string;
  closestRssi: number;
  closestTime: number;
  zone: number;
  zoneFrom: number;
  nearest: string;
  zoneMs: [number, number, number];
  timeline: { time: number; sensor: string; zone: number; distanceM: number }[];
}

interface Closed {
  device: string;
  randomized: boolean;
  start: number;
  end: number;
  dwellMs: number;
  estimatedDwellMs: number;
  peak: number;
  closestM: number;
}

/** Per local day, what the chain's day summary holds. */
export interface HandDay {
  readonly date: string;
  readonly visitors: number;
  readonly visits: number;
  readonly passersBy: number;
  readonly uniqueDevices: number;
  readonly staff: number;
  readonly stationary: number;
  readonly dwellMedianMs: number;
  readonly dwellMeanMs: number;
  readonly dwellP90Ms: number;
}

/** What {@link handWrittenLoop} computes. */
export interface HandLoopResult {
  readonly sessions: number;
  readonly days: readonly HandDay[];
  /** Sum over sessions of the closest approach, m (a checksum of the proximity work). */
  readonly closestSumM: number;
}

function kalman(s: SensorState, rssi: number, t: number): number {
  if (!(s.p >= 0)) {
    s.x = rssi;
    s.p = R;
    s.t = t;
    return rssi;
  }
  let p = s.p;
  if (t > s.t) {
    p += (Q * (t - s.t)) / 1000;
    s.t = t;
  }
  const k = p / (p + R);
  s.x += k * (rssi - s.x);
  s.p = (1 - k) * p;
  return s.x;
}

function finishSlice(o: Open): void {
  // Nearest sensor among those heard in the last STALE_MS of the slice, by modelled distance.
  const freshFrom = (o.slice + 1) * SLICE_MS - STALE_MS;
  let best: SensorState | undefined;
  let bestM = Number.POSITIVE_INFINITY;
  for (const s of o.sensors) {
    if (s.t < freshFrom) continue;
    const m = 10 ** ((RSSI_1M - s.x) / (10 * EXPONENT));
    if (m < bestM || (m === bestM && best !== undefined && s.sensor < best.sensor)) {
      best = s;
      bestM = m;
    }
  }
  if (best === undefined) return;
  const zone = bestM <= IMMEDIATE_M ? 0 : bestM <= NEAR_M ? 1 : 2;
  const from = Math.max(o.slice * SLICE_MS, o.start);
  if (o.zone >= 0) o.zoneMs[o.zone]! += from - o.zoneFrom;
  if ((zone !== o.zone || best.sensor !== o.nearest) && o.timeline.length < 64) {
    o.timeline.push({ time: o.slice * SLICE_MS, sensor: best.sensor, zone, distanceM: bestM });
  }
  o.zone = zone;
  o.zoneFrom = from;
  o.nearest = best.sensor;
  if (bestM < o.closestM) {
    o.closestM = bestM;
    o.closestSensor = best.sensor;
    o.closestRssi = best.x;
    o.closestTime = best.t;
  }
}

/**
 * Runs the whole analysis over one shop's raw records (in time order) with the library's
 * default settings. See the module comment.
 */
export function handWrittenLoop(records: readonly unknown[], timeZone = "Asia/Seoul"): HandLoopResult {
  const decoder = new SignalDecoder();
  const open = new Map<string, Open>();
  const closed: Closed[] = [];
  const close = (o: Open): void => {
    finishSlice(o);
    if (o.zone >= 0) o.zoneMs[o.zone]! += o.end - o.zoneFrom;
    let peak = Number.NEGATIVE_INFINITY;
    for (const s of o.sensors) if (s.peak > peak) peak = s.peak;
    const dwellMs = o.end - o.start;
    closed.push({
      device: o.device,
      randomized: o.randomized,
      start: o.start,
      end: o.end,
      dwellMs,
      estimatedDwellMs: dwellMs > 0 ? dwellMs + o.squaredGaps / dwellMs : dwellMs,
      peak,
      closestM: o.closestM,
    });
  };
  // Records wait LATENESS ms of event time so small disorder is put right (as the chain does).
  const held: Signal[] = [];
  let head = 0;
  let maxSeen = Number.NEGATIVE_INFINITY;
  let swept = Number.NEGATIVE_INFINITY;
  const apply = (sig: Signal): void => {
    const t = sig.time;
    // Every 10 s of event time, close what can no longer grow.
    if (t - swept >= 10_000) {
      swept = t;
      for (const o of open.values()) {
        if (o.end + GAP < t) {
          open.delete(o.device);
          close(o);
        }
      }
    }
    let o = open.get(sig.device);
    if (o !== undefined && t - o.end > GAP) {
      open.delete(o.device);
      close(o);
      o = undefined;
    }
    if (o === undefined) {
      o = {
        device: sig.device,
        randomized: sig.randomized,
        start: t,
        end: t,
        probeStart: t,
        squaredGaps: 0,
        sensors: [],
        slice: Math.floor(t / SLICE_MS),
        closestM: Number.POSITIVE_INFINITY,
        closestSensor: "",
        closestRssi: Number.NaN,
        closestTime: Number.NaN,
        zone: -1,
        zoneFrom: 0,
        nearest: "",
        zoneMs: [0, 0, 0],
        timeline: [],
      };
      open.set(sig.device, o);
    } else {
      if (t - o.end > 1000) {
        o.squaredGaps += (t - o.probeStart) ** 2;
        o.probeStart = t;
      }
      o.end = t;
      const slice = Math.floor(t / SLICE_MS);
      if (slice !== o.slice) {
        finishSlice(o);
        o.slice = slice;
      }
    }
    let s: SensorState | undefined;
    for (const x of o.sensors) if (x.sensor === sig.sensor) s = x;
    if (s === undefined) {
      s = { sensor: sig.sensor, x: 0, p: Number.NaN, t: 0, peak: Number.NEGATIVE_INFINITY };
      o.sensors.push(s);
    }
    const smoothed = kalman(s, sig.rssi, t);
    if (smoothed > s.peak) s.peak = smoothed;
  };
  for (let i = 0; i < records.length; i++) {
    const sig = decoder.decode(records[i]);
    if (sig === undefined || sig.time < maxSeen - LATENESS) continue;
    let j = held.length;
    held.push(sig);
    while (j > head && held[j - 1]!.time > sig.time) {
      held[j] = held[j - 1]!;
      j--;
    }
    held[j] = sig;
    if (sig.time > maxSeen) {
      maxSeen = sig.time;
      while (head < held.length && held[head]!.time < maxSeen - LATENESS) apply(held[head++]!);
      if (head > 4096) {
        held.splice(0, head);
        head = 0;
      }
    }
  }
  while (head < held.length) apply(held[head++]!);
  for (const o of open.values()) close(o);

  // Classify per local day of start, then count.
  const calendar = new LocalCalendar(timeZone);
  const byDay = new Map<number, Closed[]>();
  for (const c of closed) {
    const day = calendar.day(c.start).start;
    let list = byDay.get(day);
    if (list === undefined) byDay.set(day, (list = []));
    list.push(c);
  }
  const days: HandDay[] = [];
  let closestSumM = 0;
  const peaks: Closed[] = [];
  for (const dayStart of [...byDay.keys()].sort((a, b) => a - b)) {
    const list = byDay.get(dayStart)!;
    const day = calendar.day(dayStart);
    const openFrom = dayStart + OPEN_H * H;
    const openTo = dayStart + CLOSE_H * H;
    const presence = new Map<string, { total: number; opening: number }>();
    for (const c of list) {
      let p = presence.get(c.device);
      if (p === undefined) presence.set(c.device, (p = { total: 0, opening: 0 }));
      p.total += Math.max(0, Math.min(c.end, day.end) - Math.max(c.start, day.start));
      p.opening += Math.max(0, Math.min(c.end, openTo) - Math.max(c.start, openFrom));
    }
    peaks.push(...list);
    const threshold = suggestRssiThreshold(peaks.map((c) => ({ dwellMs: c.dwellMs, peakSmoothedRssi: c.peak }))).threshold ?? FALLBACK_RSSI;
    const visitors = new Set<string>();
    const passers = new Set<string>();
    const staff = new Set<string>();
    const stationary = new Set<string>();
    const dwell: number[] = [];
    let visits = 0;
    for (const c of list) {
      closestSumM += c.closestM;
      const p = presence.get(c.device)!;
      if (p.total >= STATIONARY_SHARE * (day.end - day.start) || c.end - c.start >= STATIONARY_SHARE * (day.end - day.start)) stationary.add(c.device);
      else if (p.opening >= STAFF_SHARE * (CLOSE_H - OPEN_H) * H) staff.add(c.device);
      else if (c.dwellMs >= MIN_DWELL && c.peak >= threshold) {
        visitors.add(c.device);
        visits++;
        dwell.push(c.estimatedDwellMs);
      } else passers.add(c.device);
    }
    let passersBy = 0;
    for (const d of passers) if (!visitors.has(d)) passersBy++;
    dwell.sort((a, b) => a - b);
    days.push({
      date: day.date,
      visitors: visitors.size,
      visits,
      passersBy,
      uniqueDevices: visitors.size + passersBy,
      staff: staff.size,
      stationary: stationary.size,
      dwellMedianMs: dwell.length === 0 ? Number.NaN : quantileSorted(dwell, 0.5),
      dwellMeanMs: dwell.length === 0 ? Number.NaN : mean(dwell),
      dwellP90Ms: dwell.length === 0 ? Number.NaN : quantileSorted(dwell, 0.9),
    });
  }
  return { sessions: closed.length, days, closestSumM };
}
