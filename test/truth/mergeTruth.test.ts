import { describe, expect, it } from "vitest";
import { isTruthInputError } from "../../src/errors/TruthInputError.ts";
import type { CountedTruth, DailyCount, TruthSegment } from "../../src/truth/CountedTruth.ts";
import { mergeTruth } from "../../src/truth/mergeTruth.ts";

const MIN = 60_000;
const seg = (source: string, line: number, shopId: number, startMin: number, endMin: number, people: number): TruthSegment => ({ shopId, start: startMin * MIN, end: endMin * MIN, people, line, source });
const day = (source: string, line: number, shopId: number, date: string, visitors: number): DailyCount => ({ shopId, date, visitors, line, source });
const part = (segments: TruthSegment[], daily: DailyCount[] = [], unknownRows = 0): CountedTruth => ({ segments, daily, unknownRows });

function failure(parts: CountedTruth[]): Error {
  try {
    mergeTruth(parts);
  } catch (error) {
    if (isTruthInputError(error)) return error;
    throw error;
  }
  throw new Error("expected a TruthInputError");
}

describe("mergeTruth", () => {
  it("sorts by shop and start (daily by shop and date) and adds up unknown rows", () => {
    const merged = mergeTruth([
      part([seg("b", 2, 61, 30, 40, 1), seg("b", 3, 7, 0, 5, 2)], [day("b", 9, 61, "2024-03-15", 3)], 2),
      part([seg("a", 2, 61, 0, 10, 4)], [day("a", 2, 61, "2024-03-14", 5), day("a", 3, 7, "2024-03-16", 1)], 1),
    ]);
    expect(merged.segments.map((s) => [s.shopId, s.start / MIN, s.source])).toEqual([
      [7, 0, "b"],
      [61, 0, "a"],
      [61, 30, "b"],
    ]);
    expect(merged.daily.map((d) => [d.shopId, d.date])).toEqual([
      [7, "2024-03-16"],
      [61, "2024-03-14"],
      [61, "2024-03-15"],
    ]);
    expect(merged.unknownRows).toBe(3);
    expect(mergeTruth([])).toEqual({ segments: [], daily: [], unknownRows: 0 });
  });

  it("overlapping segments of one shop with different counts: an error naming both files and lines", () => {
    const e = failure([part([seg("a.csv", 5, 61, 0, 30, 4)]), part([seg("b.csv", 2, 62, 0, 30, 9), seg("b.csv", 3, 61, 20, 40, 6)])]);
    expect(e.message).toMatch(/^b\.csv:3: shop 61: 6 people over \[.*\), but a\.csv:5 says 4 over \[.*\); two counts for the same time from 1970-01-01T00:20:00\.000Z to 1970-01-01T00:30:00\.000Z$/);
    // the later file is the one blamed, whichever segment starts first
    expect(failure([part([seg("a.csv", 5, 61, 20, 40, 6)]), part([seg("b.csv", 3, 61, 0, 30, 4)])]).message).toMatch(/^b\.csv:3: .* but a\.csv:5 says 6/);
  });

  it("a conflict hidden behind a longer earlier segment is still found", () => {
    // 0–60 says 5; 10–20 (also 5) is covered; 30–35 says 7 and contradicts 0–60
    expect(failure([part([seg("a", 2, 1, 0, 60, 5), seg("a", 3, 1, 10, 20, 5), seg("a", 4, 1, 30, 35, 7)])]).message).toMatch(/^a:4: .* but line 2 says 5/);
    // ... also after a same-count segment was cut to what it adds
    expect(failure([part([seg("a", 2, 1, 0, 10, 5), seg("a", 3, 1, 5, 20, 5), seg("a", 4, 1, 7, 8, 3)])]).message).toMatch(/^a:4: /);
  });

  it("the same truth given twice is kept once; agreeing partial overlaps are cut, so no moment counts twice", () => {
    const a = part([seg("a", 2, 61, 0, 10, 4), seg("a", 3, 61, 10, 20, 5)], [day("a", 2, 61, "2024-03-14", 7)]);
    const b = part([seg("b", 2, 61, 0, 10, 4), seg("b", 3, 61, 15, 30, 5), seg("b", 4, 61, 12, 14, 5)], [day("b", 2, 61, "2024-03-14", 7)]);
    const merged = mergeTruth([a, b]);
    expect(merged.segments).toEqual([seg("a", 2, 61, 0, 10, 4), seg("a", 3, 61, 10, 20, 5), seg("b", 3, 61, 20, 30, 5)]);
    expect(merged.daily).toEqual([day("a", 2, 61, "2024-03-14", 7)]);
    // given in the other order, the other file's duplicate is the one kept: same times and counts
    const reversed = mergeTruth([b, a]).segments;
    expect(reversed.map((s) => [s.start / MIN, s.end / MIN, s.people])).toEqual([
      [0, 10, 4],
      [10, 20, 5],
      [20, 30, 5],
    ]);
    expect(reversed.map((s) => `${s.source}:${s.line}`)).toEqual(["b:2", "a:3", "b:3"]);
  });

  it("a longer segment starting with a shorter duplicate is kept whole", () => {
    expect(mergeTruth([part([seg("a", 2, 1, 0, 5, 3), seg("a", 3, 1, 0, 10, 3)])]).segments).toEqual([seg("a", 3, 1, 0, 10, 3)]);
  });

  it("daily counts of the same shop and day must agree", () => {
    expect(failure([part([], [day("a.csv", 4, 61, "2024-03-14", 7)]), part([], [day("b.csv", 2, 61, "2024-03-14", 8)])]).message).toBe(
      "b.csv:2: shop 61 on 2024-03-14: 8 visitors, but a.csv:4 says 7 for the same day",
    );
    expect(mergeTruth([part([], [day("a", 2, 61, "2024-03-14", 7)]), part([], [day("b", 2, 62, "2024-03-14", 8)])]).daily).toHaveLength(2);
  });

  it("rejects hand-made segments that make no sense", () => {
    expect(() => mergeTruth([part([seg("a", 2, 1, 5, 5, 1)])])).toThrow(RangeError);
    expect(() => mergeTruth([part([seg("a", 2, 1, 0, 5, -1)])])).toThrow(RangeError);
    expect(() => mergeTruth([part([seg("a", 2, 1, 0, 5, Number.NaN)])])).toThrow(RangeError);
    expect(() => mergeTruth("a" as unknown as CountedTruth[])).toThrow(TypeError);
  });
});
