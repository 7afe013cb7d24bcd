import { parse } from "csv-parse/sync";
import { TruthInputError } from "../errors/TruthInputError.ts";
import { epochDayOfDate } from "../time/calendarDate.ts";
import type { CountedTruth, DailyCount, TruthSegment } from "./CountedTruth.ts";
import { mergeTruth } from "./mergeTruth.ts";
import { parseOffsetTime } from "./parseOffsetTime.ts";

/**
 * Reads one counted-truth file (people counted by hand or by a door counter) from its text.
 * Pure: {@link readTruth} reads files and calls it.
 *
 * The file is CSV (RFC 4180, via csv-parse) with a header, in one of two shapes:
 *
 * - `shop_id,start,end,people`: `people` were inside (constant, or the time-weighted mean)
 *   over [`start`, `end`), both ISO 8601 with a UTC offset (`2024-03-14T13:54:07.533+01:00`,
 *   `…Z`); a time without an offset is an error, since it cannot be placed.
 * - `shop_id,date,visitors`: `visitors` entered on the shop's local day `date` (`YYYY-MM-DD`).
 *
 * Columns may come in any order; names are trimmed and case-insensitive; other columns are
 * ignored (a segment file may also carry a `date` column). A UTF-8 BOM, CRLF and blank lines
 * (also rows of empty cells, as spreadsheets export) are accepted. A count of `NaN` or an empty
 * count means it was not known: the row is left out and counted in `unknownRows` (its other
 * cells must still be valid). Counts are persons ≥ 0 and may be fractional (a mean).
 *
 * Anything else rejects the whole file with a {@link TruthInputError} `source:line: reason` on
 * its first problem, so nothing is half-read: a missing or neither-shape header, a row with the
 * wrong number of fields, a `shop_id` that is not a whole number, an unreadable time or date, a
 * time without an offset, `end` not after `start`, a negative or non-number count, two rows
 * giving different counts for the same shop and moment (or day), and a file with no data rows.
 * Rows that repeat a count are kept once ({@link mergeTruth}).
 *
 * @example
 * const truth = parseTruth("shop_id,start,end,people\n61,2024-03-14T13:54:07.533+01:00,2024-03-14T14:32:00.392+01:00,17\n61,2024-03-14T14:32:00.392+01:00,2024-03-14T14:34:01.393+01:00,NaN\n", "a.truth.csv");
 * truth.segments[0]; // { shopId: 61, start: 1710420847533, end: 1710423120392, people: 17, line: 2, source: "a.truth.csv" }
 * truth.unknownRows; // 1
 * parseTruth("Visitors,shop_id,DATE\r\n120,61,2024-03-14\r\n", "door.csv").daily; // [{ shopId: 61, date: "2024-03-14", visitors: 120, line: 2, source: "door.csv" }]
 * parseTruth("shop_id,start,end,people\n61,2024-03-14T13:54:07,2024-03-14T14:00:00,3\n", "a.csv"); // TruthInputError
 */
export function parseTruth(text: string, source: string): CountedTruth {
  if (typeof text !== "string") throw new TypeError(`parseTruth: text must be a string, got ${typeof text}`);
  if (typeof source !== "string") throw new TypeError(`parseTruth: source must be a string, got ${typeof source}`);

  let records: string[][];
  try {
    records = parse(text, {
      bom: true,
      relax_column_count: true, // checked below, so the message names the line and both counts
      record_delimiter: ["\r\n", "\n", "\r"],
    });
  } catch (error) {
    const lines = (error as { lines?: unknown }).lines;
    throw new TruthInputError(source, typeof lines === "number" ? lines : 0, `not valid CSV: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }

  let header: Header | undefined;
  const segments: TruthSegment[] = [];
  const daily: DailyCount[] = [];
  let unknownRows = 0;
  let dataRows = 0;
  let nextLine = 1;
  for (const record of records) {
    // Nothing is skipped by the parser (blank lines come as [""]), so a record starts where the
    // last one ended; csv-parse's own line count counts a CRLF inside quotes twice.
    const line = nextLine;
    nextLine += 1 + lineBreaksIn(record);
    if (record.every((field) => field.trim() === "")) continue;
    if (header === undefined) {
      header = headerOf(record, source, line);
      continue;
    }
    if (record.length !== header.width) {
      throw new TruthInputError(source, line, `row has ${record.length} field${record.length === 1 ? "" : "s"}, the header has ${header.width}`);
    }
    dataRows++;
    const shopId = shopIdOf(record[header.shopId]!, source, line);
    if (header.shape === "segments") {
      const start = timeOf(record[header.start]!, "start", source, line);
      const end = timeOf(record[header.end]!, "end", source, line);
      if (!(end > start)) {
        throw new TruthInputError(source, line, `end ${record[header.end]!.trim()} is not after start ${record[header.start]!.trim()}`, { column: "end" });
      }
      const people = countOf(record[header.people]!, "people", source, line);
      if (people === undefined) unknownRows++;
      else segments.push({ shopId, start, end, people, line, source });
    } else {
      const date = dateOf(record[header.date]!, source, line);
      const visitors = countOf(record[header.visitors]!, "visitors", source, line);
      if (visitors === undefined) unknownRows++;
      else daily.push({ shopId, date, visitors, line, source });
    }
  }
  if (header === undefined) throw new TruthInputError(source, 1, `empty file: no header row (expected ${SEGMENT_HEADER} or ${DAILY_HEADER})`);
  if (dataRows === 0) throw new TruthInputError(source, header.line, "no data rows after the header");
  return mergeTruth([{ segments, daily, unknownRows }]);
}

const SEGMENT_COLUMNS = ["start", "end", "people"] as const;
const DAILY_COLUMNS = ["date", "visitors"] as const;
const KNOWN_COLUMNS: readonly string[] = ["shop_id", ...SEGMENT_COLUMNS, ...DAILY_COLUMNS];
const SEGMENT_HEADER = "shop_id,start,end,people";
const DAILY_HEADER = "shop_id,date,visitors";

/** Where each column of the file's shape is, and how many fields every row must have. */
type Header =
  | { readonly shape: "segments"; readonly line: number; readonly width: number; readonly shopId: number; readonly start: number; readonly end: number; readonly people: number }
  | { readonly shape: "daily"; readonly line: number; readonly width: number; readonly shopId: number; readonly date: number; readonly visitors: number };

function headerOf(record: readonly string[], source: string, line: number): Header {
  const index = new Map<string, number>();
  for (let i = 0; i < record.length; i++) {
    const name = record[i]!.trim().toLowerCase();
    if (!KNOWN_COLUMNS.includes(name)) continue;
    // Two columns of one name would leave it to chance which one is read.
    if (index.has(name)) throw new TruthInputError(source, line, `column "${name}" appears twice in the header`, { column: name });
    index.set(name, i);
  }
  const segmentHas = SEGMENT_COLUMNS.filter((c) => index.has(c));
  const dailyHas = DAILY_COLUMNS.filter((c) => index.has(c));
  const isSegments = segmentHas.length === SEGMENT_COLUMNS.length;
  const isDaily = dailyHas.length === DAILY_COLUMNS.length;
  if (isSegments && isDaily) {
    throw new TruthInputError(source, line, `the header has the columns of both shapes (${SEGMENT_HEADER} and ${DAILY_HEADER}); give each in its own file`);
  }
  if (!isSegments && !isDaily) {
    // Only one shape started: name what it lacks. Neither or both half there: name both shapes.
    const shape = segmentHas.length > 0 && dailyHas.length === 0 ? SEGMENT_COLUMNS : dailyHas.length > 0 && segmentHas.length === 0 ? DAILY_COLUMNS : undefined;
    const missing = shape?.find((c) => !index.has(c));
    if (missing !== undefined) {
      throw new TruthInputError(source, line, `missing column "${missing}" (expected ${shape === SEGMENT_COLUMNS ? SEGMENT_HEADER : DAILY_HEADER})`, { column: missing });
    }
    const found = record.map((f) => JSON.stringify(f.trim())).join(", ");
    // One field holding separators means another delimiter, which the header alone betrays.
    const hint = record.length === 1 && /[;\t|]/.test(record[0]!) ? "; fields must be separated by commas" : "";
    throw new TruthInputError(source, line, `the header is neither ${SEGMENT_HEADER} nor ${DAILY_HEADER} (found ${found})${hint}`);
  }
  const shopId = index.get("shop_id");
  if (shopId === undefined) {
    throw new TruthInputError(source, line, `missing column "shop_id" (expected ${isSegments ? SEGMENT_HEADER : DAILY_HEADER})`, { column: "shop_id" });
  }
  return isSegments
    ? { shape: "segments", line, width: record.length, shopId, start: index.get("start")!, end: index.get("end")!, people: index.get("people")! }
    : { shape: "daily", line, width: record.length, shopId, date: index.get("date")!, visitors: index.get("visitors")! };
}

function shopIdOf(cell: string, source: string, line: number): number {
  const text = cell.trim();
  if (text === "") throw new TruthInputError(source, line, "shop_id is empty", { column: "shop_id" });
  // Digits only: Number() would take "61.0", "6e1", "0x3d" and " " as shop ids.
  const id = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(id)) {
    throw new TruthInputError(source, line, `shop_id ${JSON.stringify(text)} is not a shop id (a whole number)`, { column: "shop_id" });
  }
  return id;
}

function timeOf(cell: string, column: "start" | "end", source: string, line: number): number {
  const text = cell.trim();
  if (text === "") throw new TruthInputError(source, line, `${column} is empty`, { column });
  const ms = parseOffsetTime(text);
  if (ms === "no offset") {
    throw new TruthInputError(
      source,
      line,
      `${column} ${JSON.stringify(text)} has no UTC offset, so it cannot be placed in time (write it as e.g. 2024-03-14T13:54:07+01:00 or …Z)`,
      { column },
    );
  }
  if (ms === undefined) {
    throw new TruthInputError(source, line, `${column} ${JSON.stringify(text)} is not an ISO 8601 time with offset (e.g. 2024-03-14T13:54:07.533+01:00)`, { column });
  }
  return ms;
}

function dateOf(cell: string, source: string, line: number): string {
  const text = cell.trim();
  if (text === "") throw new TruthInputError(source, line, "date is empty", { column: "date" });
  if (epochDayOfDate(text) === undefined) {
    throw new TruthInputError(source, line, `date ${JSON.stringify(text)} is not a calendar date YYYY-MM-DD`, { column: "date" });
  }
  return text;
}

// A plain decimal: Number() alone would also take "0x10", "1e3", "Infinity" and "" (as 0).
const DECIMAL_RE = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/;

/** The count, or `undefined` when it was not known (`NaN` or empty). */
function countOf(cell: string, column: "people" | "visitors", source: string, line: number): number | undefined {
  const text = cell.trim();
  // pandas and numpy write a missing count as NaN (or nan); a spreadsheet leaves the cell empty.
  if (text === "" || text.toLowerCase() === "nan") return undefined;
  if (!DECIMAL_RE.test(text)) throw new TruthInputError(source, line, `${column} ${JSON.stringify(text)} is not a number`, { column });
  const value = Number(text);
  if (value < 0) throw new TruthInputError(source, line, `${column} ${text} is negative`, { column });
  return value === 0 ? 0 : value; // -0 → 0, so equal counts compare and print equal
}

function lineBreaksIn(record: readonly string[]): number {
  let breaks = 0;
  for (const field of record) {
    if (field.indexOf("\n") === -1 && field.indexOf("\r") === -1) continue;
    for (let j = 0; j < field.length; j++) {
      const c = field.charCodeAt(j);
      if (c === 10 || (c === 13 && field.charCodeAt(j + 1) !== 10)) breaks++;
    }
  }
  return breaks;
}
