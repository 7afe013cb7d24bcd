import { describe, expect, it } from "vitest";
import { hourlyChart } from "../../src/report/hourlyChart.ts";
import { expectStandaloneSvg, markElements, texts } from "./svgAssertions.ts";

const barHeight = (el: Element): number => Number(el.getAttribute("height"));

describe("hourlyChart", () => {
  const rows = [
    { hour: 11, visitors: 30, passersBy: 10, sales: 6 },
    { hour: 9, visitors: 5, passersBy: 40, sales: 1 },
    { hour: 10, visitors: 20, passersBy: 20, sales: 4 },
  ];

  it("draws two stacked bars per hour, a sales line with a dot per hour, and a legend", () => {
    const root = expectStandaloneSvg(hourlyChart(rows));
    expect(markElements(root, "bar", "rect")).toHaveLength(rows.length * 2);
    expect(markElements(root, "line", "path")).toHaveLength(1);
    expect(markElements(root, "dot", "circle")).toHaveLength(rows.length);
    const all = texts(root);
    expect(all).toEqual(expect.arrayContaining(["visitors", "passers-by", "receipts", "09", "10", "11", "hour of day (shop time) →"]));
  });

  it("scales bars to the counts: the visitor bar of 11:00 is six times that of 09:00", () => {
    const root = expectStandaloneSvg(hourlyChart(rows));
    const titled = (t: string): Element | undefined => markElements(root, "bar", "rect").find((r) => r.querySelector("title")?.textContent === t);
    const v9 = titled("visitors: 5");
    const v11 = titled("visitors: 30");
    expect(v9).toBeDefined();
    expect(v11).toBeDefined();
    expect(barHeight(v11 as Element) / barHeight(v9 as Element)).toBeCloseTo(6, 5);
  });

  it("draws a suppressed hour as its label, with no bar (suppressed, not zero)", () => {
    const root = expectStandaloneSvg(hourlyChart([...rows, { hour: 12, visitors: 2, passersBy: 3, suppressed: true }], { suppressedLabel: "<5" }));
    // Three hours of bars as before; the suppressed one has none, not a bar of height zero.
    expect(markElements(root, "bar", "rect")).toHaveLength(rows.length * 2);
    expect(markElements(root, "bar", "rect").some((r) => r.querySelector("title")?.textContent === "visitors: 2")).toBe(false);
    expect(texts(root)).toEqual(expect.arrayContaining(["<5", "12"]));
  });

  it("orders numeric hours and leaves out the line when there are no sales", () => {
    const root = expectStandaloneSvg(hourlyChart(rows.map(({ hour, visitors, passersBy }) => ({ hour, visitors, passersBy }))));
    expect(markElements(root, "line", "path")).toHaveLength(0);
    expect(texts(root)).not.toContain("receipts");
    const ticks = markElements(root, "x-axis tick label", "text").map((t) => t.textContent);
    expect(ticks).toEqual(["09", "10", "11"]);
  });

  it("shows a missing numeric hour as a gap on the axis", () => {
    const root = expectStandaloneSvg(hourlyChart([{ hour: 8, visitors: 1, passersBy: 1 }, { hour: 11, visitors: 2, passersBy: 2 }]));
    expect(markElements(root, "x-axis tick label", "text").map((t) => t.textContent)).toEqual(["08", "09", "10", "11"]);
    expect(markElements(root, "bar", "rect")).toHaveLength(4);
  });

  it("keeps string hour labels in the given order", () => {
    const root = expectStandaloneSvg(hourlyChart([{ hour: "b", visitors: 1, passersBy: 1 }, { hour: "a", visitors: 1, passersBy: 1 }]));
    const all = texts(root);
    expect(all.indexOf("b")).toBeLessThan(all.indexOf("a"));
  });

  it("leaves passers-by out when asked: visitors' bars and the sales line on one scale", () => {
    const root = expectStandaloneSvg(hourlyChart(rows, { passersBy: false }));
    const bars = markElements(root, "bar", "rect");
    expect(bars.map((b) => b.querySelector("title")?.textContent)).toEqual(["visitors: 5", "visitors: 20", "visitors: 30"]);
    expect(markElements(root, "line", "path")).toHaveLength(1);
    const all = texts(root);
    expect(all).not.toContain("passers-by");
    expect(all).toEqual(expect.arrayContaining(["visitors", "receipts", "↑ visitors / receipts per hour"]));
    // Without the passers-by on top, the most visitors (30) set the scale, not the tallest stack (45).
    const top = Math.max(...markElements(root, "y-axis tick label", "text").map((t) => Number(t.textContent)));
    expect(top).toBeGreaterThanOrEqual(30);
    expect(top).toBeLessThan(45);
    expect(() => hourlyChart(rows, { passersBy: "no" as unknown as boolean })).toThrow(TypeError);
  });

  it("rejects a bad height", () => {
    expect(() => hourlyChart([], { height: 0 })).toThrow(RangeError);
  });

  it("rejects negative or non-finite counts", () => {
    expect(() => hourlyChart([{ hour: 1, visitors: -1, passersBy: 0 }])).toThrow(RangeError);
    expect(() => hourlyChart([{ hour: 1, visitors: 1, passersBy: Number.NaN }])).toThrow(RangeError);
  });
});
