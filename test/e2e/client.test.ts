import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Client } from "../../src/client/Client.ts";
import { createClient, type ClientOptions, type RetryEvent } from "../../src/client/createClient.ts";
import type { RawSignal } from "../../src/contract/rawSignal.ts";
import type { SalesStatsDaily } from "../../src/contract/salesStatsDaily.ts";
import { isHttpError } from "../../src/errors/HttpError.ts";
import { isShopNotFoundError } from "../../src/errors/ShopNotFoundError.ts";
import { isBrandNotFoundError } from "../../src/errors/BrandNotFoundError.ts";
import { isNetworkError } from "../../src/errors/NetworkError.ts";
import { isTimeoutError } from "../../src/errors/TimeoutError.ts";
import { startSimulator, type RunningSimulator, type StartSimulatorOptions } from "../../src/sim/service/startSimulator.ts";
import type { FaultOptions } from "../../src/sim/service/createSimHandler.ts";

/** A small world: a few shops, short opening hours, so a run stays quick on two cores. */
const WORLD = { shops: 3, visitorsPerDay: 20, passersByPerDay: 50, openingHours: [10, 12] } as const;
const SEED = 3;

const RECORDS: SalesStatsDaily[] = [
  { date: "2026-11-16", amount: 1_250_000, quantity: 87, amount_currency: "KRW" },
  { date: "2026-11-17", amount: 980_000, quantity: 61, amount_currency: "KRW" },
  // Same shop-day again: the service keeps the last one.
  { date: "2026-11-16", amount: 1_300_000, quantity: 90, amount_currency: "KRW" },
];

function start(faults: FaultOptions = {}, extra: StartSimulatorOptions = {}): Promise<RunningSimulator> {
  return startSimulator({ seed: SEED, world: WORLD, faults, ...extra });
}

function clientFor(sim: RunningSimulator, options: Partial<ClientOptions> = {}, events: RetryEvent[] = []): Client {
  return createClient({
    baseUrl: sim.baseUrl,
    signalUrl: sim.signalUrl,
    email: sim.email,
    token: sim.token,
    timeoutMs: 5000,
    retry: { retries: 12, minTimeout: 5, maxTimeout: 50, maxRetryAfterMs: 1500, onRetry: (e) => events.push(e) },
    ...options,
  });
}

/**
 * Reads the simulator's stored sales for a shop (its listing extension), bypassing the
 * client; faults apply to this read too, so it simply asks again until it gets a whole answer.
 */
async function storedSales(sim: RunningSimulator, shopId: number): Promise<unknown> {
  for (let i = 0; i < 100; i++) {
    const res = await fetch(`${sim.baseUrl}/api/v1/shops/${shopId}/sales_stats_dailies`, {
      headers: { "x-user-email": sim.email, "x-user-token": sim.token },
    });
    const text = await res.text();
    if (res.status !== 200) continue;
    try {
      return JSON.parse(text);
    } catch {
      // cut short by the truncate fault; ask again
    }
  }
  throw new Error("could not read the stored sales");
}

/** Every method of the client, in a fixed order, so two runs can be compared whole. */
async function script(client: Client, sim: RunningSimulator) {
  const brands = await client.listBrands();
  const shops = [];
  for (const s of sim.world.shops) {
    const brandName = sim.world.brands.find((b) => b.id === s.brandId)!.name;
    const brand = await client.findBrand(brandName.toUpperCase());
    shops.push(await client.getShopByExternalKey(brand, s.externalKey));
  }
  const shopId = shops[0]!.id;
  const pages = [];
  let since: string | undefined;
  for (let i = 0; i < 4; i++) {
    const page = await client.getSignalsPage(shopId, since === undefined ? { limit: 200 } : { since, limit: 200 });
    pages.push(page);
    since = (page.signals.at(-1) as RawSignal | undefined)?.row_key.split(":")[1];
  }
  pages.push(await client.getSignalsPage(shopId, { since: "0000000000000000", limit: 7 }));
  for (const record of RECORDS) await client.uploadDailySales(shopId, record);
  return { brands, shops, pages, sales: await storedSales(sim, shopId) };
}

describe("client against the simulator on a real port", () => {
  let baseline: Awaited<ReturnType<typeof script>>;
  let sim: RunningSimulator;

  beforeAll(async () => {
    sim = await start();
    baseline = await script(clientFor(sim), sim);
  });
  afterAll(async () => {
    await sim?.close();
  });

  it("every method works", () => {
    expect(baseline.brands).toEqual(sim.world.brands.map((b) => ({ id: b.id, name: b.name })));
    expect(baseline.shops).toEqual(sim.world.shops.map((s) => ({ id: s.id, name: s.name })));
    expect(baseline.pages.slice(0, 4).every((p) => p.signals.length === 200)).toBe(true);
    expect(baseline.pages[4]!.signals).toHaveLength(7);
    // Consecutive pages pick up where the previous one ended (since is inclusive or exclusive; either way no gap).
    const last = (baseline.pages[0]!.signals.at(-1) as RawSignal).row_key;
    expect((baseline.pages[1]!.signals[0] as RawSignal).row_key >= last).toBe(true);
    expect(baseline.sales).toEqual({
      sales_stats_dailies: expect.arrayContaining([
        expect.objectContaining(RECORDS[2]),
        expect.objectContaining(RECORDS[1]),
      ]),
    });
    expect((baseline.sales as { sales_stats_dailies: unknown[] }).sales_stats_dailies).toHaveLength(2);
  });

  it("401: wrong token, not retried, no secret in the error", async () => {
    const events: RetryEvent[] = [];
    const client = clientFor(sim, { token: "wrong-token-canary" }, events);
    const error = await client.listBrands().catch((e: unknown) => e);
    expect(isHttpError(error) && error.status).toBe(401);
    expect(events).toHaveLength(0);
    expect(String((error as Error).message)).not.toContain("wrong-token-canary");
    expect(String((error as Error).message)).not.toContain(sim.email);
  });

  it("400: the service rejects a record the client lets through", async () => {
    const client = clientFor(sim);
    const error = await client
      .uploadDailySales(baseline.shops[0]!.id, { date: "2026-11-18", amount: -5, quantity: 1, amount_currency: "KRW" })
      .catch((e: unknown) => e);
    expect(isHttpError(error) && error.status).toBe(400);
    expect((error as Error).message).toContain("amount");
  });

  it("404: unknown External Key, unknown shop, unknown brand", async () => {
    const client = clientFor(sim);
    const brand = baseline.brands[0]!;
    const noKey = await client.getShopByExternalKey(brand, "NOT-REGISTERED").catch((e: unknown) => e);
    expect(isShopNotFoundError(noKey)).toBe(true);
    expect(isHttpError((noKey as Error).cause) && ((noKey as Error).cause as { status: number }).status).toBe(404);
    const noShop = await client.getSignalsPage(999_999).catch((e: unknown) => e);
    expect(isHttpError(noShop) && noShop.status).toBe(404);
    const noUpload = await client.uploadDailySales(999_999, RECORDS[0]!).catch((e: unknown) => e);
    expect(isHttpError(noUpload) && noUpload.status).toBe(404);
    await expect(client.findBrand("No Such Brand")).rejects.toSatisfy(isBrandNotFoundError);
  });

  it("a closed port is a NetworkError after the retries", async () => {
    const closed = await start();
    const url = closed.baseUrl;
    await closed.close();
    const events: RetryEvent[] = [];
    const client = createClient({ baseUrl: url, email: "a@b.c", token: "t", retry: { retries: 2, minTimeout: 5, onRetry: (e) => events.push(e) } });
    const error = await client.listBrands().catch((e: unknown) => e);
    expect(isNetworkError(error)).toBe(true);
    expect((error as Error).message).toMatch(/ECONNREFUSED/);
    expect(events).toHaveLength(2);
  });

  it("a slow service gives TimeoutError", async () => {
    const slow = await start({ latencyMs: 400 });
    try {
      const client = clientFor(slow, { timeoutMs: 100, retry: { retries: 1, minTimeout: 5 } });
      const error = await client.listBrands().catch((e: unknown) => e);
      expect(isTimeoutError(error)).toBe(true);
    } finally {
      await slow.close();
    }
  });

  const modes: [string, FaultOptions][] = [
    ["failRate", { failRate: 0.3 }],
    ["throttleRate", { throttleRate: 0.12, retryAfterS: 1 }],
    ["truncateRate", { truncateRate: 0.3 }],
    ["latencyMs", { latencyMs: 30 }],
    ["all at once", { failRate: 0.15, throttleRate: 0.1, retryAfterS: 0, truncateRate: 0.15, latencyMs: 10 }],
  ];

  it.each(modes)("with %s on, results equal the fault-free results", async (mode, faults) => {
    const faulty = await start(faults);
    try {
      const events: RetryEvent[] = [];
      const result = await script(clientFor(faulty, {}, events), faulty);
      expect(result).toEqual(baseline);
      if (mode !== "latencyMs") expect(events.length).toBeGreaterThan(0);
      if (mode === "throttleRate") {
        // Retry-After: 1 was honoured: no retry after a 429 came sooner than a second.
        const throttled = events.filter((e) => isHttpError(e.error) && e.error.status === 429);
        expect(throttled.length).toBeGreaterThan(0);
        for (const e of throttled) expect(e.delayMs).toBeGreaterThanOrEqual(1000);
      }
    } finally {
      await faulty.close();
    }
  });

  it("a separate signal port serves signals; the base port does not", async () => {
    const split = await start({}, { signalPort: 0 });
    try {
      expect(split.signalUrl).not.toBe(split.baseUrl);
      const client = clientFor(split);
      const page = await client.getSignalsPage(baseline.shops[0]!.id, { limit: 7 });
      // No since is the same as since 0: the first seven records.
      expect(page.signals).toEqual(baseline.pages[4]!.signals);
      const wrong = clientFor(split, { signalUrl: split.baseUrl });
      const error = await wrong.getSignalsPage(baseline.shops[0]!.id, { limit: 7 }).catch((e: unknown) => e);
      expect(isHttpError(error) && error.status).toBe(404);
    } finally {
      await split.close();
    }
  });
});
