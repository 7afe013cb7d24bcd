/**
 * People counted inside a shop over a span of time: one row of a `shop_id,start,end,people`
 * truth file. The count held (or was the time-weighted mean) over the half-open span
 * [`start`, `end`), so two segments where one ends as the next starts do not overlap.
 *
 * @example
 * const segment: TruthSegment = { shopId: 61, start: 1710420847533, end: 1710423120392, people: 17, line: 2, source: "2024-03-14.truth.csv" };
 * (segment.end - segment.start) / 60_000; // 37.88098333333333
 */
export interface TruthSegment {
  /** The service's shop id. */
  readonly shopId: number;
  /** Start of the span, epoch milliseconds (inclusive). */
  readonly start: number;
  /** End of the span, epoch milliseconds (exclusive); always after `start`. */
  readonly end: number;
  /** People inside over the span, persons (≥ 0; may be fractional when it is a mean). */
  readonly people: number;
  /** 1-based line of the row in its file, so a finding can point at it. */
  readonly line: number;
  /** The file (or label) the row came from. */
  readonly source: string;
}

/**
 * Visitors counted entering a shop on one local day: one row of a `shop_id,date,visitors`
 * truth file (a door counter's daily total).
 *
 * @example
 * const day: DailyCount = { shopId: 61, date: "2024-03-14", visitors: 212, line: 2, source: "door.csv" };
 * day.visitors; // 212
 */
export interface DailyCount {
  /** The service's shop id. */
  readonly shopId: number;
  /** The shop's local calendar day, `YYYY-MM-DD`. */
  readonly date: string;
  /** Entrances counted that day, persons (≥ 0). */
  readonly visitors: number;
  /** 1-based line of the row in its file. */
  readonly line: number;
  /** The file (or label) the row came from. */
  readonly source: string;
}

/**
 * Everything read from one or more truth files.
 *
 * - `segments` are sorted by shop, then start; one shop's segments never overlap (rows that
 *   repeat a count already covered are kept once, see {@link mergeTruth}).
 * - `daily` is sorted by shop, then date, one entry per shop and day.
 * - `unknownRows` counts rows whose count was `NaN` or empty (not known at the time): they
 *   are left out, and the caller says how many, because a truth file with gaps calibrates
 *   on less than it seems to.
 *
 * @example
 * const truth: CountedTruth = { segments: [], daily: [], unknownRows: 0 };
 * truth.segments.length; // 0
 */
export interface CountedTruth {
  /** People-inside spans, by shop then start; non-overlapping per shop. */
  readonly segments: readonly TruthSegment[];
  /** Daily entrance counts, by shop then date; one per shop and day. */
  readonly daily: readonly DailyCount[];
  /** Rows skipped because their count was unknown (`NaN` or empty). */
  readonly unknownRows: number;
}
