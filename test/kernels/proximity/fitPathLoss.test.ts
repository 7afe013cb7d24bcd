import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { fitPathLoss } from "../../../src/kernels/proximity/fitPathLoss.ts";
import { distanceToRssi, pathLossOptions } from "../../../src/kernels/proximity/pathLoss.ts";
import { createWorld } from "../../../src/sim/createWorld.ts";

/** Deterministic standard normal noise (Box–Muller over a small LCG) so the test is reproducible. */
function gaussian(seed: number): () => number {
  let s = seed >>> 0 || 1;
  const uniform = () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return (s + 0.5) / 2 ** 32;
  };
  return () => Math.sqrt(-2 * Math.log(uniform())) * Math.cos(2 * Math.PI * uniform());
}

describe("fitPathLoss", () => {
  it("recovers the documented example exactly", () => {
    const m = pathLossOptions({ rssiAt1m: -45, exponent: 2.7 });
    const fit = fitPathLoss([1, 2, 10].map((d) => ({ distanceM: d, rssi: distanceToRssi(d, m) })));
    expect(fit.rssiAt1m).toBeCloseTo(-45, 9);
    expect(fit.exponent).toBeCloseTo(2.7, 9);
    expect(fit.rSquared).toBeCloseTo(1, 12);
    expect(fit.residualSigma).toBeLessThan(1e-9);
    expect(fit.count).toBe(3);
  });

  it("reports a flat exact fit as r² = 1 and exponent 0", () => {
    const fit = fitPathLoss([{ distanceM: 1, rssi: -50 }, { distanceM: 3, rssi: -50 }]);
    expect(fit.exponent).toBeCloseTo(0, 12);
    expect(fit.rSquared).toBe(1);
  });

  it("rejects unusable samples", () => {
    expect(() => fitPathLoss([{ distanceM: 1, rssi: -50 }])).toThrow(RangeError);
    expect(() => fitPathLoss([{ distanceM: 0, rssi: -50 }, { distanceM: 2, rssi: -55 }])).toThrow(RangeError);
    expect(() => fitPathLoss([{ distanceM: 2, rssi: -50 }, { distanceM: 2, rssi: -55 }])).toThrow(/distinct/);
    expect(() => fitPathLoss([{ distanceM: 1, rssi: Number.NaN }, { distanceM: 2, rssi: -55 }])).toThrow(RangeError);
  });

  const model = fc.record({
    rssiAt1m: fc.double({ min: -65, max: -30, noNaN: true }),
    exponent: fc.double({ min: 1.6, max: 4.5, noNaN: true }),
  });

  it("property: recovers known parameters from noiseless samples", () => {
    fc.assert(
      fc.property(
        model,
        fc.uniqueArray(fc.double({ min: 0.2, max: 60, noNaN: true }), { minLength: 2, maxLength: 30, comparator: (a, b) => Math.abs(a - b) < 0.01 }),
        (opts, distances) => {
          const m = pathLossOptions(opts);
          const fit = fitPathLoss(distances.map((d) => ({ distanceM: d, rssi: distanceToRssi(d, m) })));
          return Math.abs(fit.rssiAt1m - m.rssiAt1m) < 1e-6 && Math.abs(fit.exponent - m.exponent) < 1e-6 && fit.rSquared > 1 - 1e-9;
        },
      ),
    );
  });

  it("property: recovers parameters approximately from noisy samples (σ = 4 dB)", () => {
    fc.assert(
      fc.property(model, fc.integer({ min: 1, max: 2 ** 31 - 1 }), (opts, seed) => {
        const m = pathLossOptions(opts);
        const noise = gaussian(seed);
        const samples = [];
        // A realistic survey: 1–15 m, 40 readings per distance.
        for (const d of [1, 2, 3, 5, 8, 12, 15]) {
          for (let i = 0; i < 40; i++) samples.push({ distanceM: d, rssi: distanceToRssi(d, m) + 4 * noise() });
        }
        const fit = fitPathLoss(samples);
        return (
          Math.abs(fit.rssiAt1m - m.rssiAt1m) < 2.5 &&
          Math.abs(fit.exponent - m.exponent) < 0.3 &&
          Math.abs(fit.residualSigma - 4) < 0.8
        );
      }),
      { numRuns: 50 },
    );
  });
});

describe("fitPathLoss against the simulator's survey", () => {
  // Tiny worlds: only the radio model and sensors matter here, not the crowd.
  const shapes = [
    { seed: 11 },
    { seed: 12, rssiAt1m: -52, pathLossExponent: 3.3, rssiNoiseDb: 6 },
    { seed: 13, rssiAt1m: -40, pathLossExponent: 2.2, rssiNoiseDb: 3 },
  ];
  for (const shape of shapes) {
    it(`recovers the world's model parameters (${JSON.stringify(shape)})`, () => {
      const world = createWorld({ ...shape, shops: 1, openingHours: [10, 11], visitorsPerDay: 10, passersByPerDay: 20, staffPerShop: 1 });
      const shop = world.shops[0]!;
      const distances = [1, 1.5, 2, 3, 5, 8, 12];
      for (const sensor of shop.sensors) {
        const fit = fitPathLoss(world.surveySamples(shop.id, sensor, distances, 40));
        expect(Math.abs(fit.rssiAt1m - world.model.rssiAt1m)).toBeLessThan(1.5);
        expect(Math.abs(fit.exponent - world.model.pathLossExponent)).toBeLessThan(0.25);
        // Integer rounding adds ~0.3 dB of spread to the model's per-reading noise.
        expect(Math.abs(fit.residualSigma - world.model.noiseDb)).toBeLessThan(0.8);
      }
    });
  }
});
