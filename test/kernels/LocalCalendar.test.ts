import { describe, expect, it } from "vitest";
import { LocalCalendar } from "../../src/kernels/LocalCalendar.ts";

const H = 3_600_000;

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
});
