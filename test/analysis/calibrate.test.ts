import { beforeAll, describe, expect, it } from "vitest";
import { analysisRecords } from "../../src/analysis/analysisRecords.ts";
import { analyze } from "../../src/analysis/analyze.ts";
import { calibrate, calibrationFromEstimates, type CalibrationFit } from "../../src/analysis/calibrate.ts";
import { CALIBRATION_FEATURES } from "../../src/kernels/calibration/calibrationFeatures.ts";
import { realPhonesPrior } from "../../src/kernels/calibration/burstYardstick.ts";
import { CALIBRATION_VERSION, calibrationsByShop } from "../../src/kernels/calibration/Calibration.ts";
import { countedTruthCsv } from "../../src/sim/truth/countedTruthCsv.ts";
import { createWorld } from "../../src/sim/createWorld.ts";
import type { RawSignal } from "../../src/contract/rawSignal.ts";
import type { SimShop, World } from "../../src/sim/world/World.ts";
import type { CountedTruth } from "../../src/truth/CountedTruth.ts";
import { parseTruth } from "../../src/truth/parseTruth.ts";
import { truthInside } from "../../src/analysis/truthInside.ts";

describe("calibrate", () => {
  let world: World;
  let shop: SimShop;
  let records: RawSignal[];
  let truth: CountedTruth;
  let fit: CalibrationFit;

  beforeAll(async () => {
    // Phones as real ones burst (the default world's phones send single probes, which the
    // calibration rightly flags as far from real phones: see the last test).
    world = createWorld({ shops: 1, days: 2, seed: 5, visitorsPerDay: 200, phones: "real" });
    shop = world.shops[0]!;
    records = [...world.rawSignals(shop.id)];
    truth = parseTruth(countedTruthCsv(world, shop.id, world.startMs, world.endMs, { shape: "inside" }), "counted.csv");
    fit = await calibrate(records, truth, { timeZone: shop.timeZone });
  });

  it("fits one trusted calibration for the counted shop", () => {
    expect(fit.file.format).toBe("footfall-calibration");
    expect(fit.file.version).toBe(CALIBRATION_VERSION);
    expect(fit.calibrations).toHaveLength(1);
    expect(fit.file.shops).toEqual(fit.calibrations);
    const c = fit.calibrations[0]!;
    expect(c.shopId).toBe(shop.id);
    expect(c.id).toMatch(new RegExp(`^cal-${shop.id}-[0-9a-f]{8}$`));
    expect(c.trusted, c.warnings.join("; ")).toBe(true);
    expect(c.warnings).toEqual([]);
    // No fixed threshold given: none recorded, none pinned.
    expect(c.settings).toEqual({ intervalMs: 900_000, timeZone: shop.timeZone, visitorRssi: "auto" });
    // Two counted days: the shop's model is learned.
    expect(c.model).not.toBeNull();
    expect(c.model!.features).toEqual(CALIBRATION_FEATURES);
    expect(c.model!.days).toBe(2);
    expect(c.counts.intervals).toBeGreaterThanOrEqual(8);
    expect(c.counts.days).toBeGreaterThanOrEqual(1);
    expect(c.counts.days).toBeLessThanOrEqual(3);
    expect(c.start).toBeGreaterThanOrEqual(world.startMs);
    expect(c.end).toBeLessThanOrEqual(world.endMs);
    expect(fit.shopsWithoutOverlap).toEqual([]);
    expect(fit.unknownRows).toBe(0);
    // The file is what a reader accepts.
    expect(calibrationsByShop(JSON.parse(JSON.stringify(fit.file))).get(shop.id)).toEqual(c);
  });

  it("is the same fit on the same input", async () => {
    const again = await calibrate(records, truth, { timeZone: shop.timeZone });
    expect(again.calibrations[0]!.id).toBe(fit.calibrations[0]!.id);
  });

  it("is what analyze() then uses and names, on the estimates and the occupancy lines", async () => {
    const id = fit.calibrations[0]!.id;
    const result = await analyze(records, { timeZone: shop.timeZone, calibration: fit.file });
    expect(result.people.length).toBeGreaterThan(0);
    for (const p of result.people) {
      expect(p.calibration?.id).toBe(id);
      expect(p.calibration?.trusted).toBe(true);
    }
    expect(result.occupancy.length).toBeGreaterThan(0);
    expect(result.occupancy.every((o) => o.calibration?.id === id)).toBe(true);
    const lines = [...analysisRecords(result)].filter((r) => r.type === "occupancy");
    expect(lines).toHaveLength(result.occupancy.length);
    for (const line of lines) expect((line["calibration"] as { id: string } | null)?.id).toBe(id);
    // Without it, the prior: nothing is named.
    const plain = await analyze(records, { timeZone: shop.timeZone, proximity: false, quality: false });
    expect(plain.people.every((p) => p.calibration === null)).toBe(true);
  });

  it("records a fixed threshold and pins it: analyze() classifies the calibrated shop at it, and flags another", async () => {
    const fixed = await calibrate(records, truth, { timeZone: shop.timeZone, classify: { visitorRssi: -62 } });
    const c = fixed.calibrations[0]!;
    expect(c.settings.visitorRssi).toBe(-62);
    const result = await analyze(records, { timeZone: shop.timeZone, calibration: fixed.file, proximity: false, quality: false, hourly: false });
    expect(result.days.length).toBeGreaterThan(0);
    for (const d of result.days) expect(d.visitorRssi).toBe(-62);
    // A fixed threshold given by the caller wins, and the estimate says it is not the fit's.
    const overridden = await analyze(records, { timeZone: shop.timeZone, calibration: fixed.file, classify: { visitorRssi: -57 }, proximity: false, quality: false, hourly: false });
    for (const d of overridden.days) expect(d.visitorRssi).toBe(-57);
    for (const p of overridden.people) {
      expect(p.calibration?.trusted).toBe(false);
      expect(p.calibration?.warnings).toContain("fitted at a visit threshold of -62 dBm, used at -57 dBm");
    }
  });

  it("estimates the counted days closer to the count than the prior does", async () => {
    const maeOf = async (file: CalibrationFit["file"] | undefined) => {
      const { people } = await analyze(records, { timeZone: shop.timeZone, ...(file === undefined ? {} : { calibration: file }), proximity: false, quality: false, hourly: false });
      let ae = 0;
      let n = 0;
      for (const o of people.flatMap((p) => p.occupancy)) {
        const counted = truthInside(truth.segments, shop.id, o.start, o.end);
        if (counted.coveredMs < 0.5 * (o.end - o.start) || !(counted.people > 0)) continue;
        ae += Math.abs(o.inside - counted.people);
        n++;
      }
      return ae / n;
    };
    expect(await maeOf(fit.file)).toBeLessThan(await maeOf(undefined));
  });

  it("refuses counts of another shop only (RangeError)", async () => {
    const other = parseTruth(countedTruthCsv(world, shop.id, world.startMs, world.endMs, { shape: "inside" }).replaceAll(`\n${shop.id},`, `\n${shop.id + 1000},`), "other.csv");
    expect(other.segments.every((s) => s.shopId === shop.id + 1000)).toBe(true);
    await expect(calibrate(records, other, { timeZone: shop.timeZone })).rejects.toThrow(RangeError);
    // …unless asked for an empty fit, which names the shop it could not use.
    const { people } = await analyze(records, { timeZone: shop.timeZone, proximity: false, quality: false, hourly: false });
    const empty = calibrationFromEstimates(people, other, { prior: realPhonesPrior, settings: { intervalMs: 900_000, timeZone: shop.timeZone }, minCoverage: 0.5, allowNoOverlap: true });
    expect(empty.calibrations).toEqual([]);
    expect(empty.shopsWithoutOverlap).toEqual([shop.id + 1000]);
  });

  it("refuses estimates that were made with a calibration (RangeError)", async () => {
    const { people } = await analyze(records, { timeZone: shop.timeZone, calibration: fit.file, proximity: false, quality: false, hourly: false });
    expect(() => calibrationFromEstimates(people, truth, { prior: realPhonesPrior, settings: { intervalMs: 900_000, timeZone: shop.timeZone }, minCoverage: 0.5 })).toThrow(RangeError);
    expect(() => calibrationFromEstimates(people, truth, { prior: realPhonesPrior, settings: { intervalMs: 900_000, timeZone: shop.timeZone }, minCoverage: 0.5 })).toThrow(/calibrat/);
  });

  it("validates its options", async () => {
    await expect(calibrate(records, truth, { timeZone: shop.timeZone, minCoverage: 0 })).rejects.toThrow(RangeError);
    await expect(calibrate(records, truth, { timeZone: shop.timeZone, minCoverage: 1.5 })).rejects.toThrow(RangeError);
    await expect(calibrate(records, truth, { timeZone: shop.timeZone, people: false })).rejects.toThrow(RangeError);
  });

  it("flags a world whose phones burst unlike real ones (single probes) as far from real phones", async () => {
    const plain = createWorld({ shops: 1, days: 2, seed: 5, visitorsPerDay: 200, rotation: "off" });
    const plainShop = plain.shops[0]!;
    const counted = parseTruth(countedTruthCsv(plain, plainShop.id, plain.startMs, plain.endMs, { shape: "inside" }), "plain.csv");
    const plainFit = await calibrate(plain.rawSignals(plainShop.id), counted, { timeZone: plainShop.timeZone });
    const c = plainFit.calibrations[0]!;
    expect(c.trusted).toBe(false);
    expect(c.warnings.some((w) => /far from real phones/.test(w))).toBe(true);
    expect(c.countedBurstsPerMinute).toBeLessThan(realPhonesPrior.burstsPerMinute / Math.E ** 2);
  });
});
