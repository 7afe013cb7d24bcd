import { isCalendarDate } from "../time/calendarDate.ts";
import { isoInstant } from "../time/isoInstant.ts";

// Extended ISO 8601: date, optional time (T or space), optional fraction, optional offset.
const TIMESTAMP_RE =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?\s*(Z|z|[+-]\d{2}(?::?\d{2})?)?)?$/;

// A wall-clock time as a spreadsheet displays it: a one-digit hour ("2026-11-16 9:05"), or a
// 12-hour clock with its marker before (Korean: 오전/오후) or after (AM/PM) it.
const DISPLAYED_RE = /^(\d{4})-(\d{2})-(\d{2})[T ]\s*(?:(오전|오후|AM|PM)\s*)?(\d{1,2}):(\d{2})(?::(\d{2}))?(?:\s*(오전|오후|AM|PM))?$/i;

/**
 * Reads a transaction timestamp (ISO 8601, extended format).
 *
 * - With an offset (`Z`, `+09:00`, `+0900`, `+09`): an instant, returned as epoch milliseconds
 *   (a number); the caller maps it to the shop's local day.
 * - Without an offset: a wall-clock time already in the shop's time zone, so its local day is
 *   its own date part, returned as the `YYYY-MM-DD` string (DST gaps cannot move the date).
 * - A wall-clock time as a spreadsheet displays it (Korean Excel writes "2026-11-16 9:05" and
 *   "2026-11-16 오후 2:30:00"; "2:30 PM" too): its date, as for a time without an offset.
 * - Anything else (not ISO 8601, 2026-02-30, 25:00, 13:00 PM): `undefined`.
 *
 * Returning a number or a string instead of an object keeps the per-row path allocation-free.
 * Per row, so it is one regular expression and integer day numbers rather than date-fns'
 * `parseISO`, which is ~3× slower here (`npx tsx bench/calendar.ts`) and accepts forms a till
 * export should not (week dates, basic format).
 *
 * @example
 * parseSalesTimestamp("2026-11-20T00:30:00+09:00"); // 1795102200000 (2026-11-19T15:30Z)
 * parseSalesTimestamp("2026-11-20 00:30");          // "2026-11-20"
 * parseSalesTimestamp("2026-11-31T10:00:00Z");      // undefined
 * parseSalesTimestamp("2026-11-20 오후 2:30:00");   // "2026-11-20"
 */
export function parseSalesTimestamp(text: string): number | string | undefined {
  const m = TIMESTAMP_RE.exec(text);
  if (m === null) return displayedWallClock(text);
  const instant = isoInstant(m);
  // A wall-clock time without a zone is a date of the shop's own day (the caller places it).
  return instant === "no zone" ? `${m[1]}-${m[2]}-${m[3]}` : instant;
}

/** The date of a wall-clock time as a spreadsheet displays it ({@link DISPLAYED_RE}), or `undefined`. */
function displayedWallClock(text: string): string | undefined {
  const m = DISPLAYED_RE.exec(text);
  if (m === null || (m[4] !== undefined && m[8] !== undefined)) return undefined;
  if (!isCalendarDate(Number(m[1]), Number(m[2]), Number(m[3]))) return undefined;
  const hour = Number(m[5]);
  const twelve = m[4] !== undefined || m[8] !== undefined;
  if (twelve ? hour < 1 || hour > 12 : hour > 23) return undefined;
  if (Number(m[6]) > 59 || (m[7] !== undefined && Number(m[7]) > 59)) return undefined;
  return `${m[1]}-${m[2]}-${m[3]}`;
}
