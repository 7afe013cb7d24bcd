import { describe, expect, it } from "vitest";
import { UsageError, integerFlag, numberFlag, rtsUnitFlag, seedFlag, timeFlag } from "../../src/cli/common.ts";
import { microsRts, millisRts, nanosRts, secondsRts } from "../../src/codec/rts.ts";

describe("flag readers", () => {
  it("rtsUnitFlag: ms by default, the preset codec of each unit, a UsageError for anything else", () => {
    expect(rtsUnitFlag(undefined)).toBe(millisRts);
    expect([rtsUnitFlag("s"), rtsUnitFlag("ms"), rtsUnitFlag("us"), rtsUnitFlag("ns")]).toEqual([secondsRts, millisRts, microsRts, nanosRts]);
    for (const bad of ["", "MS", "µs", "hours"]) expect(() => rtsUnitFlag(bad)).toThrow(UsageError);
  });

  it("timeFlag: a bare date is midnight in the zone the command names; a date-time keeps its offset", () => {
    expect(timeFlag("--since", "2026-11-20", "UTC")).toBe(Date.UTC(2026, 10, 20));
    expect(timeFlag("--since", "2026-11-20", "Asia/Seoul")).toBe(Date.UTC(2026, 10, 19, 15));
    expect(timeFlag("--since", "2026-11-20T09:00:00+09:00", "UTC")).toBe(Date.UTC(2026, 10, 20, 0));
    expect(timeFlag("--since", "2026-11-20T09:00Z", "Asia/Seoul")).toBe(Date.UTC(2026, 10, 20, 9));
    expect(timeFlag("--since", undefined, "UTC")).toBeUndefined();
    // 2026-02-30T10:00Z: an impossible day is refused, not rolled over to March 2.
    for (const bad of ["yesterday", "2026-02-30", "2026-02-30T10:00Z", "2026-11-20T25:00:00Z", "Nov 20 2026", "1969-12-31", ""]) {
      expect(() => timeFlag("--since", bad, "UTC"), bad).toThrow(UsageError);
    }
  });

  it("numberFlag and integerFlag: bounds, and a message naming the flag", () => {
    expect(numberFlag("--speed", "2.5", 0)).toBe(2.5);
    expect(numberFlag("--speed", undefined)).toBeUndefined();
    expect(() => numberFlag("--speed", "fast")).toThrow(/--speed must be a number/);
    expect(() => numberFlag("--speed", "-1", 0)).toThrow(/--speed must be a number in 0/);
    expect(integerFlag("--limit", "200", 1, 200)).toBe(200);
    expect(() => integerFlag("--limit", "201", 1, 200)).toThrow(/--limit must be 1-200/);
    expect(() => integerFlag("--limit", "2.5", 1, 200)).toThrow(/--limit must be an integer/);
    expect(() => integerFlag("--shop", "1e3")).toThrow(/--shop must be an integer/);
  });

  it("seedFlag: digits are a number, other text a string seed, empty is a mistake", () => {
    expect(seedFlag("7")).toBe(7);
    expect(seedFlag("demo")).toBe("demo");
    expect(seedFlag(undefined)).toBeUndefined();
    expect(() => seedFlag(" ")).toThrow(UsageError);
  });
});
