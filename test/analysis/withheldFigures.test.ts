import { describe, expect, it } from "vitest";
import { suppressSmallCounts } from "../../src/analysis/suppressSmallCounts.ts";
import { withheldFigures } from "../../src/analysis/withheldFigures.ts";

// A summary line with small and large counts in its groups.
const line = {
  type: "summary",
  visitors: 40,
  visitorsLow: 3,
  visitorsHigh: 90,
  uniqueDevices: 300,
  captureRate: 0.13,
  staff: 2,
  stationary: 0,
  macs: { visitors: 4, passersBy: 200, uniqueDevices: 300, captureRate: 0.02 },
  dwell: { count: 3, meanMs: 60_000, medianMs: 50_000, p90Ms: 90_000, buckets: { lt5m: 3, m5to20: 0 } },
};

describe("withheldFigures", () => {
  it("reads suppressSmallCounts back figure by figure: counts withheld, what is computed from them blank, the rest kept", () => {
    const w = withheldFigures(line, 5);
    expect(w.line).toEqual(suppressSmallCounts(line, 5));
    expect(w.state(["visitorsLow"])).toBe("withheld");
    expect(w.state(["staff"])).toBe("withheld");
    expect(w.state(["stationary"])).toBe("kept"); // zero reveals no one
    expect(w.state(["visitors"])).toBe("kept");
    expect(w.state(["macs", "visitors"])).toBe("withheld");
    expect(w.state(["macs", "captureRate"])).toBe("blank");
    expect(w.state(["captureRate"])).toBe("kept");
    expect(w.state(["dwell", "count"])).toBe("withheld");
    expect(w.state(["dwell", "medianMs"])).toBe("blank");
    expect(w.state(["dwell", "buckets", "lt5m"])).toBe("withheld");
    expect(w.state(["dwell", "buckets", "m5to20"])).toBe("kept");
    expect(w.state(["no", "such"])).toBe("kept");
    expect(w.value(["dwell", "medianMs"])).toBeNull();
    expect(w.value(["macs", "passersBy"])).toBe(200);
    expect(w.peopleWithheld).toBe(false);
  });

  it("says when the people counts themselves were withheld, so figures computed from them go too", () => {
    const w = withheldFigures({ ...line, visitors: 3 }, 5);
    expect(w.state(["visitors"])).toBe("withheld");
    expect(w.state(["captureRate"])).toBe("blank");
    expect(w.peopleWithheld).toBe(true);
  });

  it("keeps everything with K ≤ 1, and an unknown figure (null before the rule) is kept, not withheld", () => {
    const w = withheldFigures(line, 0);
    expect(w.line).toBe(line);
    expect(w.state(["staff"])).toBe("kept");
    expect(withheldFigures({ ...line, visitors: null, staff: 9 }, 5).state(["visitors"])).toBe("kept");
  });
});
