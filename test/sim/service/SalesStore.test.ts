import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createSimHandler } from "../../../src/sim/service/createSimHandler.ts";
import { SALES_FILE, SalesStore } from "../../../src/sim/service/SalesStore.ts";
import { authHeaders, smallWorld } from "../world/fixtures.ts";

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "footfall-sim-"));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const rec = (date: string, amount: number) => ({ date, amount, quantity: 3, amount_currency: "KRW" });

describe("SalesStore", () => {
  it("keeps one record per shop-day, the last one written", async () => {
    const store = new SalesStore(undefined);
    expect(await store.put(101, rec("2026-11-16", 100))).toBe(false);
    expect(await store.put(101, rec("2026-11-16", 200))).toBe(true);
    expect(await store.put(101, rec("2026-11-15", 50))).toBe(false);
    expect(store.list(101)).toEqual([rec("2026-11-15", 50), rec("2026-11-16", 200)]);
    expect(store.list(102)).toEqual([]);
  });

  it("persists to dataDir atomically, leaving no temp files, and reloads on start", async () => {
    const dir = tempDir();
    const store = new SalesStore(dir);
    await Promise.all([store.put(101, rec("2026-11-16", 100)), store.put(101, rec("2026-11-17", 300)), store.put(102, rec("2026-11-16", 7))]);
    await store.put(101, rec("2026-11-16", 150));
    await store.flush();
    expect(readdirSync(dir)).toEqual([SALES_FILE]);
    expect(JSON.parse(readFileSync(join(dir, SALES_FILE), "utf8")).shops["101"]).toHaveLength(2);
    const again = new SalesStore(dir);
    expect(again.list(101)).toEqual([rec("2026-11-16", 150), rec("2026-11-17", 300)]);
    expect(again.list(102)).toEqual([rec("2026-11-16", 7)]);
  });

  it("a restarted simulator with the same dataDir serves the sales posted before", async () => {
    const dir = tempDir();
    const world = smallWorld();
    const first = createSimHandler({ world, dataDir: dir });
    const res = await first.fetch("http://sim/api/v1/shops/102/sales_stats_dailies", {
      method: "POST",
      headers: { ...authHeaders(first), "content-type": "application/json" },
      body: JSON.stringify({ sales_stats_daily: rec("2026-11-16", 4200) }),
    });
    expect(res.status).toBe(201);
    await first.flush();
    const second = createSimHandler({ world, dataDir: dir });
    const listed = await second.fetch("http://sim/api/v1/shops/102/sales_stats_dailies", { headers: authHeaders(second) });
    expect(await listed.json()).toEqual({ sales_stats_dailies: [rec("2026-11-16", 4200)] });
    const fresh = createSimHandler({ world });
    const none = await fresh.fetch("http://sim/api/v1/shops/102/sales_stats_dailies", { headers: authHeaders(fresh) });
    expect(await none.json()).toEqual({ sales_stats_dailies: [] });
  });
});
