import type { TruthSegment } from "../truth/CountedTruth.ts";

/**
 * What the counted truth says about one shop over one interval ({@link truthInside}).
 *
 * @example
 * const inside: TruthInside = { people: 12.5, coveredMs: 600_000 };
 * inside.coveredMs / 900_000; // 0.6666666666666666
 */
export interface TruthInside {
  /**
   * Time-weighted mean of the people counted, persons, over the covered part of the interval
   * only; `NaN` when no part is covered (the count is unknown there, not zero).
   */
  readonly people: number;
  /** How much of the interval the segments cover, milliseconds (0 … end − start). */
  readonly coveredMs: number;
}

/**
 * The people counted inside shop `shopId` over [`start`, `end`) (epoch milliseconds): the
 * time-weighted mean over the part of the interval the segments cover, and how long that part
 * is. Truth has gaps (between counts, or rows of unknown count), so the caller decides how much
 * coverage is enough to compare an estimate with: a mean over 1 minute of a 15-minute interval
 * is a different claim from one over all 15.
 *
 * `segments` are expected as {@link parseTruth}, {@link readTruth} and {@link mergeTruth}
 * return them: one shop's do not overlap (overlapping ones would be counted twice). Their
 * order does not matter. One pass over them; a RangeError when the interval is not finite or
 * `end` is not after `start`.
 *
 * @example
 * const segments: TruthSegment[] = [
 *   { shopId: 61, start: 0, end: 600_000, people: 10, line: 2, source: "t.csv" },
 *   { shopId: 61, start: 600_000, end: 900_000, people: 4, line: 3, source: "t.csv" },
 *   { shopId: 7, start: 0, end: 900_000, people: 99, line: 4, source: "t.csv" },
 * ];
 * truthInside(segments, 61, 300_000, 1_200_000); // { people: 7, coveredMs: 600000 }
 * truthInside(segments, 61, 900_000, 1_800_000); // { people: NaN, coveredMs: 0 }
 */
export function truthInside(segments: readonly TruthSegment[], shopId: number, start: number, end: number): TruthInside {
  if (!Number.isFinite(start) || !Number.isFinite(end) || !(end > start)) {
    throw new RangeError(`truthInside: the interval must be finite with end > start (epoch ms), got [${start}, ${end})`);
  }
  let personMs = 0;
  let coveredMs = 0;
  for (const s of segments) {
    if (s.shopId !== shopId) continue;
    const overlap = Math.min(end, s.end) - Math.max(start, s.start);
    if (overlap <= 0) continue;
    personMs += s.people * overlap;
    coveredMs += overlap;
  }
  return { people: coveredMs > 0 ? personMs / coveredMs : Number.NaN, coveredMs };
}
