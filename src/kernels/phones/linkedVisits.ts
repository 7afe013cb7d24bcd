import type { Session } from "../sessions/Session.ts";
import type { ClassifiedSession } from "../visits/VisitClassifier.ts";
import { heardInside } from "./heardInside.ts";

/**
 * How rotation pieces are linked (`PeopleEstimatorOptions`' `linkGapMs`, `linkRssiDb`,
 * `linkShortMs`).
 *
 * @example
 * const o: LinkOptions = { linkGapMs: 120_000, linkRssiDb: 10, linkShortMs: 300_000 };
 */
export interface LinkOptions {
  /** Longest silence between one MAC's last burst and the next MAC's first, ms. */
  readonly linkGapMs: number;
  /** Largest difference of smoothed peaks at a sensor that heard both, dB. */
  readonly linkRssiDb: number;
  /** A visit shorter than this (ms) needs only a sensor in common. */
  readonly linkShortMs: number;
}

/** A probe burst visits every channel within about a second (published captures). */
const BURST_MS = 1000;

// Whether MAC `x` may continue (or precede) visit `v` at one of its ends: the sensors that heard
// v's burst at that end (within a burst spread of it) are exactly the sensors that heard x, and at
// a sensor both heard the peaks differ by at most `linkRssiDb`. The boundary burst, not the whole
// session, is compared so that long visits (which reach every sensor) are no less likely to match
// than short ones. A visit shorter than `linkShortMs` needs only a sensor in common: that does
// select by dwell, which the universal-MAC sample never feels (a universal MAC is never set
// aside) but the fallback sample of every identity-known visit does — its mean dwell then reads
// high (−13 % on few-universal days without fading), where the pieces that fading keeps in it
// made it read far lower (+42 % with 6 dB); see the README.
function consistentAt(v: Session, x: Session, atStart: boolean, o: LinkOptions): boolean {
  if (v.dwellMs < o.linkShortMs) {
    for (const a of v.sensors) for (const b of x.sensors) if (a.sensor === b.sensor) return true;
    return false;
  }
  const maxDb = o.linkRssiDb;
  let boundary = 0;
  for (const a of v.sensors) {
    const atEdge = atStart ? a.first <= v.start + BURST_MS : a.last >= v.end - BURST_MS;
    if (!atEdge) continue;
    boundary++;
    let match = false;
    for (const b of x.sensors) {
      if (b.sensor !== a.sensor) continue;
      match = Math.abs(a.peakSmoothedRssi - b.peakSmoothedRssi) <= maxDb || maxDb === Number.POSITIVE_INFINITY;
    }
    if (!match) return false;
  }
  return boundary > 0 && boundary === x.sensors.length;
}

// First index in `sorted` (ascending by key) whose key is ≥ value.
function lowerBound(sorted: readonly ClassifiedSession[], key: (s: ClassifiedSession) => number, value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (key(sorted[mid]!) < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The randomized visitor sessions of one shop-day (`sessions`, any order) set aside as possible
 * pieces of a rotating phone's visit: a short randomized MAC heard inside (a passer-by session at
 * or above its `visitorRssi`, of a device with no visit that day — a rotated MAC is new and never
 * heard again) ends at most `linkGapMs` before the visit starts, or starts at most `linkGapMs`
 * after it ends, heard by exactly the sensors of the visit's burst at that end with smoothed
 * peaks within `linkRssiDb` — or, when the visit lasted less than `linkShortMs`, by any sensor
 * that heard the visit (fading hides the RSSI match of exactly these short pieces). MACs already
 * known to be another phone's (`taken`: a phone on a timer) are no one's piece. The estimator's
 * one linking rule; exported so the accuracy tests can score its precision and recall against
 * the truth.
 *
 * @example
 * const pieces = linkedVisits(classified, peopleEstimatorOptions());
 * pieces.size <= classified.filter((s) => s.kind === "visitor").length; // true
 */
export function linkedVisits(sessions: readonly ClassifiedSession[], o: LinkOptions, taken: ReadonlySet<ClassifiedSession> = new Set()): Set<ClassifiedSession> {
  const visits = sessions.filter((s) => s.kind === "visitor");
  const visitorDevices = new Set(visits.map((v) => v.device));
  const shortStrong = sessions.filter((s) => s.kind === "passerby" && s.randomized && heardInside(s) && !visitorDevices.has(s.device) && !taken.has(s));
  const byStart = [...shortStrong].sort((a, b) => a.start - b.start);
  const byEnd = [...shortStrong].sort((a, b) => a.end - b.end);
  const linked = new Set<ClassifiedSession>();
  for (const v of visits) {
    if (!v.randomized) continue;
    let found = false;
    for (let i = lowerBound(byEnd, (s) => s.end, v.start - o.linkGapMs); !found && i < byEnd.length && byEnd[i]!.end < v.start; i++) {
      found = consistentAt(v, byEnd[i]!, true, o);
    }
    for (let i = lowerBound(byStart, (s) => s.start, v.end + 1); !found && i < byStart.length && byStart[i]!.start <= v.end + o.linkGapMs; i++) {
      found = consistentAt(v, byStart[i]!, false, o);
    }
    if (found) linked.add(v);
  }
  return linked;
}
