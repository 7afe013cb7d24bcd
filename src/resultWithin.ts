import type { AnalyzeResult } from "./analyze.ts";

/**
 * The part of an analysis of a time range's records that belongs to the range: sessions that
 * start in [sinceMs, untilMs), and days, hours, people estimates and occupancy intervals whose
 * window overlaps it. The rest (data quality, decoder counts, late records) is the whole read's
 * and kept as it is.
 *
 * A range read by RTS can hold records of another day: a sensor whose clock runs hours off, or a
 * service whose RTS is when it received a record (the last upload before midnight comes after
 * it). They are analysed with the range, but what they make is that day's, which must not be
 * overwritten by a piece: a fleet shop-day job stores only this part. Where the RTS is the
 * sensor's stamp and clocks agree, it is the whole result.
 *
 * @example
 * const result = await analyze(records);
 * const day = result.days[0]!;
 * resultWithin(result, day.start, day.end).days.length; // 1
 * resultWithin(result, day.end, day.end + 86_400_000).sessions.length; // 0
 */
export function resultWithin(result: AnalyzeResult, sinceMs: number, untilMs: number): AnalyzeResult {
  if (!(untilMs > sinceMs)) throw new RangeError(`resultWithin: untilMs must be after sinceMs, got ${sinceMs} and ${untilMs}`);
  const overlaps = (w: TimeWindow): boolean => windowOverlaps(w, sinceMs, untilMs);
  return {
    ...result,
    sessions: result.sessions.filter((s) => timeWithin(s.start, sinceMs, untilMs)),
    days: result.days.filter(overlaps),
    hours: result.hours.filter(overlaps),
    people: result.people.filter(overlaps),
    occupancy: result.occupancy.filter(overlaps),
    liveOccupancy: result.liveOccupancy.filter(overlaps),
  };
}

/** Anything with a `[start, end)` window in epoch ms (a day, an hour, an occupancy interval). */
export interface TimeWindow {
  readonly start: number;
  readonly end: number;
}

/**
 * Whether the window `[start, end)` overlaps `[sinceMs, untilMs)`: the rule {@link resultWithin}
 * keeps windows by, for those that come one at a time (a tail's live occupancy).
 *
 * @example
 * windowOverlaps({ start: 0, end: 900_000 }, 900_000, 1_800_000); // false (they only touch)
 * windowOverlaps({ start: 0, end: 900_000 }, 600_000, 1_800_000); // true
 */
export function windowOverlaps(w: TimeWindow, sinceMs: number, untilMs: number): boolean {
  return w.start < untilMs && w.end > sinceMs;
}

/**
 * Whether the instant `ms` is in `[sinceMs, untilMs)`: the rule {@link resultWithin} keeps
 * sessions by (their start), for anything else that starts at an instant (a recorded visit).
 *
 * @example
 * timeWithin(900_000, 0, 900_000); // false (the end is not in the range)
 */
export function timeWithin(ms: number, sinceMs: number, untilMs: number): boolean {
  return ms >= sinceMs && ms < untilMs;
}
