/**
 * Exact money arithmetic for the sales path: amounts are held as integers in the currency's
 * minor unit (cents for USD, won for KRW, fils for BHD), so sums never drift the way binary
 * floating point does (0.1 + 0.2).
 */

const DECIMAL_RE = /^([+-])?(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;
/** Digits grouped by thousands with commas, decimals after a point: "1,250,000", "1,250.50". */
const GROUPED_RE = /^([+-]?)([1-9]\d{0,2}(?:,\d{3})+)(\.\d*)?$/;
/** Digits grouped by thousands with points, at least two groups (so no decimal point): "1.250.000". */
const POINT_GROUPED_RE = /^([+-]?)([1-9]\d{0,2}(?:\.\d{3}){2,})$/;
/** One point before three digits: a thousand grouped ("1.000") or three decimals ("0.105" is only decimals). */
const ONE_POINT_GROUP_RE = /^[+-]?[1-9]\d{0,2}\.\d{3}$/;

/**
 * Parses an amount (a decimal string, or a finite JSON number) into integer minor units of a
 * currency with `minorDigits` decimals. Returns the integer, or a string saying why not:
 * not a number, more decimals than the currency has (never rounded silently), or too large to
 * hold exactly (beyond 2^53 − 1 minor units). Thousands grouped with commas, as a spreadsheet
 * exports a formatted cell, are read where they cannot be a decimal comma: with a decimal
 * point after them ("1,250.50"), or in a currency without decimals (KRW "1,250,000"); "1,250"
 * of a currency with decimals could be either, and is refused. With `currency`, the marks a
 * spreadsheet writes around its amounts are dropped first (`withoutCurrencyMarks`).
 * Likewise thousands grouped with
 * points are read when there are two groups or more ("1.250.000"), and "1.000" — a thousand, or
 * one with three decimals — is refused in a currency with fewer than three decimals (taken as
 * one, a thousand won would add up as 1). A decimal comma is never guessed.
 *
 * @example
 * parseMinorUnits("1234.5", 2);     // 123450
 * parseMinorUnits("-3000", 0);      // -3000
 * parseMinorUnits("10.5", 0);       // "amount 10.5 has more decimals than the currency allows (0)"
 * parseMinorUnits("1,250,000", 0);  // 1250000
 * parseMinorUnits("1,250.50", 2);   // 125050
 * parseMinorUnits("1,000", 2);      // "amount \"1,000\" is not a number: a thousands separator or a decimal comma? Write 1000 or 1,000.00"
 * parseMinorUnits("1.250.000", 0);  // 1250000
 * parseMinorUnits("1.000", 0);      // "amount \"1.000\" is ambiguous: 1000 with a grouping point, or 1 with three decimals? Write 1000 or 1"
 * parseMinorUnits("₩1,250,000", 0, "KRW"); // 1250000
 */
export function parseMinorUnits(value: unknown, minorDigits: number, currency?: string): number | string {
  let text: string;
  if (typeof value === "number") {
    if (!Number.isFinite(value)) return `amount ${String(value)} is not a finite number`;
    text = String(value); // shortest round-trip form, e.g. 0.1 → "0.1", 1e21 → "1e+21"
  } else if (typeof value === "string") {
    text = currency === undefined ? value.trim() : withoutCurrencyMarks(value, currency);
    if (text === "") return "amount is empty";
    const grouped = GROUPED_RE.exec(text);
    if (grouped !== null) {
      const plain = grouped[2]!.replaceAll(",", "");
      if (grouped[3] === undefined && minorDigits > 0) {
        return `amount ${JSON.stringify(text)} is not a number: a thousands separator or a decimal comma? Write ${plain} or ${text}.${"0".repeat(minorDigits)}`;
      }
      text = `${grouped[1]}${plain}${grouped[3] ?? ""}`;
    }
    const pointGrouped = POINT_GROUPED_RE.exec(text);
    if (pointGrouped !== null) text = `${pointGrouped[1]}${pointGrouped[2]!.replaceAll(".", "")}`;
    else if (minorDigits < 3 && ONE_POINT_GROUP_RE.test(text)) {
      const grouping = text.replace(".", "");
      const decimal = String(Number(text));
      return `amount ${JSON.stringify(text)} is ambiguous: ${grouping} with a grouping point, or ${decimal} with three decimals? Write ${grouping} or ${decimal}`;
    }
  } else {
    return value === undefined || value === null ? "amount is missing" : `amount ${excerpt(value)} is not a number`;
  }
  const m = DECIMAL_RE.exec(text);
  if (m === null) return `amount ${JSON.stringify(text)} is not a number`;
  const intPart = m[2] ?? "";
  const fracPart = m[3] ?? "";
  if (intPart === "" && fracPart === "") return `amount ${JSON.stringify(text)} is not a number`;
  const exponent = m[4] === undefined ? 0 : Number(m[4]);
  // value = digits × 10^(exponent − fracPart.length); minor = value × 10^minorDigits
  let digits = (intPart + fracPart).replace(/^0+/, "");
  const shift = minorDigits + exponent - fracPart.length;
  if (shift >= 0) {
    if (digits !== "") digits += "0".repeat(Math.min(shift, 400));
  } else {
    const cut = Math.min(-shift, digits.length);
    const dropped = digits.slice(digits.length - cut);
    if (/[^0]/.test(dropped)) return `amount ${text} has more decimals than the currency allows (${minorDigits})`;
    digits = digits.slice(0, digits.length - cut);
  }
  if (digits === "") return 0;
  if (digits.length > 16) return `amount ${text} is too large to add up exactly`;
  const minor = Number(digits);
  if (!Number.isSafeInteger(minor)) return `amount ${text} is too large to add up exactly`;
  return m[1] === "-" ? -minor : minor;
}

/** Symbols of currencies, by code (Intl's narrow symbol, the code itself where there is none). */
const SYMBOLS = new Map<string, string>();

/**
 * `text` (trimmed) without the marks of `currency` a spreadsheet writes around an amount when it
 * exports a formatted cell: the code (`KRW 1,000`), the symbol (`₩1,000`, `$19.99`, `-$5`,
 * `$-5`) and, for KRW, the full-width `￦` and the Korean `원` after the number (`1,000원`).
 * Anything else is left for the number to refuse.
 *
 * @example
 * withoutCurrencyMarks("₩1,250,000", "KRW"); // "1,250,000"
 * withoutCurrencyMarks("-$19.99", "USD");     // "-19.99"
 * withoutCurrencyMarks("12,000원", "KRW");    // "12,000"
 */
export function withoutCurrencyMarks(text: string, currency: string): string {
  let symbol = SYMBOLS.get(currency);
  if (symbol === undefined) {
    try {
      symbol = new Intl.NumberFormat("en", { style: "currency", currency, currencyDisplay: "narrowSymbol" }).formatToParts(1).find((p) => p.type === "currency")?.value ?? currency;
    } catch {
      symbol = currency; // not a code Intl knows
    }
    if (SYMBOLS.size < 512) SYMBOLS.set(currency, symbol);
  }
  const marks = new Set([currency, symbol, ...(currency === "KRW" ? ["￦", "원"] : [])]);
  let t = text.trim();
  let sign = "";
  if (t.startsWith("-") || t.startsWith("+")) {
    sign = t[0]!;
    t = t.slice(1).trimStart();
  }
  for (const mark of marks) {
    if (t.startsWith(mark)) t = t.slice(mark.length).trimStart();
    if (t.endsWith(mark)) t = t.slice(0, -mark.length).trimEnd();
  }
  return sign + t;
}

/**
 * The amount in major units as the number sent on the wire (`amount` of a daily record).
 * Division of an exact integer by a power of ten gives the double nearest the decimal, which
 * JSON prints as that decimal (123456 / 100 → 1234.56).
 *
 * @example
 * minorToMajor(123456, 2); // 1234.56
 * minorToMajor(5000, 0);   // 5000
 */
export function minorToMajor(minor: number, minorDigits: number): number {
  return minorDigits === 0 ? minor : minor / 10 ** minorDigits;
}

/**
 * Formats minor units as an exact decimal string with the currency's number of decimals.
 *
 * @example
 * formatMinorUnits(123450, 2); // "1234.50"
 * formatMinorUnits(-5, 3);     // "-0.005"
 */
export function formatMinorUnits(minor: number, minorDigits: number): string {
  if (minorDigits === 0) return String(minor);
  const sign = minor < 0 ? "-" : "";
  const text = String(Math.abs(minor)).padStart(minorDigits + 1, "0");
  return `${sign}${text.slice(0, text.length - minorDigits)}.${text.slice(text.length - minorDigits)}`;
}

function excerpt(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? typeof value;
  } catch {
    text = typeof value;
  }
  return text.length > 40 ? `${text.slice(0, 37)}...` : text;
}
