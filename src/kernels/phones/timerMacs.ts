import type { ClassifiedSession } from "../visits/VisitClassifier.ts";
import { repeatsOnTimer } from "../visits/isPeriodicProber.ts";
import { heardInside } from "./heardInside.ts";
import type { TimerTrainOptions } from "./timerTrains.ts";

/**
 * One phone on a fast timer whose randomized MAC holds for many bursts: its MACs one after the
 * other, each on the timer, each next one starting a period (or two) after the last one's last
 * burst.
 *
 * @example
 * const c: TimerMacChain = { sessions: [], periodMs: 3_100, start: 0, end: 1_200_000 };
 */
export interface TimerMacChain {
  /** The MACs' sessions, by start. */
  readonly sessions: readonly ClassifiedSession[];
  /** The timer's period, ms (the first MAC's mean gap between bursts). */
  readonly periodMs: number;
  /** First and last burst, epoch ms. */
  readonly start: number;
  readonly end: number;
}

/**
 * Least share of a MAC's gaps that repeat the gap before (`Session.periodicGaps`, within 10 % or
 * a whole multiple): a timer repeats to 1 %, so nearly all of them; a phone whose gaps merely
 * scatter (a log-normal spread of 0.6, say) passes that loose test by chance on a few gaps, and
 * on 90 % of eleven or more almost never.
 */
const TIMER_MAC_SHARE = 0.9;
/**
 * How far two MACs' mean gaps may differ and the step between them may miss a whole number of
 * periods, as a share of the period: a MAC's mean gap is its timer's period lengthened by the
 * bursts the sensors missed (a few per cent), where the timer itself repeats to 1 %.
 */
const PERIOD_SHARE = 0.1;

/** A MAC's mean gap between bursts, ms, when it is on a timer of `rules`' range; else NaN. */
function timerPeriod(s: ClassifiedSession, rules: TimerTrainOptions): number {
  if (!s.randomized || !repeatsOnTimer(s.probeCount, s.periodicGaps, rules.timerMinBursts, TIMER_MAC_SHARE)) return Number.NaN;
  const period = s.dwellMs / (s.probeCount - 1);
  return period >= rules.timerMinMs && period <= rules.timerMaxMs ? period : Number.NaN;
}

// Whether `b` reads like `a` where both were heard: a sensor in common at least, every common
// sensor's peaks within `db`.
function readAlike(a: ClassifiedSession, b: ClassifiedSession, db: number): boolean {
  let shared = 0;
  for (const x of a.sensors) {
    for (const y of b.sensors) {
      if (x.sensor !== y.sensor) continue;
      if (Math.abs(x.peakSmoothedRssi - y.peakSmoothedRssi) > db) return false;
      shared++;
    }
  }
  return shared > 0;
}

/**
 * Phones on a fast timer among a shop-day's randomized MACs heard inside (`sessions`: visitors'
 * and passers-by's, by start; `taken` are passed over): a MAC whose bursts keep a period of
 * `timerMinMs`–`timerMaxMs` (`timerMinBursts` bursts at least, 90 % of its gaps repeating) is one phone while it
 * lasts, and the next MAC on the same period (within 10 %) that starts one or two periods after
 * its last burst, reading alike (`timerRssiDb`), is the same phone after it rotated its MAC. Real
 * phones do this: phone X bursts every 3.1 s on one MAC that holds for 20 minutes; counted by
 * bursts, one such MAC is twelve persons, and a long visit's MACs are pieces set aside. A step
 * with two candidate MACs ends the chain there (two phones in step are not told apart). Each MAC
 * is in one chain; a lone MAC on a timer is a chain of one.
 *
 * @example
 * timerMacs([], new Set(), { timerMinMs: 2_000, timerMaxMs: 30_000, timerToleranceMs: 300, timerRssiDb: 8, timerMinBursts: 12 }).length; // 0
 */
export function timerMacs(sessions: readonly ClassifiedSession[], taken: ReadonlySet<ClassifiedSession>, rules: TimerTrainOptions): TimerMacChain[] {
  const candidates: { s: ClassifiedSession; period: number }[] = [];
  for (const s of sessions) {
    if (taken.has(s) || (s.kind !== "visitor" && s.kind !== "passerby") || !heardInside(s)) continue;
    const period = timerPeriod(s, rules);
    if (!Number.isNaN(period)) candidates.push({ s, period });
  }
  candidates.sort((a, b) => a.s.start - b.s.start || a.s.end - b.s.end || (a.s.device < b.s.device ? -1 : a.s.device > b.s.device ? 1 : 0));
  const used = new Uint8Array(candidates.length);
  const chains: TimerMacChain[] = [];
  for (let i = 0; i < candidates.length; i++) {
    if (used[i] === 1) continue;
    used[i] = 1;
    const chain = [candidates[i]!.s];
    const period = candidates[i]!.period;
    let last = candidates[i]!.s;
    for (;;) {
      let next = -1;
      let count = 0;
      // Candidates that start after `last` ends, within two periods and the tolerance.
      for (let k = i + 1; k < candidates.length && candidates[k]!.s.start <= last.end + (2 + PERIOD_SHARE) * period; k++) {
        const c = candidates[k]!;
        if (used[k] === 1 || c.s.start <= last.end) continue;
        if (Math.abs(c.period - period) > PERIOD_SHARE * period) continue;
        const steps = (c.s.start - last.end) / period;
        const whole = Math.round(steps);
        if (whole < 1 || whole > 2 || Math.abs(steps - whole) > PERIOD_SHARE) continue;
        if (!readAlike(last, c.s, rules.timerRssiDb)) continue;
        next = k;
        count++;
      }
      if (count !== 1) break;
      used[next] = 1;
      last = candidates[next]!.s;
      chain.push(last);
    }
    chains.push({ sessions: chain, periodMs: period, start: chain[0]!.start, end: last.end });
  }
  return chains;
}
