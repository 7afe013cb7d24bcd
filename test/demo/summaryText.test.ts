import { beforeAll, describe, expect, it } from "vitest";
import type { DemoShopResult } from "../../src/demo/DemoShopResult.ts";
import { dailyCsv } from "../../src/demo/dailyCsv.ts";
import { summaryText } from "../../src/demo/summaryText.ts";
import { int, minutes } from "../../src/demo/textFormats.ts";
import { DWELL_BUCKETS, dwellStats } from "../../src/kernels/visits/dwellStats.ts";
import { peopleTruth } from "../../src/sim/truth/peopleTruth.ts";
import { cellsOf, csvOf, rotatingDayResults, run, world } from "./rotatingDay.ts";

describe("demo tables: dwell of people, scored against the people's visits", () => {
  let results: DemoShopResult[];
  let people: Awaited<ReturnType<typeof rotatingDayResults>>["people"];

  beforeAll(async () => {
    ({ results, people } = await rotatingDayResults());
  });

  it("shows each shop's dwell as the people estimate's (the identity-known visits'), not the MAC-level pieces", () => {
    const text = summaryText(results, undefined, run, people);
    for (const r of results) {
      const d = r.people!.dwell;
      expect(d.count).toBeGreaterThan(0);
      const cells = cellsOf(text, r.name, false);
      expect(cells.slice(4, 9)).toEqual(DWELL_BUCKETS.map((b) => int(d.buckets[b.key])));
      expect(cells[9]).toBe(minutes(d.medianMs));
      // Under rotation the MAC-level median is of pieces of visits: a different (shorter) figure.
      expect(r.dwell!.medianMs).toBeLessThan(d.medianMs);
    }
    // All shops: the estimates' visit counts add up per bucket; their medians do not pool, so none is shown.
    const all = cellsOf(text, "all shops", false);
    expect(all.slice(4, 9)).toEqual(DWELL_BUCKETS.map((b) => int(results.reduce((n, r) => n + r.people!.dwell.buckets[b.key], 0))));
    expect(all[9]).toBe("–");
    expect(text).toMatch(/dwell columns: visits by length of stay, of the visits seen whole/);
  });

  it("takes the accuracy table's median dwell error from scorePeople: |estimated − true median of the people's visits|", () => {
    const text = summaryText(results, undefined, run, people);
    for (const r of results) {
      const p = r.peopleScore!;
      const truth = dwellStats(peopleTruth(world).dwells(r.id, p.start, p.end)).medianMs;
      expect(p.trueMedianDwellMs).toBe(truth);
      expect(p.medianDwellErrorMs).toBe(r.people!.dwell.medianMs - truth);
      expect(cellsOf(text, r.name, true)[7]).toBe(`${Math.round(Math.abs(p.medianDwellErrorMs) / 1000)} s`);
    }
    expect(cellsOf(text, "all shops", true)[7]).toBe(`${Math.round(people.meanAbsMedianDwellErrorMs / 1000)} s`);
    expect(text).toContain("visitor F1: MAC-level");
  });

  it("without a people estimate, falls back to the MAC-level dwell, and pools all shops' visitor sessions for their median", () => {
    const macOnly = results.map((r): DemoShopResult => ({ ...r, people: undefined, peopleScore: undefined }));
    const text = summaryText(macOnly, undefined, run);
    for (const r of macOnly) expect(cellsOf(text, r.name, false)[9]).toBe(minutes(r.dwell!.medianMs));
    const sessions = macOnly.flatMap((r) => r.sessions.filter((s) => s.kind === "visitor").map((s) => s.estimatedDwellMs));
    expect(cellsOf(text, "all shops", false)[9]).toBe(minutes(dwellStats(sessions).medianMs));
    const rows = csvOf(dailyCsv(macOnly));
    expect(rows[0]!["dwell_median_s"]).toBe((macOnly[0]!.dwell!.medianMs / 1000).toFixed(1));
    expect(rows[0]!["median_abs_dwell_error_s"]).toBe("");
  });
});
