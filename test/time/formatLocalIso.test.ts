import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatLocalIso } from "../../src/time/formatLocalIso.ts";
import { zoneOffsetMinutes } from "../../src/time/timeZone.ts";

describe("formatLocalIso", () => {
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

  it("writes the example's instant in Seoul", () => {
    expect(formatLocalIso(Date.parse("2026-11-16T12:34:56+09:00"), 540)).toBe("2026-11-16T12:34:56+09:00");
  });
});
