import { describe, expect, test } from "vitest";
import { parseSalesTimestamp } from "../../src/sales/parseSalesTimestamp.ts";

describe("parseSalesTimestamp", () => {
  test("instants with an offset become epoch milliseconds", () => {
    expect(parseSalesTimestamp("2026-11-20T00:30:00+09:00")).toBe(Date.parse("2026-11-20T00:30:00+09:00"));
    expect(parseSalesTimestamp("2026-11-19T15:30:00Z")).toBe(Date.parse("2026-11-19T15:30:00Z"));
    expect(parseSalesTimestamp("2026-11-19T15:30:00.123456Z")).toBe(Date.parse("2026-11-19T15:30:00.123Z"));
    expect(parseSalesTimestamp("2026-11-20T00:30+0900")).toBe(Date.parse("2026-11-20T00:30:00+09:00"));
    expect(parseSalesTimestamp("2026-11-20 00:30:00-05")).toBe(Date.parse("2026-11-20T00:30:00-05:00"));
    expect(parseSalesTimestamp("2026-11-20T05:45:00+05:45")).toBe(Date.parse("2026-11-20T00:00:00Z"));
  });

  test("wall-clock times without an offset keep their own date", () => {
    expect(parseSalesTimestamp("2026-11-20T00:30:00")).toBe("2026-11-20");
    expect(parseSalesTimestamp("2026-11-20 23:59:59.999")).toBe("2026-11-20");
    expect(parseSalesTimestamp("2026-11-20")).toBe("2026-11-20");
  });

  test("wall-clock times as a spreadsheet displays them keep their own date: one-digit hours, 오전/오후, AM/PM", () => {
    for (const shown of ["2026-11-20 9:05", "2026-11-20 오후 2:30:00", "2026-11-20 오전 12:05", "2026-11-20 2:30 PM", "2026-11-20 12:00am", "2026-11-20T7:00"]) {
      expect(parseSalesTimestamp(shown), shown).toBe("2026-11-20");
    }
    for (const bad of ["2026-11-20 13:00 PM", "2026-11-20 오후 0:30", "2026-11-20 오후 2:30 PM", "2026-11-20 9:60", "2026-11-20 24:00", "2026-02-30 9:05", "2026-11-20 9:05+09:00"]) {
      expect(parseSalesTimestamp(bad), bad).toBeUndefined();
    }
  });

  test("rejects what is not a real ISO 8601 date-time", () => {
    for (const bad of ["2026-11-31T10:00:00Z", "2026-11-20T24:00:00", "2026-11-20T10:60", "2026-11-20T10:00:00+25:00", "20/11/2026 10:00", "2026-11-20T10", "yesterday", ""]) {
      expect(parseSalesTimestamp(bad), bad).toBeUndefined();
    }
  });
});
