/**
 * Text formatting shared by the demo's dashboard and summary (and `fleet status`): grouped
 * integers, estimates with their interval, percentages, minutes, money, and a table whose columns
 * are aligned per column (numbers right).
 */

/**
 * A whole number with thousands separators, "–" when not finite.
 *
 * @example
 * int(12345.4); // "12,345"
 */
export function int(n: number): string {
  return Number.isFinite(n) ? Math.round(n).toLocaleString("en") : "–";
}

/**
 * An estimate with its 90 % interval, each written by `format` (default {@link int}): the estimate
 * alone when a bound is not finite (a sum over shops has none, an unknown bound is NaN).
 *
 * @example
 * withInterval(412.3, 350, 480); // "412 [350–480]"
 * withInterval(412.3, Number.NaN, Number.NaN); // "412"
 */
export function withInterval(x: number, low: number, high: number, format: (n: number) => string = int): string {
  return Number.isFinite(low) && Number.isFinite(high) ? `${format(x)} [${format(low)}–${format(high)}]` : format(x);
}

/**
 * A share 0…1 as a percentage, "–" when not finite.
 *
 * @example
 * pct(0.0891); // "8.9 %"
 */
export function pct(x: number, digits = 1): string {
  return Number.isFinite(x) ? `${(100 * x).toFixed(digits)} %` : "–";
}

/**
 * A duration in ms as minutes with one decimal, "–" when not finite.
 *
 * @example
 * minutes(852_000); // "14.2 min"
 */
export function minutes(ms: number): string {
  return Number.isFinite(ms) ? `${(ms / 60_000).toFixed(1)} min` : "–";
}

/**
 * A money formatter for an ISO 4217 code (no minor units for KRW and JPY).
 *
 * @example
 * moneyFormat("KRW").format(2_400_000); // "₩2,400,000"
 */
export function moneyFormat(currency: string): Intl.NumberFormat {
  return new Intl.NumberFormat("en", { style: "currency", currency, maximumFractionDigits: currency === "KRW" || currency === "JPY" ? 0 : 2 });
}

/**
 * Renders rows of cells as an aligned plain-text table: `right[i]` right-aligns column i
 * (numbers), the others are left-aligned; two spaces between columns; no trailing spaces.
 * Cells longer than `maxWidth[i]` are cut with "…".
 *
 * @example
 * alignTable(["shop", "visitors"], [["Gangnam", "1,204"]], [false, true]);
 * // "shop     visitors\nGangnam     1,204\n"
 */
export function alignTable(
  head: readonly string[],
  rows: readonly (readonly string[])[],
  right: readonly boolean[],
  maxWidth: readonly (number | undefined)[] = [],
): string {
  const cut = (text: string, i: number): string => {
    const max = maxWidth[i];
    return max !== undefined && [...text].length > max ? `${[...text].slice(0, max - 1).join("")}…` : text;
  };
  const all = [head, ...rows].map((r) => r.map((c, i) => cut(c, i)));
  const widths = head.map((_, i) => Math.max(...all.map((r) => [...(r[i] ?? "")].length)));
  const pad = (text: string, i: number): string => {
    const gap = " ".repeat(Math.max(0, widths[i]! - [...text].length));
    return right[i] ? gap + text : text + gap;
  };
  return all.map((r) => head.map((_, i) => pad(r[i] ?? "", i)).join("  ").trimEnd()).join("\n") + "\n";
}
