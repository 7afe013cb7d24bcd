import { describe, expect, it } from "vitest";
import { MemoryVisitHistory } from "../../../src/kernels/visits/MemoryVisitHistory.ts";

describe("MemoryVisitHistory", () => {
  it("keeps the latest visit per shop and device and round-trips through entries()", () => {
    const h = new MemoryVisitHistory();
    h.recordVisit(1, "aa:00:00:00:00:01", 100);
    h.recordVisit(1, "aa:00:00:00:00:01", 50);
    h.recordVisit(2, "aa:00:00:00:00:01", 7);
    expect(h.lastVisit(1, "aa:00:00:00:00:01")).toBe(100);
    expect(h.lastVisit(2, "aa:00:00:00:00:01")).toBe(7);
    expect(h.lastVisit(3, "aa:00:00:00:00:01")).toBeUndefined();
    const copy = new MemoryVisitHistory(h.entries());
    expect(copy.size).toBe(2);
    expect(copy.lastVisit(1, "aa:00:00:00:00:01")).toBe(100);
  });
});
