import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { scoreRealRoom } from "../../bench/tools/realRoom.ts";

// Real captures with counted people (test/data/brno-sc6-61, MIT): footfall's people inside as
// installed and calibrated on the previous counted days, scored per 15-minute interval. The bars
// are issue 34's for a real room; a change to the estimator that loses them fails here.
const DATA = fileURLToPath(new URL("../data/brno-sc6-61", import.meta.url));

describe("people inside on a real room (Brno lab, four counted days)", () => {
  it("holds the bars as installed and calibrated, with bounds wherever there is an estimate", { timeout: 120_000 }, async () => {
    const r = await scoreRealRoom(DATA);
    expect(r.countedDays).toBe(4);
    expect(r.installed.occupied).toBeGreaterThan(40);
    // As installed: within 5 persons on average, and the 90 % interval holds the count in most intervals.
    expect(r.installed.mae).toBeLessThanOrEqual(5);
    expect(r.installed.coverage).toBeGreaterThanOrEqual(0.85);
    // Calibrated on the previous counted days (never the day itself), at the threshold the
    // calibration chose on them. Issue 34's bar of 4.0 persons holds over the 111 days
    // (docs/real-captures.md); three scored days are too few for it, so this guards a margin.
    expect(r.calibrated.occupied).toBeGreaterThan(30);
    expect(r.calibrated.mae).toBeLessThanOrEqual(5);
    expect(r.calibrated.coverage).toBeGreaterThanOrEqual(0.85);
    expect(r.installed.nullBounds + r.calibrated.nullBounds).toBe(0);
    // The estimate follows the count within a day.
    expect(r.installed.dayR).toBeGreaterThan(0.5);
  });
});
