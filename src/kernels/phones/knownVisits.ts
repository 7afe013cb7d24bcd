import { estimatedDwell } from "../sessions/estimatedDwell.ts";
import { joinedSquaredGaps } from "../sessions/joinedSquaredGaps.ts";
import { repeatsOnTimer } from "../visits/isPeriodicProber.ts";
import { universalPersonWeight } from "./universalPersonWeight.ts";
import type { ClassifiedSession } from "../visits/VisitClassifier.ts";
import type { TimerTrain } from "./timerTrains.ts";
import type { TimerMacChain } from "./timerMacs.ts";

/**
 * One identity-known visit: a device's visitor sessions of the day, rejoined (and the one-burst
 * sessions of a slow prober heard inside: see {@link knownVisits}).
 *
 * @example
 * const k: KnownVisit | undefined = dayModel(classified, { shopId: 101, start: 0 }, peopleEstimatorOptions()).known[0];
 */
export interface KnownVisit {
  readonly device: string;
  /** Locally administered MAC. */
  readonly randomized: boolean;
  /** How much of a person the device is: 1 for a randomized MAC that held (a phone), else `universalPersonWeight`. */
  readonly weight: number;
  /** Sessions rejoined into it. */
  readonly sessions: number;
  readonly start: number;
  readonly end: number;
  /** end − start, ms. */
  readonly span: number;
  /** Burst gaps observed (bursts − 1). */
  readonly bursts: number;
  /** span plus the mean gap its edges fall into (see `estimatedDwell`; a timer's: one period), ms. */
  readonly estimated: number;
  /**
   * Whether the classifier called every session of it a passer-by's (a slow prober's one-burst
   * sessions, rejoined): a visit, but only a long one can be seen so, so it is no sample of stays.
   */
  readonly passes: boolean;
}

/**
 * The identity-known visits of a shop-day: per device, its visitor sessions not set aside in
 * `linked` (visits, in canonical order), rejoined when at most `rejoinGapMs` apart, each weighted
 * by how much of a person it is (`universalShare`: see `universalPersonWeight`), the phones on a
 * timer (`trains`: one phone each, whose MACs rotate at every burst; named by their first MAC) and
 * the phones whose MACs hold on a fast timer (`chains`: one phone each, however many MACs it
 * rotated through; named by its first MAC).
 *
 * `returning` are sessions the classifier called a passer-by's that may be pieces of a visit
 * (`dayModel`: a universal MAC heard inside): they rejoin like visits, and a device's run of them
 * with no visitor session is a visit when it holds two or more. A phone that bursts less often
 * than the session gap is heard as sessions of one burst, each with no dwell; the same MAC heard
 * inside again within `rejoinGapMs` stayed, where a passer-by is heard once.
 * Internal: part of the `dayModel`.
 *
 * @example
 * knownVisits([], new Set(), 900_000, 0.3, []).length; // 0
 */
export function knownVisits(
  visits: readonly ClassifiedSession[],
  linked: ReadonlySet<ClassifiedSession>,
  rejoinGapMs: number,
  universalShare: number,
  trains: readonly TimerTrain[],
  chains: readonly TimerMacChain[] = [],
  returning: readonly ClassifiedSession[] = [],
): KnownVisit[] {
  const byDevice = new Map<string, ClassifiedSession[]>();
  const randomized = new Set<string>();
  const add = (v: ClassifiedSession): void => {
    if (v.randomized) randomized.add(v.device);
    const list = byDevice.get(v.device);
    if (list === undefined) byDevice.set(v.device, [v]);
    else list.push(v);
  };
  for (const v of visits) if (!linked.has(v)) add(v);
  if (returning.length > 0) {
    for (const v of returning) add(v);
    // Each device's sessions in canonical order again, the returning ones among its visits.
    for (const list of byDevice.values()) list.sort(byStart);
  }
  const out: KnownVisit[] = [];
  const close = (device: string, start: number, end: number, probes: number, squared: number, sessions: number, periodic: number, visitor: boolean) => {
    if (!visitor && sessions < 2) return;
    const span = end - start;
    const isRandomized = randomized.has(device);
    const estimated = estimatedDwell(span, squared);
    const weight = isRandomized ? 1 : universalPersonWeight(device, estimated, universalShare, repeatsOnTimer(probes, periodic, TIMER_MIN_PROBES));
    out.push({ device, randomized: isRandomized, weight, sessions, start, end, span, bursts: probes - 1, estimated, passes: !visitor });
  };
  for (const [device, list] of byDevice) {
    // Sorted by start (canonical order).
    let start = list[0]!.start;
    let end = list[0]!.end;
    let probes = list[0]!.probeCount;
    let squared = list[0]!.squaredGapsMs2;
    let periodic = list[0]!.periodicGaps;
    let sessions = 1;
    let visitor = list[0]!.kind === "visitor";
    for (let i = 1; i < list.length; i++) {
      const s = list[i]!;
      if (s.start - end <= rejoinGapMs) {
        squared = joinedSquaredGaps(squared, end, s);
        end = Math.max(end, s.end);
        probes += s.probeCount;
        periodic += s.periodicGaps;
        sessions++;
        visitor ||= s.kind === "visitor";
      } else {
        close(device, start, end, probes, squared, sessions, periodic, visitor);
        start = s.start;
        end = s.end;
        probes = s.probeCount;
        squared = s.squaredGapsMs2;
        periodic = s.periodicGaps;
        sessions = 1;
        visitor = s.kind === "visitor";
      }
    }
    close(device, start, end, probes, squared, sessions, periodic, visitor);
  }
  // A phone on a timer, one person however many MACs: its presence is its bursts' span and one
  // period (half before the first, half after the last).
  const timer = (device: string, start: number, end: number, probes: number, periodMs: number): void =>
    void out.push({ device, randomized: true, weight: 1, sessions: 1, start, end, span: end - start, bursts: probes - 1, estimated: end - start + periodMs, passes: false });
  for (const t of trains) timer(t.bursts[0]!.sessions[0]!.device, t.start, t.end, t.bursts.length, t.periodMs);
  for (const c of chains) timer(c.sessions[0]!.device, c.start, c.end, c.sessions.reduce((n, s) => n + s.probeCount, 0), c.periodMs);
  return out;
}

/**
 * Fewest probes for a visit's gaps to show a timer (five gaps, at the classifier's share): a phone
 * left in one mode probes on one (the captures' timers repeat to 1 %), a laptop or a phone in its
 * owner's hands does not.
 */
const TIMER_MIN_PROBES = 6;

// Canonical order of one device's sessions: by start, then end.
function byStart(a: ClassifiedSession, b: ClassifiedSession): number {
  return a.start - b.start || a.end - b.end;
}
