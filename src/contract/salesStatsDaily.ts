/**
 * One shop-day of sales, the object posted under `sales_stats_daily`.
 * One record carries the whole day's totals: a second post for the same date
 * overwrites the first, so it must never be sent per transaction.
 *
 * @example
 * const day: SalesStatsDaily = { date: "2026-11-20", amount: 1250000, quantity: 87, amount_currency: "KRW" };
 */
export interface SalesStatsDaily {
  /** Day of the sales, `YYYY-MM-DD`. */
  readonly date: string;
  /** Total sales amount of the day, in major units of `amount_currency` (won for KRW). */
  readonly amount: number;
  /** Total count of items (or receipts) sold that day; an integer. */
  readonly quantity: number;
  /** ISO 4217 currency code, e.g. `KRW`. */
  readonly amount_currency: string;
}

/**
 * Request body of `POST {base_url}/api/v1/shops/:shop_id/sales_stats_dailies`.
 *
 * @example
 * const body: SalesStatsDailyRequest = {
 *   sales_stats_daily: { date: "2026-11-20", amount: 1250000, quantity: 87, amount_currency: "KRW" },
 * };
 */
export interface SalesStatsDailyRequest {
  readonly sales_stats_daily: SalesStatsDaily;
}
