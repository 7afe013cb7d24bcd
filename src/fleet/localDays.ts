import { dateOfEpochDay } from "../time/calendarDate.ts";
import { localDayOf, localMidnight } from "../time/timeZone.ts";

/**
 * One local day of a shop: its date and [sinceMs, untilMs) in epoch ms.
 *
 * @example
 * const d: LocalDay = { day: "2026-11-16", sinceMs: 1795186800000, untilMs: 1795273200000 };
 */
export interface LocalDay {
  readonly day: string;
  readonly sinceMs: number;
  readonly untilMs: number;
}

/**
 * The local days in `timeZone` that [sinceMs, untilMs) touches, each whole (a partial first or last
 * day is widened to the day: jobs are whole shop-days, as `footfall analyze` reports them).
 *
 * @example
 * localDays(Date.parse("2026-11-16T00:00+09:00"), Date.parse("2026-11-18T00:00+09:00"), "Asia/Seoul").map((d) => d.day);
 * // ["2026-11-16", "2026-11-17"]
 */
export function localDays(sinceMs: number, untilMs: number, timeZone: string): LocalDay[] {
  if (!(untilMs > sinceMs)) return [];
  const out: LocalDay[] = [];
  const last = localDayOf(untilMs - 1, timeZone);
  for (let d = localDayOf(sinceMs, timeZone); d <= last; d++) {
    out.push({ day: dateOfEpochDay(d), sinceMs: localMidnight(d, timeZone), untilMs: localMidnight(d + 1, timeZone) });
  }
  return out;
}
