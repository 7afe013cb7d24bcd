import { MS_PER_DAY, daysFromCivil, isCalendarDate } from "./calendarDate.ts";

/**
 * The instant of a matched ISO 8601 date-time: `m` is a match of a pattern whose groups are
 * 1–3 the date (YYYY, MM, DD), 4–6 the time (hh, mm, ss, each optional), 7 the fraction of a
 * second and 8 the zone (`Z` or ±hh[:mm], optional). Epoch ms when a zone is written (digits
 * below the millisecond dropped), `"no zone"` when none is, `undefined` when a field is out of
 * range (2024-02-30, 25:00, an offset beyond ±23:59). The one reading of such times for sales
 * timestamps and counted truth, which differ only in what they accept around it.
 *
 * @example
 * isoInstant(/^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?(Z|[+-]\d{2}:\d{2})?$/.exec("2024-03-14T13:54:07.533+01:00")!); // 1710420847533
 */
export function isoInstant(m: RegExpExecArray): number | "no zone" | undefined {
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  if (!isCalendarDate(year, month, day)) return undefined;
  const hour = m[4] === undefined ? 0 : Number(m[4]);
  const minute = m[5] === undefined ? 0 : Number(m[5]);
  const second = m[6] === undefined ? 0 : Number(m[6]);
  if (hour > 23 || minute > 59 || second > 59) return undefined;
  const zone = m[8];
  if (zone === undefined) return "no zone";
  let offsetMinutes = 0;
  if (zone !== "Z" && zone !== "z") {
    const digits = zone.slice(1).replace(":", "");
    const oh = Number(digits.slice(0, 2));
    const om = digits.length > 2 ? Number(digits.slice(2)) : 0;
    if (oh > 23 || om > 59) return undefined;
    offsetMinutes = (zone[0] === "-" ? -1 : 1) * (oh * 60 + om);
  }
  // Sub-millisecond digits are dropped (floor), which cannot move an instant across midnight.
  const millis = m[7] === undefined ? 0 : Number(m[7].slice(0, 3).padEnd(3, "0"));
  return daysFromCivil(year, month, day) * MS_PER_DAY + hour * 3_600_000 + minute * 60_000 + second * 1000 + millis - offsetMinutes * 60_000;
}
