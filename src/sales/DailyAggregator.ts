import { CURRENCY_MINOR_DIGITS } from "../contract/currencies.ts";
import { epochDayOfDate } from "../time/calendarDate.ts";
import { DEFAULT_TIME_ZONE, assertTimeZone } from "../time/timeZone.ts";
import { LocalCalendar } from "../time/LocalCalendar.ts";
import { formatMinorUnits, minorToMajor, parseMinorUnits } from "./money.ts";
import { foldBrandName } from "../client/matchBrand.ts";
import { parseSalesTimestamp } from "./parseSalesTimestamp.ts";
import type { RowRef, SalesInputRow } from "./SalesInputRow.ts";

/**
 * The time zone of a shop, by brand name and External Key; lets one run cover shops in
 * different zones.
 *
 * @example
 * const tzOf: ShopTimeZone = (_brand, key) => (key.startsWith("JP-") ? "Asia/Tokyo" : "Asia/Seoul");
 */
export type ShopTimeZone = (brand: string, externalKey: string) => string;

/**
 * Options of {@link aggregateDaily} and {@link DailyAggregator}.
 *
 * @example
 * const options: AggregateDailyOptions = { brand: "Cafe Mori", currency: "KRW", tz: "Asia/Seoul", sum: false };
 */
export interface AggregateDailyOptions {
  /** Brand of rows without a `brand` value. @default undefined (such rows are rejected) */
  readonly brand?: string;
  /** ISO 4217 code of rows without a `currency` value. @default "KRW" */
  readonly currency?: string;
  /**
   * The shops' time zone (IANA), or a function giving it per shop. A transaction timestamp with
   * an offset is mapped to the local date in this zone; one without an offset is already local.
   * @default "Asia/Seoul" (`DEFAULT_TIME_ZONE`)
   */
  readonly timeZone?: string | ShopTimeZone;
  /** @deprecated the same as `timeZone`, its name before every option of footfall called it so; giving both is a TypeError. */
  readonly tz?: string | ShopTimeZone;
  /**
   * Daily-totals input: add up several rows for the same shop-day instead of rejecting them
   * (without it they would overwrite each other on the service).
   * @default false
   */
  readonly sum?: boolean;
}

/**
 * Defaults of {@link AggregateDailyOptions}.
 *
 * @example
 * defaultAggregateDailyOptions.timeZone; // "Asia/Seoul"
 */
export const defaultAggregateDailyOptions = { currency: "KRW", timeZone: DEFAULT_TIME_ZONE, sum: false } as const;

/**
 * One shop-day's totals, ready to upload as one `sales_stats_daily` record.
 *
 * @example
 * const day: DailyTotal = {
 *   brand: "Cafe Mori", brandNames: ["Cafe Mori"], externalKey: "GN-001", date: "2026-11-20", currency: "KRW",
 *   amountMinor: 25000, minorDigits: 0, amount: 25000, quantity: 3, kind: "transactions",
 *   rows: [{ source: "sales.csv", line: 2 }, { source: "sales.csv", line: 3 }],
 * };
 */
export interface DailyTotal {
  /** Brand name as first written in the input. */
  readonly brand: string;
  /**
   * Every spelling of the brand among the rows (rows are grouped by the case-folded name, so
   * "Cafe Mori" and "cafe mori" lines of one shop-day make one total); the uploader checks they
   * all name the same brand. @default [brand]
   */
  readonly brandNames?: readonly string[];
  readonly externalKey: string;
  /** Local date of the shop, `YYYY-MM-DD`. */
  readonly date: string;
  /** ISO 4217 code, upper case. */
  readonly currency: string;
  /** Total amount as an exact integer of minor units (cents, won). */
  readonly amountMinor: number;
  /** Decimals of the currency's minor unit (KRW 0, USD 2, BHD 3). */
  readonly minorDigits: number;
  /** Total amount in major units: the `amount` sent on the wire. */
  readonly amount: number;
  /** Sum of the rows' quantities (items, or receipts if the file counts receipts). */
  readonly quantity: number;
  /** Whether the total was added up from transactions or given as a daily total. */
  readonly kind: "transactions" | "daily";
  /** The rows that make up the total. */
  readonly rows: readonly RowRef[];
  /**
   * Rows of this shop-day that were rejected, so the total leaves them out (the other rows
   * still go up; fix the file and re-run to send the corrected total). Absent when none.
   */
  readonly missingRows?: readonly RowRef[];
}

/**
 * A row refused on its own (bad value, unreadable line); the other rows go on.
 *
 * @example
 * const r: RejectedRow = { source: "sales.csv", line: 7, reason: 'quantity "2.5" is not an integer' };
 */
export interface RejectedRow {
  readonly source: string;
  readonly line: number;
  readonly reason: string;
}

/**
 * A whole shop-day refused: its rows are fine one by one but their total is not (negative,
 * mixed currencies, duplicate daily totals), so no record is sent for that day.
 *
 * @example
 * const d: RejectedDay = { brand: "Cafe Mori", externalKey: "GN-001", date: "2026-11-20", reason: "mixed currencies: KRW, USD", rows: [] };
 */
export interface RejectedDay {
  readonly brand: string;
  readonly externalKey: string;
  readonly date: string;
  readonly reason: string;
  readonly rows: readonly RowRef[];
}

/**
 * The result of aggregation: valid shop-days (sorted by brand, External Key, date) and
 * everything refused, each with its lines.
 *
 * @example
 * const { days, rejectedRows, rejectedDays } = aggregateDaily(rows, { brand: "Cafe Mori" });
 */
export interface DailySales {
  readonly days: readonly DailyTotal[];
  readonly rejectedDays: readonly RejectedDay[];
  readonly rejectedRows: readonly RejectedRow[];
}

interface Group {
  readonly brand: string;
  readonly brandNames: string[];
  readonly externalKey: string;
  readonly date: string;
  readonly currency: string;
  readonly digits: number;
  amountMinor: number;
  quantity: number;
  transactions: number;
  dailies: number;
  otherCurrencies: string[] | undefined;
  overflow: boolean;
  readonly rows: RowRef[];
}

const NUMBER_RE = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/**
 * Adds sales rows one at a time into daily totals per (brand, External Key, local date), so
 * a stream of any length can be aggregated (`for await (const row of readSalesRows(f)) agg.add(row)`).
 * Money is summed exactly in integer minor units; refunds (negative lines) are summed in;
 * each row is validated and a bad row is recorded with its line and reason, never thrown.
 * See {@link aggregateDaily} for the rules.
 *
 * @example
 * const agg = new DailyAggregator({ brand: "Cafe Mori" });
 * agg.add({ external_key: "GN-001", timestamp: "2026-11-20T00:30:00+09:00", amount: "12000", quantity: "2", line: 2 });
 * agg.finish().days[0]?.date; // "2026-11-20"
 */
export class DailyAggregator {
  readonly #brand: string | undefined;
  readonly #currency: string;
  readonly #tz: string | ShopTimeZone;
  readonly #sum: boolean;
  // One calendar per zone: the same day cache the kernels use, which also suits unsorted files.
  readonly #calendars = new Map<string, LocalCalendar>();
  readonly #groups = new Map<string, Group>();
  readonly #rejectedRows: RejectedRow[] = [];
  readonly #missing = new Map<string, RowRef[]>();
  #count = 0;

  /** @throws TypeError/RangeError for a bad option (unknown currency or time zone). */
  constructor(options: AggregateDailyOptions = {}) {
    if (options.tz !== undefined && options.timeZone !== undefined) throw new TypeError("give timeZone or tz (its former name), not both");
    const { brand, currency, sum } = { ...defaultAggregateDailyOptions, ...options };
    const tz = options.timeZone ?? options.tz ?? defaultAggregateDailyOptions.timeZone;
    if (brand !== undefined && (typeof brand !== "string" || brand.trim() === "")) throw new TypeError("brand must be a non-empty string");
    if (typeof currency !== "string" || CURRENCY_MINOR_DIGITS.get(currency.trim().toUpperCase()) === undefined) {
      throw new RangeError(`currency must be an ISO 4217 code such as "KRW", got ${JSON.stringify(currency)}`);
    }
    if (typeof tz === "string") assertTimeZone(tz);
    else if (typeof tz !== "function") throw new TypeError("timeZone must be an IANA time zone name or a function (brand, externalKey) => zone");
    if (typeof sum !== "boolean") throw new TypeError("sum must be a boolean");
    this.#brand = brand?.trim();
    this.#currency = currency.trim().toUpperCase();
    this.#tz = tz;
    this.#sum = sum;
  }

  /**
   * Validates one row and adds it to its shop-day. A row without a `line` gets its position
   * (1-based) among the rows added so far.
   */
  add(row: SalesInputRow): void {
    this.#count++;
    const ref: RowRef = { source: row.source ?? "", line: row.line ?? this.#count };
    if (row.invalid !== undefined) {
      this.#rejectedRows.push({ ...ref, reason: row.invalid });
      return;
    }
    let reasons: string[] | undefined;

    const externalKey = textOf(row.external_key);
    if (externalKey === undefined) (reasons ??= []).push(missingOrBad("external_key", row.external_key));

    const brand = textOf(row.brand) ?? this.#brand;
    if (brand === undefined) {
      (reasons ??= []).push(row.brand == null || row.brand === "" ? "no brand: add a brand column or give the brand option (--brand NAME)" : missingOrBad("brand", row.brand));
    }

    const currencyText = row.currency == null || row.currency === "" ? this.#currency : textOf(row.currency)?.toUpperCase();
    const digits = currencyText === undefined ? undefined : CURRENCY_MINOR_DIGITS.get(currencyText);
    if (digits === undefined) {
      (reasons ??= []).push(`unknown currency ${JSON.stringify(row.currency)} (expected an ISO 4217 code such as KRW)`);
    }

    let date: string | undefined;
    const hasDate = row.date != null && row.date !== "";
    const hasTimestamp = row.timestamp != null && row.timestamp !== "";
    if (hasDate && hasTimestamp) {
      (reasons ??= []).push("has both date and timestamp: a row is either a daily total or a transaction");
    } else if (hasDate) {
      date = typeof row.date === "string" ? calendarDateText(row.date.trim()) : undefined;
      if (date === undefined) (reasons ??= []).push(`date ${JSON.stringify(row.date)} is not a real calendar date (YYYY-MM-DD)`);
    } else if (hasTimestamp) {
      const parsed = typeof row.timestamp === "string" ? parseSalesTimestamp(row.timestamp.trim()) : undefined;
      if (parsed === undefined) {
        (reasons ??= []).push(`timestamp ${JSON.stringify(row.timestamp)} is not a valid ISO 8601 date-time (YYYY-MM-DDThh:mm[:ss][±hh:mm or Z])`);
      } else if (typeof parsed === "string") {
        date = parsed;
      } else if (brand !== undefined && externalKey !== undefined) {
        date = this.#calendar(brand, externalKey).dateOf(parsed);
      }
    } else {
      (reasons ??= []).push("date (daily total) or timestamp (transaction) is missing");
    }

    let amountMinor = 0;
    if (digits !== undefined) {
      const parsed = parseMinorUnits(row.amount, digits, currencyText);
      if (typeof parsed === "string") (reasons ??= []).push(parsed.replace("the currency", currencyText ?? "the currency"));
      else amountMinor = parsed;
    }

    const quantity = quantityOf(row.quantity);
    if (typeof quantity === "string") (reasons ??= []).push(quantity);

    if (reasons !== undefined || brand === undefined || externalKey === undefined || date === undefined || digits === undefined || typeof quantity === "string") {
      this.#rejectedRows.push({ ...ref, reason: (reasons ?? ["invalid row"]).join("; ") });
      // Remember which shop-day the bad row belonged to, so its total can say it is incomplete.
      if (brand !== undefined && externalKey !== undefined && date !== undefined) {
        const key = `${foldBrandName(brand)}\u0001${externalKey}\u0001${date}`;
        const list = this.#missing.get(key);
        if (list === undefined) this.#missing.set(key, [ref]);
        else list.push(ref);
      }
      return;
    }

    const key = `${foldBrandName(brand)}\u0001${externalKey}\u0001${date}`;
    let group = this.#groups.get(key);
    if (group === undefined) {
      group = {
        brand, brandNames: [brand], externalKey, date, currency: currencyText!, digits,
        amountMinor: 0, quantity: 0, transactions: 0, dailies: 0, otherCurrencies: undefined, overflow: false, rows: [],
      };
      this.#groups.set(key, group);
    }
    if (brand !== group.brand && !group.brandNames.includes(brand)) group.brandNames.push(brand);
    if (currencyText !== group.currency) {
      group.otherCurrencies ??= [];
      if (!group.otherCurrencies.includes(currencyText!)) group.otherCurrencies.push(currencyText!);
    }
    group.amountMinor += amountMinor;
    group.quantity += quantity;
    if (!Number.isSafeInteger(group.amountMinor) || !Number.isSafeInteger(group.quantity)) group.overflow = true;
    if (hasTimestamp) group.transactions++;
    else group.dailies++;
    group.rows.push(ref);
  }

  /**
   * The totals so far: valid shop-days sorted by brand, External Key and date, plus the
   * refused rows and days. Can be called more than once.
   */
  finish(): DailySales {
    const days: DailyTotal[] = [];
    const rejectedDays: RejectedDay[] = [];
    const groups = [...this.#groups.entries()].sort((a, b) => compareGroups(a[1], b[1]));
    for (const [key, g] of groups) {
      const missing = this.#missing.get(key);
      const reasons: string[] = [];
      if (g.otherCurrencies !== undefined) reasons.push(`mixed currencies in one shop-day: ${[g.currency, ...g.otherCurrencies].join(", ")}`);
      if (g.transactions > 0 && g.dailies > 0) {
        reasons.push(`mixes ${g.dailies} daily-total row(s) with ${g.transactions} transaction(s); give one or the other`);
      } else if (g.dailies > 1 && !this.#sum) {
        reasons.push(`${g.dailies} daily-total rows for the same shop-day would overwrite each other; merge them or add them up with the sum option (--sum)`);
      }
      if (g.overflow) reasons.push("total too large to add up exactly");
      else if (g.otherCurrencies === undefined) {
        if (g.amountMinor < 0) reasons.push(`daily total amount is negative (${formatMinorUnits(g.amountMinor, g.digits)} ${g.currency})`);
        if (g.quantity < 0) reasons.push(`daily total quantity is negative (${g.quantity})`);
      }
      if (reasons.length > 0) {
        rejectedDays.push({ brand: g.brand, externalKey: g.externalKey, date: g.date, reason: reasons.join("; "), rows: g.rows.slice() });
        continue;
      }
      days.push({
        brand: g.brand,
        brandNames: g.brandNames.slice(),
        externalKey: g.externalKey,
        date: g.date,
        currency: g.currency,
        amountMinor: g.amountMinor,
        minorDigits: g.digits,
        amount: minorToMajor(g.amountMinor, g.digits),
        quantity: g.quantity,
        kind: g.transactions > 0 ? "transactions" : "daily",
        rows: g.rows.slice(),
        ...(missing === undefined ? {} : { missingRows: missing.slice() }),
      });
    }
    return { days, rejectedDays, rejectedRows: this.#rejectedRows.slice() };
  }

  #calendar(brand: string, externalKey: string): LocalCalendar {
    const zone = typeof this.#tz === "string" ? this.#tz : this.#tz(brand, externalKey);
    let calendar = this.#calendars.get(zone);
    if (calendar === undefined) {
      calendar = new LocalCalendar(zone);
      this.#calendars.set(zone, calendar);
    }
    return calendar;
  }
}

function compareGroups(a: Group, b: Group): number {
  return compareText(a.brand, b.brand) || compareText(a.externalKey, b.externalKey) || compareText(a.date, b.date);
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

// Strings are trimmed; integers are accepted for identifiers written as JSON numbers.
function textOf(value: unknown): string | undefined {
  if (typeof value === "string") {
    const text = value.trim();
    return text === "" ? undefined : text;
  }
  if (typeof value === "number" && Number.isSafeInteger(value)) return String(value);
  return undefined;
}

function missingOrBad(name: string, value: unknown): string {
  return value == null || value === "" ? `${name} is missing` : `${name} ${JSON.stringify(value)} is not a text value`;
}

function quantityOf(value: unknown): number | string {
  if (typeof value === "number") {
    if (!Number.isFinite(value)) return `quantity ${String(value)} is not a finite number`;
    if (!Number.isInteger(value)) return `quantity ${value} is not an integer`;
    return Number.isSafeInteger(value) ? value : `quantity ${value} is too large`;
  }
  if (typeof value !== "string" || value.trim() === "") return value == null || value === "" ? "quantity is missing" : `quantity ${JSON.stringify(value)} is not a number`;
  const text = value.trim();
  if (!NUMBER_RE.test(text)) return `quantity ${JSON.stringify(text)} is not a number`;
  const n = Number(text);
  if (!Number.isInteger(n)) return `quantity ${JSON.stringify(text)} is not an integer`;
  return Number.isSafeInteger(n) ? n : `quantity ${text} is too large`;
}

/** `text` when it is a real `YYYY-MM-DD` date, else `undefined`. */
function calendarDateText(text: string): string | undefined {
  return epochDayOfDate(text) === undefined ? undefined : text;
}
