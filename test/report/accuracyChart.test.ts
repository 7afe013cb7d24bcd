import { describe, expect, it } from "vitest";
import { accuracyChart } from "../../src/report/accuracyChart.ts";
import { chartTheme } from "../../src/report/chartTheme.ts";
import { textWidth } from "../../src/report/textWidth.ts";
import { expectStandaloneSvg, markElements, textExtents, texts } from "./svgAssertions.ts";

describe("accuracyChart", () => {
  it("draws the relative error per figure, coloured by the tolerance", () => {
    const root = expectStandaloneSvg(
      accuracyChart([
        { label: "visitors", estimated: 105, truth: 100 },
        { label: "dwell", estimated: 12, truth: 16 },
      ]),
    );
    const bars = markElements(root, "bar", "rect");
    expect(bars).toHaveLength(2);
    expect(bars.map((b) => b.getAttribute("fill"))).toEqual([chartTheme.color.estimate, chartTheme.color.sales]);
    // −25 % is five times as long as +5 %.
    expect(Number(bars[1]?.getAttribute("width")) / Number(bars[0]?.getAttribute("width"))).toBeCloseTo(5, 5);
    expect(texts(root)).toEqual(expect.arrayContaining(["105 vs 100  (+5.0 %)", "12 vs 16  (-25.0 %)", "within ±10 %"]));
  });

  it("labels a figure whose truth is 0 instead of dividing by it", () => {
    const root = expectStandaloneSvg(accuracyChart([{ label: "x", estimated: 3, truth: 0 }]));
    expect(texts(root)).toContain("3 vs 0  (truth is 0)");
  });

  it("wraps long figure names and keeps every label inside the picture", () => {
    const long = "Cafe Mori Jamsil Lotte World Mall · median dwell (min)";
    const root = expectStandaloneSvg(
      accuracyChart([
        { label: long, estimated: 17.5, truth: 19 },
        { label: "Cafe Mori Hongdae Station Exit 9 · passers-by", estimated: 5200, truth: 4300 },
        { label: "visitors", estimated: 900, truth: 100 },
      ]),
    );
    const extents = textExtents(root, (t) => textWidth(t));
    const name = extents.find((e) => e.text.replace(/\n/g, " ") === long);
    expect(name?.text).toContain("\n");
    expect(extents.map((e) => e.text)).toContain("900 vs 100  (+800.0 %)");
    for (const e of extents) {
      expect(e.left, e.text).toBeGreaterThanOrEqual(0);
      expect(e.right, e.text).toBeLessThanOrEqual(chartTheme.width);
    }
  });

  it("rejects a negative tolerance", () => {
    expect(() => accuracyChart([], { tolerancePct: -1 })).toThrow(RangeError);
  });
});
