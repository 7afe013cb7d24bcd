import { isoInstant } from "../time/isoInstant.ts";

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
  // A date alone with an offset ("2024-03-14+01:00") is not an ISO 8601 instant.
  if (m[4] === undefined && m[8] !== undefined) return undefined;
  const instant = isoInstant(m);
  return instant === "no zone" ? "no offset" : instant;
}
