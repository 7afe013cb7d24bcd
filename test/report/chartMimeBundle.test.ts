import { describe, expect, it } from "vitest";
import { chartMimeBundle } from "../../src/report/chartMimeBundle.ts";
import { dwellHistogram } from "../../src/report/dwellHistogram.ts";

describe("chartMimeBundle", () => {
  it("carries the SVG as image/svg+xml and inline in HTML", () => {
    const svg = dwellHistogram([1, 2, 30]);
    const bundle = chartMimeBundle(svg);
    expect(bundle["image/svg+xml"]).toBe(svg);
    expect(bundle["text/html"]).toContain(svg);
    expect(bundle["text/html"].startsWith("<figure")).toBe(true);
  });

  it("rejects what is not an SVG", () => {
    expect(() => chartMimeBundle("<div></div>")).toThrow(TypeError);
  });
});
