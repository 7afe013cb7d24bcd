import { beforeAll, describe, expect, it } from "vitest";
import type { DemoShopResult } from "../../src/demo/DemoShopResult.ts";
import { dailyCsv } from "../../src/demo/dailyCsv.ts";
import { DWELL_BUCKETS } from "../../src/kernels/dwellStats.ts";
import { csvOf, rotatingDayResults } from "./rotatingDay.ts";

describe("demo tables: dwell of people, scored against the people's visits", () => {
  let results: DemoShopResult[];

  beforeAll(async () => {
    ({ results } = await rotatingDayResults());
  });

  it("writes the same dwell and dwell error in daily.csv", () => {
    const rows = csvOf(dailyCsv(results));
    results.forEach((r, i) => {
      const d = r.people!.dwell;
      expect(rows[i]!["dwell_median_s"]).toBe((d.medianMs / 1000).toFixed(1));
      expect(rows[i]!["dwell_p90_s"]).toBe((d.p90Ms / 1000).toFixed(1));
      expect(DWELL_BUCKETS.map((b) => Number(rows[i]![`dwell_${b.key}`]))).toEqual(DWELL_BUCKETS.map((b) => d.buckets[b.key]));
      expect(rows[i]!["median_abs_dwell_error_s"]).toBe((Math.abs(r.peopleScore!.medianDwellErrorMs) / 1000).toFixed(1));
    });
  });
});
