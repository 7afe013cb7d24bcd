import { describe, expect, it } from "vitest";
import { mean } from "simple-statistics";
import { estimatedDwell } from "../../../src/kernels/sessions/estimatedDwell.ts";
import { createRng, type Rng } from "../../../src/sim/random/prng.ts";

/**
 * Stays of `stayMs` that begin at random instants of one long run of a phone's probes (gaps drawn
 * by `gap`): what the probes inside each stay show (span and Σgap²), against the stay.
 */
function observedStays(rng: Rng, gap: () => number, stayMs: number, stays: number): { estimated: number[]; meanGap: number[] } {
  const probes: number[] = [];
  let t = 0;
  const horizon = stays * stayMs * 4;
  while (t < horizon) {
    probes.push(t);
    t += gap();
  }
  const estimated: number[] = [];
  const meanGap: number[] = [];
  let i = 0;
  for (let k = 0; k < stays; k++) {
    const start = rng.uniform(stayMs, horizon - 2 * stayMs);
    while (probes[i]! >= start) i--;
    while (probes[i]! < start) i++;
    const inside: number[] = [];
    for (let j = i; probes[j]! <= start + stayMs; j++) inside.push(probes[j]!);
    if (inside.length < 2) continue;
    const span = inside.at(-1)! - inside[0]!;
    let squares = 0;
    for (let j = 1; j < inside.length; j++) squares += (inside[j]! - inside[j - 1]!) ** 2;
    estimated.push(estimatedDwell(span, squares));
    meanGap.push(span + span / (inside.length - 1));
  }
  return { estimated, meanGap };
}

describe("estimatedDwell", () => {
  it("adds one period to a timer's span, and nothing to one probe", () => {
    expect(estimatedDwell(9 * 60_000, 9 * 60_000 ** 2)).toBe(10 * 60_000);
    expect(estimatedDwell(0, 0)).toBe(0);
  });

  it("adds Σgap² ÷ Σgap, at least the mean gap (a burst split in two barely moves it)", () => {
    const gaps = [20_000, 180_000, 20_000, 180_000];
    const span = gaps.reduce((a, b) => a + b);
    const squares = gaps.reduce((a, g) => a + g * g, 0);
    expect(estimatedDwell(span, squares) - span).toBeCloseTo(164_000, 6);
    // The same probes with each burst heard as two, a second apart: eight gaps, four of them 1 s.
    const split = [1_000, 19_000, 1_000, 179_000, 1_000, 19_000, 1_000, 179_000];
    const splitSquares = split.reduce((a, g) => a + g * g, 0);
    expect(Math.abs(estimatedDwell(span, splitSquares) - estimatedDwell(span, squares))).toBeLessThan(2_000);
  });

  it("is unbiased for stays that begin at random instants, where the mean gap falls short (simulated)", () => {
    const rng = createRng(52);
    const stayMs = 20 * 60_000;
    // Exponential gaps (a phone probing at random, mean 60 s), and log-normal ones of spread 1
    // (mostly short, sometimes minutes, as real phones' gaps: median 30 s).
    const cases = [
      { name: "exponential", gap: () => rng.exponential(60_000) },
      { name: "log-normal", gap: () => rng.logNormal(30_000, 1) },
    ];
    for (const { name, gap } of cases) {
      const { estimated, meanGap } = observedStays(rng, gap, stayMs, 4_000);
      expect(mean(estimated) / stayMs, name).toBeGreaterThan(0.97);
      expect(mean(estimated) / stayMs, name).toBeLessThan(1.03);
      expect(mean(meanGap) / stayMs, name).toBeLessThan(0.97);
    }
  });
});
