import * as Plot from "@observablehq/plot";
import { describe, expect, it } from "vitest";
import { renderPlot } from "../../src/report/renderPlot.ts";
import { expectStandaloneSvg, markElements, texts } from "./svgAssertions.ts";

describe("renderPlot", () => {
  const points = [
    { x: 1, y: 2 },
    { x: 2, y: 4 },
    { x: 3, y: 1 },
  ];

  it("returns a standalone SVG with xmlns, title, subtitle, legend, note and axis labels inside", () => {
    const svg = renderPlot(
      { title: "Sales & visitors <today>", subtitle: "per hour", legend: [{ label: "visitors", color: "#00f" }, { label: "fit", color: "#f80", shape: "line" }], note: "source: test" },
      { x: { label: "hour" }, y: { label: "count" }, marks: [Plot.dot(points, { x: "x", y: "y" })] },
    );
    const root = expectStandaloneSvg(svg);
    const all = texts(root);
    expect(all).toContain("Sales & visitors <today>");
    expect(all).toContain("per hour");
    expect(all).toContain("visitors");
    expect(all).toContain("fit");
    expect(all).toContain("source: test");
    expect(all).toContain("↑ count");
    expect(all).toContain("hour →");
    expect(markElements(root, "dot", "circle")).toHaveLength(points.length);
  });

  it("makes the SVG taller by the header so the plot keeps its height", () => {
    const plain = renderPlot({ title: "t" }, { height: 200, marks: [Plot.dot(points, { x: "x", y: "y" })] });
    const withHeader = renderPlot({ title: "t", subtitle: "s", legend: [{ label: "a", color: "#000" }], note: "n" }, { height: 200, marks: [Plot.dot(points, { x: "x", y: "y" })] });
    const height = (svg: string): number => Number(/height="(\d+(?:\.\d+)?)"/.exec(svg)?.[1]);
    expect(height(plain)).toBeGreaterThan(200);
    expect(height(withHeader)).toBeGreaterThan(height(plain));
  });

  it("refuses an empty title and Plot options that would turn the SVG into an HTML figure", () => {
    expect(() => renderPlot({ title: "" }, { marks: [] })).toThrow(TypeError);
    expect(() => renderPlot({ title: "t" }, { caption: "c", marks: [Plot.dot(points, { x: "x", y: "y" })] })).toThrow(/frame/);
  });
});
