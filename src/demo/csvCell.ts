/**
 * One CSV cell (RFC 4180): quoted only when it holds a quote, comma or line break; `undefined`
 * and `null` are empty. The demo's files (daily.csv, pos-transactions.csv) are written with it;
 * it is the rule of the CLI's `csvCell` (src/cli/common.ts), which the demo may not import.
 *
 * @example
 * csvCell('a "b", c'); // '"a ""b"", c"'
 * csvCell(undefined); // ""
 */
export function csvCell(value: unknown): string {
  const text = value === undefined || value === null ? "" : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
