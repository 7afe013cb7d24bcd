import { CALIBRATION_FEATURES, FEATURE_OFFSETS, rssiBand } from "../calibration/calibrationFeatures.ts";
import type { ClassifiedSession } from "../visits/VisitClassifier.ts";

/**
 * The features (`CALIBRATION_FEATURES`) of the intervals `first` to `last − 1` of a day that
 * starts at `dayStart` (`intervalMs` each, the last cut at `dayEnd`), from the day's visitor and
 * passer-by sessions and its stationary devices' presence: randomized MACs heard by band (a
 * session overlapping the interval counts once in the band of its strongest smoothed reading),
 * universal-MAC devices present by band and stationary devices present (time-weighted: a device
 * there the whole interval counts 1). Internal: the one place they are counted, for a day's
 * estimate and the day so far alike; a shop's model maps them to people.
 *
 * @param sessions the day's visitor and passer-by sessions (any order)
 * @param share the bursts a MAC of a burst of several stands for (`OneBurstMacs.share`): each counts so much of a MAC
 * @param stationary the day's stationary devices' sessions, as [start, end] epoch ms
 * @returns one row of `CALIBRATION_FEATURES.length` numbers per interval
 * @example
 * const rows = intervalFeatures([], new Map(), [[0, 900_000]], 0, 86_400_000, 900_000, 0, 2);
 * rows[0]![10]; // 1 (a stationary device all of the first interval)
 */
export function intervalFeatures(
  sessions: readonly ClassifiedSession[],
  share: ReadonlyMap<ClassifiedSession, number>,
  stationary: readonly (readonly [number, number])[],
  dayStart: number,
  dayEnd: number,
  intervalMs: number,
  first: number,
  last: number,
): number[][] {
  const count = Math.max(0, last - first);
  const width = CALIBRATION_FEATURES.length;
  const rows = Array.from({ length: count }, () => new Array<number>(width).fill(0));
  const from = dayStart + first * intervalMs;
  const lengthOf = (i: number): number => Math.min(dayEnd, from + (i + 1) * intervalMs) - (from + i * intervalMs);
  // Each interval [a, e) that [start, end] overlaps (a session's last probe at `a` is in it).
  const each = (start: number, end: number, visit: (i: number, a: number, e: number) => void): void => {
    const i0 = Math.max(0, Math.floor((start - from) / intervalMs));
    const i1 = Math.min(count - 1, Math.floor((end - from) / intervalMs));
    for (let i = i0; i <= i1; i++) {
      const a = from + i * intervalMs;
      const e = a + lengthOf(i);
      if (end >= a && start < e) visit(i, a, e);
    }
  };
  for (const s of sessions) {
    if (s.kind !== "visitor" && s.kind !== "passerby") continue;
    const band = rssiBand(s.peakSmoothedRssi);
    // The MACs of one burst count as one (each its share of it).
    const count = share.get(s) ?? 1;
    if (s.randomized) each(s.start, s.end, (i) => (rows[i]![FEATURE_OFFSETS.randomized + band]! += count));
    else each(s.start, s.end, (i, a, e) => (rows[i]![FEATURE_OFFSETS.universal + band]! += (Math.min(e, s.end) - Math.max(a, s.start)) / (e - a)));
  }
  for (const [start, end] of stationary) each(start, end, (i, a, e) => (rows[i]![FEATURE_OFFSETS.stationary]! += (Math.min(e, end) - Math.max(a, start)) / (e - a)));
  return rows;
}
