import { mkdirSync, readFileSync } from "node:fs";
import { rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { SalesStatsDaily } from "../../contract/salesStatsDaily.ts";

/**
 * File name of the persisted sales inside a simulator's data directory.
 *
 * @example
 * join("sim-data", SALES_FILE); // "sim-data/sales.json"
 */
export const SALES_FILE = "sales.json";

/**
 * The simulator's sales storage: one record per shop and date, a later POST for the same
 * date replacing the earlier one. With a `dataDir` every change is persisted atomically
 * (write a temporary file, then rename over `sales.json`), so a crash never leaves a
 * half-written file and a restart serves what was stored.
 *
 * @example
 * const store = new SalesStore(undefined);
 * await store.put(101, { date: "2026-11-16", amount: 1000, quantity: 1, amount_currency: "KRW" }); // false: new
 * store.list(101); // [{ date: "2026-11-16", … }]
 */
export class SalesStore {
  private readonly byShop = new Map<number, Map<string, SalesStatsDaily>>();
  private writing: Promise<void> = Promise.resolve();
  private sequence = 0;

  /** Loads `dataDir/sales.json` when it exists (synchronously: this runs once at start). */
  constructor(readonly dataDir: string | undefined) {
    if (dataDir === undefined) return;
    mkdirSync(dataDir, { recursive: true });
    let text: string;
    try {
      text = readFileSync(join(dataDir, SALES_FILE), "utf8");
    } catch (error) {
      if ((error as { code?: string }).code === "ENOENT") return;
      throw error;
    }
    const data = JSON.parse(text) as { shops?: Record<string, SalesStatsDaily[]> };
    for (const [shop, records] of Object.entries(data.shops ?? {})) {
      const days = new Map<string, SalesStatsDaily>();
      for (const r of records) days.set(r.date, r);
      this.byShop.set(Number(shop), days);
    }
  }

  /**
   * Stores the record of its shop-day, replacing any earlier one; resolves to `true` when it
   * replaced one, after the change is on disk (when persisting).
   */
  async put(shopId: number, record: SalesStatsDaily): Promise<boolean> {
    let days = this.byShop.get(shopId);
    if (days === undefined) this.byShop.set(shopId, (days = new Map()));
    const replaced = days.has(record.date);
    days.set(record.date, {
      date: record.date,
      amount: record.amount,
      quantity: record.quantity,
      amount_currency: record.amount_currency,
    });
    if (this.dataDir !== undefined) await this.persist(this.dataDir);
    return replaced;
  }

  /** The shop's stored records, by date. */
  list(shopId: number): SalesStatsDaily[] {
    const days = this.byShop.get(shopId);
    if (days === undefined) return [];
    return [...days.values()].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  }

  /** Resolves once every write started so far is on disk. */
  flush(): Promise<void> {
    return this.writing;
  }

  private persist(dir: string): Promise<void> {
    // Writes are chained so renames land in order; each one snapshots the whole store.
    const run = async (): Promise<void> => {
      const shops: Record<string, SalesStatsDaily[]> = {};
      for (const id of [...this.byShop.keys()].sort((a, b) => a - b)) shops[id] = this.list(id);
      const temp = join(dir, `${SALES_FILE}.${++this.sequence}-${Math.random().toString(36).slice(2, 10)}.tmp`);
      await writeFile(temp, `${JSON.stringify({ version: 1, shops }, null, 1)}\n`, "utf8");
      await rename(temp, join(dir, SALES_FILE));
    };
    const next = this.writing.then(run, run);
    this.writing = next.catch(() => undefined);
    return next;
  }
}
