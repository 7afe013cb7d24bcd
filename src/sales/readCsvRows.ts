import { Readable } from "node:stream";
import { parse, type CsvError } from "csv-parse";
import { SalesInputError } from "../errors/SalesInputError.ts";
import { peekText } from "./peekText.ts";
import { SALES_COLUMNS, type SalesColumn, type SalesInputRow } from "./SalesInputRow.ts";

/**
 * Options of {@link readCsvRows}.
 *
 * @example
 * const options: ReadCsvRowsOptions = { source: "sales.csv", brand: "Cafe Mori" };
 */
export interface ReadCsvRowsOptions {
  /** Label for reports and errors. @default "input" */
  readonly source?: string;
  /** Set when a default brand is known, so the file may lack a `brand` column. @default undefined */
  readonly brand?: string;
}

/**
 * Defaults of {@link ReadCsvRowsOptions}.
 *
 * @example
 * defaultReadCsvRowsOptions.source; // "input"
 */
export const defaultReadCsvRowsOptions = { source: "input" } as const;

/**
 * Streams the rows of a sales CSV (RFC 4180 via csv-parse: header row, quoted fields with
 * commas, quotes and line breaks, CRLF or LF, UTF-8 BOM). The field delimiter is the comma, or
 * the semicolon, tab or pipe when the header splits into the columns by that instead (as
 * spreadsheets export in locales whose decimal mark is a comma). Each row carries the 1-based line
 * it starts on, also when an earlier quoted field spanned several lines. Unknown columns are
 * ignored; column names are matched after trimming, case-insensitively.
 *
 * A row with the wrong number of fields is yielded with `invalid` set, so it is reported and
 * the rest goes on. Whole-file problems throw {@link SalesInputError}: no header, a required
 * column missing (`external_key`, `amount`, `quantity`, `date` or `timestamp`, and `brand`
 * unless `options.brand` is set), a column named twice, or broken quoting (after an unclosed
 * quote no later row can be located reliably, and a partial file would give partial totals).
 *
 * @example
 * async function* chunks() { yield "external_key,date,amount,quantity\nGN-001,2026-11-20,5000,1\n"; }
 * for await (const row of readCsvRows(chunks(), { brand: "Cafe Mori" })) console.log(row.line, row.amount); // 2 "5000"
 */
export async function* readCsvRows(chunks: AsyncIterable<string>, options: ReadCsvRowsOptions = {}): AsyncGenerator<SalesInputRow> {
  const source = options.source ?? defaultReadCsvRowsOptions.source;
  let peeked: Awaited<ReturnType<typeof peekText>>;
  try {
    // The header line, or as much of it as HEADER_PEEK characters hold.
    peeked = await peekText(chunks, (seen) => seen.length >= HEADER_PEEK || /[\r\n]/.test(seen));
  } catch (error) {
    throw new SalesInputError(source, 0, `cannot read: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  const firstLine = peeked.seen.replace(/^\uFEFF/, "").split(/\r\n|\n|\r/, 1)[0] ?? "";
  const parser = parse({
    bom: true,
    delimiter: delimiterOf(firstLine),
    relax_column_count: true, // checked here, so one short row is reported instead of ending the file
    relax_quotes: true, // a stray quote inside an unquoted field (12" pizza) is kept as text
    record_delimiter: ["\r\n", "\n", "\r"],
  });
  const input = Readable.from(peeked.chunks);
  input.on("error", (error) => parser.destroy(error));
  input.pipe(parser);

  let header: readonly string[] | undefined;
  let index: Partial<Record<SalesColumn, number>> = {};
  let nextLine = 1;
  try {
    for await (const record of parser as AsyncIterable<string[]>) {
      // Nothing is skipped by the parser (blank lines come as [""]), so a record starts where the
      // last one ended; csv-parse's own info.lines counts a CRLF inside quotes twice.
      const line = nextLine;
      nextLine += 1 + lineBreaksIn(record);
      if (record.length === 1 && record[0]!.trim() === "") continue; // blank line
      if (header === undefined) {
        header = record;
        index = columnIndex(record, source, line, options.brand !== undefined);
        continue;
      }
      if (record.length !== header.length) {
        yield { line, source, invalid: `row has ${record.length} field${record.length === 1 ? "" : "s"}, the header has ${header.length}` };
        continue;
      }
      yield rowOf(record, index, line, source);
    }
  } catch (error) {
    if (error instanceof SalesInputError) throw error;
    const csv = error as Partial<CsvError>;
    if (typeof csv.code === "string" && csv.code.startsWith("CSV_") || csv.code === "INVALID_OPENING_QUOTE") {
      throw new SalesInputError(source, nextLine, `not valid CSV: ${csv.message ?? String(error)}`, { cause: error });
    }
    throw new SalesInputError(source, 0, `cannot read: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  } finally {
    input.unpipe(parser);
    input.destroy();
    parser.destroy();
  }
  if (header === undefined) throw new SalesInputError(source, 1, "empty file: no header row");
}

/** Field delimiters a sales export may use, in the order tried: RFC 4180's comma first. */
const DELIMITERS = [",", ";", "\t", "|"] as const;
/** How much of a file is looked at for its header line, characters. */
const HEADER_PEEK = 65_536;

/**
 * The delimiter by which the header line names the `external_key` column (every sales file has
 * one), trying the comma first; the comma when none does (the header check then says what is
 * missing). A naive split: column names hold no delimiters.
 */
function delimiterOf(headerLine: string): string {
  for (const d of DELIMITERS) {
    const names = headerLine.split(d).map((n) => n.trim().replace(/^"(.*)"$/, "$1").trim().toLowerCase());
    if (names.includes("external_key")) return d;
  }
  return ",";
}

function lineBreaksIn(record: readonly string[]): number {
  let breaks = 0;
  for (let i = 0; i < record.length; i++) {
    const field = record[i]!;
    if (field.indexOf("\n") === -1 && field.indexOf("\r") === -1) continue;
    for (let j = 0; j < field.length; j++) {
      const c = field.charCodeAt(j);
      if (c === 10 || (c === 13 && field.charCodeAt(j + 1) !== 10)) breaks++;
    }
  }
  return breaks;
}

function columnIndex(header: readonly string[], source: string, line: number, hasBrand: boolean): Partial<Record<SalesColumn, number>> {
  const index: Partial<Record<SalesColumn, number>> = {};
  for (let i = 0; i < header.length; i++) {
    const name = header[i]!.trim().toLowerCase();
    if (!(SALES_COLUMNS as readonly string[]).includes(name)) continue;
    const column = name as SalesColumn;
    if (index[column] !== undefined) throw new SalesInputError(source, line, `column "${column}" appears twice in the header`, { column });
    index[column] = i;
  }
  for (const column of ["external_key", "amount", "quantity"] as const) {
    if (index[column] === undefined) throw new SalesInputError(source, line, `missing column "${column}"`, { column });
  }
  if (index.date === undefined && index.timestamp === undefined) {
    throw new SalesInputError(source, line, 'missing column "date" (daily totals) or "timestamp" (transactions)', { column: "date" });
  }
  if (index.brand === undefined && !hasBrand) {
    throw new SalesInputError(source, line, 'missing column "brand" (or give a brand option, --brand NAME)', { column: "brand" });
  }
  return index;
}

function rowOf(record: readonly string[], index: Partial<Record<SalesColumn, number>>, line: number, source: string): SalesInputRow {
  // A fixed object shape per row; empty cells are left out so defaults apply to them.
  return {
    brand: cell(record, index.brand),
    external_key: cell(record, index.external_key),
    amount: cell(record, index.amount),
    quantity: cell(record, index.quantity),
    currency: cell(record, index.currency),
    date: cell(record, index.date),
    timestamp: cell(record, index.timestamp),
    line,
    source,
  };
}

function cell(record: readonly string[], i: number | undefined): string | undefined {
  if (i === undefined) return undefined;
  const value = record[i]!.trim();
  return value === "" ? undefined : value;
}
