import { parseHTML } from "linkedom";
import { describe, expect, it } from "vitest";
import { htmlReport } from "../../src/report/htmlReport.ts";
import { expectSelfContained, sampleReportInput } from "./reportFixture.ts";
import { expectStandaloneSvg } from "./svgAssertions.ts";

describe("htmlReport", () => {
  const input = sampleReportInput();
  const html = htmlReport(input);
  const { document } = parseHTML(html);

  it("is one self-contained page: inline CSS, inline SVG, no URL at all", () => {
    expect(html.startsWith("<!DOCTYPE html>")).toBe(true);
    expect(html).toContain('<meta charset="utf-8">');
    expect(document.querySelectorAll("head style")).toHaveLength(1);
    expectSelfContained(html);
  });

  it("holds the charts of the day as SVG: hourly, visitors vs receipts, conversion, dwell, MAC share, accuracy, and two per shop", () => {
    const svgs = Array.from(document.querySelectorAll("svg"));
    expect(svgs.length).toBe(6 + 2 * input.shops.length);
    const titles = svgs.map((s) => s.textContent ?? "");
    for (const title of ["When people came", "Did buying follow the visitors?", "What the footfall was worth", "How long visitors stayed", "Who can be recognised again", "How close to the truth"]) {
      expect(titles.some((t) => t.includes(title))).toBe(true);
    }
    for (const s of input.shops) {
      expect(titles.some((t) => t.includes(`${s.name}: where people stood`))).toBe(true);
      expect(document.getElementById(`shop-${s.id}`)).not.toBeNull();
    }
    // Each chart has data marks, not only its frame.
    for (const svg of svgs) expect(svg.querySelectorAll("rect, path, circle").length).toBeGreaterThan(3);
  });

  it("shows the headline figures computed from the shops", () => {
    const visitors = input.shops.reduce((n, s) => n + s.visitors, 0);
    const receipts = input.shops.reduce((n, s) => n + (s.receipts ?? 0), 0);
    const tiles = Array.from(document.querySelectorAll(".tile")).map((t) => t.textContent ?? "");
    expect(tiles.find((t) => t.startsWith("Visitors"))).toContain(visitors.toLocaleString("en"));
    expect(tiles.find((t) => t.startsWith("Conversion"))).toContain(`${((100 * receipts) / visitors).toFixed(1)} %`);
    expect(tiles.find((t) => t.startsWith("Accuracy"))).toContain(`F1 ${input.accuracy!.visitorF1.toFixed(3)}`);
    const rows = Array.from(document.querySelectorAll("tbody tr"));
    expect(rows).toHaveLength(input.shops.length);
    expect(rows[0]!.textContent).toContain(input.shops[0]!.name);
  });

  it("escapes text from the data", () => {
    const base = sampleReportInput();
    const evil = htmlReport({ ...base, shops: base.shops.map((s, i) => (i === 0 ? { ...s, name: `<b onmouseover="x">&co` } : s)) });
    expect(evil).not.toContain("<b onmouseover");
    expect(evil).toContain("&lt;b onmouseover=&quot;x&quot;&gt;&amp;co");
  });

  it("without sales, leaves out receipts, conversion and the visitors-vs-receipts chart", () => {
    const base = sampleReportInput();
    const noSales = htmlReport({ ...base, shops: base.shops.map(({ receipts: _r, amount: _a, accuracy: _t, ...s }) => s), accuracy: undefined });
    const doc = parseHTML(noSales).document;
    const text = doc.body.textContent ?? "";
    expect(text).not.toContain("What the footfall was worth");
    expect(text).not.toContain("Did buying follow");
    expect(Array.from(doc.querySelectorAll(".tile .label")).map((t) => t.textContent)).toEqual(["Visitors", "Capture rate", "Typical dwell"]);
    expect(text).not.toContain("How close to the truth"); // no truth given either
    expectSelfContained(noSales);
  });

  it("shows conversion as n/a (not 0 % or NaN) for a shop without visitors, and in the tile when nobody visited", () => {
    const base = sampleReportInput();
    const empty = htmlReport({ ...base, shops: base.shops.map((s) => ({ ...s, visitors: 0, receipts: 4 })) });
    const doc = parseHTML(empty).document;
    expect(doc.querySelector(".tile")?.parentElement?.textContent).not.toContain("NaN");
    const tile = Array.from(doc.querySelectorAll(".tile")).map((t) => t.textContent ?? "").find((t) => t.startsWith("Conversion"));
    expect(tile).toContain("n/a");
    const head = Array.from(doc.querySelectorAll("thead th")).map((th) => th.textContent);
    const column = head.indexOf("Conversion");
    for (const row of Array.from(doc.querySelectorAll("tbody tr"))) expect(row.querySelectorAll("td")[column]?.textContent).toBe("n/a");
  });

  it("shows a partial-day banner", () => {
    const partial = htmlReport(sampleReportInput({ partial: "Interrupted at 14:05: the figures cover the day until then." }));
    expect(parseHTML(partial).document.querySelector(".banner")?.textContent).toContain("Interrupted at 14:05");
  });

  it("renders an empty day without failing", () => {
    const empty = htmlReport({ date: "2026-11-16", timeZone: "Asia/Seoul", shops: [] });
    expectSelfContained(empty);
    expect(empty).toContain("0 visitors");
  });

  it("rejects bad input eagerly", () => {
    expect(() => htmlReport({ date: "16.11.2026", timeZone: "Asia/Seoul", shops: [] })).toThrow(TypeError);
    const base = sampleReportInput();
    expect(() => htmlReport({ ...base, shops: [{ ...base.shops[0]!, visitors: -1 }] })).toThrow(RangeError);
    expect(() => htmlReport({ ...base, currency: "NOPE" })).toThrow(RangeError);
  });
});
