import { TruthInputError } from "../errors/TruthInputError.ts";
import type { CountedTruth, DailyCount, TruthSegment } from "./CountedTruth.ts";

/**
 * Merges counted truth from several files (or parts of one) into one {@link CountedTruth},
 * and is the one place the rules about rows that meet live, for one file as for many:
 *
 * - Segments of the same shop that overlap with **different** counts contradict each other
 *   (two counts for the same moment): a {@link TruthInputError} on the row that comes later
 *   (by part, then by position), naming the other row's file and line.
 * - Segments that overlap with the **same** count agree: the time is kept once (an identical
 *   duplicate, as when a file is given twice, is dropped; a partial one is cut to the part not
 *   yet covered, keeping its own line), so a time-weighted mean never counts a moment twice.
 * - Daily counts of the same shop and day: kept once when equal, otherwise a
 *   {@link TruthInputError} the same way.
 * - `unknownRows` add up.
 *
 * The result's segments are sorted by shop, then start, and one shop's never overlap; daily
 * counts are sorted by shop, then date. Which row of equal duplicates is kept does not depend
 * on anything but the order of `parts` (the first is kept). Pure; the first conflict found
 * (in time order) is thrown, and nothing is returned.
 *
 * @example
 * const a: CountedTruth = { segments: [{ shopId: 61, start: 0, end: 60_000, people: 3, line: 2, source: "a.csv" }], daily: [], unknownRows: 1 };
 * const b: CountedTruth = { segments: [{ shopId: 61, start: 0, end: 60_000, people: 3, line: 5, source: "b.csv" }], daily: [], unknownRows: 1 };
 * mergeTruth([a, b]).segments.length; // 1
 * mergeTruth([a, b]).unknownRows; // 2
 * const c: CountedTruth = { segments: [{ shopId: 61, start: 30_000, end: 90_000, people: 4, line: 7, source: "c.csv" }], daily: [], unknownRows: 0 };
 * mergeTruth([a, c]); // TruthInputError
 */
export function mergeTruth(parts: readonly CountedTruth[]): CountedTruth {
  if (!Array.isArray(parts)) throw new TypeError("mergeTruth: parts must be an array of CountedTruth");
  const segments: Ordered<TruthSegment>[] = [];
  const daily: Ordered<DailyCount>[] = [];
  let unknownRows = 0;
  for (const part of parts) {
    for (const s of part.segments) {
      checkSegment(s);
      segments.push({ row: s, order: segments.length });
    }
    for (const d of part.daily) daily.push({ row: d, order: daily.length });
    unknownRows += part.unknownRows;
  }
  return { segments: mergeSegments(segments), daily: mergeDaily(daily), unknownRows };
}

/** A row and its position among all rows given, which decides "later" and "first kept". */
interface Ordered<T> {
  readonly row: T;
  readonly order: number;
}

/** Hand-made segments (not from parseTruth) must still make sense, or the sweep below lies. */
function checkSegment(s: TruthSegment): void {
  if (!Number.isFinite(s.start) || !Number.isFinite(s.end) || !(s.end > s.start)) {
    throw new RangeError(`mergeTruth: segment at ${s.source}:${s.line} must have finite start < end (epoch ms), got [${s.start}, ${s.end})`);
  }
  if (!(s.people >= 0) || !Number.isFinite(s.people)) {
    throw new RangeError(`mergeTruth: segment at ${s.source}:${s.line} must have people ≥ 0, got ${s.people}`);
  }
}

function mergeSegments(all: Ordered<TruthSegment>[]): TruthSegment[] {
  // Longest first among equal starts, so a shorter duplicate falls wholly inside what is kept
  // instead of leaving a piece; the order among identical rows keeps the first given.
  all.sort((a, b) => a.row.shopId - b.row.shopId || a.row.start - b.row.start || b.row.end - a.row.end || a.order - b.order);
  const out: TruthSegment[] = [];
  // The earlier segment of this shop reaching furthest. With no conflict so far, every earlier
  // segment still open at a start covers that moment and so has the same count as this one;
  // an earlier segment can only overlap a later-starting one at its start. So comparing with
  // the furthest-reaching one finds any contradiction.
  let reach: Ordered<TruthSegment> | undefined;
  for (const current of all) {
    const s = current.row;
    if (reach !== undefined && reach.row.shopId !== s.shopId) reach = undefined;
    if (reach === undefined || s.start >= reach.row.end) {
      out.push(s);
      reach = current;
      continue;
    }
    if (s.people !== reach.row.people) throw conflict(current, reach);
    if (s.end > reach.row.end) {
      out.push({ ...s, start: reach.row.end });
      reach = current;
    }
  }
  return out;
}

function mergeDaily(all: Ordered<DailyCount>[]): DailyCount[] {
  all.sort((a, b) => a.row.shopId - b.row.shopId || (a.row.date < b.row.date ? -1 : a.row.date > b.row.date ? 1 : 0) || a.order - b.order);
  const out: DailyCount[] = [];
  let last: Ordered<DailyCount> | undefined;
  for (const current of all) {
    const d = current.row;
    if (last !== undefined && last.row.shopId === d.shopId && last.row.date === d.date) {
      if (d.visitors !== last.row.visitors) throw conflict(current, last);
      continue;
    }
    out.push(d);
    last = current;
  }
  return out;
}

/** The error on whichever row came later, naming the other one so both can be looked at. */
function conflict(a: Ordered<TruthSegment | DailyCount>, b: Ordered<TruthSegment | DailyCount>): TruthInputError {
  const [later, earlier] = a.order > b.order ? [a.row, b.row] : [b.row, a.row];
  const where = earlier.source === later.source ? `line ${earlier.line}` : `${earlier.source}:${earlier.line}`;
  if ("date" in later && "date" in earlier) {
    return new TruthInputError(
      later.source,
      later.line,
      `shop ${later.shopId} on ${later.date}: ${later.visitors} visitors, but ${where} says ${earlier.visitors} for the same day`,
      { column: "visitors" },
    );
  }
  const l = later as TruthSegment;
  const e = earlier as TruthSegment;
  return new TruthInputError(
    later.source,
    later.line,
    `shop ${l.shopId}: ${l.people} people over ${span(l)}, but ${where} says ${e.people} over ${span(e)}; ` +
      `two counts for the same time from ${iso(Math.max(l.start, e.start))} to ${iso(Math.min(l.end, e.end))}`,
    { column: "people" },
  );
}

function span(s: TruthSegment): string {
  return `[${iso(s.start)}, ${iso(s.end)})`;
}

/** UTC, since the offset each file was written in is not kept; an error path, so a Date is fine. */
function iso(ms: number): string {
  return new Date(ms).toISOString();
}
