import { describe, expect, it } from "vitest";
import { visitTimelineChart } from "../../src/report/visitTimelineChart.ts";
import { expectStandaloneSvg, markElements, texts } from "./svgAssertions.ts";

describe("visitTimelineChart", () => {
  const t0 = Date.UTC(2024, 4, 1, 10);
  const points = [
    { time: t0 + 4 * 60_000, sensor: "counter" },
    { time: t0, sensor: "entrance" },
    { time: t0 + 60_000, sensor: "shelf" },
  ];

  it("draws a step line and a dot per slice, sensors in order of first appearance in time", () => {
    const root = expectStandaloneSvg(visitTimelineChart(points));
    expect(markElements(root, "line", "path")).toHaveLength(1);
    expect(markElements(root, "dot", "circle")).toHaveLength(3);
    expect(markElements(root, "y-axis tick label", "text").map((t) => t.textContent)).toEqual(["entrance", "shelf", "counter"]);
    expect(texts(root)).toContain("3 time slices over 4.0 min; each step is a move to another sensor");
  });

  it("leaves out the per-slice dots on a long visit but keeps the step line", () => {
    const many = Array.from({ length: 200 }, (_, i) => ({ time: t0 + i * 10_000, sensor: i % 50 < 25 ? "a" : "b" }));
    const root = expectStandaloneSvg(visitTimelineChart(many));
    expect(markElements(root, "line", "path")).toHaveLength(1);
    expect(markElements(root, "dot", "circle")).toHaveLength(0);
  });

  it("keeps a given sensor order and adds unknown sensors after it", () => {
    const root = expectStandaloneSvg(visitTimelineChart(points, { sensors: ["counter", "back"] }));
    expect(markElements(root, "y-axis tick label", "text").map((t) => t.textContent)).toEqual(["counter", "back", "entrance", "shelf"]);
  });
});
