import type { Calibration } from "../../../src/kernels/calibration/Calibration.ts";

/** The settings the fixture's calibration was fitted in. */
export const calibrationSettings = Object.freeze({ intervalMs: 900_000, timeZone: "Europe/Prague", visitorRssi: "auto" as const });

/** A trusted one-scale calibration of shop 61 fitted over 2024-03-07 to 03-14, with `overrides`. */
export function calibrationFixture(overrides: Partial<Calibration> = {}): Calibration {
  return {
    id: "cal-61-0a1b2c3d",
    shopId: 61,
    start: Date.parse("2024-03-07T12:00:00.000Z"),
    end: Date.parse("2024-03-14T19:00:00.000Z"),
    burstsPerMinute: 0.9,
    countedBurstsPerMinute: 0.85,
    logSe: 0.1,
    dayLogSd: 0.2,
    personCv: 1.86,
    universalPersonShare: 0.25,
    overdispersion: 1.44,
    counts: { intervals: 80, dailyCounts: 0, days: 5, personHours: 120 },
    model: null,
    settings: { ...calibrationSettings },
    trusted: true,
    warnings: [],
    ...overrides,
  };
}
