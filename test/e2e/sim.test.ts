import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseRowKey } from "../../src/codec/rowKey.ts";
import { startSimulator, type RunningSimulator } from "../../src/sim/service/startSimulator.ts";

// The service mechanics on the simple world (one MAC per visit): paging is checked record by record.
const worldOptions = { seed: 21, shops: 2, rotation: "off", openingHours: [10, 12], visitorsPerDay: 30, passersByPerDay: 200, staffPerShop: 1, stationaryPerShop: 1 } as const;

describe("simulator on a real port", () => {
  let sim: RunningSimulator;
  let headers: Record<string, string>;
  beforeAll(async () => {
    sim = await startSimulator({ port: 0, world: worldOptions });
    headers = { "X-User-Email": sim.email, "X-User-Token": sim.token };
  });
  afterAll(() => sim.close());

  it("listens on 127.0.0.1 with one address for both bases", () => {
    expect(sim.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(sim.signalUrl).toBe(sim.baseUrl);
    expect(JSON.stringify(sim)).not.toContain(sim.token);
  });

  it("runs the sales workflow: brands → shop by External Key → POST daily record → listing", async () => {
    const { brands } = await (await fetch(`${sim.baseUrl}/api/v1/brands`, { headers })).json();
    const target = sim.world.shops[1]!;
    const brand = brands.find((b: { id: number }) => b.id === target.brandId);
    const q = new URLSearchParams({ vendor: brand.name, vendor_key: target.externalKey });
    const { shop } = await (await fetch(`${sim.baseUrl}/api/v1/brands/${brand.id}/shops/external?${q}`, { headers })).json();
    expect(shop).toEqual({ id: target.id, name: target.name });
    const record = { date: "2026-11-16", amount: 870_000, quantity: 64, amount_currency: "KRW" };
    const post = await fetch(`${sim.baseUrl}/api/v1/shops/${shop.id}/sales_stats_dailies`, {
      method: "POST",
      headers: { ...headers, "Content-Type": "application/json" },
      body: JSON.stringify({ sales_stats_daily: record }),
    });
    expect(post.status).toBe(201);
    const listed = await (await fetch(`${sim.baseUrl}/api/v1/shops/${shop.id}/sales_stats_dailies`, { headers })).json();
    expect(listed).toEqual({ sales_stats_dailies: [record] });
  });

  it("serves every signal of a shop through since/limit paging, as the world holds them", async () => {
    const shopId = sim.world.shops[0]!.id;
    const expected = [...sim.world.rawSignals(shopId)];
    const got: unknown[] = [];
    const seen = new Set<string>();
    let since = "";
    for (let pages = 0; pages < 10_000; pages++) {
      const res = await fetch(`${sim.signalUrl}/api/v1/shops/${shopId}/wifi_signals?limit=200${since ? `&since=${since}` : ""}`, { headers });
      expect(res.status).toBe(200);
      const body = await res.json();
      expect(body.since).toBe(since || "0000000000000000");
      for (const s of body.signals) {
        const key = JSON.stringify(s);
        if (!seen.has(key)) {
          seen.add(key);
          got.push(s);
        }
      }
      if (body.signals.length < 200) break;
      since = parseRowKey(body.signals[body.signals.length - 1].row_key).rts;
    }
    expect(got).toEqual(expected);
  });

  it("answers auth failures with 401 and a JSON error over HTTP", async () => {
    const res = await fetch(`${sim.baseUrl}/api/v1/brands`);
    expect(res.status).toBe(401);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(typeof (await res.json()).error).toBe("string");
  });
});

describe("simulator ports and faults over HTTP", () => {
  it("splits {signal_url} onto its own port when asked", async () => {
    const sim = await startSimulator({ port: 0, signalPort: 0, world: worldOptions });
    try {
      const headers = { "x-user-email": sim.email, "x-user-token": sim.token };
      expect(sim.signalUrl).not.toBe(sim.baseUrl);
      expect((await fetch(`${sim.signalUrl}/api/v1/shops/101/wifi_signals`, { headers })).status).toBe(200);
      expect((await fetch(`${sim.baseUrl}/api/v1/shops/101/wifi_signals`, { headers })).status).toBe(404);
      expect((await fetch(`${sim.signalUrl}/api/v1/brands`, { headers })).status).toBe(404);
      expect((await fetch(`${sim.baseUrl}/api/v1/brands`, { headers })).status).toBe(200);
    } finally {
      await sim.close();
    }
  });

  it("delivers truncated bodies as a complete HTTP response whose JSON is cut", async () => {
    const sim = await startSimulator({ port: 0, world: worldOptions, faults: { truncateRate: 1 } });
    try {
      const res = await fetch(`${sim.signalUrl}/api/v1/shops/101/wifi_signals?limit=200`, { headers: { "x-user-email": sim.email, "x-user-token": sim.token } });
      expect(res.status).toBe(200);
      expect(res.headers.get("x-sim-fault")).toBe("truncate");
      const text = await res.text();
      expect(text.startsWith('{"signals":[')).toBe(true);
      expect(() => JSON.parse(text)).toThrow(SyntaxError);
    } finally {
      await sim.close();
    }
  });

  it("refuses connections after close", async () => {
    const sim = await startSimulator({ port: 0, world: worldOptions });
    await sim.close();
    await expect(fetch(`${sim.baseUrl}/api/v1/brands`)).rejects.toThrow();
  });
});

describe("a rotating world over HTTP", () => {
  it("serves signals whose MACs all resolve, through /__sim/truth, to the people who used them", async () => {
    const sim = await startSimulator({ port: 0, world: { ...worldOptions, shops: 1, rotation: "realistic" } });
    try {
      const headers = { "x-user-email": sim.email, "x-user-token": sim.token };
      const ndjson = async (path: string) => (await (await fetch(`${sim.baseUrl}${path}`, { headers })).text()).trimEnd().split("\n").map((l) => JSON.parse(l));
      const rows = await ndjson("/__sim/truth?shop=101");
      const visits = await ndjson("/__sim/truth?shop=101&view=visits");
      const personOf = new Map<string, number>(rows.map((r) => [r.device, r.person]));
      const devices = new Set<string>();
      let since = "";
      for (let pages = 0; pages < 10_000; pages++) {
        const body = await (await fetch(`${sim.signalUrl}/api/v1/shops/101/wifi_signals?limit=200${since ? `&since=${since}` : ""}`, { headers })).json();
        for (const s of body.signals) devices.add(s.device_id);
        if (body.signals.length < 200) break;
        since = parseRowKey(body.signals[body.signals.length - 1].row_key).rts;
      }
      expect([...devices].filter((d) => !personOf.has(d))).toEqual([]);
      // Rotation makes MACs outnumber the people behind them.
      const people = new Set([...devices].map((d) => personOf.get(d)));
      expect(devices.size).toBeGreaterThan(2 * people.size);
      expect(new Set(visits.map((v) => v.person)).size).toBeGreaterThanOrEqual(people.size);
    } finally {
      await sim.close();
    }
  });
});
