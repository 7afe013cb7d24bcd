import { describe, expect, it } from "vitest";
import { createClient } from "../../src/client/createClient.ts";
import { analyzeShopDay } from "../../src/fleet/analyzeShopDay.ts";
import { createSimHandler } from "../../src/sim/createSimHandler.ts";
import { createWorld, type WorldOptions } from "../../src/sim/createWorld.ts";
import { microsRts } from "../../src/codec/rts.ts";
import { isContractError } from "../../src/errors/ContractError.ts";
import { fakeClient } from "../source/fakeService.ts";

// A shop-day read from a simulator whose sensor clocks are seconds apart, as cheap sensors' are.
async function summaryOf(options: WorldOptions): Promise<{ summary: Record<string, unknown>; signals: number; inRange: number; requests: number }> {
  const world = createWorld(options);
  const sim = createSimHandler({ world });
  let requests = 0;
  const client = createClient({
    baseUrl: "http://sim",
    signalUrl: "http://sim",
    email: sim.email,
    token: sim.token,
    fetch: (input, init) => {
      requests++;
      return sim.fetch(input, init);
    },
  });
  const day = await analyzeShopDay(client, { shopId: world.shops[0]!.id, sinceMs: world.startMs, untilMs: world.endMs, timeZone: "Asia/Seoul" });
  const inRange = [...world.rawSignals(world.shops[0]!.id, world.startMs, world.endMs)].length;
  return { summary: day.records.find((r) => r.type === "summary" && r.date === "2026-11-16")!, signals: day.signals, inRange, requests };
}

describe("analyzeShopDay", () => {
  it("reads a shop-day again with its sensors' clocks aligned when they disagree, and counts as if they agreed", async () => {
    const options: WorldOptions = { seed: 13, shops: 1, rotation: "realistic", visitorsPerDay: 120, passersByPerDay: 800, openingHours: [10, 16] };
    const right = await summaryOf(options);
    const skewed = await summaryOf({ ...options, sensorClockSkewMs: 4_000 });
    expect(skewed.summary.visitors).toBe(right.summary.visitors);
    expect(skewed.summary.macs).toEqual(right.summary.macs);
    // Read twice (the second time aligned), each record of the range counted once.
    expect(skewed.signals).toBe(skewed.inRange);
    expect(skewed.requests).toBeGreaterThan(1.9 * right.requests);
  });

  it("reads a shop-day again keeping the records a sensor uploading in batches delivered later than the allowed lateness", async () => {
    const options: WorldOptions = { seed: 13, shops: 1, visitorsPerDay: 120, passersByPerDay: 800, openingHours: [10, 16] };
    const world = createWorld(options);
    const shopId = world.shops[0]!.id;
    const records = [...world.rawSignals(shopId)];
    const sensor = records[0]!.square_mac;
    // A service whose RTS is when it received a record: one sensor uploads every 3 minutes, so its
    // records come after newer ones of the other sensors, up to 3 minutes of event time behind.
    const received = records
      .map((r) => {
        const at = r.square_mac === sensor ? Math.ceil(r.ts / 180_000) * 180_000 : r.ts;
        const rts = at.toString(16).padStart(16, "0");
        return { at, rts, record: { ...r, row_key: `${shopId}:${rts}` } };
      })
      .sort((a, b) => a.at - b.at);
    const client = fakeClient(received, { sinceMode: "inclusive" });
    // Until an hour past the world's end: the last batch is received after it.
    const day = await analyzeShopDay(client, { shopId, sinceMs: world.startMs, untilMs: world.endMs + 3_600_000, timeZone: "Asia/Seoul" });
    expect(day.rejected).toBe(0);
    expect(day.signals).toBe(records.length);
    const right = await summaryOf(options);
    expect(day.records.find((r) => r.type === "summary" && r.date === "2026-11-16")).toEqual(right.summary);
    expect(day.records.find((r) => r.type === "quality")).toMatchObject({ late: 0 });
    // A lateness the job was given is kept: those records are then rejected.
    const once = fakeClient(received, { sinceMode: "inclusive" });
    const strict = await analyzeShopDay(once, {
      shopId,
      sinceMs: world.startMs,
      untilMs: world.endMs + 3_600_000,
      timeZone: "Asia/Seoul",
      analyze: { sessions: { allowedLatenessMs: 60_000 } },
    });
    expect(strict.rejected).toBeGreaterThan(0);
    expect(strict.signals).toBe(records.length);
    // Read twice (the second time keeping them) against once.
    expect(client.requests.length).toBeGreaterThan(1.9 * once.requests.length);
  });

  it("keeps only its own day's lines when its RTS range holds records of the day before (RTS = when received)", async () => {
    // Open till midnight, every sensor uploading every 5 minutes: the last upload of the first
    // day is received after midnight, in the second day's range.
    const world = createWorld({ seed: 13, shops: 1, days: 2, visitorsPerDay: 120, passersByPerDay: 800, openingHours: [18, 24] });
    const shopId = world.shops[0]!.id;
    const sensors: string[] = [];
    const received = [...world.rawSignals(shopId)]
      .map((r) => {
        let k = sensors.indexOf(r.square_mac);
        if (k < 0) k = sensors.push(r.square_mac) - 1;
        return { upload: Math.ceil(r.ts / 300_000) * 300_000 + 7_000 * k, ts: r.ts, raw: r };
      })
      .sort((a, b) => a.upload - b.upload || a.ts - b.ts)
      // An upload's records 1 ms apart (one RTS for all would be a group no page gets past).
      .map((r, i, all) => {
        let n = 0;
        while (i - n > 0 && all[i - n - 1]!.upload === r.upload) n++;
        const at = r.upload + n;
        const rts = at.toString(16).padStart(16, "0");
        return { at, rts, ts: r.ts, record: { ...r.raw, row_key: `${shopId}:${rts}` } };
      });
    const sinceMs = world.startMs + 86_400_000;
    const untilMs = world.endMs;
    // The case in hand: records of the first day received in the second's range.
    expect(received.some((r) => r.ts < sinceMs && r.at >= sinceMs)).toBe(true);
    const day = await analyzeShopDay(fakeClient(received, { sinceMode: "inclusive" }), { shopId, sinceMs, untilMs, timeZone: "Asia/Seoul" });
    expect(day.signals).toBe(received.filter((r) => r.at >= sinceMs && r.at < untilMs).length);
    const kinds = new Set(day.records.map((r) => r.type));
    expect([...kinds].sort()).toEqual(["occupancy", "quality", "session", "summary"]);
    for (const line of day.records) {
      if (line.type === "summary" || line.type === "session") expect(line.date).toBe("2026-11-17");
      if (line.type === "session" || line.type === "occupancy") expect(Number(line.start)).toBeGreaterThanOrEqual(sinceMs);
    }
    expect(day.visits.every(([, start]) => start >= sinceMs && start < untilMs)).toBe(true);
  });

  it("reads a service whose RTS counts µs with the worker's RTS codec, and refuses to read it as ms", async () => {
    const options: WorldOptions = { seed: 13, shops: 1, visitorsPerDay: 40, passersByPerDay: 200, openingHours: [10, 14] };
    const world = createWorld(options);
    const shopId = world.shops[0]!.id;
    const micros = [...world.rawSignals(shopId)].map((r) => {
      const rts = (r.ts * 1000).toString(16).padStart(16, "0");
      return { rts, record: { ...r, row_key: `${shopId}:${rts}` } };
    });
    const range = { shopId, sinceMs: world.startMs, untilMs: world.endMs, timeZone: "Asia/Seoul" };
    const day = await analyzeShopDay(fakeClient(micros, { sinceMode: "inclusive" }), { ...range, rtsCodec: microsRts });
    expect(day.signals).toBe(micros.length);
    const right = await summaryOf(options);
    expect(day.records.find((r) => r.type === "summary" && r.date === "2026-11-16")).toEqual(right.summary);
    const error = await analyzeShopDay(fakeClient(micros, { sinceMode: "inclusive" }), range).catch((e: unknown) => e);
    expect(isContractError(error)).toBe(true);
  });
});
