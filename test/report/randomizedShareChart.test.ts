import { describe, expect, it } from "vitest";
import { chartTheme } from "../../src/report/chartTheme.ts";
import { randomizedShareChart } from "../../src/report/randomizedShareChart.ts";
import { expectStandaloneSvg, markElements, texts } from "./svgAssertions.ts";

describe("randomizedShareChart", () => {
  it("splits one bar into shares labelled with percent and count", () => {
    const root = expectStandaloneSvg(randomizedShareChart([{ series: "universal", count: 25 }, { series: "randomized", count: 75 }]));
    const bars = markElements(root, "bar", "rect");
    expect(bars).toHaveLength(2);
    const width = (series: string): number => Number(bars.find((b) => b.querySelector("title")?.textContent?.startsWith(series))?.getAttribute("width"));
    expect(width("randomized") / width("universal")).toBeCloseTo(3, 5);
    expect(texts(root)).toEqual(expect.arrayContaining(["75 %  (75)", "25 %  (25)"]));
  });

  it("draws one bar per group, each summing to 100 %, randomized in its fixed colour", () => {
    const root = expectStandaloneSvg(
      randomizedShareChart([
        { series: "randomized", count: 1, group: "A" },
        { series: "universal", count: 1, group: "A" },
        { series: "randomized", count: 9, group: "B" },
        { series: "universal", count: 1, group: "B" },
      ]),
    );
    const bars = markElements(root, "bar", "rect");
    expect(bars).toHaveLength(4);
    expect(bars.filter((b) => b.getAttribute("fill") === chartTheme.color.randomized)).toHaveLength(2);
    expect(texts(root)).toEqual(expect.arrayContaining(["A", "B", "90 %  (9)", "10 %  (1)", "50 %  (1)"]));
  });

  it("rejects a negative count", () => {
    expect(() => randomizedShareChart([{ series: "randomized", count: -1 }])).toThrow(RangeError);
  });
});
