import { beforeAll, describe, expect, it } from "vitest";
import type { DemoShopResult } from "../../src/demo/DemoShopResult.ts";
import { macCountsOf, peopleAsMacs } from "../../src/demo/headline.ts";
import { summaryText } from "../../src/demo/summaryText.ts";
import { int, pct } from "../../src/demo/textFormats.ts";
import { cellsOf, rotatingDayResults, run } from "./rotatingDay.ts";

describe("peopleAsMacs: all shops' people counted as MAC addresses", () => {
  let results: DemoShopResult[];
  let people: Awaited<ReturnType<typeof rotatingDayResults>>["people"];

  beforeAll(async () => {
    ({ results, people } = await rotatingDayResults());
  });

  it("sums the MAC visitors and the people present of the scored shop-days", () => {
    const all = peopleAsMacs(results, people);
    const scored = results.filter((r) => people.days.some((d) => d.shopId === r.id));
    expect(scored.length).toBeGreaterThan(1);
    expect(all.macs).toBe(scored.reduce((n, r) => n + macCountsOf(r).visitors, 0));
    expect(all.present).toBe(people.days.reduce((n, d) => n + d.truth, 0));
    expect(all.error).toBeCloseTo((all.macs - all.present) / all.present, 12);
  });

  it("leaves out a shop that was not scored, and is NaN with no one present", () => {
    const [first, ...others] = people.days;
    const one = { ...people, days: [first!] };
    expect(peopleAsMacs(results, one).macs).toBe(macCountsOf(results.find((r) => r.id === first!.shopId)!).visitors);
    expect(others.length).toBeGreaterThan(0);
    expect(peopleAsMacs(results, { ...people, days: [] }).error).toBeNaN();
  });

  it("is the text table's all-shops MAC figure", () => {
    const all = peopleAsMacs(results, people);
    const cells = cellsOf(summaryText(results, undefined, run, people), "all shops", true);
    expect(cells[4]).toBe(int(all.macs));
    expect(cells[5]).toBe(`${all.error >= 0 ? "+" : ""}${pct(all.error)}`);
  });
});
