import { fnv1a } from "../../stats/fnv1a.ts";
import type { ClassifiedSession } from "../visits/VisitClassifier.ts";
import { burstGroups, type BurstEvent, type BurstGroupOptions, type BurstMac } from "./burstGroups.ts";
import { heardInside } from "./heardInside.ts";
import { timerTrains, type TimerTrain, type TimerTrainOptions } from "./timerTrains.ts";

/**
 * The burst and timer rules' settings (docs/people.md, "One burst, one phone"):
 * - a burst's MACs start within 500 ms and read within 6 dB at a sensor that heard two of them:
 *   in the Brno lab, one-burst MACs read alike came within 200 ms of each other 10–60 times more
 *   often than chance would have them (frames of one burst, a few ms apart, from one place), and
 *   from 500 ms on no more often than chance;
 * - a timer runs every 2 to 30 s (the captures' fast timers: every 15 s with a new MAC, a phone
 *   counted by bursts as two and a half persons; slower ones, every minute to 270 s, burst as
 *   often as the prior's phones do), its bursts fall within 300 ms and 1 % of its period (real
 *   timers repeat to 1 %) and read within 8 dB of the train's mean (a reading's noise is about
 *   4 dB), and a train holds at least twelve bursts: three minutes of a 15-s timer, and a run of
 *   chance alignments of other phones' bursts that long is out of reach in a busy room.
 *
 * @example
 * ONE_BURST_RULES.burstMs; // 500
 */
export const ONE_BURST_RULES: BurstGroupOptions & TimerTrainOptions = Object.freeze({
  burstMs: 500,
  burstRssiDb: 6,
  timerMinMs: 2_000,
  timerMaxMs: 30_000,
  timerToleranceMs: 300,
  timerRssiDb: 8,
  timerMinBursts: 12,
});

/**
 * What a day's one-burst randomized MACs are: the bursts they were sent in, each burst's share of
 * each of its MACs, and the phones on a timer among them.
 *
 * @example
 * const m: OneBurstMacs = oneBurstMacs([]);
 * m.trains.length; // 0
 */
export interface OneBurstMacs {
  readonly bursts: readonly BurstEvent[];
  /** Bursts a MAC stands for, for the MACs of a burst of several (1 ÷ their number); the others are 1. */
  readonly share: ReadonlyMap<ClassifiedSession, number>;
  /** Phones on a timer, heard inside. */
  readonly trains: readonly TimerTrain[];
  /** The MACs of those trains. */
  readonly inTrain: ReadonlySet<ClassifiedSession>;
}

/**
 * The phones behind a shop-day's one-burst randomized MACs (`sessions`: visitors' and passers-by's,
 * any order; the others are passed over): their bursts (`burstGroups`), and the phones on a timer
 * among those heard inside (`timerTrains`). Internal: the people estimate counts a burst once,
 * however many MACs it was sent with, and a phone on a timer as one phone.
 *
 * @example
 * oneBurstMacs(classified).bursts.length <= classified.length; // true
 */
export function oneBurstMacs(sessions: readonly ClassifiedSession[], rules: BurstGroupOptions & TimerTrainOptions = ONE_BURST_RULES): OneBurstMacs {
  const one = sessions.filter((s) => s.randomized && s.probeCount === 1 && (s.kind === "visitor" || s.kind === "passerby"));
  const bursts = burstGroups(one, rules);
  // Bursts of different phones that start within a burst's time of each other and read alike are
  // grouped too. How often that happens by chance is what the same bursts show with their times
  // shuffled — each burst moved by up to five minutes as a whole, by its first MAC —: the groups
  // then made across bursts are chance's, and as many of the day's groupings are taken back,
  // share and share alike. A crowd's coincidences then cost no people, and a few phones' bursts
  // of several MACs are one burst each.
  const grouped = merged(bursts);
  const chance = grouped === 0 ? 0 : Math.max(0, merged(burstGroups(bursts.flatMap(shifted), rules)) - grouped);
  const keep = grouped === 0 ? 0 : Math.min(1, chance / grouped);
  const share = new Map<ClassifiedSession, number>();
  for (const b of bursts) {
    const n = b.sessions.length;
    if (n > 1) for (const s of b.sessions) share.set(s, (1 + (n - 1) * keep) / n);
  }
  const trains = timerTrains(
    bursts.filter((b) => b.sessions.every(heardInside)),
    rules,
  );
  const inTrain = new Set<ClassifiedSession>();
  for (const t of trains) for (const b of t.bursts) for (const s of b.sessions) inTrain.add(s);
  return { bursts, share, trains, inTrain };
}

// MACs grouped with another: one-burst MACs less bursts.
function merged(bursts: readonly BurstEvent<BurstMac>[]): number {
  let n = 0;
  for (const b of bursts) n += b.sessions.length - 1;
  return n;
}

/** How far a burst is moved in the shuffle, at most, ms: far enough that no burst keeps its neighbours. */
const SHUFFLE_MS = 300_000;

// A burst's MACs moved in time together, by up to SHUFFLE_MS either way, by a hash of its first
// MAC: the same day gives the same shuffle, whatever the order its sessions came in. Only what
// burstGroups reads is copied (a whole session spread was ~40 000 large copies a busy day).
function shifted(b: BurstEvent): BurstMac[] {
  const d = (fnv1a(b.sessions[0]!.device) % (2 * SHUFFLE_MS + 1)) - SHUFFLE_MS;
  return b.sessions.map((s) => ({ device: s.device, start: s.start + d, sensors: s.sensors }));
}
