import { describe, expect, it } from "vitest";
import { fitPeopleModel, MODEL_ALPHAS, type ModelRow } from "../../../src/kernels/calibration/fitPeopleModel.ts";
import { modelledPeople } from "../../../src/kernels/people/modelledPeople.ts";
import { createRng } from "../../../src/sim/random/prng.ts";
import { twoSided } from "../../../src/stats/twoSided.ts";

const NAMES = ["phones", "laptops", "equipment"];

// Counted intervals of `days` days: people = 0.5 × phones + 1 × laptops (+ `offset`), with noise;
// equipment present all day, the same in every interval (it says nothing of the people).
function rows(seed: number, days: number, options: { offset?: number; noise?: number } = {}): ModelRow[] {
  const rng = createRng(seed);
  const out: ModelRow[] = [];
  for (let d = 0; d < days; d++) {
    const day = `2024-03-${String(4 + d).padStart(2, "0")}`;
    for (let i = 0; i < 16; i++) {
      const phones = rng.int(0, 40);
      const laptops = rng.int(0, 6);
      const people = Math.max(0, (options.offset ?? 0) + 0.5 * phones + laptops + (options.noise ?? 1) * (rng.next() - 0.5));
      out.push({ day, people, features: [phones, laptops, 3], weight: 1 });
    }
  }
  return out;
}

describe("fitPeopleModel", () => {
  // People the model gives an interval with these features.
  const at = (m: NonNullable<ReturnType<typeof fitPeopleModel>>, features: number[]) => modelledPeople(m, features, twoSided(0.9), 0).inside;

  it("recovers a linear mapping from features to people", () => {
    const m = fitPeopleModel(rows(1, 4), NAMES)!;
    expect(m.coefficients[0]).toBeCloseTo(0.5, 1);
    expect(m.coefficients[1]).toBeCloseTo(1, 0);
    expect(m.days).toBe(4);
    expect(m.intervals).toBe(64);
    expect(m.features).toEqual(NAMES);
    expect(MODEL_ALPHAS).toContain(m.alpha);
    // Equipment that never changes adds at most what an intercept would: nothing here.
    expect(at(m, [0, 0, 3])).toBeLessThan(0.5);
    // Fitted on other days, it errs by about the noise (uniform ±0.5: mean |error| 0.25).
    expect(m.validationMae).toBeLessThan(0.6);
  });

  it("keeps what the counts have with no device heard (an intercept, or equipment always there)", () => {
    expect(at(fitPeopleModel(rows(2, 4, { offset: 6 }), NAMES)!, [0, 0, 3])).toBeCloseTo(6, 0);
    // With nothing heard at all, only an intercept can say so.
    const bare = rows(2, 4, { offset: 6 }).map((r) => ({ ...r, features: [r.features[0]!, r.features[1]!, 0] }));
    expect(fitPeopleModel(bare, NAMES)!.intercept).toBeCloseTo(6, 0);
  });

  it("never gives a feature a negative weight, even where one would fit the counts", () => {
    // People fall as laptops rise: the fit may not say so.
    const data = rows(3, 3).map((r) => ({ ...r, people: Math.max(0, 0.5 * r.features[0]! - r.features[1]!) }));
    const m = fitPeopleModel(data, NAMES)!;
    for (const c of m.coefficients) expect(c).toBeGreaterThanOrEqual(0);
  });

  it("needs two counted days (one cannot be left out to choose the model), and rows of one length", () => {
    expect(fitPeopleModel(rows(4, 1), NAMES)).toBeUndefined();
    expect(fitPeopleModel([], NAMES)).toBeUndefined();
    expect(() => fitPeopleModel([{ day: "2024-03-04", people: 1, features: [1], weight: 1 }], NAMES)).toThrow(RangeError);
    expect(() => fitPeopleModel([{ day: "2024-03-04", people: 1, features: [1, 2, 3], weight: 0 }], NAMES)).toThrow(RangeError);
  });

  it("is the same model whatever the order of the rows", () => {
    const data = rows(5, 3);
    const shuffled = [...data].reverse();
    expect(fitPeopleModel(shuffled, NAMES)).toEqual(fitPeopleModel(data, NAMES));
  });

  it("weighs rows by their weight", () => {
    // Two regimes: the heavier one decides.
    const a = rows(6, 2).map((r) => ({ ...r, weight: 1 }));
    const b = rows(7, 2).map((r) => ({ ...r, day: `${r.day}b`, people: 2 * r.people, weight: 1 }));
    const towardA = fitPeopleModel([...a, ...b.map((r) => ({ ...r, weight: 0.01 }))], NAMES)!;
    const towardB = fitPeopleModel([...a.map((r) => ({ ...r, weight: 0.01 })), ...b], NAMES)!;
    expect(towardA.coefficients[0]!).toBeLessThan(towardB.coefficients[0]!);
  });

  it("gives intervals that hold new days' counts about as often as they say", () => {
    // Days differ by a factor (persons per phone drift): the day-to-day spread matters.
    const rng = createRng(8);
    const dayRows = (d: number): ModelRow[] => {
      const factor = Math.exp(0.2 * (rng.next() * 2 - 1));
      return rows(100 + d, 1).map((r) => ({ ...r, day: `d${String(d).padStart(3, "0")}`, people: r.people * factor }));
    };
    let held = 0;
    let n = 0;
    for (let t = 0; t < 30; t++) {
      const train = [0, 1, 2].flatMap((d) => dayRows(10 * t + d));
      const m = fitPeopleModel(train, NAMES)!;
      for (const r of dayRows(10 * t + 3)) {
        const { low, high } = modelledPeople(m, r.features, twoSided(0.9), 0);
        if (low <= r.people && r.people <= high) held++;
        n++;
      }
    }
    expect(held / n).toBeGreaterThan(0.85);
  });
});
