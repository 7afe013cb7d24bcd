import { describe, expect, it } from "vitest";
import { chartTheme } from "../../src/report/chartTheme.ts";
import { proximityZonesChart } from "../../src/report/proximityZonesChart.ts";
import { expectStandaloneSvg, markElements, texts } from "./svgAssertions.ts";

describe("proximityZonesChart", () => {
  const rows = [
    { sensor: "entrance", zone: "far", ms: 1_800_000 },
    { sensor: "entrance", zone: "immediate", ms: 600_000 },
    { sensor: "counter", zone: "near", ms: 1_200_000 },
  ];

  it("draws one segment per row, one bar per sensor, totals in minutes and the zone legend", () => {
    const root = expectStandaloneSvg(proximityZonesChart(rows));
    expect(markElements(root, "bar", "rect")).toHaveLength(rows.length);
    const all = texts(root);
    expect(all).toEqual(expect.arrayContaining(["entrance", "counter", "40 min", "20 min", "immediate", "near", "far"]));
  });

  it("colours zones nearest-darkest with the theme, whatever the input order", () => {
    const root = expectStandaloneSvg(proximityZonesChart(rows));
    const fills = new Map(markElements(root, "bar", "rect").map((r) => [r.querySelector("title")?.textContent?.split(":")[0], r.getAttribute("fill")]));
    expect(fills.get("immediate")).toBe(chartTheme.color.zones.immediate);
    expect(fills.get("near")).toBe(chartTheme.color.zones.near);
    expect(fills.get("far")).toBe(chartTheme.color.zones.far);
  });

  it("rejects a negative duration", () => {
    expect(() => proximityZonesChart([{ sensor: "s", zone: "near", ms: -1 }])).toThrow(RangeError);
  });
});
