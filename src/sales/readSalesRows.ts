import { readCsvRows } from "./readCsvRows.ts";
import { readNdjsonRows } from "./readNdjsonRows.ts";
import { peekText } from "./peekText.ts";
import { salesSourceName, salesTextChunks, type SalesSource } from "./salesTextChunks.ts";
import type { SalesInputRow } from "./SalesInputRow.ts";

/**
 * Options of {@link readSalesRows} and {@link readSales}.
 *
 * @example
 * const options: ReadSalesOptions = { format: "csv", brand: "Cafe Mori" };
 */
export interface ReadSalesOptions {
  /**
   * File format. `"auto"` goes by the file extension (`.ndjson`, `.jsonl`, `.json` → NDJSON;
   * `.csv` → CSV), then by the first character (`{` → NDJSON, else CSV).
   * @default "auto"
   */
  readonly format?: "auto" | "csv" | "ndjson";
  /**
   * What the elements of an iterable source are: raw `"chunks"` of the file (a stream) or
   * `"lines"` without line ends (readline), which get a line end appended.
   * @default "chunks"
   */
  readonly iterable?: "chunks" | "lines";
  /** Label for reports. @default the path, the `{ text, name }` name, or "input" */
  readonly name?: string;
  /** Default brand; when set, a CSV may lack the `brand` column. @default undefined */
  readonly brand?: string;
}

/**
 * Defaults of {@link ReadSalesOptions}.
 *
 * @example
 * defaultReadSalesOptions.format; // "auto"
 */
export const defaultReadSalesOptions = { format: "auto", iterable: "chunks" } as const;

/**
 * Streams the rows of one sales file (CSV or NDJSON), each with its `line` and `source`, for
 * {@link aggregateDaily} or a `DailyAggregator`. Rows are not validated here; rows that cannot
 * be read come with `invalid` set. Whole-file problems (missing column, broken CSV quoting,
 * unreadable file) throw `SalesInputError`.
 *
 * Works in Node and Deno (files are read with `node:fs`).
 *
 * @example
 * for await (const row of readSalesRows("sales.csv", { brand: "Cafe Mori" })) console.log(row.line);
 * for await (const row of readSalesRows({ text: '{"external_key":"A","date":"2026-11-20","amount":1,"quantity":1}\n' })) console.log(row);
 */
export async function* readSalesRows(source: SalesSource, options: ReadSalesOptions = {}): AsyncGenerator<SalesInputRow> {
  const format = options.format ?? defaultReadSalesOptions.format;
  const iterable = options.iterable ?? defaultReadSalesOptions.iterable;
  if (format !== "auto" && format !== "csv" && format !== "ndjson") throw new TypeError(`format must be "auto", "csv" or "ndjson", got ${String(format)}`);
  if (iterable !== "chunks" && iterable !== "lines") throw new TypeError(`iterable must be "chunks" or "lines", got ${String(iterable)}`);
  const name = options.name ?? salesSourceName(source);
  let chunks: AsyncIterable<string> = salesTextChunks(source, iterable);
  let chosen = format === "auto" ? formatOfName(name) : format;
  if (chosen === undefined) {
    const peeked = await peekFormat(chunks);
    chosen = peeked.format;
    chunks = peeked.chunks;
  }
  const readOptions = { source: name, ...(options.brand === undefined ? {} : { brand: options.brand }) };
  yield* chosen === "csv" ? readCsvRows(chunks, readOptions) : readNdjsonRows(chunks, readOptions);
}

/**
 * Reads every row of one sales file into an array (see {@link readSalesRows}).
 *
 * @example
 * const rows = await readSales("sales.ndjson");
 */
export async function readSales(source: SalesSource, options: ReadSalesOptions = {}): Promise<SalesInputRow[]> {
  const rows: SalesInputRow[] = [];
  for await (const row of readSalesRows(source, options)) rows.push(row);
  return rows;
}

function formatOfName(name: string): "csv" | "ndjson" | undefined {
  const lower = name.toLowerCase();
  if (lower.endsWith(".ndjson") || lower.endsWith(".jsonl") || lower.endsWith(".json")) return "ndjson";
  if (lower.endsWith(".csv")) return "csv";
  return undefined;
}

/** The format of a text by its first character that is not a BOM or white space: `{` → NDJSON, else CSV. */
async function peekFormat(chunks: AsyncIterable<string>): Promise<{ format: "csv" | "ndjson"; chunks: AsyncIterable<string> }> {
  const start = (text: string): string => text.replace(/^[\uFEFF\s]+/, "");
  const peeked = await peekText(chunks, (seen) => start(seen) !== "");
  return { format: start(peeked.seen).startsWith("{") ? "ndjson" : "csv", chunks: peeked.chunks };
}
