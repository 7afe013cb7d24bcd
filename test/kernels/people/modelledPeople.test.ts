import { describe, expect, it } from "vitest";
import type { PeopleModel } from "../../../src/kernels/calibration/PeopleModel.ts";
import { modelledPeople } from "../../../src/kernels/people/modelledPeople.ts";
import { twoSided } from "../../../src/stats/twoSided.ts";

const model: PeopleModel = { features: ["a", "b"], intercept: 1, coefficients: [0.5, 2], alpha: 0, offset: 5, withinVariance: 0.4, dayVariance: 0.6, df: 4, days: 3, intervals: 40, validationMae: 1 };

describe("modelledPeople", () => {
  it("is the intercept plus the weighted features, never below 0", () => {
    expect(modelledPeople(model, [4, 1], twoSided(0.9), 0).inside).toBe(5);
    expect(modelledPeople({ ...model, intercept: -10 }, [4, 1], twoSided(0.9), 0).inside).toBe(0);
  });

  it("has bounds around it that widen with the count, the level and the calibration's age, and stay ≥ 0", () => {
    const few = modelledPeople(model, [0, 0], twoSided(0.9), 0);
    const many = modelledPeople(model, [40, 10], twoSided(0.9), 0);
    expect(few.low).toBe(0);
    expect(many.high - many.low).toBeGreaterThan(few.high - few.low);
    const wider = modelledPeople(model, [40, 10], twoSided(0.98), 0);
    expect(wider.high - wider.low).toBeGreaterThan(many.high - many.low);
    const aged = modelledPeople(model, [40, 10], twoSided(0.9), 0.1);
    expect(aged.high - aged.low).toBeGreaterThan(many.high - many.low);
    expect(aged.inside).toBe(many.inside);
  });
});
