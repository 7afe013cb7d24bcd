import { parseHTML } from "linkedom";
import { describe, expect, it } from "vitest";
import { htmlReport } from "../../src/report/htmlReport.ts";
import { expectSelfContained, sampleReportInput } from "./reportFixture.ts";

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

describe("htmlReport with people estimates (people, not MACs)", () => {
  const base = sampleReportInput();
  const midnight = Date.parse("2026-11-16T00:00:00+09:00");
  // Made-up estimates: fewer people than visitor MACs, as when phones rotate their MACs.
  const shops = base.shops.map((s, i) => ({
    ...s,
    people: { visitors: Math.round(s.visitors * 0.6), visitorsLow: Math.round(s.visitors * 0.5), visitorsHigh: Math.round(s.visitors * 0.7), passersBy: Math.round(s.passersBy * 0.3), captureRate: 0.1 + i / 100 },
    occupancy: Array.from({ length: 96 }, (_, k) => {
      const v = k >= 40 && k < 88 ? 5 + i : 0;
      return { start: midnight + k * 900_000, end: midnight + (k + 1) * 900_000, inside: v, insideLow: v * 0.8, insideHigh: v * 1.2, outside: 2 * v, truth: v };
    }),
    accuracy: { ...s.accuracy!, truthPeople: Math.round(s.visitors * 0.62) },
  }));
  const input = { ...base, shops, accuracy: { ...base.accuracy!, people: { totalError: -0.03, covered: 2, days: 2, occupancyMae: 0.08, macError: 0.31 } } };
  const { document } = parseHTML(htmlReport(input));
  const tiles = Array.from(document.querySelectorAll(".tile")).map((t) => t.textContent ?? "");

  it("takes visitors, capture and conversion from the people estimate (conversionRate over people), the MAC-level count beside them", () => {
    const people = shops.reduce((n, s) => n + s.people.visitors, 0);
    const macs = shops.reduce((n, s) => n + s.visitors, 0);
    const receipts = shops.reduce((n, s) => n + (s.receipts ?? 0), 0);
    const visitorsTile = tiles.find((t) => t.startsWith("Visitors"))!;
    expect(visitorsTile).toContain(people.toLocaleString("en"));
    expect(visitorsTile).toContain(`${macs.toLocaleString("en")} visitor MAC addresses`);
    expect(tiles.find((t) => t.startsWith("Conversion"))).toContain(`${((100 * receipts) / people).toFixed(1)} %`);
    expect(tiles.find((t) => t.startsWith("People counted"))).toContain("-3.0 %");
    // Beside it, what counting MACs would have said; no MAC-level F1 to puzzle over.
    expect(tiles.find((t) => t.startsWith("Counting MACs instead"))).toContain("+31.0 %");
    expect(tiles.some((t) => t.includes("F1"))).toBe(false);
    const head = Array.from(document.querySelectorAll("thead th")).map((th) => th.textContent);
    expect(head).toEqual(expect.arrayContaining(["Visitors", "MAC visitors", "People present"]));
    const first = Array.from(document.querySelectorAll("tbody tr")[0]!.querySelectorAll("td")).map((td) => td.textContent);
    const p = shops[0]!.people;
    expect(first[head.indexOf("Visitors")]).toBe(`${p.visitors.toLocaleString("en")} [${p.visitorsLow.toLocaleString("en")}–${p.visitorsHigh.toLocaleString("en")}]`);
    expect(first[head.indexOf("MAC visitors")]).toBe(shops[0]!.visitors.toLocaleString("en"));
    expect(first[head.indexOf("Conversion")]).toBe(`${((100 * shops[0]!.receipts!) / p.visitors).toFixed(1)} %`);
  });

  it("shows an interval with no upper bound as [low–?] and still draws it", () => {
    const open = { ...input, shops: input.shops.map((s, i) => (i === 0 ? { ...s, people: { ...s.people, visitorsHigh: Number.POSITIVE_INFINITY } } : s)) };
    const { document: doc } = parseHTML(htmlReport(open));
    const head = Array.from(doc.querySelectorAll("thead th")).map((th) => th.textContent);
    const first = Array.from(doc.querySelectorAll("tbody tr")[0]!.querySelectorAll("td")).map((td) => td.textContent);
    const p = open.shops[0]!.people;
    expect(first[head.indexOf("Visitors")]).toBe(`${p.visitors.toLocaleString("en")} [${p.visitorsLow.toLocaleString("en")}–?]`);
    expect(doc.body.textContent).not.toContain("Infinity");
  });

  it("leaves a shop whose passers-by are unknown (NaN: no universal-MAC passer-by) out of the 'everyone heard' chart, and shows them as –", () => {
    const unknown = { ...input, shops: input.shops.map((s, i) => (i === 0 ? { ...s, people: { ...s.people, passersBy: Number.NaN, captureRate: Number.NaN } } : s)) };
    const { document: doc } = parseHTML(htmlReport(unknown));
    const everyone = Array.from(doc.querySelectorAll("svg")).find((svg) => (svg.textContent ?? "").includes("People, not MAC addresses: everyone heard"))!;
    expect(everyone.textContent).not.toContain(unknown.shops[0]!.name);
    expect(everyone.textContent).toContain(unknown.shops[1]!.name);
    expect(doc.body.textContent).not.toContain("NaN");
  });

  it("draws people vs MACs for visitors and for everyone heard, occupancy with its band per shop, and scores people against people present", () => {
    const titles = Array.from(document.querySelectorAll("svg")).map((s) => s.textContent ?? "");
    expect(titles.some((t) => t.includes("People, not MAC addresses: visitors"))).toBe(true);
    expect(titles.some((t) => t.includes("People, not MAC addresses: everyone heard"))).toBe(true);
    for (const s of shops) expect(titles.some((t) => t.includes(`${s.name}: people inside`) && t.includes("90 % interval") && t.includes("inside (truth)"))).toBe(true);
    const accuracy = titles.find((t) => t.includes("How close to the truth"))!;
    expect(accuracy).toContain(`${shops[0]!.name} · people`);
    expect(accuracy).toContain(`${shops[0]!.name} · MACs`);
  });
});
