import { describe, expect, it } from "vitest";
import { CALIBRATION_FEATURES, FEATURE_OFFSETS, RSSI_BAND_EDGES, rssiBand } from "../../../src/kernels/calibration/calibrationFeatures.ts";

describe("calibration features", () => {
  it("bands a reading by its lower edges, strongest first, edges inclusive", () => {
    expect([-30, -60, -60.5, -70, -79.9, -80, -90, -90.1, -127].map(rssiBand)).toEqual([0, 0, 1, 1, 2, 2, 3, 4, 4]);
  });

  it("names one feature per band of each kind, and stationary devices last", () => {
    const bands = RSSI_BAND_EDGES.length + 1;
    expect(CALIBRATION_FEATURES).toHaveLength(2 * bands + 1);
    expect(CALIBRATION_FEATURES.slice(FEATURE_OFFSETS.randomized, FEATURE_OFFSETS.randomized + bands).every((f) => f.startsWith("randomized "))).toBe(true);
    expect(CALIBRATION_FEATURES.slice(FEATURE_OFFSETS.universal, FEATURE_OFFSETS.universal + bands).every((f) => f.startsWith("universal "))).toBe(true);
    expect(CALIBRATION_FEATURES[FEATURE_OFFSETS.stationary]).toBe("stationary");
    expect(new Set(CALIBRATION_FEATURES).size).toBe(CALIBRATION_FEATURES.length);
  });
});
