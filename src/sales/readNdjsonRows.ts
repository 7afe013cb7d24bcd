import { LineSplitter } from "../text/LineSplitter.ts";
import type { SalesInputRow } from "./SalesInputRow.ts";

/**
 * Options of {@link readNdjsonRows}.
 *
 * @example
 * const options: ReadNdjsonRowsOptions = { source: "sales.ndjson" };
 */
export interface ReadNdjsonRowsOptions {
  /** Label for reports. @default "input" */
  readonly source?: string;
}

/**
 * Defaults of {@link ReadNdjsonRowsOptions}.
 *
 * @example
 * defaultReadNdjsonRowsOptions.source; // "input"
 */
export const defaultReadNdjsonRowsOptions = { source: "input" } as const;

/**
 * Streams the rows of a sales NDJSON file: one JSON object per line, keys named like the CSV
 * columns (`external_key`, `amount`, `quantity`, `brand`, `currency`, `date` or `timestamp`);
 * other keys are ignored. Blank lines are skipped; a line that is not a JSON object is
 * yielded with `invalid` set, so it is reported and the other lines go on. Lines are split by
 * the shared `LineSplitter` (LF, CRLF and lone CR end a line; a leading BOM is dropped), so
 * line numbers match what `footfall analyze` and an editor show.
 *
 * @example
 * async function* chunks() { yield '{"external_key":"GN-001","date":"2026-11-20","amount":5000,"quantity":1}\n'; }
 * for await (const row of readNdjsonRows(chunks())) console.log(row.line, row.amount); // 1 5000
 */
export async function* readNdjsonRows(chunks: AsyncIterable<string>, options: ReadNdjsonRowsOptions = {}): AsyncGenerator<SalesInputRow> {
  const source = options.source ?? defaultReadNdjsonRowsOptions.source;
  // The rows a chunk completes are collected, then yielded: the shared splitter is synchronous.
  let rows: SalesInputRow[] = [];
  const splitter = new LineSplitter((text, line) => {
    const row = rowOf(text, line, source);
    if (row !== undefined) rows.push(row);
  });
  for await (const chunk of chunks) {
    splitter.push(chunk);
    if (rows.length > 0) {
      const done = rows;
      rows = [];
      yield* done;
    }
  }
  splitter.end();
  yield* rows;
}

function rowOf(text: string, line: number, source: string): SalesInputRow | undefined {
  const trimmed = text.trim();
  if (trimmed === "") return undefined;
  let value: unknown;
  try {
    value = JSON.parse(trimmed);
  } catch (error) {
    return { line, source, invalid: `not valid JSON: ${error instanceof Error ? error.message : String(error)}` };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return { line, source, invalid: "line is not a JSON object" };
  }
  const o = value as Record<string, unknown>;
  return {
    brand: o.brand,
    external_key: o.external_key,
    amount: o.amount,
    quantity: o.quantity,
    currency: o.currency,
    date: o.date,
    timestamp: o.timestamp,
    line,
    source,
  };
}
