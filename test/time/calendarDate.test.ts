import { describe, expect, test } from "vitest";
import fc from "fast-check";
import { dateOfEpochDay, daysFromCivil, epochDayOfDate, isCalendarDate } from "../../src/time/calendarDate.ts";

describe("calendar dates", () => {
  test("real calendar dates only", () => {
    expect(isCalendarDate(2024, 2, 29)).toBe(true);
    expect(isCalendarDate(2026, 2, 29)).toBe(false);
    expect(isCalendarDate(1900, 2, 29)).toBe(false);
    expect(isCalendarDate(2000, 2, 29)).toBe(true);
    expect(isCalendarDate(2026, 4, 31)).toBe(false);
    expect(isCalendarDate(2026, 13, 1)).toBe(false);
    expect(epochDayOfDate("2026-11-20")).toBe(20777);
    expect(epochDayOfDate("2024-02-29")).toBeDefined();
    for (const bad of ["2026-02-29", "2026-02-30", "2026-13-01", "2026-00-10", "2026-1-20", "20261120", "2026-11-16T00:00", " 2026-11-20", "2026-11-20\n", "２０２６-11-20"]) {
      expect(epochDayOfDate(bad)).toBeUndefined();
    }
  });

  test("day numbers agree with Date.UTC and round-trip", () => {
    fc.assert(
      fc.property(fc.integer({ min: -700_000, max: 2_900_000 }), (day) => {
        const iso = new Date(day * 86_400_000).toISOString().slice(0, 10);
        expect(dateOfEpochDay(day)).toBe(iso);
        expect(epochDayOfDate(iso)).toBe(day);
        const [y, m, d] = iso.split("-").map(Number) as [number, number, number];
        expect(daysFromCivil(y, m, d)).toBe(day);
      }),
    );
  });
});
