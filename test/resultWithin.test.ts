import { describe, expect, it } from "vitest";
import { analyze } from "../src/analyze.ts";
import { resultWithin, windowOverlaps } from "../src/resultWithin.ts";
import { createWorld } from "../src/sim/createWorld.ts";

describe("resultWithin", () => {
  // Two days of a shop open till midnight, analysed together.
  const world = createWorld({ seed: 21, shops: 1, days: 2, visitorsPerDay: 60, passersByPerDay: 300, openingHours: [18, 24] });
  const whole = analyze([...world.rawSignals(101)], { timeZone: "Asia/Seoul", liveOccupancy: true });

  it("keeps a day's sessions, windows and estimates, and the whole read's counts", async () => {
    const result = await whole;
    expect(result.days).toHaveLength(2);
    const [first, second] = result.days as [(typeof result.days)[0], (typeof result.days)[0]];
    const part = resultWithin(result, second.start, second.end);
    expect(part.days).toEqual([second]);
    expect(part.people.map((p) => p.label)).toEqual([second.label]);
    expect(part.hours.length).toBeGreaterThan(0);
    expect(part.sessions).toEqual(result.sessions.filter((s) => s.date === second.label));
    expect(part.sessions.length).toBeGreaterThan(0);
    for (const w of [...part.hours, ...part.occupancy, ...part.liveOccupancy]) expect(w.start).toBeGreaterThanOrEqual(second.start);
    expect(part.occupancy.length + resultWithin(result, first.start, first.end).occupancy.length).toBe(result.occupancy.length);
    expect(part.liveOccupancy.length).toBeGreaterThan(0);
    // What is the whole read's stays.
    expect(part.quality).toBe(result.quality);
    expect(part.decoder).toBe(result.decoder);
    expect([part.late, part.ahead, part.lateSessions]).toEqual([result.late, result.ahead, result.lateSessions]);
  });

  it("is the whole result over a range that holds it", async () => {
    const result = await whole;
    expect(resultWithin(result, world.startMs, world.endMs)).toEqual(result);
  });

  it("keeps a window that overlaps the range, not one that only touches it", () => {
    expect(windowOverlaps({ start: 0, end: 10 }, 10, 20)).toBe(false);
    expect(windowOverlaps({ start: 20, end: 30 }, 10, 20)).toBe(false);
    expect(windowOverlaps({ start: 5, end: 15 }, 10, 20)).toBe(true);
    expect(windowOverlaps({ start: 15, end: 25 }, 10, 20)).toBe(true);
    expect(() => resultWithin({} as never, 10, 10)).toThrow(RangeError);
  });
});
