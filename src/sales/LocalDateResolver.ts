import { tzOffset } from "@date-fns/tz";
import { MS_PER_DAY, dateOfEpochDay } from "../time/calendarDate.ts";
import { assertTimeZone } from "../time/timeZone.ts";

const MS_PER_HOUR = 3_600_000;

/**
 * Maps instants (epoch milliseconds) to the `YYYY-MM-DD` local date in one time zone (IANA
 * name or UTC offset), using @date-fns/tz's `tzOffset` for the zone rules. The offset is looked up once per UTC
 * hour and cached when it is the same at both ends of that hour (no transition inside), so a
 * file of transactions costs one `Date` per distinct hour, not one per row. Hours that
 * contain a transition are looked up per instant.
 *
 * @example
 * const seoul = new LocalDateResolver("Asia/Seoul");
 * seoul.dateOf(Date.parse("2026-11-19T15:30:00Z")); // "2026-11-20" (00:30 KST)
 */
export class LocalDateResolver {
  /** The zone, e.g. `"Asia/Seoul"` or `"+09:00"`. */
  readonly timeZone: string;
  // hour index → offset in minutes, or NaN when the offset changes within that hour
  readonly #offsets = new Map<number, number>();

  /** @throws RangeError when `timeZone` is not a zone this runtime knows. */
  constructor(timeZone: string) {
    assertTimeZone(timeZone);
    this.timeZone = timeZone;
  }

  /**
   * Local calendar date of the instant `ms` (epoch milliseconds).
   *
   * @example
   * new LocalDateResolver("UTC").dateOf(0); // "1970-01-01"
   */
  dateOf(ms: number): string {
    const hour = Math.floor(ms / MS_PER_HOUR);
    let offset = this.#offsets.get(hour);
    if (offset === undefined) {
      const start = tzOffset(this.timeZone, new Date(hour * MS_PER_HOUR));
      const end = tzOffset(this.timeZone, new Date(hour * MS_PER_HOUR + MS_PER_HOUR - 1));
      offset = start === end ? start : Number.NaN;
      this.#offsets.set(hour, offset);
    }
    if (Number.isNaN(offset)) offset = tzOffset(this.timeZone, new Date(ms));
    return dateOfEpochDay(Math.floor((ms + offset * 60_000) / MS_PER_DAY));
  }
}
