import { MS_PER_DAY, dateOfEpochDay } from "../time/calendarDate.ts";
import { assertTimeZone, localDayOf, localMidnight, zoneOffsetMinutes } from "../time/timeZone.ts";

const MS_PER_MINUTE = 60_000;
const MS_PER_HOUR = 3_600_000;

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
  /** Local midnight starting the day, epoch ms. */
  readonly start: number;
  /** Local midnight ending the day (the next day's start), epoch ms. */
  readonly end: number;
  /** UTC offset in minutes valid for the whole day, or `NaN` when it changes within the day (DST). */
  readonly offsetMinutes: number;
}

/** Time windows the aggregating kernels group by. */
export type WindowUnit = "hour" | "day";

/**
 * Local days and hours of one IANA time zone (or UTC offset such as `"+09:00"`), computed the
 * cheap way for hot loops: the zone's offset is looked up (via `@date-fns/tz`) once per local
 * day and cached, so mapping an instant to its day or hour is a comparison or two and a little
 * arithmetic, with no `Date` per record. DST days are handled exactly (their hours are looked up
 * one by one).
 *
 * Why not date-fns' `startOfDay` per record: it allocates two `TZDate`s and formats through
 * `Intl` — fine once per day, far too slow a million times.
 *
 * @example
 * const cal = new LocalCalendar("Asia/Seoul");
 * const t = Date.UTC(2026, 10, 20, 3, 30); // 12:30 in Seoul
 * cal.day(t).date;                          // "2026-11-20"
 * cal.hourStart(t) === Date.UTC(2026, 10, 20, 3); // true (12:00 local)
 */
export class LocalCalendar {
  /** The zone, as given. */
  readonly timeZone: string;
  #current: LocalDay | undefined;
  // A few recent days, so streams that straddle midnight or arrive slightly out of order do not recompute.
  readonly #recent: LocalDay[] = [];

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
    const recent = this.#recent;
    for (let i = 0; i < recent.length; i++) {
      const d = recent[i]!;
      if (timeMs >= d.start && timeMs < d.end) {
        this.#current = d;
        return d;
      }
    }
    const d = this.#compute(timeMs);
    recent.push(d);
    if (recent.length > 8) recent.shift();
    this.#current = d;
    return d;
  }

  /**
   * Start (epoch ms) of the local hour containing `timeMs`. Offsets that are not whole hours
   * (e.g. +05:30) are respected: hours start at local :00.
   *
   * @example
   * new LocalCalendar("+05:30").hourStart(Date.UTC(2026, 0, 1, 0, 10)) === Date.UTC(2025, 11, 31, 23, 30); // true
   */
  hourStart(timeMs: number): number {
    const d = this.day(timeMs);
    const offset = Number.isNaN(d.offsetMinutes) ? this.offsetMinutes(timeMs) : d.offsetMinutes;
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
    const d = this.day(windowStart);
    if (unit === "day") return d.date;
    const offset = this.offsetMinutes(windowStart);
    const hour = Math.floor(mod(windowStart + offset * MS_PER_MINUTE, MS_PER_DAY) / MS_PER_HOUR);
    const sign = offset < 0 ? "-" : "+";
    const abs = Math.abs(offset);
    return `${d.date}T${pad2(hour)}:00${sign}${pad2(Math.floor(abs / 60))}:${pad2(abs % 60)}`;
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
    const dayNumber = localDayOf(timeMs, zone);
    const start = localMidnight(dayNumber, zone);
    const end = localMidnight(dayNumber + 1, zone);
    const startOffset = zoneOffsetMinutes(zone, start);
    const endOffset = zoneOffsetMinutes(zone, end - 1);
    return Object.freeze({
      date: dateOfEpochDay(dayNumber),
      start,
      end,
      offsetMinutes: startOffset === endOffset ? startOffset : Number.NaN,
    });
  }
}

function mod(a: number, n: number): number {
  const r = a % n;
  return r < 0 ? r + n : r;
}

function pad2(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}
