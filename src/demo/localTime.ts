import { TZDate } from "@date-fns/tz";
import { set } from "date-fns/set";
import { formatInZone } from "../time/formatLocal.ts";

// Calendar work in the shop's zone: date-fns for wall-clock arithmetic, footfall's `formatInZone`
// for text; none of it runs per record.

/**
 * A formatter of instants as the shop's local wall-clock time, `HH:mm` (the dashboard's clock).
 *
 * @example
 * localClock("Asia/Seoul")(Date.UTC(2026, 10, 16, 5, 5)); // "14:05"
 */
export function localClock(timeZone: string): (ms: number) => string {
  return (ms) => formatInZone(ms, timeZone, "clock");
}

/**
 * The local date of an instant, `YYYY-MM-DD`.
 *
 * @example
 * localDate(Date.UTC(2026, 10, 15, 15, 0), "Asia/Seoul"); // "2026-11-16"
 */
export function localDate(ms: number, timeZone: string): string {
  return formatInZone(ms, timeZone, "date");
}

/**
 * The local weekday of an instant, abbreviated in English (`Mon`).
 *
 * @example
 * localWeekday(Date.UTC(2026, 10, 16, 3, 0), "Asia/Seoul"); // "Mon"
 */
export function localWeekday(ms: number, timeZone: string): string {
  return formatInZone(ms, timeZone, "weekday");
}

/**
 * The instant of a local wall-clock time (hours, fractions allowed: 9.5 = 09:30; 24 = the next
 * midnight) on the day starting at `dayStartMs`: wall-clock, so right on a DST day too.
 *
 * @example
 * localTimeOfDay(Date.UTC(2026, 10, 15, 15, 0), 9.5, "Asia/Seoul") === Date.UTC(2026, 10, 16, 0, 30); // true
 */
export function localTimeOfDay(dayStartMs: number, hours: number, timeZone: string): number {
  const minutes = Math.round(hours * 60);
  return set(new TZDate(dayStartMs, timeZone), { hours: Math.floor(minutes / 60), minutes: minutes % 60, seconds: 0, milliseconds: 0 }).getTime();
}

/**
 * Hours of the day (fractions allowed) as `HH:MM`, for opening hours.
 *
 * @example
 * hoursText(9.5); // "09:30"
 */
export function hoursText(h: number): string {
  const m = Math.round((h % 1) * 60);
  return `${String(Math.floor(h)).padStart(2, "0")}:${String(m).padStart(2, "0")}`;
}
