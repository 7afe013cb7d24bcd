import { describe, expect, it } from "vitest";
import { countedTruthCsv } from "../../../src/sim/truth/countedTruthCsv.ts";
import { createSimHandler } from "../../../src/sim/service/createSimHandler.ts";
import { createWorld } from "../../../src/sim/createWorld.ts";
import { peopleTruth } from "../../../src/sim/truth/peopleTruth.ts";
import { authHeaders } from "../world/fixtures.ts";

const world = createWorld({ seed: 21, shops: 1, days: 2, openingHours: [10, 14], visitorsPerDay: 120, passersByPerDay: 300, phones: "real" });
const shopId = 101;
const truth = peopleTruth(world);
const rows = (csv: string): string[][] => csv.trimEnd().split("\n").map((l) => l.split(","));

describe("countedTruthCsv", () => {
  it('"inside": 15-minute segments with local ISO times and the mean number of people inside', () => {
    const from = Date.parse("2026-11-16T10:00:00+09:00");
    const csv = countedTruthCsv(world, shopId, from, from + 4 * 3_600_000);
    const [header, ...body] = rows(csv);
    expect(header).toEqual(["shop_id", "start", "end", "people"]);
    expect(body).toHaveLength(16);
    expect(body[0]!.slice(0, 3)).toEqual(["101", "2026-11-16T10:00:00.000+09:00", "2026-11-16T10:15:00.000+09:00"]);
    expect(body[15]![2]).toBe("2026-11-16T14:00:00.000+09:00");
    for (const [, start, end, people] of body) {
      expect(Number(people)).toBeCloseTo(truth.inside(shopId, Date.parse(start!), Date.parse(end!)), 3);
    }
    expect(body.some(([, , , p]) => Number(p) > 0)).toBe(true);
  });

  it("counts people, not devices: extra devices, equipment and staff add nobody", () => {
    const extra = world.visits(shopId).filter((v) => v.extraDevice !== undefined && v.kind === "visitor");
    expect(extra.length).toBeGreaterThan(0);
    const own = world.visits(shopId).filter((v) => v.kind === "visitor" && v.extraDevice === undefined);
    const from = Date.parse("2026-11-16T11:00:00+09:00");
    const to = from + 3_600_000;
    const [, row] = rows(countedTruthCsv(world, shopId, from, to, { segmentMinutes: 60 }));
    const byHand = own.reduce((a, v) => a + Math.max(0, Math.min(v.end, to) - Math.max(v.start, from)), 0) / 3_600_000;
    expect(Number(row![3])).toBeCloseTo(byHand, 3);
  });

  it('"daily": people who came in per local day', () => {
    const [header, ...body] = rows(countedTruthCsv(world, shopId, world.startMs, world.endMs, { shape: "daily" }));
    expect(header).toEqual(["shop_id", "date", "visitors"]);
    expect(body.map((r) => r[1])).toEqual(["2026-11-16", "2026-11-17"]);
    const day = 86_400_000;
    expect(Number(body[0]![2])).toBe(truth.visitors(shopId, world.startMs, world.startMs + day));
    expect(Number(body[1]![2])).toBe(truth.visitors(shopId, world.startMs + day, world.endMs));
    const devices = world.visits(shopId).filter((v) => v.kind === "visitor" && v.start < world.startMs + day).length;
    expect(Number(body[0]![2])).toBeLessThan(devices);
  });

  it("writes each time with the offset then (a DST day)", () => {
    const ny = createWorld({ seed: 3, shops: 1, timeZone: "America/New_York", start: "2026-11-01", openingHours: [0, 4], visitorsPerDay: 20, passersByPerDay: 0 });
    const from = Date.parse("2026-11-01T01:00:00-04:00");
    const body = rows(countedTruthCsv(ny, 101, from, from + 2 * 3_600_000, { segmentMinutes: 60 })).slice(1);
    expect(body.map((r) => r[1])).toEqual(["2026-11-01T01:00:00.000-04:00", "2026-11-01T01:00:00.000-05:00"]);
  });

  it("rejects an unknown shop, an empty span and bad options", () => {
    expect(() => countedTruthCsv(world, 999, world.startMs, world.endMs)).toThrow(RangeError);
    expect(() => countedTruthCsv(world, shopId, world.endMs, world.startMs)).toThrow(RangeError);
    expect(() => countedTruthCsv(world, shopId, world.startMs, world.endMs, { shape: "hourly" as never })).toThrow(RangeError);
    expect(() => countedTruthCsv(world, shopId, world.startMs, world.endMs, { segmentMinutes: 0 })).toThrow(RangeError);
    expect(() => countedTruthCsv(world, shopId, world.startMs, world.endMs, { segment: 5 } as never)).toThrow(TypeError);
  });
});

describe("GET /__sim/counted", () => {
  const sim = createSimHandler({ world });
  const get = (path: string, headers = authHeaders(sim)) => sim.fetch(`http://sim${path}`, { headers });

  it("serves the same CSV as countedTruthCsv, over the world's span by default", async () => {
    const r = await get(`/__sim/counted?shop=${shopId}`);
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toMatch(/^text\/csv/);
    expect(await r.text()).toBe(countedTruthCsv(world, shopId, world.startMs, world.endMs));
    const daily = await get(`/__sim/counted?shop=${shopId}&shape=daily`);
    expect(await daily.text()).toBe(countedTruthCsv(world, shopId, world.startMs, world.endMs, { shape: "daily" }));
  });

  it("reads since/until as ISO 8601 with an offset (encoded or not), a local date or epoch ms", async () => {
    const from = Date.parse("2026-11-16T10:00:00+09:00");
    const want = countedTruthCsv(world, shopId, from, from + 3_600_000, { segmentMinutes: 30 });
    for (const q of [
      "since=2026-11-16T10:00:00.000%2B09:00&until=2026-11-16T11:00:00%2B09:00",
      "since=2026-11-16T10:00:00.000+09:00&until=2026-11-16T02:00:00Z",
      `since=${from}&until=${from + 3_600_000}`,
    ]) {
      expect(await (await get(`/__sim/counted?shop=${shopId}&${q}&segment_minutes=30`)).text()).toBe(want);
    }
    const day = await get(`/__sim/counted?shop=${shopId}&since=2026-11-17&shape=daily`);
    expect(rows(await day.text()).slice(1).map((r) => r[1])).toEqual(["2026-11-17"]);
  });

  it("answers 400 for bad parameters, 404 for an unknown shop, 401 without the account", async () => {
    for (const [q, field] of [
      ["", "shop"],
      ["shop=abc", "shop"],
      [`shop=${shopId}&shape=hourly`, "shape"],
      [`shop=${shopId}&since=2026-11-16T10:00:00`, "since"],
      [`shop=${shopId}&until=yesterday`, "until"],
      [`shop=${shopId}&since=2026-11-17&until=2026-11-16`, "until"],
      [`shop=${shopId}&segment_minutes=0`, "segment_minutes"],
    ] as const) {
      const r = await get(`/__sim/counted?${q}`);
      expect(r.status, q).toBe(400);
      expect(((await r.json()) as { field: string }).field).toBe(field);
    }
    expect((await get("/__sim/counted?shop=999")).status).toBe(404);
    expect((await get(`/__sim/counted?shop=${shopId}`, {} as Record<string, string>)).status).toBe(401);
  });
});
