import type { Client } from "../client/Client.ts";
import { isSalesInputError } from "../errors/SalesInputError.ts";
import { DailyAggregator, type AggregateDailyOptions, type DailySales, type RejectedRow } from "./DailyAggregator.ts";
import { readSalesRows, type ReadSalesOptions } from "./readSalesRows.ts";
import { salesSourcePath, type SalesSource } from "./salesTextChunks.ts";
import type { SalesInputRow } from "./SalesInputRow.ts";
import type { SalesJournalStore } from "./SalesJournal.ts";
import { uploadDailySales, type SalesReport, type UploadDailySalesOptions } from "./uploadDailySales.ts";

/**
 * Options of {@link readDailySales} and {@link uploadSales}: reading, aggregation and upload
 * options together.
 *
 * @example
 * const options: UploadSalesOptions = { brand: "Cafe Mori", timeZone: "Asia/Seoul", dryRun: true };
 */
export interface UploadSalesOptions
  extends Omit<ReadSalesOptions, "name" | "brand">,
    AggregateDailyOptions,
    Omit<UploadDailySalesOptions, "journal"> {
  /**
   * Journal path or store; `false` for none.
   * @default beside the first file input: `<input>.journal.json` (none for in-memory inputs)
   */
  readonly journal?: string | SalesJournalStore | false;
  /**
   * Called once every input has been read, validated and aggregated, before the first request:
   * the place to report bad rows and days (with their lines), so they are known even when the
   * service then cannot be reached and the call rejects.
   * @default undefined
   */
  readonly onValidated?: (sales: DailySales) => void;
}

/**
 * Reads and aggregates one or more sales files into daily totals (see `aggregateDaily`); the
 * files are summed together, so transactions of one day may be split across files. A file
 * that cannot be used as a whole (missing column, broken CSV quoting, unreadable) adds none of
 * its rows and is reported as a rejected row at the offending line; the other files go on.
 *
 * @example
 * const sales = await readDailySales(["nov-1.csv", "nov-2.csv"], { brand: "Cafe Mori" });
 */
export async function readDailySales(sources: SalesSource | readonly SalesSource[], options: UploadSalesOptions = {}): Promise<DailySales> {
  const list = Array.isArray(sources) ? (sources as readonly SalesSource[]) : [sources as SalesSource];
  const aggregator = new DailyAggregator(aggregateOptions(options));
  const fileErrors: RejectedRow[] = [];
  for (const source of list) {
    const rows: SalesInputRow[] = [];
    try {
      for await (const row of readSalesRows(source, readOptions(options))) rows.push(row);
    } catch (error) {
      if (!isSalesInputError(error)) throw error;
      fileErrors.push({ source: error.source, line: error.line, reason: `${error.reason} (no row of this file was used)` });
      continue;
    }
    for (const row of rows) aggregator.add(row);
  }
  const sales = aggregator.finish();
  return fileErrors.length === 0 ? sales : { ...sales, rejectedRows: [...fileErrors, ...sales.rejectedRows] };
}

/**
 * The whole job in one call: read the files, aggregate to daily totals, validate, resolve
 * brands and shops, upload one record per shop-day with a journal, and report. This is what
 * `footfall sales upload` runs. Validation never waits for the network: the whole input is read
 * and checked first (`onValidated` sees the result), and only then is the service asked anything.
 *
 * @example
 * const report = await uploadSales(client, "sales.csv", { brand: "Cafe Mori" });
 * process.exitCode = report.ok ? 0 : 1;
 */
export async function uploadSales(client: Client, sources: SalesSource | readonly SalesSource[], options: UploadSalesOptions = {}): Promise<SalesReport> {
  const list = Array.isArray(sources) ? (sources as readonly SalesSource[]) : [sources as SalesSource];
  if (list.length === 0) throw new TypeError("uploadSales needs at least one source");
  if (options.onValidated !== undefined && typeof options.onValidated !== "function") throw new TypeError("onValidated must be a function");
  const sales = await readDailySales(list, options);
  options.onValidated?.(sales);
  const firstPath = salesSourcePath(list[0]!);
  const journal = options.journal === undefined ? (firstPath === undefined ? undefined : defaultJournalPath(firstPath)) : options.journal;
  const upload: UploadDailySalesOptions = {
    ...(options.concurrency === undefined ? {} : { concurrency: options.concurrency }),
    ...(options.journalScope === undefined ? {} : { journalScope: options.journalScope }),
    ...(options.force === undefined ? {} : { force: options.force }),
    ...(options.dryRun === undefined ? {} : { dryRun: options.dryRun }),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    ...(options.onProgress === undefined ? {} : { onProgress: options.onProgress }),
    ...(journal === undefined || journal === false ? {} : { journal }),
  };
  return uploadDailySales(client, sales, upload);
}

/**
 * Where the journal of an input file goes by default: beside it, `<input>.journal.json`.
 *
 * @example
 * defaultJournalPath("data/sales.csv"); // "data/sales.csv.journal.json"
 */
export function defaultJournalPath(inputPath: string): string {
  return `${inputPath}.journal.json`;
}

function readOptions(o: UploadSalesOptions): ReadSalesOptions {
  return {
    ...(o.format === undefined ? {} : { format: o.format }),
    ...(o.iterable === undefined ? {} : { iterable: o.iterable }),
    ...(o.brand === undefined ? {} : { brand: o.brand }),
  };
}

function aggregateOptions(o: UploadSalesOptions): AggregateDailyOptions {
  return {
    ...(o.brand === undefined ? {} : { brand: o.brand }),
    ...(o.currency === undefined ? {} : { currency: o.currency }),
    ...(o.timeZone === undefined ? {} : { timeZone: o.timeZone }),
    ...(o.tz === undefined ? {} : { tz: o.tz }),
    ...(o.sum === undefined ? {} : { sum: o.sum }),
  };
}

