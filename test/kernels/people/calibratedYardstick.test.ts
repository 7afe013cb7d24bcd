import { describe, expect, it } from "vitest";
import { calibrationFixture as calibration, calibrationSettings as settings } from "../calibration/calibrationFixture.ts";
import { CALIBRATION_DRIFT_PER_DAY, CALIBRATION_STALE_DAYS, calibratedYardstick } from "../../../src/kernels/people/calibratedYardstick.ts";

const DAY = 86_400_000;

describe("calibratedYardstick", () => {
  const c = calibration();
  const base = c.logSe ** 2 + c.dayLogSd ** 2;

  it("inside the fit's span adds no drift and no warning", () => {
    for (const at of [c.start, c.end, (c.start + c.end) / 2]) {
      const { yardstick, ref } = calibratedYardstick(c, at, settings);
      expect(yardstick.logVariance).toBeCloseTo(base, 12);
      expect(yardstick.burstsPerMinute).toBe(c.burstsPerMinute);
      expect(yardstick.universalPersonShare).toBe(c.universalPersonShare);
      // Degrees of freedom from the days, the persons' spread widened by the overdispersion.
      // The counted days' own degrees of freedom and two more for the day-to-day spread's prior.
      expect(yardstick.df).toBe(c.counts.days - 1 + 2);
      expect(yardstick.personCv).toBeCloseTo(c.personCv * Math.sqrt(c.overdispersion), 12);
      expect(ref).toEqual({ id: c.id, start: "2024-03-07T12:00:00.000Z", end: "2024-03-14T19:00:00.000Z", method: "scale", trusted: true, warnings: [] });
    }
  });

  it("widens with age on either side of the span, and is flagged stale beyond CALIBRATION_STALE_DAYS", () => {
    const after = calibratedYardstick(c, c.end + 200 * DAY, settings);
    expect(after.yardstick.logVariance - base).toBeCloseTo(200 * CALIBRATION_DRIFT_PER_DAY, 9);
    expect(after.yardstick.logVariance).toBeGreaterThan(base);
    expect(after.ref.warnings).toHaveLength(1);
    expect(after.ref.warnings[0]).toMatch(/^stale/);
    expect(after.ref.warnings[0]).toMatch(/200 days/);
    expect(after.ref.trusted).toBe(false);

    const before = calibratedYardstick(c, c.start - 200 * DAY, settings);
    expect(before.yardstick.logVariance).toBeCloseTo(after.yardstick.logVariance, 12);
    expect(before.ref.trusted).toBe(false);

    // Within the stale horizon: wider, still trusted.
    const recent = calibratedYardstick(c, c.end + 30 * DAY, settings);
    expect(recent.yardstick.logVariance - base).toBeCloseTo(30 * CALIBRATION_DRIFT_PER_DAY, 9);
    expect(recent.ref).toMatchObject({ trusted: true, warnings: [] });
    expect(calibratedYardstick(c, c.end + CALIBRATION_STALE_DAYS * DAY, settings).ref.trusted).toBe(true);
    expect(calibratedYardstick(c, c.end + (CALIBRATION_STALE_DAYS + 1) * DAY, settings).ref.trusted).toBe(false);
  });

  it("flags other analysis settings than the fit's", () => {
    const interval = calibratedYardstick(c, c.end, { intervalMs: 300_000, timeZone: settings.timeZone });
    expect(interval.ref.warnings).toHaveLength(1);
    expect(interval.ref.warnings[0]).toMatch(/15-min.*5-min/);
    expect(interval.ref.trusted).toBe(false);

    const zone = calibratedYardstick(c, c.end, { intervalMs: settings.intervalMs, timeZone: "Asia/Seoul" });
    expect(zone.ref.warnings).toHaveLength(1);
    expect(zone.ref.warnings[0]).toMatch(/Europe\/Prague.*Asia\/Seoul/);
    expect(zone.ref.trusted).toBe(false);

    const both = calibratedYardstick(c, c.end + 200 * DAY, { intervalMs: 300_000, timeZone: "Asia/Seoul" });
    expect(both.ref.warnings).toHaveLength(3);
  });

  it("flags a day classified at another threshold than a pinned calibration's, and only then", () => {
    const pinned = calibration({ settings: { ...settings, visitorRssi: -75 } });
    expect(calibratedYardstick(pinned, pinned.end, { ...settings, visitorRssi: -75 }).ref).toMatchObject({ trusted: true, warnings: [] });
    const other = calibratedYardstick(pinned, pinned.end, { ...settings, visitorRssi: -68 });
    expect(other.ref.warnings).toEqual(["fitted at a visit threshold of -75 dBm, used at -68 dBm"]);
    expect(other.ref.trusted).toBe(false);
    // Unknown day threshold, or a calibration fitted at the learned one: nothing to compare.
    expect(calibratedYardstick(pinned, pinned.end, settings).ref.warnings).toEqual([]);
    expect(calibratedYardstick(c, c.end, { ...settings, visitorRssi: -68 }).ref.warnings).toEqual([]);
  });

  it("keeps the calibration's own warnings and trust, without changing it", () => {
    const own = calibration({ trusted: false, warnings: ["few counts: 3 counted intervals"] });
    const { ref } = calibratedYardstick(own, own.end + 200 * DAY, settings);
    expect(ref.warnings[0]).toBe("few counts: 3 counted intervals");
    expect(ref.warnings).toHaveLength(2);
    expect(ref.trusted).toBe(false);
    expect(own.warnings).toEqual(["few counts: 3 counted intervals"]);
    expect(calibratedYardstick(own, own.end, settings).ref.trusted).toBe(false);
  });

  it("gives a single counted day the day-to-day prior's two degrees of freedom", () => {
    expect(calibratedYardstick(calibration({ counts: { intervals: 16, dailyCounts: 0, days: 1, personHours: 20 } }), 0, settings).yardstick.df).toBe(2);
  });
});
