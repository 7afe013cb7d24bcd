import { describe, expect, test } from "vitest";
import { mkdtemp, readFile, rm, writeFile, readdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { aggregateDaily } from "../../src/sales/aggregateDaily.ts";
import { uploadDailySales, type SalesProgress } from "../../src/sales/uploadDailySales.ts";
import { memoryJournal } from "../../src/sales/memoryJournal.ts";
import type { SalesInputRow } from "../../src/sales/SalesInputRow.ts";
import { fakeClient } from "./fakeClient.ts";

const brands = [
  { id: 1, name: "Cafe Mori" },
  { id: 2, name: "Hana Deli" },
  { id: 3, name: "twin" },
  { id: 4, name: "TWIN" },
];
const shops = {
  "1/GN-001": { id: 101, name: "Mori Gangnam" },
  "1/GN-002": { id: 102, name: "Mori Hongdae" },
  "2/HD-1": { id: 201, name: "Hana Deli 1" },
  "1/ALIAS": { id: 101, name: "Mori Gangnam" }, // a second key linked to shop 101
};

const day = (brand: string, external_key: string, date: string, amount: number, quantity: number): SalesInputRow => ({ brand, external_key, date, amount, quantity });

const sampleRows: SalesInputRow[] = [
  day("Cafe Mori", "GN-001", "2026-11-20", 25000, 3),
  day("Cafe Mori", "GN-001", "2026-11-21", 18000, 2),
  day("cafe mori", "GN-002", "2026-11-20", 9000, 1), // case-insensitive brand match
  day("Hana Deli", "HD-1", "2026-11-20", 4000, 1),
];

describe("uploadDailySales", () => {
  test("one brands request, one lookup per shop, exactly one record per shop-day", async () => {
    const client = fakeClient(brands, shops);
    const report = await uploadDailySales(client, aggregateDaily(sampleRows));
    expect(report.ok).toBe(true);
    expect(report.counts).toEqual({ uploaded: 4, unchanged: 0, planned: 0, rejected: 0, failed: 0, rejectedRows: 0 });
    expect(client.calls.listBrands).toBe(1);
    expect(client.calls.findBrand).toBe(0);
    expect(client.calls.getShop.sort()).toEqual(["1/GN-001", "1/GN-002", "2/HD-1"]);
    expect(client.calls.upload.map((u) => `${u.shopId}/${u.record.date}`).sort()).toEqual(["101/2026-11-20", "101/2026-11-21", "102/2026-11-20", "201/2026-11-20"]);
    expect(client.stored.get(101)?.get("2026-11-20")).toEqual({ date: "2026-11-20", amount: 25000, quantity: 3, amount_currency: "KRW" });
    expect(report.days.map((d) => [d.brand, d.externalKey, d.date, d.shopId, d.status])).toEqual([
      ["Cafe Mori", "GN-001", "2026-11-20", 101, "uploaded"],
      ["Cafe Mori", "GN-001", "2026-11-21", 101, "uploaded"],
      ["Hana Deli", "HD-1", "2026-11-20", 201, "uploaded"],
      ["cafe mori", "GN-002", "2026-11-20", 102, "uploaded"],
    ]);
  });

  test("unknown brand, ambiguous brand and unknown External Key are rejected; other shops go on", async () => {
    const client = fakeClient(brands, shops);
    const report = await uploadDailySales(
      client,
      aggregateDaily([
        ...sampleRows,
        day("No Such Brand", "X-1", "2026-11-20", 1, 1),
        day("Twin", "T-1", "2026-11-20", 1, 1),
        day("Cafe Mori", "GN-404", "2026-11-20", 1, 1),
      ]),
    );
    expect(report.ok).toBe(false);
    expect(report.counts.uploaded).toBe(4);
    expect(report.counts.rejected).toBe(3);
    const reasons = Object.fromEntries(report.days.filter((d) => d.status === "rejected").map((d) => [d.externalKey, d.reason]));
    expect(reasons["X-1"]).toMatch(/no brand named "No Such Brand"; the account sees 4 brands/);
    expect(reasons["T-1"]).toMatch(/ambiguous/);
    expect(reasons["GN-404"]).toMatch(/External Key "GN-404".*registered with the service operator/);
  });

  test("case variants of one brand name resolve together; variants naming different brands are rejected", async () => {
    const client = fakeClient(brands, { ...shops, "3/T-1": { id: 301, name: "twin 1" }, "4/T-1": { id: 401, name: "TWIN 1" } });
    const report = await uploadDailySales(
      client,
      aggregateDaily([
        day("Cafe Mori", "GN-001", "2026-11-20", 5, 1),
        { ...day("CAFE MORI", "GN-001", "2026-11-21", 7, 1) },
        { brand: "cafe mori", external_key: "GN-001", timestamp: "2026-11-21T10:00:00+09:00", amount: 1, quantity: 1 },
        { brand: "twin", external_key: "T-1", timestamp: "2026-11-21T10:00:00+09:00", amount: 1, quantity: 1 },
        { brand: "TWIN", external_key: "T-1", timestamp: "2026-11-21T11:00:00+09:00", amount: 1, quantity: 1 },
      ]),
    );
    const byKey = report.days.map((d) => [d.brand, d.date, d.status]);
    expect(byKey).toEqual([
      ["CAFE MORI", "2026-11-21", "rejected"], // a daily total mixed with a transaction for the same day
      ["Cafe Mori", "2026-11-20", "uploaded"],
      ["twin", "2026-11-21", "rejected"],
    ]);
    expect(report.days[2]!.reason).toMatch(/brand names "twin", "TWIN" name different brands \(ids 3, 4\)/);
  });

  test("two inputs resolving to the same shop-day are both rejected rather than overwrite each other", async () => {
    const client = fakeClient(brands, shops);
    const report = await uploadDailySales(client, aggregateDaily([day("Cafe Mori", "GN-001", "2026-11-20", 5, 1), day("Cafe Mori", "ALIAS", "2026-11-20", 7, 1), day("Cafe Mori", "ALIAS", "2026-11-22", 7, 1)]));
    expect(report.days.map((d) => [d.externalKey, d.date, d.status])).toEqual([
      ["ALIAS", "2026-11-20", "rejected"],
      ["ALIAS", "2026-11-22", "uploaded"],
      ["GN-001", "2026-11-20", "rejected"],
    ]);
    expect(report.days[0]!.reason).toMatch(/resolve to SHOP ID 101/);
    expect(client.calls.upload).toHaveLength(1);
  });

  test("a day with rejected rows goes up with a note naming the lines left out", async () => {
    const client = fakeClient(brands, shops);
    const report = await uploadDailySales(
      client,
      aggregateDaily([
        { ...day("Cafe Mori", "GN-001", "2026-11-20", 5, 1), line: 2 },
        { ...day("Cafe Mori", "GN-001", "2026-11-20", 5, 1.5), date: undefined, timestamp: "2026-11-20T10:00:00+09:00", line: 3 },
      ]),
    );
    expect(report.days).toHaveLength(1);
    expect(report.days[0]).toMatchObject({ status: "uploaded", note: "incomplete: 1 rejected row(s) of this day left out (line 3)" });
  });

  test("aggregation rejections are carried into the report", async () => {
    const client = fakeClient(brands, shops);
    const sales = aggregateDaily([day("Cafe Mori", "GN-001", "2026-11-20", -5, 1), { external_key: "GN-001", line: 9, amount: "x" }]);
    const report = await uploadDailySales(client, sales);
    expect(report.counts).toMatchObject({ rejected: 1, rejectedRows: 1, uploaded: 0 });
    expect(report.rejectedRows[0]!.line).toBe(9);
    expect(client.calls.listBrands).toBe(0); // nothing valid to resolve
  });

  test("a failed upload is reported as failed and not journaled; the rest are uploaded", async () => {
    const client = fakeClient(brands, shops);
    client.failShops.add(102);
    const journal = memoryJournal();
    const report = await uploadDailySales(client, aggregateDaily(sampleRows), { journal });
    expect(report.counts).toMatchObject({ uploaded: 3, failed: 1 });
    expect(report.days.find((d) => d.shopId === 102)?.reason).toMatch(/upload failed: .*HTTP 503/);
    expect(Object.keys(journal.data!.services.default!).sort()).toEqual(["101/2026-11-20", "101/2026-11-21", "201/2026-11-20"]);
    // the re-run sends only the failed day
    client.failShops.clear();
    client.calls.upload.length = 0;
    const again = await uploadDailySales(client, aggregateDaily(sampleRows), { journal });
    expect(again.counts).toMatchObject({ uploaded: 1, unchanged: 3 });
    expect(client.calls.upload.map((u) => u.shopId)).toEqual([102]);
  });

  test("journal: unchanged days are skipped, changed days resent, force resends all, scopes are separate", async () => {
    const client = fakeClient(brands, shops);
    const journal = memoryJournal();
    await uploadDailySales(client, aggregateDaily(sampleRows), { journal });
    client.calls.upload.length = 0;

    const changed = sampleRows.map((r) => (r.external_key === "HD-1" ? { ...r, amount: 4500 } : r));
    const second = await uploadDailySales(client, aggregateDaily(changed), { journal });
    expect(second.counts).toMatchObject({ uploaded: 1, unchanged: 3 });
    expect(client.calls.upload).toEqual([{ shopId: 201, record: { date: "2026-11-20", amount: 4500, quantity: 1, amount_currency: "KRW" } }]);
    expect(journal.data!.services.default!["201/2026-11-20"]).toMatchObject({ amount: 4500, shopId: 201, externalKey: "HD-1" });

    client.calls.upload.length = 0;
    const forced = await uploadDailySales(client, aggregateDaily(changed), { journal, force: true });
    expect(forced.counts.uploaded).toBe(4);
    expect(client.calls.upload).toHaveLength(4);

    client.calls.upload.length = 0;
    const otherService = await uploadDailySales(client, aggregateDaily(changed), { journal, journalScope: "http://other" });
    expect(otherService.counts.uploaded).toBe(4);
  });

  test("dry run resolves and reports totals, posts nothing, writes no journal", async () => {
    const client = fakeClient(brands, shops);
    const journal = memoryJournal();
    const report = await uploadDailySales(client, aggregateDaily(sampleRows), { journal, dryRun: true });
    expect(report.counts).toMatchObject({ planned: 4, uploaded: 0 });
    expect(report.days[0]).toMatchObject({ status: "planned", shopId: 101, amount: 25000, quantity: 3, currency: "KRW" });
    expect(client.calls.upload).toHaveLength(0);
    expect(client.calls.getShop).toHaveLength(3);
    expect(journal.data).toBeUndefined();
  });

  test("concurrency is bounded by the option", async () => {
    let inFlight = 0;
    let peak = 0;
    const many = Array.from({ length: 30 }, (_, i) => day("Cafe Mori", "GN-001", `2026-10-${String(i + 1).padStart(2, "0")}`, i, 1));
    const client = fakeClient(brands, shops, {
      async beforeUpload() {
        inFlight++;
        peak = Math.max(peak, inFlight);
        await new Promise<void>((resolve) => setImmediate(resolve));
        inFlight--;
      },
    });
    const progress: SalesProgress[] = [];
    const report = await uploadDailySales(client, aggregateDaily(many), { concurrency: 3, onProgress: (p) => progress.push(p) });
    expect(report.counts.uploaded).toBe(30);
    expect(peak).toBe(3);
    expect(progress.map((p) => p.done)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
    expect(progress.every((p) => p.total === 30)).toBe(true);
  });

  test("abort after N uploads: journal holds exactly the acknowledged days; the re-run completes the rest once", async () => {
    const dir = await mkdtemp(join(tmpdir(), "footfall-sales-"));
    try {
      const path = join(dir, "journal.json");
      const many = Array.from({ length: 12 }, (_, i) => day("Cafe Mori", i % 2 === 0 ? "GN-001" : "GN-002", `2026-10-${String(i + 1).padStart(2, "0")}`, 1000 + i, 1));
      const controller = new AbortController();
      const client = fakeClient(brands, shops, {
        beforeUpload() {
          if (client.calls.upload.length >= 5) controller.abort(new Error("simulated crash"));
        },
      });
      await expect(uploadDailySales(client, aggregateDaily(many), { journal: path, signal: controller.signal, concurrency: 2 })).rejects.toThrow("simulated crash");
      const firstRun = client.calls.upload.map((u) => `${u.shopId}/${u.record.date}`);
      // uploads already on the wire when the crash comes still land (two workers)
      expect(firstRun.length).toBeGreaterThanOrEqual(5);
      expect(firstRun.length).toBeLessThan(12);
      const journaled = JSON.parse(await readFile(path, "utf8"));
      expect(Object.keys(journaled.services.default).sort()).toEqual([...firstRun].sort());
      expect((await readdir(dir)).filter((f) => f.endsWith(".tmp"))).toEqual([]);

      client.calls.upload.length = 0;
      const report = await uploadDailySales(client, aggregateDaily(many), { journal: path });
      expect(report.counts).toMatchObject({ uploaded: 12 - firstRun.length, unchanged: firstRun.length });
      const secondRun = client.calls.upload.map((u) => `${u.shopId}/${u.record.date}`);
      expect(new Set([...firstRun, ...secondRun]).size).toBe(12);
      expect(firstRun.length + secondRun.length).toBe(12);
      const final = JSON.parse(await readFile(path, "utf8"));
      expect(Object.keys(final.services.default)).toHaveLength(12);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  test("a corrupt journal is an error and is left untouched", async () => {
    const dir = await mkdtemp(join(tmpdir(), "footfall-sales-"));
    try {
      const path = join(dir, "journal.json");
      await writeFile(path, "{ not json");
      const client = fakeClient(brands, shops);
      await expect(uploadDailySales(client, aggregateDaily(sampleRows), { journal: path })).rejects.toMatchObject({ name: "SalesJournalError" });
      expect(await readFile(path, "utf8")).toBe("{ not json");
      expect(client.calls.upload).toHaveLength(0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  test("bad options fail before any request", async () => {
    const client = fakeClient(brands, shops);
    await expect(uploadDailySales(client, [], { concurrency: 0 })).rejects.toThrow(RangeError);
    await expect(uploadDailySales(client, [], { concurrency: 1.5 })).rejects.toThrow(RangeError);
    expect(client.calls.listBrands).toBe(0);
  });
});
