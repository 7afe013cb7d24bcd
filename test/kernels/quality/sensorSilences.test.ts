import { describe, expect, it } from "vitest";
import type { DataQualityReport, QualityGap, SensorQuality } from "../../../src/kernels/quality/dataQuality.ts";
import { sensorSilences } from "../../../src/kernels/quality/sensorSilences.ts";

const H = 3_600_000;
// 2026-11-16 00:00 in Seoul (UTC+9).
const DAY = Date.UTC(2026, 10, 15, 15, 0);

function report(gaps: Record<string, QualityGap[]>): DataQualityReport {
  const sensors = Object.entries(gaps).map(([sensor, g]): SensorQuality => ({
    shopId: 101, sensor, signals: 1, first: DAY, last: DAY + 24 * H, randomizedSignals: 0, randomizedShare: 0, localFlagMismatch: 0, tsRtsMismatch: 0,
    gaps: g, gapCount: g.length, gapMs: g.reduce((a, x) => a + x.durationMs, 0), clockOffsetMs: Number.NaN, clockPairs: 0,
  }));
  return { sensors } as unknown as DataQualityReport;
}
const gap = (from: number, to: number, edge: QualityGap["edge"] = "none"): QualityGap => ({ from, to, durationMs: to - from, edge });

describe("sensorSilences", () => {
  it("reports gaps by the opening hours they cover, not the night", () => {
    const r = report({
      "b8:27:eb:00:00:02": [gap(DAY + 1 * H, DAY + 7 * H), gap(DAY + 14 * H, DAY + 16.5 * H)],
      "b8:27:eb:00:00:01": [gap(DAY + 21 * H, DAY + 26 * H, "end")],
    });
    expect(sensorSilences(r, { timeZone: "Asia/Seoul" })).toEqual([
      // 21:00–22:00 of the 16th is open; the night and 00:00–02:00 of the 17th are not.
      { shopId: 101, sensor: "b8:27:eb:00:00:01", from: DAY + 21 * H, to: DAY + 26 * H, openMs: H, edge: "end" },
      { shopId: 101, sensor: "b8:27:eb:00:00:02", from: DAY + 14 * H, to: DAY + 16.5 * H, openMs: 2.5 * H, edge: "none" },
    ]);
  });

  it("counts every local day a long gap covers, with the given hours and zone and a floor on what is reported", () => {
    const r = report({ s: [gap(DAY + 20 * H, DAY + 35 * H)] });
    // 20–22 on the 16th and 10–11 on the 17th.
    expect(sensorSilences(r, { timeZone: "Asia/Seoul" })[0]!.openMs).toBe(3 * H);
    expect(sensorSilences(r, { timeZone: "Asia/Seoul", openingHours: [8, 20] })[0]!.openMs).toBe(3 * H);
    // In UTC the same instants are 11:00–02:00: 11 h of 10–22 opening.
    expect(sensorSilences(r, { timeZone: "UTC" })[0]!.openMs).toBe(11 * H);
    expect(sensorSilences(r, { timeZone: "Asia/Seoul", minOpenMs: 3 * H + 1 })).toEqual([]);
    expect(() => sensorSilences(r, { openingHours: [22, 10] })).toThrow(RangeError);
  });
});
