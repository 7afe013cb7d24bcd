import { describe, expect, it } from "vitest";
import { chartTheme } from "../../src/report/chartTheme.ts";
import { conversionChart } from "../../src/report/conversionChart.ts";
import { textWidth } from "../../src/report/textWidth.ts";
import { expectStandaloneSvg, markElements, textExtents, texts } from "./svgAssertions.ts";

describe("conversionChart", () => {
  it("draws receipts ÷ visitors per shop with counts and amount per visitor", () => {
    const root = expectStandaloneSvg(
      conversionChart([
        { shop: "A", date: "2024-05-01", visitors: 200, receipts: 50, amount: 1_000_000 },
        { shop: "B", date: "2024-05-01", visitors: 100, receipts: 5 },
      ]),
    );
    const bars = markElements(root, "bar", "rect");
    expect(bars).toHaveLength(2);
    // 25 % against 5 %: widths in the same ratio.
    expect(Number(bars[0]?.getAttribute("width")) / Number(bars[1]?.getAttribute("width"))).toBeCloseTo(5, 5);
    expect(texts(root)).toEqual(
      expect.arrayContaining([
        "25.0 %  (50 / 200)₩5,000 per visitor", // two lines (tspans)
        "5.0 %  (5 / 100)",
        "Receipts ÷ unique visitors, 2024-05-01; labels: conversion (receipts / visitors) and amount per visitor",
      ]),
    );
  });

  it("labels rows by shop and day when there are several days; a day with no visitors has no bar and reads n/a", () => {
    const root = expectStandaloneSvg(
      conversionChart(
        [
          { shop: "A", date: "2024-05-01", visitors: 0, receipts: 3 },
          { shop: "A", date: "2024-05-02", visitors: 10, receipts: 1, amount: 12.5 },
        ],
        { currency: "EUR" },
      ),
    );
    expect(texts(root)).toEqual(expect.arrayContaining(["A · 2024-05-01", "A · 2024-05-02", "n/a: no visitors  (3 receipts)", "10.0 %  (1 / 10)€1.25 per visitor"]));
    expect(markElements(root, "bar", "rect")).toHaveLength(1);
  });

  it("keeps every label and shop name inside the picture, with amounts, long names and high conversion", () => {
    const name = "Cafe Mori Jamsil Lotte World Mall Branch";
    const root = expectStandaloneSvg(
      conversionChart([
        { shop: name, date: "2026-11-16", visitors: 95, receipts: 188, amount: 123_905_000 },
        { shop: name, date: "2026-11-17", visitors: 1203, receipts: 1100, amount: 13_905_000 },
        { shop: "Gangnam", date: "2026-11-17", visitors: 3, receipts: 3, amount: 99_999_999 },
      ]),
    );
    const extents = textExtents(root, (t) => textWidth(t));
    expect(extents.map((e) => e.text)).toEqual(expect.arrayContaining(["197.9 %  (188 / 95)\n₩1,304,263 per visitor", "Gangnam · 2026-11-17"]));
    for (const e of extents) {
      expect(e.left, e.text).toBeGreaterThanOrEqual(0);
      expect(e.right, e.text).toBeLessThanOrEqual(chartTheme.width);
    }
    // The long name wraps rather than running off the left edge.
    expect(extents.some((e) => e.text.startsWith("Cafe Mori") && e.text.includes("\n"))).toBe(true);
  });

  it("rejects an unknown currency code and negative counts", () => {
    expect(() => conversionChart([], { currency: "not a code" })).toThrow(RangeError);
    expect(() => conversionChart([{ shop: "A", date: "d", visitors: -1, receipts: 0 }])).toThrow(RangeError);
  });
});
