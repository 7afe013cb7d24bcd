import { describe, expect, it } from "vitest";
import { analysisRecords, poolPeopleRecords, recordsAnalysis } from "../../src/analysis/analysisRecords.ts";
import { type AnalysisRecord } from "../../src/analysis/AnalysisRecord.ts";
import { analyze } from "../../src/analysis/analyze.ts";
import { createWorld } from "../../src/sim/createWorld.ts";

describe("poolPeopleRecords", () => {
  // Three days of two shops, analysed with and without pooling (the same sessions either way).
  const world = createWorld({ seed: 21, shops: 2, days: 3, rotation: "realistic", visitorsPerDay: 80, passersByPerDay: 300, openingHours: [10, 16] });
  const lines = async (poolDays: boolean): Promise<AnalysisRecord[]> => {
    const out: AnalysisRecord[] = [];
    for (const shop of world.shops) out.push(...analysisRecords(await analyze(world.rawSignals(shop.id), { timeZone: shop.timeZone, poolDays })));
    return out.filter((l) => l.type === "summary" || l.type === "occupancy");
  };

  it("pools the days' lines as analyze pools the days themselves", async () => {
    const alone = await lines(false);
    const expected = await lines(true);
    const pooled = poolPeopleRecords(alone);
    const summaries = (lines: AnalysisRecord[]) => lines.filter((l) => l.type === "summary");
    expect(summaries(pooled).map((l) => l["pooledDays"])).toEqual(summaries(alone).map(() => 3));
    const people = (l: AnalysisRecord) => [l["shopId"], l["date"], l["visitors"], l["visitorsLow"], l["visitorsHigh"], l["passersBy"], l["captureRate"]];
    const key = (l: AnalysisRecord) => `${String(l["shopId"])} ${String(l["date"])}`;
    const wanted = new Map(summaries(expected).map((l) => [key(l), people(l)]));
    for (const l of summaries(pooled)) expect(people(l)).toEqual(wanted.get(key(l)));
    // Occupancy from the stored lines' bursts, rounded to 0.01 of a phone: within that of the analysis.
    const occupancy = new Map(expected.filter((l) => l.type === "occupancy").map((l) => [`${String(l["shopId"])} ${String(l["start"])}`, l]));
    const got = pooled.filter((l) => l.type === "occupancy");
    expect(got.length).toBeGreaterThan(0);
    for (const l of got) {
      const e = occupancy.get(`${String(l["shopId"])} ${String(l["start"])}`)!;
      for (const k of ["inside", "insideLow", "insideHigh", "outside"]) {
        if (e[k] === null) expect(l[k]).toBeNull();
        else expect(Math.abs((l[k] as number) - (e[k] as number))).toBeLessThanOrEqual(0.03);
      }
    }
    // Pooling changed something: a day of 80 visitors has a dozen universal visits at most.
    expect(summaries(pooled).map((l) => l["visitors"])).not.toEqual(summaries(alone).map((l) => l["visitors"]));
  }, 120_000);

  it("does not depend on the order of the lines, and leaves lines it cannot pool as they are", async () => {
    const alone = await lines(false);
    const pooled = poolPeopleRecords(alone);
    const order = alone.map((_, i) => i).reverse();
    const reversed = poolPeopleRecords(order.map((i) => alone[i]!));
    order.forEach((i, j) => expect(reversed[j]).toEqual(pooled[i]));
    const old = alone.map((l) => (l.type === "summary" ? { ...l, peopleSample: null } : l));
    expect(poolPeopleRecords(old)).toEqual(old);
    const session: AnalysisRecord = { type: "session", device: "x" };
    expect(poolPeopleRecords([session])).toEqual([session]);
  }, 120_000);
});

describe("recordsAnalysis", () => {
  it("gives the same lines as the full analysis: no line shows what it leaves out", async () => {
    const world = createWorld({ seed: 5, shops: 1, days: 1, rotation: "realistic", visitorsPerDay: 120, passersByPerDay: 300 });
    const shop = world.shops[0]!;
    const full = await analyze(world.rawSignals(shop.id), { timeZone: shop.timeZone });
    const trimmed = await analyze(world.rawSignals(shop.id), { timeZone: shop.timeZone, ...recordsAnalysis });
    // What it leaves out was there to leave: timelines, zone times by sensor, hourly counts.
    expect([full.hours.length > 0, trimmed.hours]).toEqual([true, []]);
    expect(full.sessions.some((s) => s.proximity!.timeline.length > 1 && s.proximity!.zoneMsBySensor.length > 1)).toBe(true);
    expect(trimmed.sessions.every((s) => s.proximity!.timeline.length === 0 && s.proximity!.zoneMsBySensor.length === 0)).toBe(true);
    expect([...analysisRecords(trimmed)]).toEqual([...analysisRecords(full)]);
    // Without the session lines (written already, by decode threads): the rest, in order.
    expect([...analysisRecords(full, { sessionLines: false })]).toEqual([...analysisRecords(full)].filter((l) => l.type !== "session"));
  }, 60_000);
});
