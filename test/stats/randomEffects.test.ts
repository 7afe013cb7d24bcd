import { describe, expect, it } from "vitest";
import { randomEffects } from "../../src/stats/randomEffects.ts";
import { createRng, hashSeed } from "../../src/sim/random/prng.ts";

describe("randomEffects", () => {
  it("returns one estimate as it is, with its variance", () => {
    const r = randomEffects([7], [2]);
    expect(r).toEqual({ mean: 7, meanVariance: 2, tau2: 0, shrunk: [7], shrunkVariance: [2] });
  });

  it("pools estimates that agree fully: the inverse-variance mean, with its variance", () => {
    const r = randomEffects([5, 5, 5], [1, 2, 4]);
    expect(r.tau2).toBe(0);
    expect(r.shrunk).toEqual([5, 5, 5]);
    expect(r.meanVariance).toBeCloseTo(1 / (1 + 1 / 2 + 1 / 4), 12);
    expect(r.shrunkVariance.every((v) => Math.abs(v - r.meanVariance) < 1e-12)).toBe(true);
  });

  it("leaves estimates that differ far beyond their noise nearly alone, and shrinks noisy ones more", () => {
    const far = randomEffects([10, 30, 50], [0.01, 0.01, 0.01]);
    far.shrunk.forEach((x, i) => expect(Math.abs(x - [10, 30, 50][i]!)).toBeLessThan(0.01));
    // The same spread with one noisy estimate: it moves toward the mean, the precise ones barely.
    const mixed = randomEffects([10, 30, 50], [0.01, 0.01, 400]);
    expect(mixed.shrunk[2]!).toBeLessThan(50);
    expect(mixed.shrunk[2]!).toBeGreaterThan(mixed.mean);
    expect(Math.abs(mixed.shrunk[0]! - 10)).toBeLessThan(0.01);
  });

  it("gives estimates without a variance the mean, with the between-unit variance on top", () => {
    const r = randomEffects([10, 14, Number.NaN, 12], [4, 4, 4, 0]);
    expect(r.shrunk[2]).toBe(r.mean);
    expect(r.shrunk[3]).toBe(r.mean);
    expect(r.shrunkVariance[2]).toBeCloseTo(r.tau2 + r.meanVariance, 12);
    expect(randomEffects([Number.NaN], [1]).mean).toBeNaN();
    expect(() => randomEffects([1, 2], [1])).toThrow(RangeError);
  });

  it("does not depend on the order of the estimates", () => {
    const y = [3, 9, 4, 12, 7];
    const v = [2, 5, 1, 8, 3];
    const a = randomEffects(y, v);
    const order = [4, 2, 0, 3, 1];
    const b = randomEffects(order.map((i) => y[i]!), order.map((i) => v[i]!));
    expect(b.mean).toBeCloseTo(a.mean, 12);
    expect(b.tau2).toBeCloseTo(a.tau2, 12);
    order.forEach((i, j) => expect(b.shrunk[j]).toBeCloseTo(a.shrunk[i]!, 12));
  });

  it("predicts each unit better than its own estimate, and its variance is honest (simulated)", () => {
    // Seven units (a shop's week) whose true values differ by τ around μ, each estimated with noise.
    const rng = createRng(hashSeed("randomEffects", 1));
    for (const tau of [0, 1, 3]) {
      let ownSq = 0;
      let shrunkSq = 0;
      let covered = 0;
      let n = 0;
      for (let rep = 0; rep < 400; rep++) {
        const v = Array.from({ length: 7 }, () => rng.uniform(2, 8));
        const theta = v.map(() => 20 + tau * rng.normal());
        const y = theta.map((t, i) => t + Math.sqrt(v[i]!) * rng.normal());
        const r = randomEffects(y, v);
        theta.forEach((t, i) => {
          ownSq += (y[i]! - t) ** 2;
          shrunkSq += (r.shrunk[i]! - t) ** 2;
          if (Math.abs(r.shrunk[i]! - t) <= 1.645 * Math.sqrt(r.shrunkVariance[i]!)) covered++;
          n++;
        });
      }
      expect(shrunkSq).toBeLessThan(ownSq);
      // A nominal 90 % band around the shrunk value (τ² taken as known) holds the truth near 90 %.
      expect(covered / n).toBeGreaterThan(0.84);
      expect(covered / n).toBeLessThan(0.97);
    }
  });
});
