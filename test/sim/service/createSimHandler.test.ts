import { inspect } from "node:util";
import { describe, expect, it, vi } from "vitest";
import { parseRowKey } from "../../../src/codec/rowKey.ts";
import { millisToRts, rtsToMillis } from "../../../src/codec/rts.ts";
import { spellRts } from "../../../src/codec/rtsSpelling.ts";
import fc from "fast-check";
import { createSimHandler, type FaultOptions, type SimHandler, type SimulatorOptions } from "../../../src/sim/service/createSimHandler.ts";
import { authHeaders, smallWorld, smallWorldOptions } from "../world/fixtures.ts";

const BASE = "http://sim.test";

function sim(options: Omit<SimulatorOptions, "world"> = {}): SimHandler {
  return createSimHandler({ world: smallWorld(), ...options });
}

async function get(h: SimHandler, path: string, headers: Record<string, string> = authHeaders(h)) {
  const res = await h.fetch(`${BASE}${path}`, { headers });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, body: tryJson(text) };
}

async function post(h: SimHandler, shop: number | string, body: unknown, contentType = "application/json") {
  const res = await h.fetch(`${BASE}/api/v1/shops/${shop}/sales_stats_dailies`, {
    method: "POST",
    headers: { ...authHeaders(h), "content-type": contentType },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, text, body: tryJson(text) };
}

function tryJson(text: string): any { // eslint-style escape: test bodies are inspected loosely
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

const day = { date: "2026-11-16", amount: 1_250_000, quantity: 87, amount_currency: "KRW" };

describe("auth", () => {
  const h = sim();
  it.each([
    ["no headers", {}],
    ["only the e-mail", { "x-user-email": "analyst@footfall.test" }],
    ["only the token", { "x-user-token": "sim-token" }],
    ["a wrong token", { "x-user-email": "analyst@footfall.test", "x-user-token": "nope" }],
    ["a wrong e-mail", { "x-user-email": "other@footfall.test", "x-user-token": "sim-token" }],
  ])("answers 401 with a JSON error for %s", async (_, headers) => {
    for (const path of ["/api/v1/brands", "/api/v1/shops/101/wifi_signals", "/__sim/world", "/__sim/truth?shop=101", "/nowhere"]) {
      const r = await get(h, path, headers);
      expect(r.status).toBe(401);
      expect(typeof r.body.error).toBe("string");
      expect(r.text).not.toContain("sim-token");
    }
  });

  it("accepts any header case and an e-mail in any letter case", async () => {
    const r = await get(h, "/api/v1/brands", { "X-User-Email": "Analyst@Footfall.Test", "X-USER-TOKEN": "sim-token" });
    expect(r.status).toBe(200);
  });

  it("uses the configured account", async () => {
    const custom = sim({ email: "me@shop.kr", token: "t0ken" });
    expect((await get(custom, "/api/v1/brands", { "x-user-email": "me@shop.kr", "x-user-token": "t0ken" })).status).toBe(200);
    expect((await get(custom, "/api/v1/brands", { "x-user-email": "analyst@footfall.test", "x-user-token": "sim-token" })).status).toBe(401);
  });

  it("keeps the token out of JSON and inspect output", () => {
    const custom = sim({ token: "very-secret-token" });
    expect(custom.token).toBe("very-secret-token");
    expect(JSON.stringify(custom)).not.toContain("very-secret-token");
    expect(inspect(custom, { depth: 4 })).not.toContain("very-secret-token");
  });
});

describe("brands and shop lookup", () => {
  const h = sim();
  const world = smallWorld();

  it("lists the world's brands as {id, name}", async () => {
    const r = await get(h, "/api/v1/brands");
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toMatch(/^application\/json/);
    expect(r.body).toEqual({ brands: world.brands.map((b) => ({ id: b.id, name: b.name })) });
  });

  it("resolves every shop by brand name and External Key to {id, name}", async () => {
    for (const shop of world.shops) {
      const brand = world.brands.find((b) => b.id === shop.brandId)!;
      const q = new URLSearchParams({ vendor: brand.name, vendor_key: shop.externalKey });
      const r = await get(h, `/api/v1/brands/${brand.id}/shops/external?${q}`);
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ shop: { id: shop.id, name: shop.name } });
    }
  });

  it("answers 400 for a missing or empty parameter, 404 for unknown brand, vendor or key", async () => {
    const shop = world.shops[0]!;
    const other = world.shops.find((s) => s.brandId !== shop.brandId)!;
    const brand = world.brands.find((b) => b.id === shop.brandId)!;
    const otherBrand = world.brands.find((b) => b.id === other.brandId)!;
    const cases: [string, number][] = [
      [`/api/v1/brands/${brand.id}/shops/external?vendor_key=${shop.externalKey}`, 400],
      [`/api/v1/brands/${brand.id}/shops/external?vendor=${encodeURIComponent(brand.name)}`, 400],
      [`/api/v1/brands/${brand.id}/shops/external?vendor=&vendor_key=${shop.externalKey}`, 400],
      [`/api/v1/brands/999/shops/external?vendor=${encodeURIComponent(brand.name)}&vendor_key=${shop.externalKey}`, 404],
      [`/api/v1/brands/abc/shops/external?vendor=${encodeURIComponent(brand.name)}&vendor_key=${shop.externalKey}`, 404],
      [`/api/v1/brands/${brand.id}/shops/external?vendor=${encodeURIComponent(otherBrand.name)}&vendor_key=${shop.externalKey}`, 404],
      [`/api/v1/brands/${brand.id}/shops/external?vendor=${encodeURIComponent(brand.name)}&vendor_key=${other.externalKey}`, 404],
      [`/api/v1/brands/${brand.id}/shops/external?vendor=${encodeURIComponent(brand.name)}&vendor_key=NOPE-00`, 404],
    ];
    for (const [path, status] of cases) {
      const r = await get(h, path);
      expect([path, r.status]).toEqual([path, status]);
      expect(typeof r.body.error).toBe("string");
    }
  });
});

describe("sales", () => {
  it("stores one record per shop and date; a second POST for the date overwrites it", async () => {
    const h = sim();
    expect((await get(h, "/api/v1/shops/101/sales_stats_dailies")).body).toEqual({ sales_stats_dailies: [] });
    const first = await post(h, 101, { sales_stats_daily: day });
    expect(first.status).toBe(201);
    const second = await post(h, 101, { sales_stats_daily: { ...day, amount: 990_000, quantity: 70 } });
    expect(second.status).toBe(200);
    await post(h, 101, { sales_stats_daily: { ...day, date: "2026-11-15", amount: 5 } });
    const listed = await get(h, "/api/v1/shops/101/sales_stats_dailies");
    expect(listed.body).toEqual({
      sales_stats_dailies: [
        { ...day, date: "2026-11-15", amount: 5 },
        { ...day, amount: 990_000, quantity: 70 },
      ],
    });
    // Other shops are untouched.
    expect((await get(h, "/api/v1/shops/102/sales_stats_dailies")).body).toEqual({ sales_stats_dailies: [] });
  });

  it("ignores unknown extra fields and keeps exactly the four documented ones", async () => {
    const h = sim();
    await post(h, 101, { sales_stats_daily: { ...day, note: "x" }, extra: 1 });
    expect((await get(h, "/api/v1/shops/101/sales_stats_dailies")).body.sales_stats_dailies).toEqual([day]);
  });

  it.each([
    ["sales_stats_daily", {}],
    ["sales_stats_daily", { sales_stats_daily: [day] }],
    ["sales_stats_daily.date", { sales_stats_daily: { ...day, date: undefined } }],
    ["sales_stats_daily.date", { sales_stats_daily: { ...day, date: 20261116 } }],
    ["sales_stats_daily.date", { sales_stats_daily: { ...day, date: "2026-02-30" } }],
    ["sales_stats_daily.date", { sales_stats_daily: { ...day, date: "16/11/2026" } }],
    ["sales_stats_daily.date", { sales_stats_daily: { ...day, date: "2026-11-16T00:00:00Z" } }],
    ["sales_stats_daily.amount", { sales_stats_daily: { ...day, amount: undefined } }],
    ["sales_stats_daily.amount", { sales_stats_daily: { ...day, amount: "1000" } }],
    ["sales_stats_daily.amount", { sales_stats_daily: { ...day, amount: -1 } }],
    ["sales_stats_daily.quantity", { sales_stats_daily: { ...day, quantity: undefined } }],
    ["sales_stats_daily.quantity", { sales_stats_daily: { ...day, quantity: 1.5 } }],
    ["sales_stats_daily.quantity", { sales_stats_daily: { ...day, quantity: "3" } }],
    ["sales_stats_daily.quantity", { sales_stats_daily: { ...day, quantity: -2 } }],
    ["sales_stats_daily.amount_currency", { sales_stats_daily: { ...day, amount_currency: undefined } }],
    ["sales_stats_daily.amount_currency", { sales_stats_daily: { ...day, amount_currency: "XYZ" } }],
    ["sales_stats_daily.amount_currency", { sales_stats_daily: { ...day, amount_currency: "krw" } }],
    ["sales_stats_daily.amount_currency", { sales_stats_daily: { ...day, amount_currency: 410 } }],
  ])("answers 400 naming %s", async (field, body) => {
    const h = sim();
    const r = await post(h, 101, body);
    expect(r.status).toBe(400);
    expect(r.body.field).toBe(field);
    expect(r.body.error).toContain(field);
    expect((await get(h, "/api/v1/shops/101/sales_stats_dailies")).body.sales_stats_dailies).toEqual([]);
  });

  it("answers 400 for a non-finite amount (1e999 parses to Infinity)", async () => {
    const r = await post(sim(), 101, `{"sales_stats_daily":{"date":"2026-11-16","amount":1e999,"quantity":1,"amount_currency":"KRW"}}`);
    expect(r.status).toBe(400);
    expect(r.body.field).toBe("sales_stats_daily.amount");
  });

  it("accepts other active ISO 4217 codes", async () => {
    const h = sim();
    for (const code of ["USD", "JPY", "EUR", "BHD"]) expect((await post(h, 101, { sales_stats_daily: { ...day, amount_currency: code } })).status).toBeLessThan(300);
  });

  it("answers 400 for a body that is not JSON, 415 for another content type, 404 for an unknown shop, 405 for other methods", async () => {
    const h = sim();
    expect((await post(h, 101, "{not json")).status).toBe(400);
    expect((await post(h, 101, { sales_stats_daily: day }, "text/plain")).status).toBe(415);
    expect((await post(h, 101, { sales_stats_daily: day }, "application/json; charset=utf-8")).status).toBe(201);
    expect((await post(h, 999, { sales_stats_daily: day })).status).toBe(404);
    expect((await post(h, "abc", { sales_stats_daily: day })).status).toBe(404);
    expect((await get(h, "/api/v1/shops/999/sales_stats_dailies")).status).toBe(404);
    const put = await h.fetch(`${BASE}/api/v1/shops/101/sales_stats_dailies`, { method: "PUT", headers: authHeaders(h), body: "{}" });
    expect(put.status).toBe(405);
    expect(put.headers.get("allow")).toBe("GET, POST");
  });
});

describe("signals", () => {
  const world = smallWorld();
  const shop = world.shops[0]!;
  const all = [...world.rawSignals(shop.id)];
  const h = sim();
  const page = (query: string) => get(h, `/api/v1/shops/${shop.id}/wifi_signals${query}`);

  it("without since starts at the beginning of data, 20 records by default, in world order", async () => {
    const r = await page("");
    expect(r.status).toBe(200);
    expect(r.body.signals).toEqual(all.slice(0, 20));
    expect(r.body.since).toBe("0000000000000000");
  });

  it("returns up to limit records from since (inclusive), echoing since", async () => {
    const at = all[500]!;
    const rts = parseRowKey(at.row_key).rts;
    const r = await page(`?since=${rts}&limit=200`);
    expect(r.body.since).toBe(rts);
    expect(r.body.signals).toHaveLength(200);
    const firstIndex = all.findIndex((s) => s.ts >= at.ts);
    expect(r.body.signals).toEqual(all.slice(firstIndex, firstIndex + 200));
  });

  it("pages through the whole shop with the inclusive cursor, ascending, each record once", async () => {
    // The cursor a client would use: since = last RTS seen (inclusive); drop what was delivered at
    // that RTS, as a multiset — real captures hold identical records (two frames of one burst).
    const got: unknown[] = [];
    let since = "";
    let atBoundary = new Map<string, number>();
    for (let pages = 0; pages < 10_000; pages++) {
      const signals = (await page(`?limit=200${since ? `&since=${since}` : ""}`)).body.signals as typeof all;
      for (let i = 1; i < signals.length; i++) expect(signals[i]!.row_key >= signals[i - 1]!.row_key).toBe(true);
      const skip = new Map(atBoundary);
      for (const s of signals) {
        const key = JSON.stringify(s);
        const left = parseRowKey(s.row_key).rts === since ? (skip.get(key) ?? 0) : 0;
        if (left > 0) skip.set(key, left - 1);
        else got.push(s);
      }
      if (signals.length < 200) break;
      since = parseRowKey(signals[signals.length - 1]!.row_key).rts;
      atBoundary = new Map();
      for (const s of signals) if (parseRowKey(s.row_key).rts === since) atBoundary.set(JSON.stringify(s), (atBoundary.get(JSON.stringify(s)) ?? 0) + 1);
    }
    expect(got).toEqual(all);
  });

  it("writes row_key as <shop_id>:<rts of ts>, local from bit 0x02, only the shop's sensors", async () => {
    const r = await page("?limit=200");
    for (const s of r.body.signals as typeof all) {
      expect(s.row_key).toBe(`${shop.id}:${millisToRts(s.ts)}`);
      expect(s.local).toBe((Number.parseInt(s.device_id.slice(0, 2), 16) & 2) === 2);
      expect(shop.sensors).toContain(s.square_mac);
      expect(Number.isInteger(s.rssi) && s.rssi < 0 && s.rssi >= -127).toBe(true);
    }
  });

  it("with rtsCase upper spells the RTS as %016X; a since in its spelling is since, a lowercase one is read by bytes", async () => {
    const upper = sim({ rtsCase: "upper" });
    const at = all[500]!;
    const rts = parseRowKey(at.row_key).rts;
    const r = await get(upper, `/api/v1/shops/${shop.id}/wifi_signals?since=${rts.toUpperCase()}&limit=200`);
    expect(r.body.signals).toEqual(all.slice(all.findIndex((s) => s.ts >= at.ts)).slice(0, 200).map((s) => ({ ...s, row_key: s.row_key.toUpperCase() })));
    expect(r.body.since).toBe(rts.toUpperCase());
    // A lowercase since with a letter sorts after every uppercase key that shares its digits up
    // to that letter: such a store answers from far later (here: nothing), not from `rts`.
    expect(rts).toMatch(/[a-f]/);
    expect((await get(upper, `/api/v1/shops/${shop.id}/wifi_signals?since=${rts}&limit=200`)).body.signals).toEqual([]);
  });

  it("in every RTS spelling, a page starts at the first record whose key, as spelled, is at or after since as a string", async () => {
    const keys = (spelling: { upper: boolean; padded: boolean }) => all.map((s) => spellRts(parseRowKey(s.row_key).rts, spelling));
    const hex = fc.constantFrom(..."0123456789abcdefABCDEF");
    const near = fc.nat(all.length - 1).chain((i) => fc.constant(parseRowKey(all[i]!.row_key).rts));
    await fc.assert(
      fc.asyncProperty(
        fc.record({ upper: fc.boolean(), padded: fc.boolean() }),
        fc.constantFrom("inclusive", "exclusive" as const),
        // Near the data in any spelling, or arbitrary hex.
        fc.oneof(fc.tuple(near, fc.record({ upper: fc.boolean(), padded: fc.boolean() })).map(([rts, s]) => spellRts(rts, s)), fc.string({ unit: hex, minLength: 1, maxLength: 16 })),
        async (spelling, sinceMode, since) => {
          const h = sim({ rtsCase: spelling.upper ? "upper" : "lower", rtsPadded: spelling.padded, sinceMode });
          const served = keys(spelling);
          const first = served.findIndex((k) => (sinceMode === "exclusive" ? k > since : k >= since));
          const r = await get(h, `/api/v1/shops/${shop.id}/wifi_signals?since=${since}&limit=3`);
          expect(r.status).toBe(200);
          const want = first < 0 ? [] : all.slice(first, first + 3).map((s, k) => ({ ...s, row_key: `${shop.id}:${served[first + k]}` }));
          expect(r.body.signals).toEqual(want);
        },
      ),
      { numRuns: 150 },
    );
  });

  it("returns an empty page for a since after all data", async () => {
    const after = millisToRts(world.endMs + 1);
    expect((await page(`?since=${after}`)).body).toEqual({ signals: [], since: after });
    expect((await page(`?since=ffffffffffffffff`)).body).toEqual({ signals: [], since: "ffffffffffffffff" });
  });

  it.each(["0", "201", "-1", "1.5", "abc", "", "1e2", " 5", "0x10"])("answers 400 for limit=%j", async (limit) => {
    const r = await page(`?limit=${encodeURIComponent(limit)}`);
    expect(r.status).toBe(400);
    expect(r.body.field).toBe("limit");
  });

  it("accepts limit 1 and 200", async () => {
    expect((await page("?limit=1")).body.signals).toHaveLength(1);
    expect((await page("?limit=200")).body.signals).toHaveLength(200);
  });

  it.each(["000001a1dfb91b345", "", "zzzzzzzzzzzzzzzz", "2026-11-16"])("answers 400 for since=%j", async (since) => {
    const r = await page(`?since=${encodeURIComponent(since)}`);
    expect(r.status).toBe(400);
    expect(r.body.field).toBe("since");
  });

  it("answers 404 for an unknown shop and 405 for other methods", async () => {
    expect((await get(h, "/api/v1/shops/999/wifi_signals")).status).toBe(404);
    expect((await get(h, "/api/v1/shops/x/wifi_signals")).status).toBe(404);
    const res = await h.fetch(`${BASE}/api/v1/shops/${shop.id}/wifi_signals`, { method: "POST", headers: authHeaders(h) });
    expect(res.status).toBe(405);
    expect((await get(h, "/api/v2/brands")).status).toBe(404);
  });

  it("keeps equal-RTS records in one stable order across requests and page boundaries", async () => {
    let tieAt = -1;
    for (let i = 1; i < all.length && tieAt < 0; i++) if (all[i]!.ts === all[i - 1]!.ts) tieAt = i - 1;
    expect(tieAt).toBeGreaterThanOrEqual(0);
    const rts = millisToRts(all[tieAt]!.ts);
    const a = await page(`?since=${rts}&limit=5`);
    const b = await page(`?since=${rts}&limit=5`);
    expect(a.text).toBe(b.text);
    expect(a.body.signals.slice(0, 2)).toEqual(all.slice(tieAt, tieAt + 2));
  });

  it("sinceMode exclusive starts after the since RTS", async () => {
    const ex = sim({ sinceMode: "exclusive" });
    const at = all[300]!;
    const r = await get(ex, `/api/v1/shops/${shop.id}/wifi_signals?since=${millisToRts(at.ts)}&limit=10`);
    const firstAfter = all.findIndex((s) => s.ts > at.ts);
    expect(r.body.signals).toEqual(all.slice(firstAfter, firstAfter + 10));
  });

  it.each([
    ["s", (ms: number) => Math.floor(ms / 1000)],
    ["ms", (ms: number) => ms],
    ["us", (ms: number) => ms * 1000],
    ["ns", (ms: number) => ms * 1_000_000],
  ] as const)("tsUnit %s scales ts and keeps the RTS in ms", async (tsUnit, scale) => {
    const u = sim({ tsUnit });
    const r = await get(u, `/api/v1/shops/${shop.id}/wifi_signals?limit=50`);
    for (const [i, s] of (r.body.signals as typeof all).entries()) {
      expect(s.row_key).toBe(all[i]!.row_key);
      expect(s.ts).toBe(scale(rtsToMillis(parseRowKey(s.row_key).rts)));
    }
    if (tsUnit === "ns") expect(r.text).toContain(`"ts":${all[0]!.ts}000000`);
  });

  it("the same seed gives identical pages, another seed different ones", async () => {
    const a = createSimHandler({ world: smallWorldOptions });
    const b = createSimHandler({ world: smallWorldOptions });
    const c = createSimHandler({ world: { ...smallWorldOptions, seed: 8 } });
    for (const q of ["?limit=200", `?since=${millisToRts(world.startMs + 11 * 3_600_000)}&limit=200`]) {
      const pa = await get(a, `/api/v1/shops/${shop.id}/wifi_signals${q}`);
      const pb = await get(b, `/api/v1/shops/${shop.id}/wifi_signals${q}`);
      const pc = await get(c, `/api/v1/shops/${shop.id}/wifi_signals${q}`);
      expect(pa.text).toBe(pb.text);
      expect(pa.text).not.toBe(pc.text);
    }
  });
});

describe("live mode", () => {
  it("shows only signals simulated time has reached; time runs speed× an injected clock", async () => {
    const world = smallWorld();
    const shop = world.shops[0]!;
    let now = 5_000_000;
    const liveStart = world.startMs + 11 * 3_600_000;
    const h = createSimHandler({ world, speed: 60, liveStart, clock: () => now });
    const after = async (sinceMs: number) =>
      (await get(h, `/api/v1/shops/${shop.id}/wifi_signals?since=${millisToRts(sinceMs)}&limit=200`)).body.signals as { ts: number }[];
    expect(h.simNow()).toBe(liveStart);
    const visible = (ms: number) => [...world.rawSignals(shop.id, ms - 60_000, Infinity)].filter((s) => s.ts <= ms);
    const before = await after(liveStart - 60_000);
    expect(before).toEqual(visible(liveStart).slice(0, 200));
    expect(await after(liveStart + 1)).toEqual([]);
    now += 10_000; // 10 s real → 10 simulated minutes
    expect(h.simNow()).toBe(liveStart + 600_000);
    const later = await after(liveStart + 1);
    expect(later.length).toBeGreaterThan(0);
    expect(later.every((s) => s.ts <= liveStart + 600_000)).toBe(true);
    expect(later).toEqual([...world.rawSignals(shop.id, liveStart + 1, liveStart + 600_001)].slice(0, 200));
  });

  it("uploadEveryMs: a record shows once its sensor's next upload has passed; everything a period old is there", async () => {
    const world = smallWorld();
    const shop = world.shops[0]!;
    // Half a minute: a period's records fit one page of 200 (real phones send up to ~130 frames a burst).
    const every = 30_000;
    let now = 0;
    const liveStart = world.startMs + 11 * 3_600_000;
    const h = createSimHandler({ world, speed: 1, liveStart, clock: () => now, uploadEveryMs: every });
    const page = async (sinceMs: number) =>
      (await get(h, `/api/v1/shops/${shop.id}/wifi_signals?since=${millisToRts(sinceMs)}&limit=200`)).body.signals as { ts: number; square_mac: string }[];
    const collected = [...world.rawSignals(shop.id, liveStart - every, liveStart + 1)];
    const shown = await page(liveStart - every);
    // The last period is thinned out: each sensor has uploaded up to its own last upload.
    expect(shown.length).toBeLessThan(collected.slice(0, 200).length);
    const lastUpload = new Map<string, number>();
    for (const r of collected) {
      const seen = shown.some((x) => JSON.stringify(x) === JSON.stringify(r));
      // Per sensor, what is shown is everything up to one instant: a shown record is never after a missing one.
      if (seen) expect(r.ts).toBeLessThanOrEqual(lastUpload.get(r.square_mac) ?? Number.POSITIVE_INFINITY);
      else lastUpload.set(r.square_mac, Math.min(lastUpload.get(r.square_mac) ?? Number.POSITIVE_INFINITY, r.ts));
    }
    expect(shown).toEqual(collected.filter((r) => r.ts < (lastUpload.get(r.square_mac) ?? Number.POSITIVE_INFINITY)).slice(0, 200));
    // One period later, everything collected by liveStart is there, in RTS order (and some of what came after).
    expect(collected.length).toBeLessThan(200);
    now += every;
    expect((await page(liveStart - every)).slice(0, collected.length)).toEqual(collected);
    expect(() => createSimHandler({ world, uploadEveryMs: -1 })).toThrow(RangeError);
    expect(() => createSimHandler({ world, uploadEveryMs: Number.NaN })).toThrow(RangeError);
  });

  it("pageSize: pages hold at most the cap, or a size drawn per page from the range, the same each time they are asked for", async () => {
    const world = smallWorld();
    const shop = world.shops[0]!;
    const lengths = async (h: ReturnType<typeof createSimHandler>, limit: number) => {
      const out: number[] = [];
      // Ten-minute steps through the opening hours (10:00–13:00), where pages fill.
      for (let since = world.startMs + 10 * 3_600_000; out.length < 20; since += 600_000) {
        out.push(((await get(h, `/api/v1/shops/${shop.id}/wifi_signals?since=${millisToRts(since)}&limit=${limit}`)).body.signals as unknown[]).length);
      }
      return out;
    };
    const all = await lengths(createSimHandler({ world }), 200);
    const capped = await lengths(createSimHandler({ world, pageSize: 50 }), 200);
    expect(capped).toEqual(all.map((n) => Math.min(n, 50)));
    // A limit below the cap still rules.
    expect(await lengths(createSimHandler({ world, pageSize: 50 }), 7)).toEqual(all.map((n) => Math.min(n, 7)));
    const drawn = createSimHandler({ world, pageSize: [20, 120] });
    const cut = await lengths(drawn, 200);
    expect(await lengths(drawn, 200)).toEqual(cut);
    const full = all.filter((n) => n === 200).length;
    expect(full).toBeGreaterThan(10);
    expect(cut.filter((_n, i) => all[i] === 200).every((n) => n >= 20 && n <= 120)).toBe(true);
    expect(new Set(cut.filter((_n, i) => all[i] === 200)).size).toBeGreaterThan(3);
    for (const bad of [0, 1.5, [30, 10], [5], Number.NaN] as const) expect(() => createSimHandler({ world, pageSize: bad as never })).toThrow(RangeError);
  });

  it("defaults liveStart to the world's start", () => {
    const world = smallWorld();
    const h = createSimHandler({ world, speed: 1, clock: () => 42 });
    expect(h.simNow()).toBe(world.startMs);
    expect(createSimHandler({ world }).simNow()).toBeUndefined();
  });
});

describe("faults", () => {
  const n = 400;
  async function run(faults: FaultOptions, seed: number) {
    const h = createSimHandler({ world: smallWorld(), faults, seed });
    const out: { status: number; retryAfter: string | null; fault: string | null; parses: boolean }[] = [];
    for (let i = 0; i < n; i++) {
      const res = await h.fetch(`${BASE}/api/v1/brands`, { headers: authHeaders(h) });
      const text = await res.text();
      out.push({ status: res.status, retryAfter: res.headers.get("retry-after"), fault: res.headers.get("x-sim-fault"), parses: tryJson(text) !== undefined });
    }
    return out;
  }

  it("fails (500/503) at roughly failRate, reproducibly per seed", async () => {
    const a = await run({ failRate: 0.2 }, 3);
    const failed = a.filter((r) => r.status === 500 || r.status === 503);
    expect(failed.length / n).toBeGreaterThan(0.14);
    expect(failed.length / n).toBeLessThan(0.26);
    expect(failed.some((r) => r.status === 500) && failed.some((r) => r.status === 503)).toBe(true);
    expect(a.filter((r) => r.status !== 200).length).toBe(failed.length);
    expect((await run({ failRate: 0.2 }, 3)).map((r) => r.status)).toEqual(a.map((r) => r.status));
    expect((await run({ failRate: 0.2 }, 4)).map((r) => r.status)).not.toEqual(a.map((r) => r.status));
  });

  it("throttles with 429 and Retry-After at roughly throttleRate", async () => {
    const a = await run({ throttleRate: 0.1, retryAfterS: 3 }, 5);
    const throttled = a.filter((r) => r.status === 429);
    expect(throttled.length / n).toBeGreaterThan(0.06);
    expect(throttled.length / n).toBeLessThan(0.14);
    expect(throttled.every((r) => r.retryAfter === "3")).toBe(true);
  });

  it("cuts successful bodies mid-JSON at roughly truncateRate", async () => {
    const a = await run({ truncateRate: 0.25 }, 6);
    const cut = a.filter((r) => r.status === 200 && !r.parses);
    expect(cut.length / n).toBeGreaterThan(0.18);
    expect(cut.length / n).toBeLessThan(0.32);
    expect(cut.every((r) => r.fault === "truncate")).toBe(true);
  });

  it("delays responses by latencyMs", async () => {
    vi.useFakeTimers();
    try {
      const h = createSimHandler({ world: smallWorld(), faults: { latencyMs: 250 } });
      let done = false;
      const pending = h.fetch(`${BASE}/api/v1/brands`, { headers: authHeaders(h) }).then((r) => {
        done = true;
        return r;
      });
      await vi.advanceTimersByTimeAsync(249);
      expect(done).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect((await pending).status).toBe(200);
    } finally {
      vi.useRealTimers();
    }
  });

  it("leaves /__sim endpoints and auth failures alone", async () => {
    const h = createSimHandler({ world: smallWorld(), faults: { failRate: 1 } });
    expect((await get(h, "/__sim/world")).status).toBe(200);
    expect((await get(h, "/api/v1/brands", {})).status).toBe(401);
    expect((await get(h, "/api/v1/brands")).status).toBeGreaterThanOrEqual(500);
  });

  it("rejects invalid fault rates", () => {
    expect(() => createSimHandler({ world: smallWorld(), faults: { failRate: 1.5 } })).toThrow(RangeError);
    expect(() => createSimHandler({ world: smallWorld(), faults: { failRate: 0.6, throttleRate: 0.6 } })).toThrow(RangeError);
    expect(() => createSimHandler({ world: smallWorld(), speed: 0 })).toThrow(RangeError);
    expect(() => createSimHandler({ world: smallWorld(), tsUnit: "min" as never })).toThrow(RangeError);
  });
});

describe("world and truth extensions", () => {
  const world = smallWorld();
  const h = sim();

  it("GET /__sim/world returns brands and shops with their sensors, and the radio model", async () => {
    const r = await get(h, "/__sim/world");
    expect(r.body).toEqual({
      brands: world.brands,
      shops: world.shops,
      // The default world: phones as real ones, MACs rotating.
      macBehaviour: JSON.parse(JSON.stringify(world.macBehaviour)),
      phones: JSON.parse(JSON.stringify(world.phones)),
      model: world.model,
      sensorOutages: [],
      sensorClockOffsets: Object.fromEntries(world.shops.map((s) => [s.id, {}])),
    });
  });

  it("GET /__sim/truth?shop=ID returns the shop's truth as NDJSON; without shop, every shop's", async () => {
    const r = await get(h, "/__sim/truth?shop=101");
    expect(r.headers.get("content-type")).toMatch(/^application\/x-ndjson/);
    const lines = r.text.trimEnd().split("\n").map((l) => JSON.parse(l));
    expect(lines).toEqual(world.truth(101));
    const everything = (await get(h, "/__sim/truth")).text.trimEnd().split("\n");
    expect(everything).toHaveLength(world.truth().length);
    expect((await get(h, "/__sim/truth?shop=999")).status).toBe(404);
    expect((await get(h, "/__sim/truth?shop=abc")).status).toBe(400);
  });

  it("GET /__sim/truth?view=visits|occupancy serves the person-level visits and the occupancy events", async () => {
    const ndjson = (text: string) => text.trimEnd().split("\n").map((l) => JSON.parse(l));
    expect(ndjson((await get(h, "/__sim/truth?shop=101&view=macs")).text)).toEqual(world.truth(101));
    expect(ndjson((await get(h, "/__sim/truth?shop=101&view=visits")).text)).toEqual(world.visits(101));
    expect(ndjson((await get(h, "/__sim/truth?shop=102&view=occupancy")).text)).toEqual(world.occupancy(102));
    expect(ndjson((await get(h, "/__sim/truth?view=visits")).text)).toHaveLength(world.visits().length);
    const bad = await get(h, "/__sim/truth?view=people");
    expect(bad.status).toBe(400);
    expect(bad.body.field).toBe("view");
  });

  it("GET /__sim/world says how the phones chose MACs when rotation is on", async () => {
    const rotating = createSimHandler({ world: { ...smallWorldOptions, shops: 1, openingHours: [10, 11], rotation: 0.3 } });
    const r = await get(rotating, "/__sim/world");
    expect(r.body.macBehaviour.rotatingShare).toBe(0.3);
    expect(r.body.macBehaviour).toEqual(JSON.parse(JSON.stringify(rotating.world.macBehaviour)));
  });
});
