import { describe, expect, it } from "vitest";
import { withholdSmallCounts, type SmallCountGroup } from "../../src/kernels/withholdSmallCounts.ts";

const group: SmallCountGroup = { counts: ["visitors", "devices", "staff"], triggers: ["visitors", "devices"], derived: ["rate", "dwell"] };

describe("withholdSmallCounts", () => {
  it("marks counts from 1 to K − 1, keeps 0 and K, and blanks the derived figures of a small trigger", () => {
    const row: Record<string, unknown> = { visitors: 4, devices: 0, staff: 5, rate: 0.4, dwell: 120 };
    expect(withholdSmallCounts(row, group, 5, "<5", null)).toBe(true);
    expect(row).toEqual({ visitors: "<5", devices: 0, staff: 5, rate: null, dwell: null });
  });

  it("a small count that is not a trigger leaves the derived figures", () => {
    const row: Record<string, unknown> = { visitors: 40, devices: 60, staff: 2, rate: 0.4 };
    expect(withholdSmallCounts(row, group, 5, null, null)).toBe(true);
    expect(row).toEqual({ visitors: 40, devices: 60, staff: null, rate: 0.4 });
  });

  it("reads a CSV row's numeric cells, and a trigger already marked elsewhere still blanks", () => {
    const csv: Record<string, unknown> = { visitors: "3", devices: "", staff: "12", rate: "0.25" };
    expect(withholdSmallCounts(csv, group, 5, "<5", "")).toBe(true);
    expect(csv).toEqual({ visitors: "<5", devices: "", staff: "12", rate: "", dwell: "" });
    const table: Record<string, unknown> = { visitors: "<5", devices: 30, staff: 9, rate: 12.5 };
    expect(withholdSmallCounts(table, group, 5, "<5", null)).toBe(false);
    expect(table["rate"]).toBeNull();
  });

  it("withholds nothing with K ≤ 1", () => {
    const row: Record<string, unknown> = { visitors: 1, devices: 1, staff: 1, rate: 1 };
    expect(withholdSmallCounts(row, group, 1, null, null)).toBe(false);
    expect(row).toEqual({ visitors: 1, devices: 1, staff: 1, rate: 1 });
  });
});
