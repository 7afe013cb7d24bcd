/**
 * One sales row as read from a file (or built by analytics code), before validation.
 * Field names are the file's column names; values are whatever the file held (strings from
 * CSV, strings or numbers from NDJSON). `aggregateDaily` validates every field.
 *
 * A row is a **transaction** when it has a `timestamp`, a **daily total** when it has a `date`.
 *
 * @example
 * const tx: SalesInputRow = { external_key: "GN-001", timestamp: "2026-11-20T00:30:00+09:00", amount: "12000", quantity: "2", line: 2 };
 * const day: SalesInputRow = { brand: "Cafe Mori", external_key: "GN-001", date: "2026-11-20", amount: 1250000, quantity: 87 };
 */
export interface SalesInputRow {
  /** Brand name; when absent, the `brand` option applies. */
  readonly brand?: unknown;
  /** The client's shop identifier, registered with the service operator. */
  readonly external_key?: unknown;
  /** Money, in major units of the currency (`"12000"`, `"19.99"`); negative for refunds. */
  readonly amount?: unknown;
  /** Items (or receipts); an integer, negative for returns in transactions. */
  readonly quantity?: unknown;
  /** ISO 4217 code; when absent, the `currency` option applies (default KRW). */
  readonly currency?: unknown;
  /** `YYYY-MM-DD`: the row is a daily total for that shop-day. */
  readonly date?: unknown;
  /** ISO 8601 instant or local wall time: the row is one transaction. */
  readonly timestamp?: unknown;
  /** 1-based line in the source where the row starts (for reports). */
  readonly line?: number;
  /** Name of the file (or other source) the row came from (for reports). */
  readonly source?: string;
  /** Set by readers when the row could not be read at all (bad JSON, wrong field count). */
  readonly invalid?: string;
}

/**
 * Where a row came from: its source name and 1-based line.
 *
 * @example
 * const ref: RowRef = { source: "sales.csv", line: 12 };
 */
export interface RowRef {
  /** File name or other label; `""` when unknown. */
  readonly source: string;
  /** 1-based line where the row starts. */
  readonly line: number;
}

/**
 * Columns a reader keeps; any other column is ignored.
 *
 * @example
 * SALES_COLUMNS.includes("amount"); // true
 */
export const SALES_COLUMNS = ["brand", "external_key", "amount", "quantity", "currency", "date", "timestamp"] as const;

/**
 * A recognised column name.
 *
 * @example
 * const column: SalesColumn = "external_key";
 */
export type SalesColumn = (typeof SALES_COLUMNS)[number];
