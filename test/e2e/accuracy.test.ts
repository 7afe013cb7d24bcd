/**
 * Accuracy of the MAC-level figures against the simulator's ground truth, with the library's
 * defaults, on the simple world (one MAC per visit, single probes: `rotation: "off"`, where a MAC
 * is a person and these figures are the truth's to meet) of the default shape and on differently
 * shaped worlds (shop size, wall loss, RSSI noise, slow fading, probe
 * rates, randomized share). Fails on regression of the goals: visitor count error ≤ 5 % per shop-day,
 * median absolute visitor dwell error ≤ 60 s, visitor and passer-by F1 ≥ 0.9.
 *
 * The default shape is scored whole (five shops, ~1 M signals, a few seconds); the other shapes
 * are reduced to one or two shops (each keeps the default traffic) to keep the suite quick.
 * `ACCURACY_FULL=1` prints every figure.
 */
import { describe, expect, it } from "vitest";
import { analyze } from "../../src/analysis/analyze.ts";
import { scoreAgainstTruth, type AccuracyScore } from "../../src/kernels/visits/scoreAgainstTruth.ts";
import type { ClassifiedSession } from "../../src/kernels/visits/VisitClassifier.ts";
import { createWorld, type WorldOptions } from "../../src/sim/createWorld.ts";

const worlds: Record<string, WorldOptions> = {
  // The default shape, whole (its phones as simple as the MAC-level figures assume).
  default: {},
  // Larger floors: visitors are farther from the sensors, and so is the street.
  "large shops": { seed: 7, shops: 2, shopSizeM: [24, 18] },
  // A light glass front and noisy readings: people at the window look closer.
  "thin wall, noisy": { seed: 3, shops: 2, wallLossDb: 8, rssiNoiseDb: 6 },
  // Phones that probe rarely, and mostly private addresses.
  "slow probes, randomized": { seed: 4, shops: 2, probeIntervalS: [30, 180], randomizedShare: 0.85 },
  // Small shops, thick walls, chatty phones, a quiet radio.
  "small, thick wall, fast probes": { seed: 5, shops: 1, shopSizeM: [8, 6], wallLossDb: 20, probeIntervalS: [4, 30], rssiNoiseDb: 3 },
  // Slow fading: bodies, pockets and shelves move each phone's RSSI by ~6 dB for tens of seconds.
  "shadowing 6 dB": { seed: 8, shops: 2, shadowingDb: 6 },
  // Several days: staff come back, equipment never leaves, visitors return.
  "three days": { seed: 6, shops: 1, days: 3, visitorsPerDay: 300, passersByPerDay: 3000 },
};

async function score(options: WorldOptions): Promise<AccuracyScore> {
  const world = createWorld({ rotation: "off", ...options });
  const sessions: ClassifiedSession[] = [];
  for (const shop of world.shops) {
    const result = await analyze(world.rawSignals(shop.id), { timeZone: shop.timeZone, proximity: false, quality: false });
    expect(result.late).toBe(0);
    expect(result.decoder.invalid).toBe(0);
    sessions.push(...result.sessions);
  }
  return scoreAgainstTruth(sessions, world.truth(), { timeZone: world.shops[0]!.timeZone });
}

function report(name: string, s: AccuracyScore): string {
  const pct = (x: number) => `${(x * 100).toFixed(1)} %`;
  return (
    `${name}: count error mean ${pct(s.meanAbsCountError)} max ${pct(s.maxAbsCountError)}, ` +
    `dwell |error| median ${(s.medianAbsDwellErrorMs / 1000).toFixed(0)} s (bias ${(s.medianDwellErrorMs / 1000).toFixed(0)} s), ` +
    `visitor P/R/F1 ${s.visitor.precision.toFixed(3)}/${s.visitor.recall.toFixed(3)}/${s.visitor.f1.toFixed(3)}, ` +
    `passer-by P/R/F1 ${s.passerby.precision.toFixed(3)}/${s.passerby.recall.toFixed(3)}/${s.passerby.f1.toFixed(3)}`
  );
}

function expectGoals(s: AccuracyScore): void {
  for (const day of s.shopDays) expect(Math.abs(day.relativeError), `${day.shopId} ${day.date}`).toBeLessThanOrEqual(0.05);
  expect(s.medianAbsDwellErrorMs).toBeLessThanOrEqual(60_000);
  expect(s.visitor.f1).toBeGreaterThanOrEqual(0.9);
  expect(s.passerby.f1).toBeGreaterThanOrEqual(0.9);
  // Staff and equipment never count as visitors.
  expect(s.confusion.staff.visitor + s.confusion.stationary.visitor).toBe(0);
}

describe("accuracy against ground truth (defaults)", () => {
  for (const [name, options] of Object.entries(worlds)) {
    it(`meets the goals on the ${name} world`, async () => {
      const s = await score(options);
      if (process.env.ACCURACY_FULL) {
        console.log(report(name, s));
        console.log(s.shopDays.map((d) => `${d.shopId} ${d.date}: ${d.truthVisitors} → ${d.detectedVisitors}`).join("; "));
      }
      expectGoals(s);
    });
  }
});
