import { describe, expect, it } from "vitest";
import { csvCell as cliCsvCell } from "../../src/cli/common.ts";
import { csvCell } from "../../src/demo/csvCell.ts";

// The demo writes its CSV files with its own csvCell (src/demo may not import the CLI); it must
// quote exactly as the CLI's does.
describe.each([
  ["the demo's csvCell", csvCell],
  ["the CLI's csvCell", cliCsvCell],
])("demo text helpers: %s", (_name, csvCell) => {
  it("quotes CSV cells only when needed", () => {
    expect(csvCell("Cafe Mori")).toBe("Cafe Mori");
    expect(csvCell('a "b", c')).toBe('"a ""b"", c"');
  });
});
