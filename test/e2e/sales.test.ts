import { describe, expect, test } from "vitest";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createClient } from "../../src/client/createClient.ts";
import { createSimHandler, type SimHandler } from "../../src/sim/service/createSimHandler.ts";
import type { SalesStatsDaily } from "../../src/contract/salesStatsDaily.ts";
import { uploadSales } from "../../src/sales/uploadSales.ts";
import { salesFixture as fixture } from "../sales/salesFixture.ts";

// A small world: sales need shops and keys, not crowds of signals.
const WORLD = { seed: 11, brands: 2, shops: 4, days: 1, visitorsPerDay: 5, passersByPerDay: 5, staffPerShop: 1, stationaryPerShop: 0 } as const;
const FAST_RETRY = { retries: 20, minTimeout: 1, maxTimeout: 5, randomize: false, maxRetryAfterMs: 5 } as const;

interface Sent {
  readonly method: string;
  readonly path: string;
  readonly body: string | undefined;
  status?: number;
}

/** A fetch over the handler that records every request reaching the "service". */
function recordingFetch(sim: SimHandler, sent: Sent[], after?: (entry: Sent) => void): typeof fetch {
  return (async (input: string | URL | Request, init?: RequestInit) => {
    const request = new Request(input, init);
    const body = request.method === "POST" ? await request.clone().text() : undefined;
    const entry: Sent = { method: request.method, path: new URL(request.url).pathname, body };
    sent.push(entry);
    const response = await sim.fetch(request);
    entry.status = response.status;
    after?.(entry);
    return response;
  }) as typeof fetch;
}

/** What the simulator stored for a shop (its GET listing), retried through any injected faults. */
async function stored(sim: SimHandler, shopId: number): Promise<SalesStatsDaily[]> {
  for (;;) {
    const res = await sim.fetch(`http://sim/api/v1/shops/${shopId}/sales_stats_dailies`, { headers: { "x-user-email": sim.email, "x-user-token": sim.token } });
    if (res.status !== 200) continue;
    try {
      return (JSON.parse(await res.text()) as { sales_stats_dailies: SalesStatsDaily[] }).sales_stats_dailies;
    } catch {
      // truncated by a fault: ask again
    }
  }
}

async function withDir<T>(fn: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), "footfall-sales-e2e-"));
  try {
    return await fn(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function isOk(s: Sent): boolean {
  return s.status !== undefined && s.status >= 200 && s.status < 300;
}

function postsByShopDay(sent: readonly Sent[]): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const s of sent) {
    if (s.method !== "POST") continue;
    const day = (JSON.parse(s.body!) as { sales_stats_daily: SalesStatsDaily }).sales_stats_daily.date;
    const key = `${s.path} ${day}`;
    let bodies = out.get(key);
    if (bodies === undefined) out.set(key, (bodies = new Set()));
    bodies.add(s.body!);
  }
  return out;
}

describe("sales upload against the simulator", () => {
  test("stored totals equal the hand computation; exactly one POST per shop-day; one brands request", async () => {
    await withDir(async (dir) => {
      const sim = createSimHandler({ world: WORLD });
      const { csv, expected, shopDays } = fixture(sim);
      const file = join(dir, "tx.csv");
      await writeFile(file, `\uFEFF${csv}`);
      const sent: Sent[] = [];
      const client = createClient({ baseUrl: "http://sim", email: sim.email, token: sim.token, fetch: recordingFetch(sim, sent), retry: FAST_RETRY });

      const report = await uploadSales(client, file);
      expect(report.ok).toBe(true);
      expect(report.counts).toMatchObject({ uploaded: shopDays, rejected: 0, failed: 0, rejectedRows: 0 });
      for (const [shopId, days] of expected) expect(await stored(sim, shopId)).toEqual(days);
      const posts = sent.filter((s) => s.method === "POST");
      expect(posts).toHaveLength(shopDays);
      expect(postsByShopDay(sent).size).toBe(shopDays);
      expect(sent.filter((s) => s.path === "/api/v1/brands")).toHaveLength(1);
      expect(sent.filter((s) => s.path.endsWith("/shops/external"))).toHaveLength(4);

      // The journal beside the input makes the re-run post nothing.
      const journal = JSON.parse(await readFile(`${file}.journal.json`, "utf8"));
      expect(Object.keys(journal.services.default)).toHaveLength(shopDays);
      sent.length = 0;
      const again = await uploadSales(client, file);
      expect(again.counts).toMatchObject({ uploaded: 0, unchanged: shopDays });
      expect(sent.filter((s) => s.method === "POST")).toHaveLength(0);
    });
  });

  test("with failures, throttling and truncated bodies: the same stored result; retries resend the same record", async () => {
    await withDir(async (dir) => {
      const sim = createSimHandler({ world: WORLD, seed: 5, faults: { failRate: 0.25, throttleRate: 0.2, truncateRate: 0.2, retryAfterS: 0 } });
      const { csv, expected, shopDays } = fixture(sim);
      const file = join(dir, "tx.csv");
      await writeFile(file, csv);
      const sent: Sent[] = [];
      const client = createClient({ baseUrl: "http://sim", email: sim.email, token: sim.token, fetch: recordingFetch(sim, sent), retry: FAST_RETRY });

      const report = await uploadSales(client, file);
      expect(report.counts).toMatchObject({ uploaded: shopDays, failed: 0 });
      for (const [shopId, days] of expected) expect(await stored(sim, shopId)).toEqual(days);
      const byDay = postsByShopDay(sent);
      expect(byDay.size).toBe(shopDays);
      for (const bodies of byDay.values()) expect(bodies.size).toBe(1); // every attempt carried the same full-day record
      expect(sent.some((s) => s.status === 429) && sent.some((s) => (s.status ?? 0) >= 500)).toBe(true); // the faults did happen
    });
  });

  test("a crash after N uploads, then a re-run: every day stored once, journal complete", async () => {
    await withDir(async (dir) => {
      const sim = createSimHandler({ world: WORLD, seed: 9, faults: { failRate: 0.15, throttleRate: 0.15, retryAfterS: 0 } });
      const { csv, expected, shopDays } = fixture(sim);
      const file = join(dir, "tx.csv");
      await writeFile(file, csv);
      const journalPath = join(dir, "journal.json");

      const crash = new AbortController();
      const firstRun: Sent[] = [];
      const crashingFetch = recordingFetch(sim, firstRun, () => {
        const acknowledged = firstRun.filter((s) => s.method === "POST" && isOk(s)).length;
        if (acknowledged >= 3) crash.abort(new Error("simulated crash"));
      });
      const client1 = createClient({ baseUrl: "http://sim", email: sim.email, token: sim.token, fetch: crashingFetch, retry: FAST_RETRY });
      await expect(uploadSales(client1, file, { journal: journalPath, signal: crash.signal })).rejects.toThrow("simulated crash");
      const storedFirst = new Set([...postsByShopDay(firstRun.filter(isOk)).keys()]);
      expect(storedFirst.size).toBeGreaterThanOrEqual(3);
      expect(storedFirst.size).toBeLessThan(shopDays);
      const journaledFirst = Object.keys(JSON.parse(await readFile(journalPath, "utf8")).services.default);
      expect(journaledFirst.length).toBeGreaterThanOrEqual(1);
      expect(journaledFirst.length).toBeLessThanOrEqual(storedFirst.size);

      const secondRun: Sent[] = [];
      const client2 = createClient({ baseUrl: "http://sim", email: sim.email, token: sim.token, fetch: recordingFetch(sim, secondRun), retry: FAST_RETRY });
      const report = await uploadSales(client2, file, { journal: journalPath });
      expect(report.ok).toBe(true);
      expect(report.counts.unchanged).toBe(journaledFirst.length);
      expect(report.counts.uploaded).toBe(shopDays - journaledFirst.length);
      // the re-run posts only the days the journal did not have
      expect(postsByShopDay(secondRun).size).toBe(shopDays - journaledFirst.length);
      for (const [shopId, days] of expected) expect(await stored(sim, shopId)).toEqual(days);
      const journal = JSON.parse(await readFile(journalPath, "utf8"));
      expect(Object.keys(journal.services.default)).toHaveLength(shopDays);
      for (const [shopId, days] of expected) {
        for (const d of days) expect(journal.services.default[`${shopId}/${d.date}`]).toMatchObject({ shopId, ...d });
      }
    });
  });
});
