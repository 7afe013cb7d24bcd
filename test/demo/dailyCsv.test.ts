import { beforeAll, describe, expect, it } from "vitest";
import type { DemoShopResult } from "../../src/demo/DemoShopResult.ts";
import { suppressSmallCounts } from "../../src/analysis/suppressSmallCounts.ts";
import { dailyCsv } from "../../src/demo/dailyCsv.ts";
import { summaryLineOf } from "../../src/demo/headline.ts";
import { DWELL_BUCKETS } from "../../src/kernels/visits/dwellStats.ts";
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

describe("daily.csv under --min-count", () => {
  it("withholds what the summary line withholds: <K for a count, empty for what is computed from it", async () => {
    const { results } = await rotatingDayResults();
    // K above a shop's universal visitors (a count in the line) but not above its people.
    const k = Math.max(...results.map((r) => r.counts!.universal.visitors)) + 1;
    const rows = csvOf(dailyCsv(results, k));
    results.forEach((r, i) => {
      const line = summaryLineOf(r)!;
      const suppressed = suppressSmallCounts(line, k);
      const universal = (line.universal as { visitors: number }).visitors;
      expect(rows[i]!["universal_visitors"]).toBe(universal > 0 ? `<${k}` : "0");
      // People withheld or not, exactly as in the line.
      const people = suppressed.visitors === null && line.visitors !== null;
      expect(rows[i]!["visitors"]).toBe(people ? `<${k}` : String(line.visitors));
      if (people) expect(rows[i]!["conversion"]).toBe("");
    });
  });
});
