import { TZDate } from "@date-fns/tz";
import { addDays } from "date-fns/addDays";
import { startOfDay } from "date-fns/startOfDay";
import { MS_PER_DAY } from "./calendarDate.ts";
import { formatInZone } from "./formatLocal.ts";
import { assertTimeZone, zoneOffsetMinutes } from "./timeZone.ts";

const MS_PER_MINUTE = 60_000;
const MS_PER_HOUR = 3_600_000;
/** UTC days the day index may cover before it is emptied (about 27 years): a bound on memory for endless streams. */
const MAX_INDEXED_DAYS = 10_000;

/**
 * One local calendar day of a time zone: its `YYYY-MM-DD` date and the epoch-ms instants
 * where it starts (inclusive) and ends (exclusive). Usually 24 h; 23 h or 25 h on DST days.
 *
 * @example
 * const day: LocalDay = new LocalCalendar("Asia/Seoul").day(Date.UTC(2026, 10, 20, 3));
 * day.date; // "2026-11-20"
 */
export interface LocalDay {
  /** Local date, `YYYY-MM-DD`. */
  readonly date: string;
  /** Local midnight starting the day, epoch ms (the first instant of the day where midnight falls in a DST gap). */
  readonly start: number;
  /** Start of the next local day, epoch ms (exclusive end of this one). */
  readonly end: number;
  /** UTC offset in minutes valid for the whole day, or `NaN` when it changes within the day (DST). */
  readonly offsetMinutes: number;
}

/** Time windows the aggregating kernels group by. */
export type WindowUnit = "hour" | "day";

/**
 * Local days and hours of one IANA time zone (or UTC offset such as `"+09:00"`): the one
 * mechanism that maps instants to shop-local dates, for the kernels (sessions, visits, dwell
 * and counts per local day or hour) and the sales path (a transaction's local date).
 *
 * Each local day is worked out once with date-fns and @date-fns/tz (`TZDate`, `startOfDay`,
 * `addDays`: DST and odd offsets handled by the library; its date written by `formatLocal`)
 * and then cached, so mapping
 * an instant to its day is one or two comparisons when input is in time order (signals), or
 * one `Map` read when it is not (a sales file in any order). Per record, `TZDate` + `format`
 * or `startOfHour` cost 10–100× (dates of unsorted rows; more rows per day, more gain) to
 * 1000× (hour starts of signals) the cached lookup (`npx tsx bench/calendar.ts`): seconds per million records, where the
 * cache takes milliseconds. Per local day the difference does not matter.
 *
 * @example
 * const cal = new LocalCalendar("Asia/Seoul");
 * const t = Date.UTC(2026, 10, 20, 3, 30); // 12:30 in Seoul
 * cal.day(t).date;                          // "2026-11-20"
 * cal.dateOf(Date.parse("2026-11-19T15:30:00Z")); // "2026-11-20" (00:30 KST)
 * cal.hourStart(t) === Date.UTC(2026, 10, 20, 3); // true (12:00 local)
 */
export class LocalCalendar {
  /** The zone, as given. */
  readonly timeZone: string;
  #current: LocalDay | undefined;
  // UTC day number → the local days overlapping that UTC day (one to three). The key needs no
  // zone lookup, so an instant far from the last one (unsorted sales rows, a stream that
  // straddles midnight) still finds its day without recomputing it.
  readonly #byUtcDay = new Map<number, LocalDay[]>();

  /**
   * @param timeZone IANA name (`"Asia/Seoul"`) or UTC offset (`"+09:00"`). Throws RangeError when unknown.
   */
  constructor(timeZone: string) {
    assertTimeZone(timeZone);
    this.timeZone = timeZone;
  }

  /**
   * The local day containing the instant `timeMs` (epoch ms). The returned object is shared and
   * cached: compare it by identity or by `start`.
   *
   * @example
   * new LocalCalendar("UTC").day(0).date; // "1970-01-01"
   */
  day(timeMs: number): LocalDay {
    const cur = this.#current;
    if (cur !== undefined && timeMs >= cur.start && timeMs < cur.end) return cur;
    const near = this.#byUtcDay.get(Math.floor(timeMs / MS_PER_DAY));
    if (near !== undefined) {
      for (let i = 0; i < near.length; i++) {
        const d = near[i]!;
        if (timeMs >= d.start && timeMs < d.end) {
          this.#current = d;
          return d;
        }
      }
    }
    const d = this.#compute(timeMs);
    this.#index(d);
    this.#current = d;
    return d;
  }

  /**
   * Local calendar date (`YYYY-MM-DD`) of the instant `timeMs` (epoch ms): what a transaction
   * with an offset counts towards.
   *
   * @example
   * new LocalCalendar("Asia/Seoul").dateOf(Date.parse("2026-11-19T14:59:59Z")); // "2026-11-19"
   */
  dateOf(timeMs: number): string {
    return this.day(timeMs).date;
  }

  /**
   * Start (epoch ms) of the local hour containing `timeMs`. Offsets that are not whole hours
   * (e.g. +05:30) are respected: hours start at local :00.
   *
   * @example
   * new LocalCalendar("+05:30").hourStart(Date.UTC(2026, 0, 1, 0, 10)) === Date.UTC(2025, 11, 31, 23, 30); // true
   */
  hourStart(timeMs: number): number {
    // Per record in the hourly kernels: the day's cached offset and plain arithmetic, no Date.
    const d = this.day(timeMs);
    const offset = Number.isNaN(d.offsetMinutes) ? zoneOffsetMinutes(this.timeZone, timeMs) : d.offsetMinutes;
    const local = timeMs + offset * MS_PER_MINUTE;
    return timeMs - mod(local, MS_PER_HOUR);
  }

  /**
   * Start (epoch ms) of the window of `unit` containing `timeMs`.
   *
   * @example
   * new LocalCalendar("UTC").windowStart(90 * 60_000, "hour"); // 3600000
   */
  windowStart(timeMs: number, unit: WindowUnit): number {
    return unit === "day" ? this.day(timeMs).start : this.hourStart(timeMs);
  }

  /**
   * End (epoch ms, exclusive) of the window of `unit` that starts at `windowStart`.
   *
   * @example
   * new LocalCalendar("UTC").windowEnd(0, "day"); // 86400000
   */
  windowEnd(windowStart: number, unit: WindowUnit): number {
    return unit === "day" ? this.day(windowStart).end : windowStart + MS_PER_HOUR;
  }

  /**
   * Label of the window starting at `windowStart`: `YYYY-MM-DD` for a day, local
   * `YYYY-MM-DDTHH:00±hh:mm` for an hour (the offset makes the repeated hour of a DST fall-back unique).
   *
   * @example
   * new LocalCalendar("Asia/Seoul").windowLabel(Date.UTC(2026, 10, 20, 3), "hour"); // "2026-11-20T12:00+09:00"
   */
  windowLabel(windowStart: number, unit: WindowUnit): string {
    if (unit === "day") return this.day(windowStart).date;
    // Once per window, not per record.
    return formatInZone(windowStart, this.timeZone, "hour");
  }

  /**
   * UTC offset of the zone at `timeMs`, minutes (+540 for Asia/Seoul). Uses the day cache when the
   * day has one offset.
   *
   * @example
   * new LocalCalendar("Asia/Seoul").offsetMinutes(0); // 540
   */
  offsetMinutes(timeMs: number): number {
    const d = this.day(timeMs);
    return Number.isNaN(d.offsetMinutes) ? zoneOffsetMinutes(this.timeZone, timeMs) : d.offsetMinutes;
  }

  #compute(timeMs: number): LocalDay {
    const zone = this.timeZone;
    const local = new TZDate(timeMs, zone);
    const start = startOfDay(local);
    // addDays keeps the wall time, so startOfDay of the next day is right also after a 23 h or 25 h day.
    const end = startOfDay(addDays(start, 1)).getTime();
    const startOffset = zoneOffsetMinutes(zone, start.getTime());
    const endOffset = zoneOffsetMinutes(zone, end - 1);
    return Object.freeze({
      date: formatInZone(timeMs, zone, "date"),
      start: start.getTime(),
      end,
      offsetMinutes: startOffset === endOffset ? startOffset : Number.NaN,
    });
  }

  #index(d: LocalDay): void {
    const index = this.#byUtcDay;
    if (index.size >= MAX_INDEXED_DAYS) index.clear();
    for (let u = Math.floor(d.start / MS_PER_DAY), last = Math.floor((d.end - 1) / MS_PER_DAY); u <= last; u++) {
      const list = index.get(u);
      if (list === undefined) index.set(u, [d]);
      else list.push(d);
    }
  }
}

function mod(a: number, n: number): number {
  const r = a % n;
  return r < 0 ? r + n : r;
}
