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

  test("rejects what is not a real ISO 8601 date-time", () => {
    for (const bad of ["2026-11-31T10:00:00Z", "2026-11-20T24:00:00", "2026-11-20T10:60", "2026-11-20T10:00:00+25:00", "20/11/2026 10:00", "2026-11-20T10", "yesterday", ""]) {
      expect(parseSalesTimestamp(bad), bad).toBeUndefined();
    }
  });
});
