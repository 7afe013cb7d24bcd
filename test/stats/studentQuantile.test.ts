import { describe, expect, it } from "vitest";
import { studentQuantile } from "../../src/stats/studentQuantile.ts";

// ln Γ(x) by Lanczos (g = 7): an independent route to the t density.
function logGamma(x: number): number {
  const c = [0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059, 12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7];
  x -= 1;
  let a = c[0]!;
  const t = x + 7.5;
  for (let i = 1; i < 9; i++) a += c[i]! / (x + i);
  return 0.5 * Math.log(2 * Math.PI) + (x + 0.5) * Math.log(t) - t + Math.log(a);
}

// P(T ≤ x) for x ≥ 0 by the midpoint rule on the density (smooth, so 20 000 steps give ~1e-9).
function studentCdf(x: number, df: number): number {
  const k = Math.exp(logGamma((df + 1) / 2) - logGamma(df / 2) - 0.5 * Math.log(df * Math.PI));
  const steps = 20_000;
  const h = x / steps;
  let sum = 0;
  for (let i = 0; i < steps; i++) {
    const t = (i + 0.5) * h;
    sum += k * (1 + (t * t) / df) ** (-(df + 1) / 2) * h;
  }
  return 0.5 + sum;
}

describe("studentQuantile", () => {
  it("inverts the t distribution for whole and fractional degrees of freedom", () => {
    for (const df of [1, 2, 2.5, 3, 4, 7, 9, 24, 60, 300]) {
      for (const p of [0.75, 0.9, 0.95, 0.975, 0.995]) {
        expect(studentCdf(studentQuantile(p, df), df), `df ${df}, p ${p}`).toBeCloseTo(p, 7);
      }
    }
  });

  it("is symmetric, 0 at the median, and the normal quantile without a sampled variance", () => {
    expect(studentQuantile(0.05, 12)).toBeCloseTo(-studentQuantile(0.95, 12), 12);
    expect(studentQuantile(0.5, 4)).toBe(0);
    const z95 = studentQuantile(0.95, Number.POSITIVE_INFINITY);
    expect(z95).toBeCloseTo(1.6448536269514722, 12);
    // Few degrees of freedom widen; many approach the normal quantile from above.
    expect(studentQuantile(0.95, 9)).toBeGreaterThan(studentQuantile(0.95, 30));
    expect(studentQuantile(0.95, 30)).toBeGreaterThan(z95);
    expect(studentQuantile(0.95, 1e6) - z95).toBeLessThan(1e-5);
    // However large a Welch–Satterthwaite df gets, the quantile stays the normal one's.
    for (const df of [1e9, 1e12, 1e16, 1e20, 1e300]) expect(studentQuantile(0.95, df), `df ${df}`).toBeCloseTo(z95, 8);
  });

  it("rejects a probability outside (0, 1) and degrees of freedom that are not positive", () => {
    for (const p of [0, 1, -0.1, Number.NaN]) expect(() => studentQuantile(p, 5)).toThrow(RangeError);
    for (const df of [0, -1, Number.NaN]) expect(() => studentQuantile(0.9, df)).toThrow(RangeError);
  });
});

describe("studentQuantile with infinite degrees of freedom", () => {
  it("inverts the standard normal distribution", () => {
    // Φ by the Abramowitz–Stegun series is too coarse; a huge-df t quantile is the normal one.
    for (const p of [0.001, 0.02, 0.3, 0.5, 0.8, 0.95, 0.999]) {
      const z = studentQuantile(p, Number.POSITIVE_INFINITY);
      expect(z === 0 ? 0.5 : z > 0 ? studentCdf(z, 1e7) : 1 - studentCdf(-z, 1e7), `p ${p}`).toBeCloseTo(p, 6);
    }
  });
});
