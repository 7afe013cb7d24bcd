import type { Client } from "../client/Client.ts";
import type { Brand } from "../contract/brand.ts";
import type { SalesStatsDaily } from "../contract/salesStatsDaily.ts";
import type { Shop } from "../contract/shop.ts";
import { isHttpError } from "../errors/HttpError.ts";
import { isShopNotFoundError } from "../errors/ShopNotFoundError.ts";
import type { DailySales, DailyTotal, RejectedRow } from "./DailyAggregator.ts";
import { fileJournal } from "./fileJournal.ts";
import { hashSalesRecord } from "./hashSalesRecord.ts";
import { matchBrand } from "../client/matchBrand.ts";
import type { SalesJournalStore } from "./SalesJournal.ts";
import { SalesJournalWriter } from "./SalesJournalWriter.ts";
import type { RowRef } from "./SalesInputRow.ts";

/**
 * What happened to one shop-day:
 * - `uploaded`: posted and acknowledged (and journaled);
 * - `unchanged`: the journal shows this shop-day already stored with the same figures, not sent;
 * - `planned`: dry run, would be posted;
 * - `rejected`: the input is at fault (bad total, unknown brand or External Key, …), not sent;
 * - `failed`: the service or network failed after the client's retries.
 *
 * @example
 * const status: SalesDayStatus = "unchanged";
 */
export type SalesDayStatus = "uploaded" | "unchanged" | "planned" | "rejected" | "failed";

/**
 * One line of the upload report: one shop-day.
 *
 * @example
 * const row: SalesReportRow = {
 *   status: "uploaded", brand: "Cafe Mori", externalKey: "GN-001", date: "2026-11-20",
 *   shopId: 101, currency: "KRW", amount: 25000, quantity: 3, rows: [{ source: "sales.csv", line: 2 }],
 * };
 */
export interface SalesReportRow {
  readonly status: SalesDayStatus;
  readonly brand: string;
  readonly externalKey: string;
  readonly date: string;
  /** SHOP ID, once resolved. */
  readonly shopId?: number;
  readonly currency?: string;
  /** The day's total in major units (the posted `amount`). */
  readonly amount?: number;
  readonly quantity?: number;
  /** Why the day was rejected or failed. */
  readonly reason?: string;
  /** A warning on a day that went up anyway, e.g. rows of it that were rejected and left out. */
  readonly note?: string;
  /** Input rows behind the day. */
  readonly rows: readonly RowRef[];
}

/**
 * Counts per status, plus input rows rejected on their own.
 *
 * @example
 * const c: SalesReportCounts = { uploaded: 3, unchanged: 0, planned: 0, rejected: 1, failed: 0, rejectedRows: 2 };
 */
export interface SalesReportCounts {
  readonly uploaded: number;
  readonly unchanged: number;
  readonly planned: number;
  readonly rejected: number;
  readonly failed: number;
  readonly rejectedRows: number;
}

/**
 * The result of an upload run.
 *
 * @example
 * const report = await uploadDailySales(client, aggregateDaily(rows, { brand: "Cafe Mori" }));
 * if (!report.ok) for (const r of report.rejectedRows) console.error(`${r.source}:${r.line}: ${r.reason}`);
 */
export interface SalesReport {
  /** One row per shop-day, sorted by brand, External Key, date. */
  readonly days: readonly SalesReportRow[];
  /** Input rows rejected on their own (bad values), with line and reason. */
  readonly rejectedRows: readonly RejectedRow[];
  readonly counts: SalesReportCounts;
  /** True when nothing was rejected or failed and the journal was written. */
  readonly ok: boolean;
  /** Where the journal is, when one was used. */
  readonly journal?: string;
  /** Set when the journal could not be written (the uploads themselves stand). */
  readonly journalError?: string;
}

/**
 * Progress of a run, one event per settled shop-day.
 *
 * @example
 * const onProgress = (p: SalesProgress) => console.error(`${p.done}/${p.total}`);
 */
export interface SalesProgress {
  readonly done: number;
  readonly total: number;
  readonly row: SalesReportRow;
}

/**
 * Options of {@link uploadDailySales}.
 *
 * @example
 * const options: UploadDailySalesOptions = { journal: "sales.csv.journal.json", concurrency: 4 };
 */
export interface UploadDailySalesOptions {
  /** Shop lookups and uploads in flight at once (the client may queue further). @default 4 */
  readonly concurrency?: number;
  /**
   * Journal of stored shop-days: a file path or a store (`fileJournal`, `memoryJournal`).
   * Without one every day is sent and nothing is recorded.
   * @default undefined
   */
  readonly journal?: string | SalesJournalStore;
  /** Which service the journal entries belong to (the CLI uses the base URL). @default "default" */
  readonly journalScope?: string;
  /** Send every day even when the journal says it is unchanged. @default false */
  readonly force?: boolean;
  /** Resolve brands and shops and report the totals, but post nothing and write no journal. @default false */
  readonly dryRun?: boolean;
  /** Stops the run: nothing new starts, the journal is flushed, and the call rejects with the reason. */
  readonly signal?: AbortSignal;
  /** Called as each shop-day settles. @default undefined */
  readonly onProgress?: (progress: SalesProgress) => void;
}

/**
 * Defaults of {@link UploadDailySalesOptions}.
 *
 * @example
 * defaultUploadDailySalesOptions.concurrency; // 4
 */
export const defaultUploadDailySalesOptions = { concurrency: 4, journalScope: "default", force: false, dryRun: false } as const;

interface Pending {
  readonly day: DailyTotal;
  readonly shop: Shop;
}

/**
 * Uploads daily totals through the documented workflow: list brands once, resolve each brand
 * name locally (exact, then case-insensitive), resolve each (brand, External Key) to a SHOP ID
 * once (cached for the run), then post **exactly one record per shop-day** — never per
 * transaction. Retries are the client's, and resend that same record.
 *
 * With a journal, each acknowledged day is recorded with a hash of its figures (written
 * atomically after each success), so a re-run skips days already stored with the same totals
 * (`force` resends), a crashed run resumes where it stopped, and a day whose totals changed is
 * sent again (the service overwrites, which is then what is wanted).
 *
 * Problems never stop other shops: an unknown brand or External Key (keys must first be
 * registered with the service operator), two inputs resolving to the same shop-day, or a failed
 * upload are reported per shop-day. Only a failing brand list (nothing can be resolved), an
 * unusable journal, or an abort reject the call.
 *
 * @example
 * const sales = aggregateDaily(await readSales("sales.csv", { brand: "Cafe Mori" }), { brand: "Cafe Mori" });
 * const report = await uploadDailySales(client, sales, { journal: "sales.csv.journal.json" });
 * report.counts; // { uploaded: 1, unchanged: 0, planned: 0, rejected: 0, failed: 0, rejectedRows: 0 }
 */
export async function uploadDailySales(
  client: Client,
  sales: DailySales | Iterable<DailyTotal>,
  options: UploadDailySalesOptions = {},
): Promise<SalesReport> {
  const o = { ...defaultUploadDailySalesOptions, ...options };
  if (!Number.isInteger(o.concurrency) || o.concurrency < 1 || o.concurrency > 64) {
    throw new RangeError(`concurrency must be an integer from 1 to 64, got ${String(o.concurrency)}`);
  }
  if (typeof o.journalScope !== "string") throw new TypeError("journalScope must be a string");
  if (typeof o.force !== "boolean" || typeof o.dryRun !== "boolean") throw new TypeError("force and dryRun must be booleans");
  if (o.onProgress !== undefined && typeof o.onProgress !== "function") throw new TypeError("onProgress must be a function");
  const signal = o.signal;
  const input: DailySales = isDailySales(sales) ? sales : { days: [...sales], rejectedDays: [], rejectedRows: [] };
  const store = o.journal === undefined ? undefined : typeof o.journal === "string" ? fileJournal(o.journal) : o.journal;
  const journal = new SalesJournalWriter(store, o.journalScope);
  await journal.load();

  const results: SalesReportRow[] = [];
  const total = input.days.length + input.rejectedDays.length;
  const settle = (row: SalesReportRow): void => {
    results.push(row);
    o.onProgress?.({ done: results.length, total, row });
  };
  for (const d of input.rejectedDays) {
    settle({ status: "rejected", brand: d.brand, externalKey: d.externalKey, date: d.date, reason: d.reason, rows: d.rows });
  }

  if (input.days.length > 0) {
    signal?.throwIfAborted();
    const brands = await client.listBrands(signal === undefined ? {} : { signal });

    // Brand names → brands, locally: one brands request per run.
    const brandOf = new Map<string, Brand | Error>();
    for (const day of input.days) {
      for (const name of namesOf(day)) {
        if (brandOf.has(name)) continue;
        try {
          brandOf.set(name, matchBrand(brands, name));
        } catch (error) {
          brandOf.set(name, error as Error);
        }
      }
    }
    const dayBrand = (day: DailyTotal): Brand | Error => {
      const found = namesOf(day).map((name) => brandOf.get(name)!);
      const failed = found.find((b): b is Error => b instanceof Error);
      if (failed !== undefined) return failed;
      const ids = [...new Set(found.map((b) => (b as Brand).id))];
      if (ids.length > 1) {
        return new Error(
          `brand names ${namesOf(day).map((n) => JSON.stringify(n)).join(", ")} name different brands (ids ${ids.join(", ")}) ` +
            "but differ only in case, so their rows were added into one shop-day; write each brand one way",
        );
      }
      return found[0] as Brand;
    };

    // (brand, External Key) → SHOP ID, once each.
    const lookups = new Map<string, { readonly brand: Brand; readonly externalKey: string; shop?: Shop; error?: unknown }>();
    for (const day of input.days) {
      const brand = dayBrand(day);
      if (brand instanceof Error) continue;
      const key = `${brand.id}\u0001${day.externalKey}`;
      if (!lookups.has(key)) lookups.set(key, { brand, externalKey: day.externalKey });
    }
    await runPool([...lookups.values()], o.concurrency, signal, async (lookup) => {
      try {
        lookup.shop = await client.getShopByExternalKey(lookup.brand, lookup.externalKey, signal === undefined ? {} : { signal });
      } catch (error) {
        lookup.error = error;
      }
    });
    signal?.throwIfAborted();

    // Classify; group by shop-day so no shop-day can get two records.
    const byShopDay = new Map<string, Pending[]>();
    for (const day of input.days) {
      const base = { brand: day.brand, externalKey: day.externalKey, date: day.date, currency: day.currency, amount: day.amount, quantity: day.quantity, rows: day.rows };
      const brand = dayBrand(day);
      if (brand instanceof Error) {
        settle({ ...base, status: "rejected", reason: brand.message });
        continue;
      }
      const lookup = lookups.get(`${brand.id}\u0001${day.externalKey}`)!;
      if (lookup.shop === undefined) {
        const unknown = isShopNotFoundError(lookup.error) || (isHttpError(lookup.error) && lookup.error.status === 404);
        settle({ ...base, status: unknown ? "rejected" : "failed", reason: unknown ? unknownKeyReason(lookup.error, brand, day.externalKey) : `shop lookup failed: ${messageOf(lookup.error)}` });
        continue;
      }
      const key = `${lookup.shop.id}/${day.date}`;
      const list = byShopDay.get(key);
      if (list === undefined) byShopDay.set(key, [{ day, shop: lookup.shop }]);
      else list.push({ day, shop: lookup.shop });
    }

    const toSend: { readonly pending: Pending; readonly record: SalesStatsDaily; readonly hash: string; readonly key: string }[] = [];
    for (const [key, list] of byShopDay) {
      if (list.length > 1) {
        const names = list.map((p) => `${p.day.brand} / ${p.day.externalKey}`).join(", ");
        for (const p of list) {
          settle({
            ...reportBase(p), status: "rejected",
            reason: `${names} all resolve to SHOP ID ${p.shop.id}: their records for ${p.day.date} would overwrite each other; write the shop one way`,
          });
        }
        continue;
      }
      const pending = list[0]!;
      const record: SalesStatsDaily = { date: pending.day.date, amount: pending.day.amount, quantity: pending.day.quantity, amount_currency: pending.day.currency };
      const hash = await hashSalesRecord(record);
      if (!o.force && journal.get(key)?.hash === hash) settle({ ...reportBase(pending), status: "unchanged" });
      else if (o.dryRun) settle({ ...reportBase(pending), status: "planned" });
      else toSend.push({ pending, record, hash, key });
    }

    await runPool(toSend, o.concurrency, signal, async ({ pending, record, hash, key }) => {
      try {
        await client.uploadDailySales(pending.shop.id, record, signal === undefined ? {} : { signal });
      } catch (error) {
        if (signal?.aborted === true) return; // the run is being stopped; reported by the rejection below
        settle({ ...reportBase(pending), status: "failed", reason: `upload failed: ${messageOf(error)}` });
        return;
      }
      journal.record(key, {
        brand: pending.day.brand, externalKey: pending.day.externalKey, shopId: pending.shop.id, date: record.date,
        amount: record.amount, quantity: record.quantity, amount_currency: record.amount_currency, hash, uploadedAt: new Date().toISOString(),
      });
      settle({ ...reportBase(pending), status: "uploaded" });
    });
  }

  const journalError = await journal.flush();
  signal?.throwIfAborted();

  results.sort(compareRows);
  const counts = { uploaded: 0, unchanged: 0, planned: 0, rejected: 0, failed: 0, rejectedRows: input.rejectedRows.length };
  for (const row of results) counts[row.status]++;
  const location = journal.location;
  return {
    days: results,
    rejectedRows: input.rejectedRows,
    counts,
    ok: counts.rejected === 0 && counts.failed === 0 && counts.rejectedRows === 0 && journalError === undefined,
    ...(location === undefined ? {} : { journal: location }),
    ...(journalError === undefined ? {} : { journalError }),
  };
}

function reportBase(p: Pending): Omit<SalesReportRow, "status"> {
  const d = p.day;
  const missing = d.missingRows;
  return {
    brand: d.brand, externalKey: d.externalKey, date: d.date, shopId: p.shop.id, currency: d.currency, amount: d.amount, quantity: d.quantity, rows: d.rows,
    ...(missing === undefined || missing.length === 0
      ? {}
      : { note: `incomplete: ${missing.length} rejected row(s) of this day left out (line ${missing.map((r) => r.line).join(", ")})` }),
  };
}

function unknownKeyReason(error: unknown, brand: Brand, externalKey: string): string {
  if (isShopNotFoundError(error)) return error.message;
  return (
    `no shop with External Key ${JSON.stringify(externalKey)} for brand ${JSON.stringify(brand.name)}; ` +
    "External Keys must be registered with the service operator (key and shop name) before sales can be uploaded"
  );
}

// DailyTotals built by hand may lack brandNames.
function namesOf(day: DailyTotal): readonly string[] {
  return day.brandNames === undefined || day.brandNames.length === 0 ? [day.brand] : day.brandNames;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function isDailySales(value: DailySales | Iterable<DailyTotal>): value is DailySales {
  return !(Symbol.iterator in value) && Array.isArray((value as DailySales).days);
}

function compareRows(a: SalesReportRow, b: SalesReportRow): number {
  return cmp(a.brand, b.brand) || cmp(a.externalKey, b.externalKey) || cmp(a.date, b.date) || cmp(a.status, b.status);
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Runs `work` over `items` with at most `limit` at once; stops taking new items once `signal` aborts. */
async function runPool<T>(items: readonly T[], limit: number, signal: AbortSignal | undefined, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length && signal?.aborted !== true) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
