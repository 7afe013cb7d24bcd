import { describe, expect, it } from "vitest";
import { calibrationFixture as calibration, calibrationSettings as settings } from "./calibrationFixture.ts";
import {
  CALIBRATION_VERSION,
  calibrationsByShop,
  checkCalibration,
} from "../../../src/kernels/calibration/Calibration.ts";

describe("checkCalibration", () => {
  it("accepts a calibration (also through JSON) and returns it frozen", () => {
    const c = calibration();
    const checked = checkCalibration(JSON.parse(JSON.stringify(c)));
    expect(checked).toEqual(c);
    expect(Object.isFrozen(checked)).toBe(true);
  });

  it("rejects a value that is not an object", () => {
    for (const v of [null, undefined, 1, "cal", [calibration()]]) expect(() => checkCalibration(v)).toThrow(TypeError);
  });

  it("rejects a missing field, naming it and the place", () => {
    for (const field of Object.keys(calibration())) {
      const c: Record<string, unknown> = { ...calibration() };
      delete c[field];
      expect(() => checkCalibration(c, "cal.json: shops[0]"), field).toThrow(TypeError);
      expect(() => checkCalibration(c, "cal.json: shops[0]"), field).toThrow(new RegExp(`cal\\.json: shops\\[0\\].*${field}`));
    }
  });

  it("rejects non-finite or out-of-range numbers", () => {
    const bad: Record<string, unknown>[] = [
      { burstsPerMinute: Number.POSITIVE_INFINITY },
      { burstsPerMinute: Number.NaN },
      { burstsPerMinute: 0 },
      { countedBurstsPerMinute: "0.85" },
      { logSe: -0.1 },
      { logSe: Number.NaN },
      { dayLogSd: Number.POSITIVE_INFINITY },
      { personCv: -1 },
      { universalPersonShare: 1.5 },
      { overdispersion: 0.99 },
      { overdispersion: null },
      { start: -1 },
      { end: Date.parse("2024-03-01T00:00:00Z") }, // before start
      { shopId: 61.5 },
      { id: "" },
      { id: 61 },
      { trusted: "yes" },
      { counts: null },
      { counts: { intervals: 80, dailyCounts: 0, days: -1, personHours: 120 } },
      { counts: { intervals: 80, dailyCounts: 0, personHours: 120 } },
      { settings: { intervalMs: "900000", timeZone: "Europe/Prague" } },
      { settings: { intervalMs: 900_000 } },
    ];
    for (const o of bad) expect(() => checkCalibration({ ...calibration(), ...o }), JSON.stringify(o)).toThrow(TypeError);
  });

  it("rejects warnings that are not a list of strings", () => {
    expect(() => checkCalibration({ ...calibration(), warnings: [1] })).toThrow(TypeError);
    expect(() => checkCalibration({ ...calibration(), warnings: ["ok", null] })).toThrow(TypeError);
    expect(() => checkCalibration({ ...calibration(), warnings: "stale" })).toThrow(TypeError);
    expect(checkCalibration({ ...calibration(), warnings: ["ok"] }).warnings).toEqual(["ok"]);
  });
});

describe("calibrationsByShop", () => {
  const file = (shops: unknown[], extra: Record<string, unknown> = {}): never => ({ format: "footfall-calibration", version: CALIBRATION_VERSION, shops, ...extra }) as never;

  it("maps a file or a list by SHOP ID, each checked", () => {
    const a = calibration();
    const b = calibration({ id: "cal-62-00000001", shopId: 62 });
    const byShop = calibrationsByShop(file([a, b]));
    expect([...byShop.keys()]).toEqual([61, 62]);
    expect(byShop.get(62)).toEqual(b);
    expect(calibrationsByShop([b]).get(62)).toEqual(b);
    expect(calibrationsByShop(undefined).size).toBe(0);
    expect(calibrationsByShop(file([])).size).toBe(0);
  });

  it("rejects another format (TypeError) and another version (RangeError)", () => {
    expect(() => calibrationsByShop(file([], { format: "footfall-calibrations" }))).toThrow(TypeError);
    expect(() => calibrationsByShop({ version: 1, shops: [] } as never)).toThrow(TypeError);
    expect(() => calibrationsByShop(file([], { version: CALIBRATION_VERSION + 1 }))).toThrow(RangeError);
    expect(() => calibrationsByShop(file([], { version: "1" }))).toThrow(RangeError);
    expect(() => calibrationsByShop(file([], { shops: {} }))).toThrow(TypeError);
    expect(() => calibrationsByShop(null as never)).toThrow(TypeError);
  });

  it("reads a version-1 file as fitted at the learned threshold, and wants the threshold from version 2 on", () => {
    const { visitorRssi: _, ...v1Settings } = settings;
    const old = { ...calibration(), settings: v1Settings };
    expect(calibrationsByShop(file([old], { version: 1 })).get(61)!.settings).toEqual({ ...v1Settings, visitorRssi: "auto" });
    expect(() => calibrationsByShop(file([old]))).toThrow(/settings.visitorRssi/);
    expect(() => calibrationsByShop(file([{ ...old, settings: { ...v1Settings, visitorRssi: 3 } }]))).toThrow(TypeError);
    expect(calibrationsByShop(file([{ ...old, settings: { ...v1Settings, visitorRssi: -72.5 } }])).get(61)!.settings.visitorRssi).toBe(-72.5);
  });

  it("rejects a shop calibrated twice (RangeError) and a bad entry (TypeError)", () => {
    const a = calibration();
    expect(() => calibrationsByShop(file([a, calibration({ id: "cal-61-ffffffff" })]))).toThrow(RangeError);
    expect(() => calibrationsByShop([a, a])).toThrow(RangeError);
    expect(() => calibrationsByShop(file([a, { ...calibration({ shopId: 62 }), overdispersion: 0.5 }]))).toThrow(/calibration 1/);
  });
});
