import type { BurstEvent } from "./burstGroups.ts";
import { ReadingMeans } from "./ReadingMeans.ts";

/**
 * How a phone on a timer is told from its neighbours (`PeopleEstimatorOptions`' `timer…` options).
 *
 * @example
 * const o: TimerTrainOptions = { timerMinMs: 2_000, timerMaxMs: 330_000, timerToleranceMs: 1_000, timerRssiDb: 10, timerMinBursts: 4 };
 */
export interface TimerTrainOptions {
  /** Shortest period of a timer, ms. */
  readonly timerMinMs: number;
  /** Longest period of a timer, ms. */
  readonly timerMaxMs: number;
  /** How far a burst may fall from its timer, ms, on top of 1 % of the period. */
  readonly timerToleranceMs: number;
  /** Largest difference of a burst's reading from the train's mean at a sensor, dB. */
  readonly timerRssiDb: number;
  /** Fewest bursts of a train. */
  readonly timerMinBursts: number;
}

/**
 * One phone on a timer: its bursts, each with a new randomized MAC, at a steady period.
 *
 * @example
 * const t: TimerTrain = { bursts: [], periodMs: 15_000, start: 0, end: 60_000 };
 */
export interface TimerTrain {
  readonly bursts: readonly BurstEvent[];
  /** The timer's period, ms (the mean gap between bursts, a missed burst counted). */
  readonly periodMs: number;
  /** First and last burst, epoch ms. */
  readonly start: number;
  readonly end: number;
}

/** How far a real phone's timer strays, as a share of its period: the captures' 90th-percentile gap is within 1 % of their median. */
const TIMER_DRIFT = 0.01;

// Whether a burst reads like the train: within `db` of its mean at every sensor both heard, and
// heard by one of its sensors at least (a phone on a timer is heard by the same sensors burst after burst).
function alike(readings: ReadingMeans, r: ReadonlyMap<string, number>, db: number): boolean {
  const c = readings.compare(r, db);
  return c !== undefined && c.shared > 0;
}

// First index of `events` (by start) at or after `t`.
function from(events: readonly BurstEvent[], t: number): number {
  let lo = 0;
  let hi = events.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (events[mid]!.start < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Phones on a timer among one-burst randomized MACs' bursts (`events`, by start): bursts at a
 * steady period — each the one burst that falls within a tolerance of the timer (`timerToleranceMs`
 * and 1 % of the period), its readings within `timerRssiDb` of the train's mean at every sensor both heard —
 * are one phone. Real phones do this: 25 of 107 captures of 22 phones burst on a strict timer with
 * a new MAC each time (every 15 s, a minute, 160 s, 270 s …), and counted by bursts a phone every
 * 15 s is two and a half persons, one every 270 s a fifth of one. One missed burst (twice the
 * period) is allowed. A step with two candidate bursts ends the train there: two phones side by
 * side on one timer, in step, are not told apart, so neither is taken for one phone. Trains of at
 * least `timerMinBursts` are kept; each burst is in one train at most.
 *
 * @example
 * const at = (start: number): BurstEvent => ({ start, sessions: [], rssi: new Map([["s1", -62]]) });
 * const trains = timerTrains([0, 15_000, 30_000, 45_100, 60_000, 67_000].map(at), { timerMinMs: 2_000, timerMaxMs: 30_000, timerToleranceMs: 300, timerRssiDb: 8, timerMinBursts: 4 });
 * trains.length; // 1
 * trains[0]!.bursts.length; // 5
 */
export function timerTrains(events: readonly BurstEvent[], o: TimerTrainOptions): TimerTrain[] {
  const used = new Uint8Array(events.length);
  const trains: TimerTrain[] = [];
  for (let i = 0; i < events.length; i++) {
    if (used[i] === 1) continue;
    let best: { chain: number[]; periodMs: number } | undefined;
    const first = events[i]!;
    for (let j = from(events, first.start + o.timerMinMs); j < events.length && events[j]!.start <= first.start + o.timerMaxMs; j++) {
      if (used[j] === 1) continue;
      const found = follow(events, used, i, j, o);
      if (found !== undefined && (best === undefined || found.chain.length > best.chain.length)) best = found;
    }
    if (best === undefined || best.chain.length < o.timerMinBursts) continue;
    for (const k of best.chain) used[k] = 1;
    const bursts = best.chain.map((k) => events[k]!);
    trains.push({ bursts, periodMs: best.periodMs, start: bursts[0]!.start, end: bursts[bursts.length - 1]!.start });
  }
  return trains;
}

// The train that starts with bursts i and j (its period their gap), as far as it goes
// unambiguously, and its period.
function follow(events: readonly BurstEvent[], used: Uint8Array, i: number, j: number, o: TimerTrainOptions): { chain: number[]; periodMs: number } | undefined {
  const readings = new ReadingMeans();
  readings.add(events[i]!.rssi);
  if (!alike(readings, events[j]!.rssi, o.timerRssiDb)) return undefined;
  readings.add(events[j]!.rssi);
  const firstStart = events[i]!.start;
  let period = events[j]!.start - firstStart;
  const tolerance = o.timerToleranceMs + TIMER_DRIFT * period;
  const chain = [i, j];
  let last = events[j]!.start;
  let missed = 0;
  for (;;) {
    // The period as the train so far shows it (its first gap carries two bursts' jitter).
    if (chain.length > 2) period = (last - firstStart) / (chain.length - 1 + missed);
    let next = -1;
    let steps = 1;
    for (; steps <= 2 - missed; steps++) {
      const expected = last + steps * period;
      let found = -1;
      let count = 0;
      for (let k = from(events, expected - tolerance); k < events.length && events[k]!.start <= expected + tolerance; k++) {
        if (used[k] === 1 || !alike(readings, events[k]!.rssi, o.timerRssiDb)) continue;
        found = k;
        count++;
      }
      // Two candidates: two phones in step; the train ends rather than choose.
      if (count > 1) return { chain, periodMs: period };
      if (count === 1) {
        next = found;
        break;
      }
    }
    if (next < 0) return { chain, periodMs: period };
    if (steps === 2) missed++;
    chain.push(next);
    readings.add(events[next]!.rssi);
    last = events[next]!.start;
  }
}
