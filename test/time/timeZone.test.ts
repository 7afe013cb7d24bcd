import { describe, expect, it } from "vitest";
import { epochDayOfDate, dateOfEpochDay } from "../../src/time/calendarDate.ts";
import { assertTimeZone, localDayOf, localMidnight, zoneOffsetMinutes } from "../../src/time/timeZone.ts";

describe("time zones", () => {
  it("finds local midnight, also across a DST change", () => {
    expect(localMidnight(epochDayOfDate("2026-11-16")!, "Asia/Seoul")).toBe(Date.parse("2026-11-16T00:00:00+09:00"));
    expect(localMidnight(epochDayOfDate("2026-03-08")!, "America/New_York")).toBe(Date.parse("2026-03-08T00:00:00-05:00"));
    expect(localMidnight(epochDayOfDate("2026-03-09")!, "America/New_York")).toBe(Date.parse("2026-03-09T00:00:00-04:00"));
    expect(localMidnight(epochDayOfDate("2026-01-01")!, "+05:30")).toBe(Date.parse("2026-01-01T00:00:00+05:30"));
    // Santiago skips 00:00–01:00 on 2026-09-06: the day starts at its first instant, 01:00 -03:00.
    expect(localMidnight(epochDayOfDate("2026-09-06")!, "America/Santiago")).toBe(Date.parse("2026-09-06T01:00:00-03:00"));
    expect(dateOfEpochDay(localDayOf(Date.parse("2026-09-06T01:00:00-03:00"), "America/Santiago"))).toBe("2026-09-06");
    expect(dateOfEpochDay(localDayOf(Date.parse("2026-09-05T23:59:59-04:00"), "America/Santiago"))).toBe("2026-09-05");
    expect(dateOfEpochDay(localDayOf(Date.parse("2026-11-16T23:59:59+09:00"), "Asia/Seoul"))).toBe("2026-11-16");
    expect(dateOfEpochDay(localDayOf(Date.parse("2026-11-17T00:00:00+09:00"), "Asia/Seoul"))).toBe("2026-11-17");
  });

  it("reads offsets of IANA zones and fixed offsets", () => {
    expect(zoneOffsetMinutes("Asia/Seoul", 0)).toBe(540);
    expect(zoneOffsetMinutes("America/New_York", Date.parse("2026-07-01T00:00:00Z"))).toBe(-240);
    expect(zoneOffsetMinutes("-03:30", 0)).toBe(-210);
  });

  it("accepts known zones and offsets within ±14:00, and rejects anything else with a RangeError", () => {
    for (const ok of ["Asia/Seoul", "UTC", "America/St_Johns", "+09:00", "-0330", "+14", "-12:00"]) {
      expect(() => assertTimeZone(ok)).not.toThrow();
      // Checked names are remembered; a second call must agree.
      expect(() => assertTimeZone(ok)).not.toThrow();
    }
    for (const bad of ["", "Mars/Olympus", "Nowhere", "+15:00", "+09:60", "09:00", "+9", "x+09:00", 540, undefined, null]) {
      expect(() => assertTimeZone(bad)).toThrow(RangeError);
      expect(() => assertTimeZone(bad)).toThrow(RangeError);
    }
    expect(() => assertTimeZone("Nowhere")).toThrow(/unknown time zone "Nowhere"/);
  });
});
