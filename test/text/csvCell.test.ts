import { describe, expect, it } from "vitest";
import { csvCell } from "../../src/text/csvCell.ts";

describe("csvCell", () => {
  it("quotes a cell only when it holds a quote, comma or line break; null and undefined are empty", () => {
    expect(csvCell("Cafe Mori")).toBe("Cafe Mori");
    expect(csvCell('a "b", c')).toBe('"a ""b"", c"');
    expect(csvCell("two\nlines")).toBe('"two\nlines"');
    expect(csvCell(undefined)).toBe("");
    expect(csvCell(null)).toBe("");
    expect(csvCell(12.5)).toBe("12.5");
  });
});
