import { dateOfEpochDay } from "./calendarDate.ts";
import { zoneOffsetMinutes } from "./timeZone.ts";

/**
 * The text forms of a local time {@link formatLocal} writes:
 * - `"iso"`: ISO 8601 with the offset, to the second: `2026-11-16T12:34:56+09:00`;
 * - `"hour"`: an hour window's label, `2026-11-16T12:00+09:00` (the offset tells the repeated
 *   hour of a DST fall-back apart);
 * - `"minute"`: `2026-11-16 12:34`;
 * - `"date"`: `2026-11-16`;
 * - `"clock"`: `12:34`;
 * - `"weekday"`: `Mon` (English, abbreviated).
 *
 * @example
 * const form: LocalTextForm = "hour";
 */
export type LocalTextForm = "iso" | "hour" | "minute" | "date" | "clock" | "weekday";

const WEEKDAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"] as const;

/**
 * An instant (epoch ms) as local wall-clock text, given the zone's UTC offset at that instant
 * (minutes; `zoneOffsetMinutes(timeZone, ms)`): pure arithmetic on footfall's integer calendar
 * (`dateOfEpochDay`), the one rule for every local time footfall writes — the simulator's
 * timestamps on every transaction, hour labels, dates, the CLI's and the dashboard's clocks.
 * (date-fns' `format` did the zone's part: its ~30 modules cost every start of the CLI ~20 ms.)
 *
 * @example
 * formatLocal(1794800096000, 540, "iso");     // "2026-11-16T12:34:56+09:00"
 * formatLocal(1794800096000, 540, "hour");    // "2026-11-16T12:00+09:00"
 * formatLocal(1794800096000, 540, "minute");  // "2026-11-16 12:34"
 * formatLocal(1794800096000, -300, "clock");  // "22:34"
 * formatLocal(1794800096000, 540, "weekday"); // "Mon"
 */
export function formatLocal(ms: number, offsetMinutes: number, form: LocalTextForm): string {
  const local = Math.floor(ms / 1000) + offsetMinutes * 60;
  const day = Math.floor(local / 86_400);
  if (form === "weekday") return WEEKDAYS[(((day + 4) % 7) + 7) % 7]!; // 1970-01-01 was a Thursday
  const date = dateOfEpochDay(day);
  if (form === "date") return date;
  const sec = local - day * 86_400;
  const hh = pad2(Math.floor(sec / 3600));
  const mm = pad2(Math.floor((sec % 3600) / 60));
  if (form === "clock") return `${hh}:${mm}`;
  if (form === "minute") return `${date} ${hh}:${mm}`;
  const sign = offsetMinutes < 0 ? "-" : "+";
  const abs = Math.abs(offsetMinutes);
  const offset = `${sign}${pad2(Math.floor(abs / 60))}:${pad2(abs % 60)}`;
  return form === "hour" ? `${date}T${hh}:00${offset}` : `${date}T${hh}:${mm}:${pad2(sec % 60)}${offset}`;
}

function pad2(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}

/**
 * {@link formatLocal} in an IANA time zone: the zone's offset at that instant (DST included).
 *
 * @example
 * formatInZone(Date.UTC(2026, 10, 16, 5, 5), "Asia/Seoul", "clock"); // "14:05"
 */
export function formatInZone(ms: number, timeZone: string, form: LocalTextForm): string {
  return formatLocal(ms, zoneOffsetMinutes(timeZone, ms), form);
}
