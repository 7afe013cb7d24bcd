import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { LocalCalendar } from "../../src/time/LocalCalendar.ts";

const H = 3_600_000;

// Reference: Intl's own formatting of the instant in the zone.
const formats = new Map<string, Intl.DateTimeFormat>();
function intlDate(ms: number, timeZone: string): string {
  let f = formats.get(timeZone);
  if (f === undefined) formats.set(timeZone, (f = new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" })));
  return f.format(ms);
}

// Zones with DST, odd offsets, and (Santiago, Havana) DST changes at midnight, so some days start at 01:00.
const ZONES = ["Asia/Seoul", "America/New_York", "Europe/London", "Asia/Kathmandu", "Australia/Lord_Howe", "Pacific/Chatham", "America/Santiago", "America/Havana", "UTC"];

describe("LocalCalendar", () => {
  it("maps instants to local days of the zone", () => {
    const cal = new LocalCalendar("Asia/Seoul");
    const d = cal.day(Date.UTC(2026, 10, 16, 14, 59)); // 23:59 KST
    expect(d.date).toBe("2026-11-16");
    expect(d.start).toBe(Date.UTC(2026, 10, 15, 15));
    expect(d.end - d.start).toBe(24 * H);
    expect(cal.day(Date.UTC(2026, 10, 16, 15)).date).toBe("2026-11-17");
    // Cached objects: the same instance for the same day.
    expect(cal.day(d.start + 1)).toBe(d);
  });

  it("handles DST days (23 h and 25 h) and their hours", () => {
    const ny = new LocalCalendar("America/New_York");
    const spring = ny.day(Date.UTC(2026, 2, 8, 12));
    expect(spring.end - spring.start).toBe(23 * H);
    const fall = ny.day(Date.UTC(2026, 10, 1, 12));
    expect(fall.end - fall.start).toBe(25 * H);
    const labels = [0, 1, 2, 3].map((h) => ny.windowLabel(ny.hourStart(fall.start + h * H + 1), "hour"));
    expect(labels).toEqual(["2026-11-01T00:00-04:00", "2026-11-01T01:00-04:00", "2026-11-01T01:00-05:00", "2026-11-01T02:00-05:00"]);
  });

  it("starts hours at local :00 in half-hour zones", () => {
    const cal = new LocalCalendar("+05:30");
    expect(cal.hourStart(Date.UTC(2026, 0, 1, 0, 10))).toBe(Date.UTC(2025, 11, 31, 23, 30));
    expect(cal.windowEnd(cal.windowStart(0, "hour"), "hour") - cal.windowStart(0, "hour")).toBe(H);
  });

  it("rejects unknown zones eagerly", () => {
    expect(() => new LocalCalendar("Mars/Base")).toThrow(RangeError);
    expect(() => new LocalCalendar("")).toThrow(RangeError);
  });

  it("dateOf: 00:30 KST belongs to that KST day, the previous UTC day", () => {
    const seoul = new LocalCalendar("Asia/Seoul");
    expect(seoul.dateOf(Date.parse("2026-11-19T15:30:00Z"))).toBe("2026-11-20");
    expect(seoul.dateOf(Date.parse("2026-11-19T14:59:59.999Z"))).toBe("2026-11-19");
    expect(seoul.dateOf(Date.parse("2026-11-19T15:00:00Z"))).toBe("2026-11-20");
  });

  it("agrees with Intl on every instant's day and its bounds, in any order of instants", () => {
    const calendars = ZONES.map((z) => new LocalCalendar(z));
    fc.assert(
      fc.property(fc.integer({ min: Date.parse("2020-01-01T00:00:00Z"), max: Date.parse("2030-01-01T00:00:00Z") }), fc.integer({ min: 0, max: ZONES.length - 1 }), (ms, i) => {
        const zone = ZONES[i]!;
        const d = calendars[i]!.day(ms);
        expect(calendars[i]!.dateOf(ms)).toBe(intlDate(ms, zone));
        expect(d.date).toBe(intlDate(ms, zone));
        expect(ms >= d.start && ms < d.end).toBe(true);
        // The bounds are the first instant of the day and of the next one.
        expect(intlDate(d.start, zone)).toBe(d.date);
        expect(intlDate(d.start - 1, zone)).not.toBe(d.date);
        expect(intlDate(d.end - 1, zone)).toBe(d.date);
        expect(intlDate(d.end, zone)).not.toBe(d.date);
      }),
      { numRuns: 500 },
    );
    // Around a DST change in New York (2026-03-08 07:00Z) and the local midnights next to it.
    const ny = calendars[1]!;
    for (let ms = Date.parse("2026-03-07T00:00:00Z"); ms < Date.parse("2026-03-10T00:00:00Z"); ms += 15 * 60_000) {
      expect(ny.dateOf(ms)).toBe(intlDate(ms, "America/New_York"));
    }
  });

  it("starts a day whose midnight falls in a DST gap at the first instant that exists", () => {
    // Santiago skips 2026-09-06 00:00–01:00 local: the day starts at 01:00 -03:00 and has 23 h.
    const day = new LocalCalendar("America/Santiago").day(Date.parse("2026-09-06T12:00:00-03:00"));
    expect(day.start).toBe(Date.parse("2026-09-06T01:00:00-03:00"));
    expect(day.end - day.start).toBe(23 * H);
  });

  it("gives the same days to unsorted instants as to sorted ones (a sales file in any order)", () => {
    const instants = fc.sample(fc.integer({ min: Date.parse("2025-01-01T00:00:00Z"), max: Date.parse("2027-01-01T00:00:00Z") }), { numRuns: 3000, seed: 7 });
    const unsorted = new LocalCalendar("America/New_York");
    const answers = instants.map((ms) => unsorted.day(ms));
    const sorted = new LocalCalendar("America/New_York");
    for (const ms of [...instants].sort((a, b) => a - b)) sorted.day(ms);
    instants.forEach((ms, i) => {
      expect(sorted.day(ms)).toEqual(answers[i]);
      // Cached: the second answer for the same day is the same object.
      expect(unsorted.day(ms)).toBe(answers[i]);
    });
  });

  it("dateOf rejects unknown zones up front", () => {
    expect(() => new LocalCalendar("Mars/Olympus")).toThrow(RangeError);
    expect(() => new LocalCalendar("Nowhere")).toThrow(/unknown time zone "Nowhere"/);
  });
});
