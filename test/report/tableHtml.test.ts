import { parseHTML } from "linkedom";
import { describe, expect, it } from "vitest";
import { escapeHtml, tableHtml } from "../../src/report/tableHtml.ts";

const cells = (html: string): string[][] => {
  const { document } = parseHTML(`<!DOCTYPE html><html><body>${html}</body></html>`);
  return Array.from(document.querySelectorAll("tr"), (tr) => Array.from(tr.querySelectorAll("th,td"), (c) => c.textContent ?? ""));
};

describe("tableHtml", () => {
  it("renders a header and one row per record, numbers grouped, text escaped", () => {
    const html = tableHtml([
      { shop: "<A&B>", visitors: 12345, share: 0.256 },
      { shop: "C", visitors: 7, share: null },
    ]);
    expect(html).not.toContain("<A&B>");
    expect(cells(html)).toEqual([
      ["shop", "visitors", "share"],
      ["<A&B>", "12,345", "0.26"],
      ["C", "7", "–"],
    ]);
  });

  it("uses the given columns, labels, formats and caption", () => {
    const html = tableHtml([{ a: 1, b: 2 }], { caption: "Cap", columns: [{ key: "b", label: "Bee", format: (v) => `${String(v)} m` }] });
    expect(cells(html)).toEqual([["Bee"], ["2 m"]]);
    expect(html).toContain(">Cap</caption>");
  });

  it("right-aligns numeric columns only", () => {
    const html = tableHtml([{ name: "x", n: 1 }]);
    expect(html).toMatch(/<th style="[^"]*text-align:left[^"]*">name<\/th><th style="[^"]*text-align:right[^"]*">n<\/th>/);
  });
});

describe("escapeHtml", () => {
  it("escapes the five HTML-significant characters", () => {
    expect(escapeHtml(`<a href="x">&'</a>`)).toBe("&lt;a href=&quot;x&quot;&gt;&amp;&#39;&lt;/a&gt;");
  });
});
