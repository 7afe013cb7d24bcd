import { tzOffset } from "@date-fns/tz";

const MS_PER_MINUTE = 60_000;
const MS_PER_DAY = 86_400_000;
const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * Parses a `YYYY-MM-DD` calendar date into day number since 1970-01-01, or `undefined`
 * when it is malformed or not a real date (2026-02-30).
 *
 * @example
 * parseCalendarDate("1970-01-02"); // 1
 */
export function parseCalendarDate(text: string): number | undefined {
  const m = DATE_PATTERN.exec(text);
  if (m === null) return undefined;
  const y = Number(m[1]);
  const mo = Number(m[2]);
  const d = Number(m[3]);
  if (mo < 1 || mo > 12 || d < 1 || d > 31) return undefined;
  const day = daysFromCivil(y, mo, d);
  const [y2, mo2, d2] = civilFromDays(day);
  return y2 === y && mo2 === mo && d2 === d ? day : undefined;
}

/**
 * Day number since 1970-01-01 → `YYYY-MM-DD`.
 *
 * @example
 * formatCalendarDate(0); // "1970-01-01"
 */
export function formatCalendarDate(day: number): string {
  const [y, m, d] = civilFromDays(day);
  return `${String(y).padStart(4, "0")}-${pad2(m)}-${pad2(d)}`;
}

/**
 * Throws a RangeError unless `timeZone` is an IANA zone the runtime knows.
 *
 * @example
 * assertTimeZone("Asia/Seoul");
 */
export function assertTimeZone(timeZone: string): void {
  try {
    new Intl.DateTimeFormat("en", { timeZone });
  } catch {
    throw new RangeError(`unknown time zone ${JSON.stringify(timeZone)}`);
  }
}

/**
 * UTC offset of `timeZone` at the instant `ms`, in minutes (+540 for Asia/Seoul).
 *
 * @example
 * zoneOffsetMinutes("Asia/Seoul", 0); // 540
 */
export function zoneOffsetMinutes(timeZone: string, ms: number): number {
  return tzOffset(timeZone, new Date(ms));
}

/**
 * Epoch ms of local midnight starting calendar day `day` (days since 1970-01-01) in
 * `timeZone`. Two fixed-point steps settle the offset around DST changes.
 *
 * @example
 * localMidnight(parseCalendarDate("2026-11-16")!, "Asia/Seoul"); // 1794754800000
 */
export function localMidnight(day: number, timeZone: string): number {
  const wall = day * MS_PER_DAY;
  let guess = wall - zoneOffsetMinutes(timeZone, wall) * MS_PER_MINUTE;
  guess = wall - zoneOffsetMinutes(timeZone, guess) * MS_PER_MINUTE;
  return guess;
}

/**
 * Local calendar day (days since 1970-01-01) containing instant `ms` in `timeZone`.
 *
 * @example
 * formatCalendarDate(localDayOf(1794754800000, "Asia/Seoul")); // "2026-11-16"
 */
export function localDayOf(ms: number, timeZone: string): number {
  return Math.floor((ms + zoneOffsetMinutes(timeZone, ms) * MS_PER_MINUTE) / MS_PER_DAY);
}

/**
 * ISO 8601 local date-time with an explicit offset, seconds precision, e.g.
 * `2026-11-16T12:34:56+09:00`. Pure arithmetic (no Date), for use in loops.
 *
 * @example
 * formatLocalIso(1794800096000, 540); // "2026-11-16T12:34:56+09:00"
 */
export function formatLocalIso(ms: number, offsetMinutes: number): string {
  const local = Math.floor(ms / 1000) + offsetMinutes * 60;
  const day = Math.floor(local / 86_400);
  const sec = local - day * 86_400;
  const hh = Math.floor(sec / 3600);
  const mm = Math.floor((sec % 3600) / 60);
  const ss = sec % 60;
  const sign = offsetMinutes < 0 ? "-" : "+";
  const abs = Math.abs(offsetMinutes);
  return `${formatCalendarDate(day)}T${pad2(hh)}:${pad2(mm)}:${pad2(ss)}${sign}${pad2(Math.floor(abs / 60))}:${pad2(abs % 60)}`;
}

function pad2(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}

// Howard Hinnant's days_from_civil / civil_from_days: exact proleptic Gregorian arithmetic.
function daysFromCivil(y: number, m: number, d: number): number {
  const yy = m <= 2 ? y - 1 : y;
  const era = Math.floor(yy / 400);
  const yoe = yy - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

function civilFromDays(z0: number): [number, number, number] {
  const z = z0 + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  return [era * 400 + yoe + (m <= 2 ? 1 : 0), m, d];
}
