import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { scoreRealRoom } from "../../bench/tools/realRoom.ts";

// Real captures with counted people (test/data/brno-sc6-61, MIT): footfall's people inside as
// installed and calibrated on the previous counted days, through the commands a user runs
// (`footfall calibrate` → `footfall analyze --calibration`), scored per 15-minute interval beside
// what an analyst fits by hand on the same days. A change that loses the bars fails here.
const DATA = fileURLToPath(new URL("../data/brno-sc6-61", import.meta.url));

describe("people inside on a real room (Brno lab, four counted days)", () => {
  it("holds the bars as installed and calibrated, with bounds wherever there is an estimate", { timeout: 120_000 }, async () => {
    const r = await scoreRealRoom(DATA, [3]);
    expect(r.countedDays).toBe(4);
    const installed = r.installedEveryDay.all;
    expect(installed.occupied).toBeGreaterThan(40);
    // As installed: within 5 persons on average, and the 90 % interval holds the count in most intervals.
    expect(installed.mae).toBeLessThanOrEqual(5);
    expect(installed.coverage).toBeGreaterThanOrEqual(0.85);
    // Calibrated on the previous counted days (never the day itself).
    const [k3] = r.byK;
    expect(k3!.calibrated.all.occupied).toBeGreaterThan(30);
    expect(k3!.calibrated.all.mae).toBeLessThanOrEqual(5);
    expect(k3!.calibrated.all.coverage).toBeGreaterThanOrEqual(0.85);
    expect(installed.nullBounds + k3!.calibrated.all.nullBounds).toBe(0);
  });
});
