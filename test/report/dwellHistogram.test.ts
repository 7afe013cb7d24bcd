import { describe, expect, it } from "vitest";
import { dwellHistogram } from "../../src/report/dwellHistogram.ts";
import { expectStandaloneSvg, markElements, texts } from "./svgAssertions.ts";

describe("dwellHistogram", () => {
  it("puts raw minutes into the reporting buckets, lower bound inclusive", () => {
    // Two values per bucket, each pair straddling nothing: [0,5) [5,20) [20,60) [60,360) [360,∞)
    const minutes = [0, 4.99, 5, 19.99, 20, 59.99, 60, 359.99, 360, 1000];
    const root = expectStandaloneSvg(dwellHistogram(minutes));
    expect(markElements(root, "bar", "rect")).toHaveLength(5);
    const labels = markElements(root, "text", "text").map((t) => t.textContent);
    expect(labels).toEqual(Array.from({ length: 5 }, () => "2  (20 %)"));
    const ticks = markElements(root, "x-axis tick label", "text").map((t) => t.textContent);
    expect(ticks).toEqual(["<5 min", "5–20 min", "20–60 min", "1–6 h", "≥6 h"]);
    expect(texts(root)).toContain("10 visits by how long the device stayed");
  });

  it("draws the analytics' DwellBuckets in bucket order", () => {
    const root = expectStandaloneSvg(dwellHistogram({ lt5m: 1, m5to20: 2, m20to60: 3, h1to6: 4, ge6h: 0 }));
    expect(markElements(root, "text", "text").map((t) => t.textContent)).toEqual(["1  (10 %)", "2  (20 %)", "3  (30 %)", "4  (40 %)", "0  (0 %)"]);
  });

  it("draws given bucket counts in the given order with counts and shares", () => {
    const root = expectStandaloneSvg(
      dwellHistogram([
        { bucket: "short", count: 3 },
        { bucket: "long", count: 1 },
      ]),
    );
    const ticks = markElements(root, "x-axis tick label", "text").map((t) => t.textContent);
    expect(ticks).toEqual(["short", "long"]);
    expect(markElements(root, "text", "text").map((t) => t.textContent)).toEqual(["3  (75 %)", "1  (25 %)"]);
  });

  it("shows shares under 1 % as such instead of rounding them to 0", () => {
    const root = expectStandaloneSvg(dwellHistogram([{ bucket: "a", count: 999 }, { bucket: "b", count: 1 }]));
    expect(markElements(root, "text", "text").map((t) => t.textContent)).toContain("1  (< 1 %)");
  });

  it("rejects negative minutes and negative counts", () => {
    expect(() => dwellHistogram([3, -1])).toThrow(RangeError);
    expect(() => dwellHistogram([{ bucket: "a", count: -2 }])).toThrow(RangeError);
  });
});
