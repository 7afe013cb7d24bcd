import { describe, expect, it } from "vitest";
import { scoreAgainstTruth, type TruthPresence } from "../../../src/kernels/visits/scoreAgainstTruth.ts";
import { classifiedSession } from "../sessionFixtures.ts";

const MIN = 60_000;
const D0 = Date.UTC(2026, 10, 16, 3); // 12:00 in Seoul

describe("scoreAgainstTruth", () => {
  it("matches sessions to true presences and scores counts, dwell and classes", () => {
    const truth: TruthPresence[] = [
      { shop: 1, device: "aa:00:00:00:00:01", start: D0, end: D0 + 10 * MIN, kind: "visitor" },
      { shop: 1, device: "aa:00:00:00:00:02", start: D0, end: D0 + 20 * MIN, kind: "visitor" },
      { shop: 1, device: "aa:00:00:00:00:03", start: D0, end: D0 + 5 * MIN, kind: "passerby" },
      { shop: 1, device: "aa:00:00:00:00:04", start: D0, end: D0 + MIN, kind: "passerby" },
    ];
    const sessions = [
      // Split visit of device 1: both halves visitor, each three gaps of 1 min; detected span 8 min,
      // its gaps 1 min six times and the 2 min between the halves: (6 + 4) min² ÷ 8 min = 1.25 min more.
      classifiedSession(D0 + MIN, D0 + 4 * MIN, "visitor", { device: "aa:00:00:00:00:01", date: "2026-11-16", estimatedDwellMs: 4 * MIN, squaredGapsMs2: 3 * MIN * MIN }),
      classifiedSession(D0 + 6 * MIN, D0 + 9 * MIN, "visitor", { device: "aa:00:00:00:00:01", date: "2026-11-16", estimatedDwellMs: 4 * MIN, squaredGapsMs2: 3 * MIN * MIN }),
      // Device 2 missed as a visitor.
      classifiedSession(D0 + MIN, D0 + 19 * MIN, "passerby", { device: "aa:00:00:00:00:02", date: "2026-11-16" }),
      // Device 3 lingering outside taken for a visitor.
      classifiedSession(D0, D0 + 5 * MIN, "visitor", { device: "aa:00:00:00:00:03", date: "2026-11-16" }),
    ];
    const s = scoreAgainstTruth(sessions, truth, { timeZone: "Asia/Seoul" });
    expect(s.shopDays).toEqual([{ shopId: 1, date: "2026-11-16", truthVisitors: 2, detectedVisitors: 2, relativeError: 0 }]);
    expect(s.visitor).toMatchObject({ truePositives: 1, falsePositives: 1, falseNegatives: 1, precision: 0.5, recall: 0.5 });
    expect(s.passerby).toMatchObject({ truePositives: 0, falsePositives: 1, falseNegatives: 2 });
    expect(s.confusion.passerby.missed).toBe(1);
    expect(s.dwellMatched).toBe(1);
    expect(s.medianAbsDwellErrorMs).toBe(0.75 * MIN); // 8 + 1.25 − 10
    expect(scoreAgainstTruth(sessions, truth, { timeZone: "Asia/Seoul", dwell: "observed" }).medianDwellErrorMs).toBe(-2 * MIN);
  });
});
