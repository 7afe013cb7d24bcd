import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { medianPersons } from "../../../src/kernels/people/medianPersons.ts";

// An independent oracle: N = x·√(1 + cv²/N) ⇔ N³ − x²·N − x²·cv² = 0 (N > 0), whose left side
// is increasing for N ≥ x, so bisection on [x, x + cv²] (where it changes sign) finds the root.
function solveByBisection(x: number, cv: number): number {
  const g = (n: number): number => n * n * n - x * x * n - x * x * cv * cv;
  let lo = x;
  let hi = x + cv * cv + 1;
  for (let i = 0; i < 200; i++) {
    const mid = (lo + hi) / 2;
    if (g(mid) > 0) hi = mid;
    else lo = mid;
  }
  return (lo + hi) / 2;
}

const positiveX = fc.double({ min: 1e-6, max: 1e6, noNaN: true, noDefaultInfinity: true });
const spread = fc.double({ min: 0, max: 10, noNaN: true, noDefaultInfinity: true });

describe("medianPersons", () => {
  it("is x itself when persons do not differ (cv = 0)", () => {
    fc.assert(fc.property(positiveX, (x) => medianPersons(x, 0) === x));
    expect(medianPersons(7.25, 0)).toBe(7.25);
  });

  it("is 0 for no bursts or a negative figure", () => {
    for (const x of [0, -0, -1e-12, -3, -1e9, Number.NEGATIVE_INFINITY]) {
      expect(medianPersons(x, 1.86)).toBe(0);
      expect(medianPersons(x, 0)).toBe(0);
    }
  });

  it("is never below x", () => {
    fc.assert(fc.property(positiveX, spread, (x, cv) => medianPersons(x, cv) >= x));
  });

  it("is strictly increasing in x", () => {
    fc.assert(
      fc.property(positiveX, fc.double({ min: 1e-4, max: 100, noNaN: true }), fc.double({ min: 0.1, max: 10, noNaN: true }), (x, d, cv) => {
        return medianPersons(x * (1 + d), cv) > medianPersons(x, cv);
      }),
    );
  });

  it("solves N = x·√(1 + cv²/N) (the fixed point holds to 1e-6, relative)", () => {
    fc.assert(
      fc.property(positiveX, spread, (x, cv) => {
        const n = medianPersons(x, cv);
        const residual = Math.abs(n - x * Math.sqrt(1 + (cv * cv) / n));
        return residual <= 1e-6 * n;
      }),
    );
  });

  it("agrees with an independent solution of the cubic", () => {
    fc.assert(
      fc.property(fc.double({ min: 1e-3, max: 1e4, noNaN: true }), spread, (x, cv) => {
        const n = medianPersons(x, cv);
        const oracle = solveByBisection(x, cv);
        return Math.abs(n - oracle) <= 1e-6 * oracle;
      }),
    );
    // The documented figures: a hundred persons' worth is about right, three are one short.
    expect(medianPersons(100, 1.86)).toBeCloseTo(solveByBisection(100, 1.86), 6);
    expect(medianPersons(100, 1.86)).toBeGreaterThan(101.5);
    expect(medianPersons(100, 1.86)).toBeLessThan(102);
    expect(medianPersons(3, 1.86)).toBeGreaterThan(3.8);
    expect(medianPersons(3, 1.86)).toBeLessThan(4.2);
  });

  it("tends to x, relatively, as x grows (the excess is at most cv²/(2x))", () => {
    fc.assert(
      fc.property(fc.double({ min: 1, max: 1e9, noNaN: true }), fc.double({ min: 0, max: 5, noNaN: true }), (x, cv) => {
        const excess = medianPersons(x, cv) / x - 1;
        return excess >= 0 && excess <= (cv * cv) / (2 * x) + 1e-9;
      }),
    );
    fc.assert(
      fc.property(fc.double({ min: 1e8, max: 1e12, noNaN: true }), fc.double({ min: 0, max: 5, noNaN: true }), (x, cv) => medianPersons(x, cv) / x - 1 < 1e-6),
    );
    // And the relative excess shrinks as x grows.
    const cv = 1.86;
    let last = Number.POSITIVE_INFINITY;
    for (const x of [0.1, 1, 10, 100, 1e3, 1e4, 1e5]) {
      const excess = medianPersons(x, cv) / x - 1;
      expect(excess).toBeLessThan(last);
      last = excess;
    }
  });
});
