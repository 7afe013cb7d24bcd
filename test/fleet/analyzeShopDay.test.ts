import { describe, expect, it } from "vitest";
import { createClient } from "../../src/client/createClient.ts";
import { analyzeShopDay } from "../../src/fleet/analyzeShopDay.ts";
import { createSimHandler } from "../../src/sim/service/createSimHandler.ts";
import { createWorld, type WorldOptions } from "../../src/sim/createWorld.ts";
import { microsRts, secondsRts } from "../../src/codec/rts.ts";
import { isContractError } from "../../src/errors/ContractError.ts";
import { fakeClient } from "../source/fakeService.ts";
import { signals } from "../../src/source/signals.ts";
import { SHARE_RUN_SIGNALS } from "../../src/file/ShareThreads.ts";

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
    // People within one: whether a randomized MAC's visit is set aside as a piece of a rotating phone's
    // can turn on the milliseconds aligned clocks still differ by; the MACs count exactly alike.
    expect(Math.abs(Number(skewed.summary.visitors) - Number(right.summary.visitors))).toBeLessThanOrEqual(1);
    expect(skewed.summary.macs).toEqual(right.summary.macs);
    // Read twice (the second time aligned), each record of the range counted once.
    expect(skewed.signals).toBe(skewed.inRange);
    expect(skewed.requests).toBeGreaterThan(1.9 * right.requests);
  });

  it("with clocks minutes apart and sensors uploading in batches, reads the day again keeping the late records, then again with the clocks aligned", async () => {
    const options: WorldOptions = { seed: 13, shops: 1, rotation: "realistic", visitorsPerDay: 120, passersByPerDay: 800, openingHours: [10, 16] };
    const right = await summaryOf(options);
    const skewed = await summaryOf({ ...options, sensorClockSkewMs: 90_000, sensorUploadEveryMs: 180_000 });
    // People within one: whether a randomized MAC's visit is set aside as a piece of a rotating phone's
    // can turn on the milliseconds aligned clocks still differ by; the MACs count exactly alike.
    expect(Math.abs(Number(skewed.summary.visitors) - Number(right.summary.visitors))).toBeLessThanOrEqual(1);
    expect(skewed.summary.macs).toEqual(right.summary.macs);
    expect(skewed.signals).toBe(skewed.inRange);
    // Three reads: the clocks are measured on the one that kept the late records.
    expect(skewed.requests).toBeGreaterThan(2.9 * right.requests);
  });

  it("split by device over share threads, gives the records and visits of one engine, on every reading of the day; a tail's live occupancy is not split", async () => {
    // Clocks seconds apart and rotating MACs: the day is read twice, each reading split afresh,
    // and long enough for several runs of the split (SHARE_RUN_SIGNALS records each).
    const world = createWorld({ seed: 17, shops: 1, rotation: "realistic", visitorsPerDay: 200, passersByPerDay: 2_500, openingHours: [9, 21], sensorClockSkewMs: 4_000 });
    const shopId = world.shops[0]!.id;
    const range = { shopId, sinceMs: world.startMs, untilMs: world.endMs, timeZone: "Asia/Seoul" };
    const clientOf = () => {
      const sim = createSimHandler({ world });
      return createClient({ baseUrl: "http://sim", signalUrl: "http://sim", email: sim.email, token: sim.token, fetch: sim.fetch });
    };
    const one = await analyzeShopDay(clientOf(), range);
    expect(one.signals).toBeGreaterThan(2 * SHARE_RUN_SIGNALS);
    expect(one.records.filter((r) => r.type === "session").length).toBeGreaterThan(1_000);
    for (const shares of [2, 3]) {
      const split = await analyzeShopDay(clientOf(), { ...range, shares });
      expect(JSON.stringify(split.records)).toBe(JSON.stringify(one.records));
      expect(split.visits).toEqual(one.visits);
      expect([split.signals, split.rejected, split.outside, split.fromMargin]).toEqual([one.signals, one.rejected, one.outside, one.fromMargin]);
    }
    const live: unknown[] = [];
    const tail = await analyzeShopDay(clientOf(), { ...range, shares: 2, onLive: (i) => void live.push(i) });
    expect(JSON.stringify(tail.records)).toBe(JSON.stringify(one.records));
    expect(live.length).toBeGreaterThan(0);
    await expect(analyzeShopDay(clientOf(), { ...range, shares: 0 })).rejects.toThrow(RangeError);
  });

  it("reads a shop-day again keeping the records a sensor uploading in batches delivered later than the allowed lateness", async () => {
    const options: WorldOptions = { seed: 13, shops: 1, rotation: "off", visitorsPerDay: 120, passersByPerDay: 800, openingHours: [10, 16] };
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

  it("analyses a day's records by their time when the RTS is when the service received them: the last upload before midnight from the next range", async () => {
    // Open till midnight, every sensor uploading every 5 minutes: the last upload of the first
    // day is received after midnight, in the second day's range.
    const world = createWorld({ seed: 13, shops: 1, days: 2, visitorsPerDay: 120, passersByPerDay: 800, openingHours: [18, 24] });
    const shopId = world.shops[0]!.id;
    const sensors: string[] = [];
    const records = [...world.rawSignals(shopId)];
    const received = records
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
    // The same records where the RTS is the sensor's stamp: each day's range holds its records.
    const stamped = records.map((r) => {
      const rts = r.ts.toString(16).padStart(16, "0");
      return { rts, record: { ...r, row_key: `${shopId}:${rts}` } };
    });
    const midnight = world.startMs + 86_400_000;
    const days = [
      { sinceMs: world.startMs, untilMs: midnight, date: "2026-11-16" },
      { sinceMs: midnight, untilMs: world.endMs, date: "2026-11-17" },
    ];
    // The case in hand: records of the first day received in the second's range.
    const crossing = received.filter((r) => r.ts < midnight && r.at >= midnight).length;
    expect(crossing).toBeGreaterThan(0);
    const read = async (data: readonly { rts: string; record: unknown }[], d: (typeof days)[0]) =>
      analyzeShopDay(fakeClient(data as never, { sinceMode: "inclusive" }), { shopId, sinceMs: d.sinceMs, untilMs: d.untilMs, timeZone: "Asia/Seoul" });
    const [first, second] = [await read(received, days[0]!), await read(received, days[1]!)];
    // Every record counted once, by the range that holds its RTS (the last uploads of the second
    // day are received after the world ends, in no range here).
    expect(first.signals + second.signals + received.filter((r) => r.at >= world.endMs).length).toBe(records.length);
    // The second range's records of the first day are analysed by the first, read past its range.
    expect(second.outside).toBe(crossing);
    expect(first.fromMargin).toBe(crossing);
    expect(first.rejected + second.rejected).toBe(0);
    // Analysed once each, by time: the quality lines' signals add up to every record.
    const analysed = (day: typeof first) => Number(day.records.find((l) => l.type === "quality")!.signals);
    expect(analysed(first) + analysed(second)).toBe(records.length);
    // Each day's lines are those of the day, and as where the RTS is the stamp.
    for (const [i, day] of [first, second].entries()) {
      const d = days[i]!;
      for (const line of day.records) {
        if (line.type === "summary" || line.type === "session") expect(line.date).toBe(d.date);
        if (line.type === "session" || line.type === "occupancy") expect(Number(line.start)).toBeGreaterThanOrEqual(d.sinceMs);
      }
      expect(day.visits.every(([, start]) => start >= d.sinceMs && start < d.untilMs)).toBe(true);
      const right = await read(stamped, d);
      expect(right.outside + right.fromMargin).toBe(0);
      const withoutQuality = (lines: typeof day.records) => lines.filter((l) => l.type !== "quality");
      expect(withoutQuality(day.records)).toEqual(withoutQuality(right.records));
    }
  });

  it("analyses a day's records by their aligned time when sensor clocks run off across midnight (RTS = the stamp)", async () => {
    // Open till midnight; of three sensors one clock 40 s ahead, one 40 s behind (the third is the
    // shop's median clock, which alignment keeps), the RTS their stamps: each day's range holds
    // some of the other day's records and misses some of its own.
    const world = createWorld({ seed: 13, shops: 1, days: 2, sensorsPerShop: 3, rotation: "off", visitorsPerDay: 120, passersByPerDay: 800, openingHours: [18, 24] });
    const shopId = world.shops[0]!.id;
    const records = [...world.rawSignals(shopId)];
    const sensors = [...new Set(records.map((r) => r.square_mac))].sort();
    const skew = new Map([[sensors[0]!, 40_000], [sensors[1]!, -40_000]]);
    const stampedBy = (shift: (sensor: string) => number) =>
      records
        .map((r) => ({ ...r, ts: r.ts + shift(r.square_mac) }))
        .sort((a, b) => a.ts - b.ts)
        .map((r) => {
          const rts = r.ts.toString(16).padStart(16, "0");
          return { rts, record: { ...r, row_key: `${shopId}:${rts}` } };
        });
    const skewed = stampedBy((sensor) => skew.get(sensor) ?? 0);
    const right = stampedBy(() => 0);
    const midnight = world.startMs + 86_400_000;
    const days = [
      { sinceMs: world.startMs, untilMs: midnight },
      { sinceMs: midnight, untilMs: world.endMs },
    ];
    const crossing = records.filter((r) => (r.ts < midnight) !== (r.ts + (skew.get(r.square_mac) ?? 0) < midnight)).length;
    expect(crossing).toBeGreaterThan(0);
    const read = async (data: readonly { rts: string; record: unknown }[], d: (typeof days)[0]) =>
      analyzeShopDay(fakeClient(data as never, { sinceMode: "inclusive" }), { shopId, ...d, timeZone: "Asia/Seoul" });
    const [first, second] = [await read(skewed, days[0]!), await read(skewed, days[1]!)];
    // Each range's records of the other day are left to it, and it takes them from there: stamped
    // after midnight by the clock ahead, before it by the clock behind (and, at the world's ends,
    // stamped before its start or after its end).
    expect(first.outside + second.outside).toBe(crossing);
    expect(first.outside).toBeGreaterThan(0);
    expect(second.outside).toBeGreaterThan(0);
    expect(second.fromMargin).toBeGreaterThanOrEqual(first.outside);
    expect(first.fromMargin).toBeGreaterThanOrEqual(second.outside);
    const analysed = (day: typeof first) => Number(day.records.find((l) => l.type === "quality")!.signals);
    expect(analysed(first) + analysed(second)).toBe(records.length);
    for (const [i, day] of [first, second].entries()) {
      const truth = await read(right, days[i]!);
      const summary = (lines: typeof day.records) => lines.find((l) => l.type === "summary")!;
      expect(summary(day.records)).toEqual(summary(truth.records));
    }
  });

  it("reads a day once where the RTS is whole seconds, up to a second before each record's time", async () => {
    const world = createWorld({ seed: 13, shops: 1, visitorsPerDay: 40, passersByPerDay: 200, openingHours: [10, 14] });
    const shopId = world.shops[0]!.id;
    const seconds = [...world.rawSignals(shopId)].map((r) => {
      const rts = Math.floor(r.ts / 1000).toString(16).padStart(16, "0");
      return { rts, record: { ...r, row_key: `${shopId}:${rts}` } };
    });
    const range = { shopId, sinceMs: world.startMs, untilMs: world.endMs, timeZone: "Asia/Seoul", rtsCodec: secondsRts };
    const client = fakeClient(seconds, { sinceMode: "inclusive" });
    const day = await analyzeShopDay(client, range);
    expect([day.signals, day.outside, day.fromMargin]).toEqual([seconds.length, 0, 0]);
    // One read: as many requests as reading the range's records once.
    const once = fakeClient(seconds, { sinceMode: "inclusive" });
    await new Promise<void>((resolve, reject) =>
      signals(once, { shopId, since: world.startMs, until: world.endMs, rtsCodec: secondsRts }).subscribe({ error: reject, complete: resolve }),
    );
    expect(client.requests.length).toBe(once.requests.length);
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
