import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatCalendarDate, formatLocalIso, localDayOf, localMidnight, parseCalendarDate, zoneOffsetMinutes } from "../../src/sim/localTime.ts";

describe("calendar dates", () => {
  it("round-trips every day and agrees with Date", () => {
    fc.assert(
      fc.property(fc.integer({ min: -20_000, max: 100_000 }), (day) => {
        const text = formatCalendarDate(day);
        expect(parseCalendarDate(text)).toBe(day);
        expect(new Date(day * 86_400_000).toISOString().slice(0, 10)).toBe(text);
      }),
    );
  });

  it("rejects malformed and impossible dates", () => {
    for (const bad of ["2026-02-29", "2026-13-01", "2026-00-10", "2026-1-1", "20261116", "2026-11-16T00:00"]) {
      expect(parseCalendarDate(bad)).toBeUndefined();
    }
    expect(parseCalendarDate("2024-02-29")).toBeDefined();
  });
});

describe("time zones", () => {
  it("finds local midnight, also across a DST change", () => {
    expect(localMidnight(parseCalendarDate("2026-11-16")!, "Asia/Seoul")).toBe(Date.parse("2026-11-16T00:00:00+09:00"));
    expect(localMidnight(parseCalendarDate("2026-03-08")!, "America/New_York")).toBe(Date.parse("2026-03-08T00:00:00-05:00"));
    expect(localMidnight(parseCalendarDate("2026-03-09")!, "America/New_York")).toBe(Date.parse("2026-03-09T00:00:00-04:00"));
    expect(formatCalendarDate(localDayOf(Date.parse("2026-11-16T23:59:59+09:00"), "Asia/Seoul"))).toBe("2026-11-16");
  });

  it("formats local ISO timestamps that parse back to the same instant", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 4_000_000_000 }), fc.constantFrom("Asia/Seoul", "Europe/Berlin", "America/St_Johns", "UTC"), (sec, zone) => {
        const ms = sec * 1000;
        const iso = formatLocalIso(ms, zoneOffsetMinutes(zone, ms));
        expect(iso).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/);
        expect(Date.parse(iso)).toBe(ms);
      }),
    );
  });
});
