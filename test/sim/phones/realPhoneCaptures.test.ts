import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CAPTURES_CSV, realPhoneCapturesModule } from "../../../bench/tools/writeRealPhoneCaptures.ts";
import { realPhoneCaptures, type RealPhoneCapture } from "../../../src/sim/phones/realPhoneCaptures.ts";

/**
 * The simulator's copy of the 22 real phones' captures: what the data's README says of them, and,
 * where the CSV it was generated from is present (the development machines' shared data), the
 * CSV itself, row for row — so a CSV that changes without the table being written again fails
 * here.
 */

const quantile = (xs: readonly number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  const h = (s.length - 1) * p;
  const lo = Math.floor(h);
  return s[lo]! + (s[Math.min(lo + 1, s.length - 1)]! - s[lo]!) * (h - lo);
};

interface Summary {
  readonly captures: number;
  readonly phones: number;
  readonly rateMedian: number;
  readonly rateMean: number;
  readonly rateMax: number;
  readonly over3PerMinute: number;
  readonly multiMacCaptures: number;
  readonly multiMacPhones: number;
  readonly universal: number;
}

function summary(rows: readonly { device: string; burstsPerMinute: number; macsPerBurst: number; universal: boolean }[]): Summary {
  const rates = rows.map((r) => r.burstsPerMinute);
  const multi = rows.filter((r) => r.macsPerBurst >= 2);
  return {
    captures: rows.length,
    phones: new Set(rows.map((r) => r.device)).size,
    rateMedian: quantile(rates, 0.5),
    rateMean: rates.reduce((a, b) => a + b, 0) / rates.length,
    rateMax: Math.max(...rates),
    over3PerMinute: rates.filter((r) => r > 3).length / rates.length,
    multiMacCaptures: multi.length,
    multiMacPhones: new Set(multi.map((r) => r.device)).size,
    universal: rows.filter((r) => r.universal).length,
  };
}

describe("realPhoneCaptures", () => {
  it("holds the data README's summary: 107 captures of 22 phones, bursts a minute median 0.46, mean 1.44, max 18.5, 8 % above 3; 10 captures of 4 phones with 2–10 MACs a burst; 26 with a universal MAC", () => {
    const s = summary(realPhoneCaptures);
    expect([s.captures, s.phones]).toEqual([107, 22]);
    expect(s.rateMedian).toBeCloseTo(0.46, 2);
    expect(s.rateMean).toBeCloseTo(1.44, 2);
    expect(s.rateMax).toBeCloseTo(18.5, 1);
    expect(Math.round(100 * s.over3PerMinute)).toBe(8);
    expect([s.multiMacCaptures, s.multiMacPhones]).toEqual([10, 4]);
    for (const r of realPhoneCaptures.filter((x) => x.macsPerBurst >= 2)) {
      expect(r.macsPerBurst).toBeGreaterThanOrEqual(2);
      expect(r.macsPerBurst).toBeLessThanOrEqual(10);
    }
    expect(s.universal).toBe(26);
  });

  it("is frozen, and every figure is a number where one is due (a gap only with two bursts or more)", () => {
    expect(Object.isFrozen(realPhoneCaptures)).toBe(true);
    for (const r of realPhoneCaptures) {
      expect(Object.isFrozen(r)).toBe(true);
      for (const v of [r.minutes, r.frames, r.macs, r.bursts, r.burstsPerMinute, r.framesPerBurst, r.macsPerBurst, r.channelsPerBurst, r.rssiMedian]) expect(Number.isFinite(v)).toBe(true);
      expect(r.gapMedianS === null).toBe(r.bursts < 2);
      expect(r.gapP90S === null).toBe(r.bursts < 2);
      expect(r.burstsPerMinute).toBeCloseTo(r.bursts / r.minutes, 2);
      expect(r.channelsPerBurst).toBeGreaterThanOrEqual(1);
      expect(r.channelsPerBurst).toBeLessThanOrEqual(3);
    }
  });

  // Read here with a parser of its own, so the check does not lean on the generator's.
  it.skipIf(!existsSync(CAPTURES_CSV))("is captures.csv row for row, and written as the generator writes it", () => {
    const text = readFileSync(CAPTURES_CSV, "utf8");
    const [header, ...lines] = text.trim().split(/\r?\n/);
    const names = header!.split(",");
    const rows = lines.map((l) => Object.fromEntries(l.split(",").map((v, i) => [names[i]!, v])));
    expect(rows).toHaveLength(realPhoneCaptures.length);
    const gap = (v: string | undefined): number | null => (v === "" || v === undefined ? null : Number(v));
    const fromCsv: RealPhoneCapture[] = rows.map((r) => ({
      device: r.device!,
      mode: r.mode!,
      minutes: Number(r.minutes),
      frames: Number(r.frames),
      macs: Number(r.macs),
      bursts: Number(r.bursts),
      burstsPerMinute: Number(r.bursts_per_min),
      gapMedianS: gap(r.gap_median_s),
      gapP90S: gap(r.gap_p90_s),
      framesPerBurst: Number(r.frames_per_burst_median),
      macsPerBurst: Number(r.macs_per_burst_median),
      channelsPerBurst: Number(r.channels_per_burst_median),
      universal: r.universal_mac === "1",
      rssiMedian: Number(r.rssi_median),
    }));
    expect(realPhoneCaptures).toEqual(fromCsv);
    expect(summary(realPhoneCaptures)).toEqual(summary(fromCsv));
    // The shipped module is what the generator writes from this CSV, byte for byte.
    const shipped = readFileSync(new URL("../../../src/sim/phones/realPhoneCaptures.ts", import.meta.url), "utf8");
    expect(shipped).toBe(realPhoneCapturesModule(fromCsv));
  });
});
