/**
 * One CSV cell (RFC 4180): quoted only when it holds a quote, comma or line break; `undefined`
 * and `null` are empty: every CSV footfall writes (the CLI's tables as CSV, the demo's daily.csv
 * and pos-transactions.csv).
 *
 * @example
 * csvCell('a "b", c'); // '"a ""b"", c"'
 * csvCell(undefined); // ""
 */
export function csvCell(value: unknown): string {
  const text = value === undefined || value === null ? "" : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
