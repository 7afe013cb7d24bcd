import { describe, expect, it } from "vitest";
import { conversionChart } from "../../src/report/conversionChart.ts";
import { expectStandaloneSvg, markElements, texts } from "./svgAssertions.ts";

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
        "25.0 %  (50 / 200)  ₩5,000 per visitor",
        "5.0 %  (5 / 100)",
        "Receipts ÷ unique visitors, 2024-05-01; labels: conversion (receipts / visitors) and amount per visitor",
      ]),
    );
  });

  it("labels rows by shop and day when there are several days, and survives a day with no visitors", () => {
    const root = expectStandaloneSvg(
      conversionChart(
        [
          { shop: "A", date: "2024-05-01", visitors: 0, receipts: 3 },
          { shop: "A", date: "2024-05-02", visitors: 10, receipts: 1, amount: 12.5 },
        ],
        { currency: "EUR" },
      ),
    );
    expect(texts(root)).toEqual(expect.arrayContaining(["A · 2024-05-01", "A · 2024-05-02", "no visitors  (3 receipts)", "10.0 %  (1 / 10)  €1.25 per visitor"]));
  });

  it("rejects an unknown currency code and negative counts", () => {
    expect(() => conversionChart([], { currency: "not a code" })).toThrow(RangeError);
    expect(() => conversionChart([{ shop: "A", date: "d", visitors: -1, receipts: 0 }])).toThrow(RangeError);
  });
});
