import { MS_PER_DAY, daysFromCivil, isCalendarDate } from "../time/calendarDate.ts";

// ISO 8601 extended / RFC 3339: date, `T` (or a space, as RFC 3339 allows), hh:mm[:ss[.fff…]],
// then the offset, which is optional here only so that its absence can be named.
const TIME_RE = /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?)?(Z|z|[+-]\d{2}(?::?\d{2})?)?$/;

/**
 * Reads an instant written as ISO 8601 with a UTC offset (`2024-03-14T13:54:07.533+01:00`,
 * `…Z`, `…+0100`, `…+01`) into epoch milliseconds (digits below the millisecond are dropped).
 *
 * Returns `"no offset"` for a date or local time without an offset: counted truth is compared
 * with signals by instant, and a local time cannot be placed without knowing the zone (around
 * a DST change not even with it), so the caller reports it as its own mistake rather than as
 * unreadable. Returns `undefined` for anything else (not ISO 8601, 2024-02-30, 25:00, an
 * offset beyond ±23:59).
 *
 * Its own strict reader rather than `Date.parse`, which accepts forms that are not ISO 8601
 * ("March 14, 2024") and reads a local time in the zone of whatever machine runs it.
 *
 * @example
 * parseOffsetTime("2024-03-14T13:54:07.533+01:00"); // 1710420847533
 * parseOffsetTime("2024-03-14T12:54:07.533Z");      // 1710420847533
 * parseOffsetTime("2024-03-14T13:54:07");           // "no offset"
 * parseOffsetTime("2024-02-30T10:00:00Z");          // undefined
 */
export function parseOffsetTime(text: string): number | "no offset" | undefined {
  const m = TIME_RE.exec(text);
  if (m === null) return undefined;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  if (!isCalendarDate(year, month, day)) return undefined;
  const hour = m[4] === undefined ? 0 : Number(m[4]);
  const minute = m[5] === undefined ? 0 : Number(m[5]);
  const second = m[6] === undefined ? 0 : Number(m[6]);
  if (hour > 23 || minute > 59 || second > 59) return undefined;
  const zone = m[8];
  if (zone === undefined) return "no offset";
  // A date alone with an offset ("2024-03-14+01:00") is not an ISO 8601 instant.
  if (m[4] === undefined) return undefined;
  let offsetMinutes = 0;
  if (zone !== "Z" && zone !== "z") {
    const digits = zone.slice(1).replace(":", "");
    const oh = Number(digits.slice(0, 2));
    const om = digits.length > 2 ? Number(digits.slice(2)) : 0;
    if (oh > 23 || om > 59) return undefined;
    offsetMinutes = (zone[0] === "-" ? -1 : 1) * (oh * 60 + om);
  }
  const millis = m[7] === undefined ? 0 : Number(m[7].slice(0, 3).padEnd(3, "0"));
  return daysFromCivil(year, month, day) * MS_PER_DAY + hour * 3_600_000 + minute * 60_000 + second * 1000 + millis - offsetMinutes * 60_000;
}
