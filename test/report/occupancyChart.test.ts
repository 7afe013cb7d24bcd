import { describe, expect, it } from "vitest";
import { chartTheme } from "../../src/report/chartTheme.ts";
import { occupancyChart } from "../../src/report/occupancyChart.ts";
import { expectStandaloneSvg, markElements, texts } from "./svgAssertions.ts";

const Q = 900_000;
const midnight = Date.parse("2026-11-16T00:00:00+09:00");
// A day of 15-min intervals with people inside from 10:00 to 12:00 only.
const day = Array.from({ length: 96 }, (_, i) => {
  const v = i >= 40 && i < 48 ? 4 : 0;
  return { start: midnight + i * Q, end: midnight + (i + 1) * Q, inside: v, insideLow: v / 2, insideHigh: v * 1.5, outside: v * 2, truth: v };
});

describe("occupancyChart", () => {
  it("draws the band per interval, the estimate, the truth and the outside line, on the shop's local hours around the busy ones", () => {
    const root = expectStandaloneSvg(occupancyChart(day, { timeZone: "Asia/Seoul" }));
    const lines = markElements(root, "line", "path");
    expect(lines.map((l) => l.getAttribute("stroke") ?? l.parentElement?.getAttribute("stroke"))).toEqual([chartTheme.color.passersBy, chartTheme.color.visitors, chartTheme.ink]);
    // One band rectangle per interval shown: 09:00–13:00 (busy 10–12, one hour either side).
    expect(markElements(root, "rect", "rect")).toHaveLength(16);
    const ticks = markElements(root, "x-axis tick label", "text").map((t) => t.textContent);
    expect(ticks[0]).toBe("09:00");
    expect(ticks.at(-1)).toBe("13:00");
    expect(texts(root)).toEqual(expect.arrayContaining(["inside (estimate)", "90 % interval", "inside (truth)", "outside (estimate)"]));
  });

  it("reads the same instants in another zone's local hours", () => {
    const root = expectStandaloneSvg(occupancyChart(day, { timeZone: "Europe/London" }));
    // 10:00 in Seoul is 01:00 in London in November.
    expect(markElements(root, "x-axis tick label", "text")[0]?.textContent).toBe("00:00");
  });

  it("leaves out what is not given, and keeps given hours", () => {
    const bare = day.map(({ outside: _o, truth: _t, ...r }) => r);
    const root = expectStandaloneSvg(occupancyChart(bare, { hours: [8, 20] }));
    expect(markElements(root, "line", "path")).toHaveLength(1);
    expect(texts(root)).not.toContain("inside (truth)");
    expect(markElements(root, "x-axis tick label", "text").map((t) => t.textContent)).toContain("20:00");
  });

  it("draws another estimate to compare with, dotted, under its own label", () => {
    const root = expectStandaloneSvg(occupancyChart(day.map((r) => ({ ...r, baseline: r.inside + 1 })), { timeZone: "Asia/Seoul", baselineLabel: "analyst's line" }));
    expect(markElements(root, "line", "path")).toHaveLength(4);
    expect(texts(root)).toContain("analyst's line");
    expect(() => occupancyChart([{ ...day[0]!, baseline: Number.NaN }])).toThrow(RangeError);
  });

  it("rejects inconsistent rows", () => {
    expect(() => occupancyChart([{ ...day[0]!, insideLow: 5, inside: 4 }])).toThrow(RangeError);
    expect(() => occupancyChart([{ ...day[0]!, end: day[0]!.start }])).toThrow(RangeError);
    expect(() => occupancyChart([{ ...day[0]!, outside: -1 }])).toThrow(RangeError);
    expect(() => occupancyChart(day, { timeZone: "Mars/Olympus" })).toThrow(RangeError);
  });
});
