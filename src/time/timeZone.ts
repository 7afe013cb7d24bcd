import { TZDate, tzOffset } from "@date-fns/tz";
import { startOfDay } from "date-fns/startOfDay";
import { MS_PER_DAY } from "./calendarDate.ts";

/**
 * The time zone of shops whose zone is not given: the one default of every `timeZone` option and
 * `--tz` flag. The service does not say where its shops are; its only currency is KRW, so they
 * are assumed to be in Korea.
 *
 * @example
 * DEFAULT_TIME_ZONE; // "Asia/Seoul"
 */
export const DEFAULT_TIME_ZONE = "Asia/Seoul";

const OFFSET = /^[+-](\d{2})(?::?(\d{2}))?$/;
/** Names already checked: asserting a zone per window or per row costs a Set read, not an Intl object. */
const known = new Set<string>();

/**
 * Throws a RangeError unless `timeZone` is an IANA zone name the runtime knows
 * (`"Asia/Seoul"`, `"UTC"`) or a fixed UTC offset `±hh:mm`, `±hhmm` or `±hh` within ±14:00 —
 * exactly what {@link zoneOffsetMinutes} (@date-fns/tz) can read.
 *
 * @example
 * assertTimeZone("Asia/Seoul"); // ok
 * assertTimeZone("+05:30");     // ok
 * assertTimeZone("Mars/Base");  // RangeError
 */
export function assertTimeZone(timeZone: unknown): asserts timeZone is string {
  if (typeof timeZone === "string" && known.has(timeZone)) return;
  if (typeof timeZone !== "string" || timeZone === "") {
    throw new RangeError(`timeZone must be an IANA zone name or ±hh:mm offset, got ${String(timeZone)}`);
  }
  const offset = OFFSET.exec(timeZone);
  const valid =
    offset === null
      ? isIanaZone(timeZone)
      : Number(offset[1]) * 60 + Number(offset[2] ?? 0) <= 14 * 60 && Number(offset[2] ?? 0) < 60;
  if (!valid) {
    throw new RangeError(`unknown time zone ${JSON.stringify(timeZone)} (expected an IANA name such as "Asia/Seoul" or an offset such as "+09:00")`);
  }
  known.add(timeZone);
}

/**
 * UTC offset of `timeZone` at the instant `ms` (epoch ms), in minutes (+540 for Asia/Seoul).
 *
 * @example
 * zoneOffsetMinutes("Asia/Seoul", 0); // 540
 */
export function zoneOffsetMinutes(timeZone: string, ms: number): number {
  return tzOffset(timeZone, new Date(ms));
}

/**
 * Epoch ms of the local midnight that starts day `epochDay` (days since 1970-01-01) in
 * `timeZone` — or, where midnight falls in a DST gap (America/Santiago in September), the first
 * instant of that day. Once per day or flag, so it is date-fns' `startOfDay` on a `TZDate`.
 *
 * @example
 * localMidnight(20773, "Asia/Seoul"); // 1794754800000 (2026-11-16T00:00+09:00)
 */
export function localMidnight(epochDay: number, timeZone: string): number {
  const utc = new TZDate(epochDay * MS_PER_DAY, "UTC");
  // Noon of that calendar day in the zone exists on every day; startOfDay then finds its first instant.
  return startOfDay(new TZDate(utc.getFullYear(), utc.getMonth(), utc.getDate(), 12, timeZone)).getTime();
}

/**
 * Local calendar day (days since 1970-01-01) containing the instant `ms` in `timeZone`.
 *
 * @example
 * localDayOf(1794754800000, "Asia/Seoul"); // 20773 (2026-11-16)
 */
export function localDayOf(ms: number, timeZone: string): number {
  const local = new TZDate(ms, timeZone);
  // The local wall-clock fields, read as a UTC date, are that day's number.
  return Math.round(new TZDate(local.getFullYear(), local.getMonth(), local.getDate(), "UTC").getTime() / MS_PER_DAY);
}

// Intl itself, not tzOffset: tzOffset falls back to finding an offset anywhere in the text
// ("x+09:00" reads as +09:00).
function isIanaZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat("en", { timeZone: name });
    return true;
  } catch {
    return false;
  }
}
