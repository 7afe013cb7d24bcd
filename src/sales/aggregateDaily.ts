import { DailyAggregator, type AggregateDailyOptions, type DailySales } from "./DailyAggregator.ts";
import type { SalesInputRow } from "./SalesInputRow.ts";

/**
 * Turns sales rows into one total per (brand, External Key, local date): the only shape the
 * service may receive, since a second record for a shop-day overwrites the first.
 *
 * - **Transactions** (rows with `timestamp`): each line is added to the shop's local date in
 *   `timeZone` (default Asia/Seoul), so a sale at 00:30 KST counts for that KST day although it is
 *   the previous UTC day; a timestamp without an offset is already local. Refunds and returns
 *   (negative amount or quantity) are added in.
 * - **Daily totals** (rows with `date`): one row is the day's total; two rows for the same
 *   shop-day are refused (they would overwrite each other) unless `sum` is set.
 * - **Money** is added exactly in integer minor units of the currency; an amount with more
 *   decimals than the currency has (10.5 KRW) is refused, never rounded.
 * - **Validation**: date a real calendar day, amount a finite decimal, quantity an integer,
 *   currency a known ISO 4217 code; every daily total — amount and quantity — must be ≥ 0, and
 *   a shop-day must not mix currencies. A bad row is refused with its line and reason and
 *   never stops the others; a bad total refuses its whole shop-day.
 *
 * @example
 * const { days } = aggregateDaily(
 *   [
 *     { external_key: "GN-001", timestamp: "2026-11-19T15:30:00Z", amount: "12000", quantity: "2" }, // 00:30 KST on the 20th
 *     { external_key: "GN-001", timestamp: "2026-11-20T13:00:00+09:00", amount: "-2000", quantity: "-1" }, // a refund
 *   ],
 *   { brand: "Cafe Mori" },
 * );
 * days; // [{ brand: "Cafe Mori", externalKey: "GN-001", date: "2026-11-20", amount: 10000, quantity: 1, currency: "KRW", … }]
 */
export function aggregateDaily(rows: Iterable<SalesInputRow>, options: AggregateDailyOptions = {}): DailySales {
  const aggregator = new DailyAggregator(options);
  for (const row of rows) aggregator.add(row);
  return aggregator.finish();
}
