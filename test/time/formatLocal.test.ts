import { TZDate } from "@date-fns/tz";
import { format } from "date-fns/format";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatLocal, type LocalTextForm } from "../../src/time/formatLocal.ts";
import { zoneOffsetMinutes } from "../../src/time/timeZone.ts";

// The patterns date-fns' `format` wrote each form with, on a TZDate: the rule formatLocal replaced.
const PATTERNS: Record<Exclude<LocalTextForm, "iso">, string> = {
  hour: "yyyy-MM-dd'T'HH:00xxx",
  minute: "yyyy-MM-dd HH:mm",
  date: "yyyy-MM-dd",
  clock: "HH:mm",
  weekday: "EEE",
};
// Whole-hour, half-hour and 45-minute offsets, DST of an hour and of half an hour, west and east.
const ZONES = ["Asia/Seoul", "Europe/Berlin", "America/St_Johns", "Asia/Kathmandu", "Australia/Lord_Howe", "America/Santiago", "Pacific/Chatham", "UTC"];

describe("formatLocal", () => {
  it("writes every form as date-fns' format does on a zoned date, at any instant (DST changes included)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 4_000_000_000_000 }), fc.constantFrom(...ZONES), (ms, zone) => {
        const offset = zoneOffsetMinutes(zone, ms);
        for (const [form, pattern] of Object.entries(PATTERNS)) {
          expect(formatLocal(ms, offset, form as LocalTextForm), `${form} ${zone} ${ms}`).toBe(format(new TZDate(ms, zone), pattern));
        }
      }),
      { numRuns: 2_000 },
    );
  });

  it("writes local ISO timestamps that parse back to the same instant", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 4_000_000_000 }), fc.constantFrom(...ZONES), (sec, zone) => {
        const ms = sec * 1000;
        const iso = formatLocal(ms, zoneOffsetMinutes(zone, ms), "iso");
        expect(iso).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/);
        expect(Date.parse(iso)).toBe(ms);
      }),
    );
  });

  it("writes the hours around a DST change apart, and a date before 1970", () => {
    // Berlin, 2026-10-25: 02:00–03:00 twice (+02:00, then +01:00).
    const first = Date.parse("2026-10-25T02:00:00+02:00");
    const second = first + 3_600_000;
    expect(formatLocal(first, zoneOffsetMinutes("Europe/Berlin", first), "hour")).toBe("2026-10-25T02:00+02:00");
    expect(formatLocal(second, zoneOffsetMinutes("Europe/Berlin", second), "hour")).toBe("2026-10-25T02:00+01:00");
    expect(formatLocal(-1, 0, "iso")).toBe("1969-12-31T23:59:59+00:00");
    expect(formatLocal(-1, 0, "weekday")).toBe("Wed");
  });
});
