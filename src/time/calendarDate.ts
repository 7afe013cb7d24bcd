/**
 * Calendar dates as the service writes them (`YYYY-MM-DD`, e.g. a sales record's `date`) and
 * as day numbers since 1970-01-01 (day 0, like epoch days).
 *
 * One rule for the proleptic Gregorian calendar, as integers (Howard Hinnant's days_from_civil /
 * civil_from_days): per record (`parseSalesTimestamp` on every sales row, the simulator's
 * `formatLocal` on every transaction) date-fns' `parseISO` is ~3× slower and a `TZDate` +
 * `format` 10–100× (`npx tsx bench/calendar.ts`), and reading a date once ({@link epochDayOfDate})
 * takes the same rule rather than date-fns' `parse`, whose ~60 modules cost every start of the
 * CLI ~40 ms. Dates in a time zone (a shop's local day) are date-fns' (`LocalCalendar`).
 */

/**
 * Milliseconds in one UTC day.
 *
 * @example
 * MS_PER_DAY; // 86400000
 */
export const MS_PER_DAY = 86_400_000;

/**
 * True when `year-month-day` names a real calendar day (month 1…12, day within the month,
 * leap years by the Gregorian rule).
 *
 * @example
 * isCalendarDate(2024, 2, 29); // true
 * isCalendarDate(2026, 2, 29); // false
 */
export function isCalendarDate(year: number, month: number, day: number): boolean {
  return (
    Number.isInteger(year) && Number.isInteger(month) && Number.isInteger(day) &&
    month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month)
  );
}

/**
 * Number of days in `month` (1…12) of `year`.
 *
 * @example
 * daysInMonth(2024, 2); // 29
 */
export function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/**
 * Days since 1970-01-01 of a civil date (days_from_civil). Valid for any year.
 *
 * @example
 * daysFromCivil(1970, 1, 1); // 0
 * daysFromCivil(2026, 11, 20); // 20777
 */
export function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const mp = (month + 9) % 12;
  const doy = Math.floor((153 * mp + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146_097 + doe - 719_468;
}

/**
 * The `YYYY-MM-DD` string of a day number (inverse of {@link daysFromCivil}); years 0…9999.
 *
 * @example
 * dateOfEpochDay(20777); // "2026-11-20"
 */
export function dateOfEpochDay(epochDay: number): string {
  const z = epochDay + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  const year = yoe + era * 400 + (month <= 2 ? 1 : 0);
  return `${String(year).padStart(4, "0")}-${month < 10 ? "0" : ""}${month}-${day < 10 ? "0" : ""}${day}`;
}

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * Day number since 1970-01-01 of a `YYYY-MM-DD` date, or `undefined` when the text is not
 * exactly that format or not a real calendar day (2026-02-30).
 *
 * @example
 * epochDayOfDate("2026-11-20"); // 20777
 * epochDayOfDate("2026-02-30"); // undefined
 */
export function epochDayOfDate(text: string): number | undefined {
  // Exactly four, two and two digits: the service's format ("2026-1-20" is not a date here).
  const m = DATE_RE.exec(text);
  if (m === null) return undefined;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  return isCalendarDate(year, month, day) ? daysFromCivil(year, month, day) : undefined;
}
