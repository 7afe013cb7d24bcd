import { describe, expect, it } from "vitest";
import { peopleVsMacsChart } from "../../src/report/peopleVsMacsChart.ts";
import { expectStandaloneSvg, markElements, texts } from "./svgAssertions.ts";

describe("peopleVsMacsChart", () => {
  const rows = [
    { label: "Gangnam", people: 518, peopleLow: 362, peopleHigh: 675, macs: 972, truth: 560 },
    { label: "Itaewon", people: 402, macs: 584 },
  ];

  it("draws a bar per MAC count, a dot per estimate, a whisker only where there is an interval, and the truth where known", () => {
    const root = expectStandaloneSvg(peopleVsMacsChart(rows));
    const bars = markElements(root, "bar", "rect");
    expect(bars).toHaveLength(2);
    // 972 MACs draw 972 ÷ 584 as long as 584.
    expect(Number(bars[0]!.getAttribute("width")) / Number(bars[1]!.getAttribute("width"))).toBeCloseTo(972 / 584, 5);
    expect(markElements(root, "dot", "circle")).toHaveLength(2);
    expect(markElements(root, "rule", "line").length).toBeGreaterThanOrEqual(1);
    expect(markElements(root, "tick", "line")).toHaveLength(1);
    expect(texts(root)).toEqual(expect.arrayContaining(["people 518 [362–675] · MACs 972 · truth 560", "people 402 · MACs 584"]));
  });

  it("draws an interval open above (nothing bounds it) to the end of the axis, shown as '?'", () => {
    const root = expectStandaloneSvg(peopleVsMacsChart([{ label: "Small", people: 6, peopleLow: 1, peopleHigh: Number.POSITIVE_INFINITY, macs: 29 }]));
    expect(texts(root)).toEqual(expect.arrayContaining(["people 6 [1–?] · MACs 29"]));
    expect(markElements(root, "rule", "line").length).toBeGreaterThanOrEqual(1);
    expect(() => peopleVsMacsChart([{ label: "x", people: 1, peopleLow: 0, peopleHigh: Number.NaN, macs: 3 }])).toThrow(RangeError);
  });

  it("names what is counted and rejects negative counts", () => {
    const root = expectStandaloneSvg(peopleVsMacsChart(rows, { what: "everyone heard" }));
    expect(texts(root).some((t) => t.startsWith("Everyone heard counted as people"))).toBe(true);
    expect(() => peopleVsMacsChart([{ label: "x", people: -1, macs: 3 }])).toThrow(RangeError);
  });
});
