import { rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Client } from "../client/Client.ts";
import { receiptDelta } from "../sales/netReceipts.ts";
import type { SalesReport } from "../sales/uploadDailySales.ts";
import { defaultJournalPath, uploadSales } from "../sales/uploadSales.ts";
import type { SimShop, World } from "../sim/world/World.ts";
import { csvCell } from "../text/csvCell.ts";
import type { DemoSales } from "./DemoShopResult.ts";
import { int, moneyFormat } from "./textFormats.ts";

/**
 * Options of {@link SalesRun}.
 *
 * @example
 * const options: SalesRunOptions = { world, shops: world.shops, client, out: "out", timeZone: "Asia/Seoul", journalScope: sim.baseUrl, signal: new AbortController().signal };
 */
export interface SalesRunOptions {
  /** The simulated world: its till lines are the day's sales. */
  readonly world: World;
  /** The shops, by the ids the service gave them. */
  readonly shops: readonly SimShop[];
  /** The service the totals go up to. */
  readonly client: Client;
  /** Folder of pos-transactions.csv (the till lines as a client company's export). */
  readonly out: string;
  /** IANA time zone of the shops: their local days. */
  readonly timeZone: string;
  /** The upload journal's scope: the service's base URL. */
  readonly journalScope: string;
  /** Aborted to stop the upload (Ctrl-C). */
  readonly signal: AbortSignal;
}

/**
 * The day's point-of-sale lines: written as a client company's CSV export and uploaded through
 * `uploadSales` (what `footfall sales upload FILE` runs), once, at closing time.
 *
 * @example
 * const sales = new SalesRun({ world, shops: world.shops, client, out: "out", timeZone: "Asia/Seoul", journalScope: sim.baseUrl, signal: new AbortController().signal });
 * sales.status; // "sales: the day's takings go up at closing time"
 */
export class SalesRun {
  /** The dashboard's sales line. */
  status = "sales: the day's takings go up at closing time";
  /** Whether {@link SalesRun.start} was called. */
  started = false;
  /** False once the upload failed or a shop-day was not uploaded. */
  ok = true;
  /** Settles when the upload is over (never rejects). */
  done: Promise<void> = Promise.resolve();
  /** Receives a line for each outcome of the upload (set by the dashboard). */
  onEvent: (line: string) => void = () => {};
  #report: SalesReport | undefined;
  #uploadedCutoff = Number.NEGATIVE_INFINITY;
  readonly #options: SalesRunOptions;
  readonly #lines: { readonly shop: number; readonly ms: number; readonly hour: number; readonly csv: string; readonly amount: number; readonly quantity: number }[] = [];

  constructor(options: SalesRunOptions) {
    this.#options = options;
    for (const shop of options.shops) {
      for (const t of options.world.transactions(shop.id)) {
        this.#lines.push({
          shop: shop.id,
          ms: Date.parse(t.timestamp),
          // The timestamp carries the shop's own offset, so its hour is the local hour.
          hour: Number(t.timestamp.slice(11, 13)),
          csv: [t.brand, t.external_key, t.timestamp, String(t.amount), String(t.quantity)].map(csvCell).join(","),
          amount: t.amount,
          quantity: t.quantity,
        });
      }
    }
  }

  /** Writes and uploads the till lines up to `cutoffMs` (in the background: see {@link SalesRun.done}). */
  start(cutoffMs: number): void {
    this.started = true;
    this.done = this.#upload(cutoffMs).catch((error: unknown) => {
      this.ok = false;
      const why = this.#options.signal.aborted ? "interrupted" : error instanceof Error ? error.message : String(error);
      this.status = `sales: not uploaded (${why})`;
      this.onEvent(`footfall demo: ${this.status}`);
    });
  }

  async #upload(cutoffMs: number): Promise<void> {
    const { out, client, timeZone, journalScope, signal } = this.#options;
    const lines = this.#lines.filter((l) => l.ms <= cutoffMs);
    const file = join(out, "pos-transactions.csv");
    await writeFile(file, `brand,external_key,timestamp,amount,quantity\n${lines.map((l) => `${l.csv}\n`).join("")}`, "utf8");
    // Each demo serves a new, empty simulator: a journal of an earlier run describes a service
    // that is gone, so it is started afresh rather than left to grow by one service per run.
    await rm(defaultJournalPath(file), { force: true });
    this.status = `sales: uploading ${int(lines.length)} till lines as daily totals…`;
    const report = await uploadSales(client, file, { timeZone, journalScope, signal });
    this.#report = report;
    this.#uploadedCutoff = cutoffMs;
    this.ok = report.ok;
    const money = moneyFormat("KRW");
    const total = report.days.reduce((n, d) => n + (d.amount ?? 0), 0);
    const c = report.counts;
    this.status =
      `sales: ${c.uploaded + c.unchanged} shop-day${c.uploaded + c.unchanged === 1 ? "" : "s"} uploaded (${money.format(total)}, ${int(lines.length)} till lines → one record per shop-day)` +
      `${c.rejected + c.failed > 0 ? `, ${c.rejected + c.failed} not uploaded` : ""}`;
    this.onEvent(`footfall demo: ${this.status}`);
  }

  /** The shop's sales of the day (as uploaded), or the till lines up to `cutoffMs` when nothing went up. */
  forShop(shop: SimShop, cutoffMs: number): DemoSales {
    const uploaded = this.#report !== undefined;
    const limit = uploaded ? this.#uploadedCutoff : cutoffMs;
    const byHour = new Array<number>(24).fill(0);
    let receipts = 0;
    let amount = 0;
    let quantity = 0;
    for (const l of this.#lines) {
      if (l.shop !== shop.id || l.ms > limit) continue;
      // The library's refund rule (as in notebook 03): a refund line cancels a receipt.
      const sign = receiptDelta(l.amount);
      receipts += sign;
      byHour[l.hour]! += sign;
      amount += l.amount;
      quantity += l.quantity;
    }
    const row = this.#report?.days.find((d) => d.shopId === shop.id || d.externalKey === shop.externalKey);
    const status = !uploaded
      ? `not uploaded (${this.#options.signal.aborted ? "interrupted before closing" : "upload failed"})`
      : row === undefined
        ? "no sales"
        : `${row.status}${row.reason ? `: ${row.reason}` : ""}`;
    return {
      receipts,
      receiptsByHour: byHour,
      amount: row?.amount ?? amount,
      quantity: row?.quantity ?? quantity,
      currency: row?.currency ?? "KRW",
      status,
    };
  }
}
