import { describe, expect, it } from "vitest";
import { markResolved, resolvedBy } from "../../src/options/resolvedOptions.ts";
import { visitCounterOptions } from "../../src/kernels/visits/VisitCounter.ts";
import { dwellMeterOptions } from "../../src/kernels/visits/DwellMeter.ts";
import { eventTimeEngineOptions } from "../../src/kernels/sessions/EventTimeEngine.ts";
import { liveOccupancyOptions } from "../../src/kernels/people/LiveOccupancy.ts";
import { peopleEstimatorOptions } from "../../src/kernels/people/peopleEstimatorOptions.ts";
import { visitClassifierOptions } from "../../src/kernels/visits/VisitClassifier.ts";

describe("resolved options: validated once, trusted after", () => {
  it("marks an object as its resolver's and freezes it", () => {
    const o = markResolved("a", { x: 1 });
    expect(resolvedBy("a", o)).toBe(true);
    expect(resolvedBy("b", o)).toBe(false);
    expect(resolvedBy("a", { x: 1 })).toBe(false);
    expect(resolvedBy("a", null)).toBe(false);
    expect(Object.isFrozen(o)).toBe(true);
  });

  it("every resolver returns its own result as it is, and resolves anything else", () => {
    const resolvers = [visitCounterOptions, dwellMeterOptions, eventTimeEngineOptions, peopleEstimatorOptions, visitClassifierOptions, liveOccupancyOptions] as const;
    for (const resolve of resolvers) {
      const once = (resolve as (o: object) => object)({ timeZone: "Europe/Prague" });
      expect((resolve as (o: object) => object)(once)).toBe(once);
    }
    // Another resolver's result is options like any other: resolved again, not trusted.
    const counter = visitCounterOptions({ window: "hour", timeZone: "Europe/Prague" });
    const dwell = dwellMeterOptions(counter);
    expect(dwell).not.toBe(counter);
    expect(dwell.window).toBe("hour");
  });

  it("a copy of resolved options is validated again", () => {
    const people = peopleEstimatorOptions({ intervalMs: 600_000 });
    expect(() => peopleEstimatorOptions({ ...people, intervalMs: 1 })).toThrow(RangeError);
  });
});
