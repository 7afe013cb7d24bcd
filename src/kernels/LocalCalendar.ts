import { tzOffset } from "@date-fns/tz";

const MS_PER_MINUTE = 60_000;
const MS_PER_HOUR = 3_600_000;
const MS_PER_DAY = 86_400_000;

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
    return Number.isNaN(d.offsetMinutes) ? tzOffset(this.timeZone, new Date(timeMs)) : d.offsetMinutes;
  }

  #compute(timeMs: number): LocalDay {
    const zone = this.timeZone;
    const offsetAt = (ms: number) => tzOffset(zone, new Date(ms));
    const dayNumber = Math.floor((timeMs + offsetAt(timeMs) * MS_PER_MINUTE) / MS_PER_DAY);
    const start = localMidnight(dayNumber, offsetAt);
    const end = localMidnight(dayNumber + 1, offsetAt);
    const startOffset = offsetAt(start);
    const endOffset = offsetAt(end - 1);
    return Object.freeze({
      date: formatDayNumber(dayNumber),
      start,
      end,
      offsetMinutes: startOffset === endOffset ? startOffset : Number.NaN,
    });
  }
}

/**
 * Throws a RangeError unless `timeZone` is an IANA zone the runtime knows or a `±hh:mm` offset.
 *
 * @example
 * assertTimeZone("Asia/Seoul"); // ok
 * assertTimeZone("Mars/Base");  // RangeError
 */
export function assertTimeZone(timeZone: unknown): asserts timeZone is string {
  if (typeof timeZone !== "string" || timeZone === "") {
    throw new RangeError(`timeZone must be an IANA zone name or ±hh:mm offset, got ${String(timeZone)}`);
  }
  if (/^[+-]\d{2}(:?\d{2})?$/.test(timeZone)) return;
  try {
    new Intl.DateTimeFormat("en", { timeZone });
  } catch {
    throw new RangeError(`unknown time zone ${JSON.stringify(timeZone)}`);
  }
}

function localMidnight(dayNumber: number, offsetAt: (ms: number) => number): number {
  const wall = dayNumber * MS_PER_DAY;
  // Two fixed-point steps settle the offset around a DST change.
  let guess = wall - offsetAt(wall) * MS_PER_MINUTE;
  guess = wall - offsetAt(guess) * MS_PER_MINUTE;
  return guess;
}

function mod(a: number, n: number): number {
  const r = a % n;
  return r < 0 ? r + n : r;
}

function pad2(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}

// Days since 1970-01-01 → YYYY-MM-DD (Hinnant's civil_from_days, exact proleptic Gregorian).
function formatDayNumber(z0: number): string {
  const z = z0 + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  const y = era * 400 + yoe + (m <= 2 ? 1 : 0);
  return `${String(y).padStart(4, "0")}-${pad2(m)}-${pad2(d)}`;
}
