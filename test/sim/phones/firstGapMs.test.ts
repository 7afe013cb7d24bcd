import { describe, expect, it } from "vitest";
import { mean, quantileSorted } from "simple-statistics";
import { firstGapMs } from "../../../src/sim/phones/firstGapMs.ts";
import { createRng } from "../../../src/sim/random/prng.ts";

describe("firstGapMs", () => {
  it("waits less than one period for a phone on a timer, uniformly", () => {
    const rng = createRng(1);
    const waits = Array.from({ length: 20_000 }, () => firstGapMs(rng, 15_000, 0));
    expect(Math.max(...waits)).toBeLessThan(15_000);
    expect(Math.min(...waits)).toBeGreaterThanOrEqual(0);
    expect(mean(waits)).toBeCloseTo(7_500, -2);
  });

  it("waits as long as the next probe after a random instant of the phone's own probing (simulated)", () => {
    const median = 30_000;
    const jitter = 0.9;
    // The phone's probes over a long run, and random instants among them: the wait to the next.
    const rng = createRng(2);
    const probes: number[] = [0];
    while (probes.length < 200_000) probes.push(probes.at(-1)! + rng.logNormal(median, jitter));
    const waits: number[] = [];
    let i = 0;
    for (let k = 0; k < 20_000; k++) {
      const at = (probes.at(-1)! * (k + rng.next())) / 20_001;
      while (probes[i]! < at) i++;
      while (i > 0 && probes[i - 1]! >= at) i--;
      waits.push(probes[i]! - at);
    }
    const drawn = Array.from({ length: 20_000 }, () => firstGapMs(rng, median, jitter));
    // E[wait] = E[g²] ÷ 2E[g] = median · e^(1.5 jitter²) ÷ 2 for log-normal gaps.
    const expected = (median * Math.exp(1.5 * jitter * jitter)) / 2;
    expect(mean(waits) / expected).toBeCloseTo(1, 1);
    expect(mean(drawn) / expected).toBeCloseTo(1, 1);
    const sortedWaits = waits.toSorted((a, b) => a - b);
    const sortedDrawn = drawn.toSorted((a, b) => a - b);
    // The two distributions, compared where they hold a share p of the draws: within 0.02 of p.
    for (const p of [0.1, 0.25, 0.5, 0.75, 0.9]) {
      const at = quantileSorted(sortedWaits, p);
      expect(Math.abs(sortedDrawn.filter((x) => x <= at).length / sortedDrawn.length - p), `share below the waits' ${p} quantile`).toBeLessThan(0.02);
    }
  });
});
