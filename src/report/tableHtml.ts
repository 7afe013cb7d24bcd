import { chartTheme } from "./chartTheme.ts";

/**
 * One column of {@link tableHtml}.
 *
 * @example
 * const col: TableColumn<{ visitors: number }> = { key: "visitors", label: "Visitors" };
 */
export interface TableColumn<T> {
  /** Field of the row shown in the column. */
  readonly key: keyof T & string;
  /** Header text. @default the key */
  readonly label?: string;
  /** Turns the value into text (escaped afterwards). @default numbers grouped, 2 decimals at most */
  readonly format?: (value: T[keyof T & string], row: T) => string;
}

/**
 * Options of {@link tableHtml}.
 *
 * @example
 * const options: TableHtmlOptions<{ shop: string }> = { caption: "Shops" };
 */
export interface TableHtmlOptions<T> {
  /** Columns in order. @default every key of the first row */
  readonly columns?: readonly TableColumn<T>[];
  /** Caption above the table. @default none */
  readonly caption?: string;
}

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/**
 * Escapes text for HTML element content and attribute values.
 *
 * @example
 * escapeHtml('<b> & "q"'); // "&lt;b&gt; &amp; &quot;q&quot;"
 */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c] as string);
}

function formatCell(value: unknown): string {
  if (value === null || value === undefined) return "–";
  if (typeof value === "number") {
    if (!Number.isFinite(value)) return String(value);
    return value.toLocaleString("en", { maximumFractionDigits: Number.isInteger(value) ? 0 : 2 });
  }
  return String(value);
}

/**
 * Renders rows of plain records as a small, styled HTML table (inline styles only, so it looks
 * the same in a notebook output, an HTML report and a mail): numbers right-aligned and grouped,
 * every text escaped. For the "table of the day" next to the charts.
 *
 * @example
 * tableHtml([{ shop: "Gangnam", visitors: 1234 }], { caption: "Visitors" });
 * // '<table …><caption …>Visitors</caption>…<td …>1,234</td>…</table>'
 */
export function tableHtml<T extends object>(rows: readonly T[], options: TableHtmlOptions<T> = {}): string {
  if (!Array.isArray(rows)) throw new TypeError("tableHtml: expected an array of rows");
  const columns: readonly TableColumn<T>[] =
    options.columns ?? (rows.length > 0 ? (Object.keys(rows[0] as object) as (keyof T & string)[]).map((key) => ({ key })) : []);
  const numeric = columns.map((c) => rows.length > 0 && rows.every((r) => typeof r[c.key] === "number" || r[c.key] === undefined || r[c.key] === null));
  const cell = `padding:4px 10px;border-bottom:1px solid ${chartTheme.grid};`;
  const head = columns
    .map((c, i) => `<th style="${cell}text-align:${numeric[i] ? "right" : "left"};font-weight:600">${escapeHtml(c.label ?? c.key)}</th>`)
    .join("");
  const body = rows
    .map(
      (r) =>
        `<tr>${columns
          .map((c, i) => {
            const text = c.format ? c.format(r[c.key], r) : formatCell(r[c.key]);
            return `<td style="${cell}text-align:${numeric[i] ? "right" : "left"}${numeric[i] ? ";font-variant-numeric:tabular-nums" : ""}">${escapeHtml(text)}</td>`;
          })
          .join("")}</tr>`,
    )
    .join("");
  const caption = options.caption
    ? `<caption style="text-align:left;font-weight:600;font-size:14px;padding:4px 0 8px">${escapeHtml(options.caption)}</caption>`
    : "";
  return (
    `<table style="border-collapse:collapse;font-family:${escapeHtml(chartTheme.fontFamily)};font-size:13px;color:${chartTheme.ink};background:${chartTheme.background}">` +
    `${caption}<thead><tr>${head}</tr></thead><tbody>${body}</tbody></table>`
  );
}
