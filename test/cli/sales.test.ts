import { describe, expect, test } from "vitest";
import { PassThrough } from "node:stream";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createServer } from "node:net";
import type { AddressInfo } from "node:net";
import { createClient } from "../../src/client/createClient.ts";
import { createSimHandler, type SimHandler } from "../../src/sim/service/createSimHandler.ts";
import { startSimulator } from "../../src/sim/service/startSimulator.ts";
import { salesCommand } from "../../src/cli/sales.ts";
import { main } from "../../src/cli/main.ts";
import type { CliIo } from "../../src/cli/common.ts";
import type { SalesStatsDaily } from "../../src/contract/salesStatsDaily.ts";

const WORLD = { seed: 3, brands: 2, shops: 3, days: 1, visitorsPerDay: 5, passersByPerDay: 5, staffPerShop: 1, stationaryPerShop: 0 } as const;

interface Captured {
  readonly io: CliIo;
  stdout(): string;
  stderr(): string;
}

function capture(env: Record<string, string | undefined>, tty = false): Captured {
  const out = new PassThrough();
  const err = new PassThrough() as PassThrough & { isTTY?: boolean; columns?: number; cursorTo?: unknown; clearLine?: unknown; moveCursor?: unknown };
  if (tty) {
    err.isTTY = true;
    err.columns = 80;
    err.cursorTo = (_x: number, _y?: number, cb?: () => void) => (cb?.(), true);
    err.clearLine = (_d: number, cb?: () => void) => (cb?.(), true);
    err.moveCursor = (_x: number, _y: number, cb?: () => void) => (cb?.(), true);
  }
  let o = "";
  let e = "";
  out.on("data", (c: Buffer) => (o += c.toString()));
  err.on("data", (c: Buffer) => (e += c.toString()));
  return { io: { stdout: out, stderr: err, env, signal: new AbortController().signal }, stdout: () => o, stderr: () => e };
}

async function stored(sim: SimHandler, shopId: number): Promise<SalesStatsDaily[]> {
  const res = await sim.fetch(`http://sim/api/v1/shops/${shopId}/sales_stats_dailies`, { headers: { "x-user-email": sim.email, "x-user-token": sim.token } });
  return ((await res.json()) as { sales_stats_dailies: SalesStatsDaily[] }).sales_stats_dailies;
}

function commandOver(sim: SimHandler) {
  return salesCommand({ createClient: (o) => createClient({ ...o, fetch: sim.fetch as typeof fetch, retry: { ...o.retry, retries: 2, minTimeout: 1, maxTimeout: 2 } }) });
}

async function withDir<T>(fn: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), "footfall-sales-cli-"));
  try {
    return await fn(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

describe("footfall sales upload", () => {
  test("bad input: each problem reported with its line on stderr, valid rows uploaded, exit 1", async () => {
    await withDir(async (dir) => {
      const sim = createSimHandler({ world: WORLD });
      const [shop0, shop1] = sim.world.shops;
      const brandOf = (id: number) => sim.world.brands.find((b) => b.id === id)!.name;
      const b0 = brandOf(shop0!.brandId);
      const b1 = brandOf(shop1!.brandId);
      const good = join(dir, "daily.csv");
      await writeFile(
        good,
        [
          "brand,external_key,date,amount,quantity,currency",
          `${b0},${shop0!.externalKey},2026-11-16,125000,17,`, // 2 valid
          `${b0},${shop0!.externalKey},2026-02-30,1000,1,`, // 3 bad date
          `${b0},${shop0!.externalKey},2026-11-17,12k,1,`, // 4 non-numeric amount
          `${b0},${shop0!.externalKey},2026-11-18,1000,1.5,`, // 5 fractional quantity
          `${b0},${shop0!.externalKey},2026-11-19,1000,1,XYZ`, // 6 unknown currency
          `${b0},NOT-REGISTERED,2026-11-16,1000,1,`, // 7 unknown External Key
          `No Such Brand,${shop0!.externalKey},2026-11-16,1000,1,`, // 8 unknown brand
          `${b1},${shop1!.externalKey},2026-11-16,"98,00",5,`, // 9 "98,00" (a decimal comma) is not a number
          `${b1},${shop1!.externalKey},2026-11-17,98000,5,krw`, // 10 valid
        ].join("\n"),
      );
      const missing = join(dir, "missing.csv");
      await writeFile(missing, `brand,external_key,date,amount\n${b1},${shop1!.externalKey},2026-11-18,5,\n`);

      const c = capture({ FOOTFALL_BASE_URL: "http://sim", FOOTFALL_EMAIL: sim.email, FOOTFALL_TOKEN: sim.token });
      const status = await commandOver(sim).run(["upload", good, missing, "--journal", join(dir, "j.json")], c.io);
      expect(status).toBe(1);
      const err = c.stderr();
      expect(err).toContain(`${good}:3: rejected row: date "2026-02-30" is not a real calendar date`);
      expect(err).toContain(`${good}:4: rejected row: amount "12k" is not a number`);
      expect(err).toContain(`${good}:5: rejected row: quantity "1.5" is not an integer`);
      expect(err).toContain(`${good}:6: rejected row: unknown currency "XYZ"`);
      expect(err).toMatch(new RegExp(`${good.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}:7: rejected .*NOT-REGISTERED.*registered with the service operator`));
      expect(err).toMatch(/daily\.csv:8: rejected No Such Brand .*no brand named "No Such Brand"/);
      expect(err).toContain(`${good}:9: rejected row: amount "98,00" is not a number`);
      expect(err).toContain(`${missing}:1: rejected row: missing column "quantity"`);
      expect(err).toMatch(/2 uploaded, 0 unchanged, 2 rejected, 0 failed shop-day\(s\); 6 row\(s\) rejected/);
      expect(c.stdout()).toMatch(/^status\s+brand\s+external_key\s+shop_id\s+date\s+amount\s+currency\s+quantity\s+reason/);
      expect(c.stdout()).not.toContain(sim.token);
      expect(err).not.toContain(sim.token);

      expect(await stored(sim, shop0!.id)).toEqual([{ date: "2026-11-16", amount: 125000, quantity: 17, amount_currency: "KRW" }]);
      expect(await stored(sim, shop1!.id)).toEqual([{ date: "2026-11-17", amount: 98000, quantity: 5, amount_currency: "KRW" }]);
    });
  });

  test("an unreachable service: every bad row is still reported with its line, then the network failure, exit 1", async () => {
    await withDir(async (dir) => {
      // A loopback port that was just free and is now closed: connections are refused.
      const server = createServer();
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      const port = (server.address() as AddressInfo).port;
      await new Promise<void>((resolve) => server.close(() => resolve()));
      const file = join(dir, "pos.csv");
      await writeFile(
        file,
        [
          "brand,external_key,timestamp,amount,quantity",
          "Cafe Mori,GN-001,2026-11-16T10:00:00+09:00,12000,1", // 2 valid
          "Cafe Mori,GN-001,2026-11-31T10:00:00+09:00,12000,1", // 3 no such day
          "Cafe Mori,GN-001,2026-11-16T11:00:00+09:00,12k,1", // 4 not a number
          "Cafe Mori,,2026-11-16T12:00:00+09:00,5000,1", // 5 no External Key
          "Cafe Mori,GN-002,2026-11-16T13:00:00+09:00,5000,2.5", // 6 fractional quantity
          "Cafe Mori,GN-002,2026-11-16T14:00:00+09:00,10.5,1", // 7 KRW has no decimals
          "Cafe Mori,GN-003,2026-11-16T15:00:00+09:00,-9000,-1", // 8 valid line, negative day
        ].join("\r\n"),
      );
      const c = capture({ FOOTFALL_BASE_URL: `http://127.0.0.1:${port}`, FOOTFALL_EMAIL: "a@example.com", FOOTFALL_TOKEN: "secret-token" });
      const command = salesCommand({ createClient: (o) => createClient({ ...o, retry: { ...o.retry, retries: 0 } }) });
      expect(await command.run(["upload", file, "--journal", join(dir, "j.json")], c.io)).toBe(1);
      const err = c.stderr();
      for (const line of [3, 4, 5, 6, 7]) expect(err).toContain(`${file}:${line}: rejected row: `);
      expect(err).toMatch(/pos\.csv:8: rejected Cafe Mori \/ GN-003 2026-11-16: daily total amount is negative/);
      // The input's problems come first, then the one line on what the network did.
      const lines = err.trim().split("\n");
      expect(lines.at(-1)).toMatch(/^footfall sales: .*(ECONNREFUSED|connect|fetch failed|network)/i);
      expect(lines.slice(0, -1).every((l) => l.includes("rejected"))).toBe(true);
      expect(err).not.toContain("secret-token");
    });
  });

  test("--dry-run prints the totals and posts nothing; --format ndjson is one object per shop-day", async () => {
    await withDir(async (dir) => {
      const sim = createSimHandler({ world: WORLD });
      const shop = sim.world.shops[0]!;
      const brand = sim.world.brands.find((b) => b.id === shop.brandId)!.name;
      const file = join(dir, "tx.ndjson");
      await writeFile(
        file,
        [
          { external_key: shop.externalKey, timestamp: "2026-11-16T15:10:00Z", amount: 19.99, quantity: 1, currency: "USD" },
          { external_key: shop.externalKey, timestamp: "2026-11-17T09:00:00+09:00", amount: "0.01", quantity: 2, currency: "USD" },
        ].map((o) => JSON.stringify(o)).join("\n"),
      );
      const c = capture({});
      const args = ["upload", file, "--brand", brand, "--dry-run", "--format", "ndjson", "--base-url", "http://sim", "--email", sim.email, "--token", sim.token];
      expect(await commandOver(sim).run(args, c.io)).toBe(0);
      const rows = c.stdout().trim().split("\n").map((l) => JSON.parse(l));
      // 15:10Z on the 16th is 00:10 KST on the 17th: both lines belong to one day
      expect(rows).toEqual([
        { status: "planned", brand, external_key: shop.externalKey, shop_id: shop.id, date: "2026-11-17", amount: 20, amount_currency: "USD", quantity: 3, rows: 2 },
      ]);
      expect(await stored(sim, shop.id)).toEqual([]);
      await expect(readFile(`${file}.journal.json`)).rejects.toThrow(/ENOENT/);
    });
  });

  test("a progress bar goes to stderr only when it is a terminal", async () => {
    await withDir(async (dir) => {
      const sim = createSimHandler({ world: WORLD });
      const shop = sim.world.shops[0]!;
      const brand = sim.world.brands.find((b) => b.id === shop.brandId)!.name;
      const file = join(dir, "d.csv");
      await writeFile(file, `brand,external_key,date,amount,quantity\n${brand},${shop.externalKey},2026-11-16,5,1\n`);
      const env = { FOOTFALL_BASE_URL: "http://sim", FOOTFALL_EMAIL: sim.email, FOOTFALL_TOKEN: sim.token };
      const tty = capture(env, true);
      expect(await commandOver(sim).run(["upload", file, "--force"], tty.io)).toBe(0);
      expect(tty.stderr()).toContain("shop-days");
      const plain = capture(env);
      expect(await commandOver(sim).run(["upload", file, "--force"], plain.io)).toBe(0);
      expect(plain.stderr()).not.toContain("shop-days");
      expect(plain.stdout()).toMatch(/uploaded/);
    });
  });

  test("bad usage exits 2", async () => {
    const env = { FOOTFALL_BASE_URL: "http://127.0.0.1:9", FOOTFALL_EMAIL: "a@b.c", FOOTFALL_TOKEN: "t" };
    for (const args of [
      ["sales"],
      ["sales", "download", "x.csv"],
      ["sales", "upload"],
      ["sales", "upload", "x.csv", "--tz", "Mars/Olympus"],
      ["sales", "upload", "x.csv", "--currency", "ZZZ"],
      ["sales", "upload", "x.csv", "--format", "xml"],
      ["sales", "upload", "x.csv", "--concurrency", "0"],
      ["sales", "upload", "x.csv", "--bogus"],
    ]) {
      const c = capture(env);
      expect(await main(args, c.io), args.join(" ")).toBe(2);
    }
    const noUrl = capture({});
    expect(await main(["sales", "upload", "x.csv"], noUrl.io)).toBe(2);
    expect(noUrl.stderr()).toMatch(/missing --base-url \(or FOOTFALL_BASE_URL\)/);
  });

  test("through main() against a simulator on a real port; a re-run is all unchanged", async () => {
    const sim = await startSimulator({ world: WORLD });
    try {
      await withDir(async (dir) => {
        const shop = sim.world.shops[1]!;
        const brand = sim.world.brands.find((b) => b.id === shop.brandId)!.name;
        const file = join(dir, "d.csv");
        await writeFile(file, `external_key,date,amount,quantity\n${shop.externalKey},2026-11-16,5000,1\n${shop.externalKey},2026-11-16,2500,2\n`);
        const env = { FOOTFALL_BASE_URL: sim.baseUrl, FOOTFALL_EMAIL: sim.email, FOOTFALL_TOKEN: sim.token };
        const dup = capture(env);
        expect(await main(["sales", "upload", file, "--brand", brand], dup.io)).toBe(1);
        expect(dup.stderr()).toMatch(/d\.csv:2,3: rejected .*2 daily-total rows for the same shop-day would overwrite each other/);
        const summed = capture(env);
        expect(await main(["sales", "upload", file, "--brand", brand, "--sum"], summed.io)).toBe(0);
        const again = capture(env);
        expect(await main(["sales", "upload", file, "--brand", brand, "--sum", "--format", "ndjson"], again.io)).toBe(0);
        expect(JSON.parse(again.stdout())).toMatchObject({ status: "unchanged", amount: 7500, quantity: 3 });
        const journal = JSON.parse(await readFile(`${file}.journal.json`, "utf8"));
        expect(Object.keys(journal.services)).toEqual([sim.baseUrl]);
      });
    } finally {
      await sim.close();
    }
  });
});
