import { describe, expect, it } from "vitest";
import { withholdSmallCounts, type SmallCountGroup } from "../../../src/kernels/visits/withholdSmallCounts.ts";

const group: SmallCountGroup = { counts: ["visitors", "devices", "staff"], triggers: ["visitors", "devices"], derived: ["rate", "dwell"] };

describe("withholdSmallCounts", () => {
  it("withholds counts from 1 to K − 1, keeps 0 and K, and the derived figures of a small trigger", () => {
    const row: Record<string, unknown> = { visitors: 4, devices: 0, staff: 5, rate: 0.4, dwell: 120 };
    expect(withholdSmallCounts(row, group, 5)).toBe(true);
    expect(row).toEqual({ visitors: null, devices: 0, staff: 5, rate: null, dwell: null });
  });

  it("a small count that is not a trigger leaves the derived figures", () => {
    const row: Record<string, unknown> = { visitors: 40, devices: 60, staff: 2, rate: 0.4 };
    expect(withholdSmallCounts(row, group, 5)).toBe(true);
    expect(row).toEqual({ visitors: 40, devices: 60, staff: null, rate: 0.4 });
  });

  it("withholds nothing with K ≤ 1, and reads only numbers as counts", () => {
    const row: Record<string, unknown> = { visitors: 1, devices: 1, staff: 1, rate: 1 };
    expect(withholdSmallCounts(row, group, 1)).toBe(false);
    expect(row).toEqual({ visitors: 1, devices: 1, staff: 1, rate: 1 });
    const text: Record<string, unknown> = { visitors: "3", devices: null, staff: "12" };
    expect(withholdSmallCounts(text, group, 5)).toBe(false);
  });
});
