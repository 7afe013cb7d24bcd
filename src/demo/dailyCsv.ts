import { conversionRate } from "../kernels/visits/conversionRate.ts";
import { DWELL_BUCKETS } from "../kernels/visits/dwellStats.ts";
import { withheldFigures, type WithheldFigures } from "../analysis/withheldFigures.ts";
import { csvCell } from "../text/csvCell.ts";
import type { DemoShopResult } from "./DemoShopResult.ts";
import { absDwellError, dwellOf, headlineOf, summaryLineOf } from "./headline.ts";

const CSV_COLUMNS = [
  "shop_id",
  "shop",
  "brand",
  "external_key",
  "date",
  "visitors",
  "visitors_low",
  "visitors_high",
  "mac_visitors",
  "visits",
  "passers_by",
  "unique_devices",
  "capture_rate",
  "universal_visitors",
  "randomized_visitors",
  "dwell_median_s",
  "dwell_mean_s",
  "dwell_p90_s",
  ...DWELL_BUCKETS.map((b) => `dwell_${b.key}`),
  "receipts",
  "amount",
  "currency",
  "quantity",
  "sales_status",
  "conversion",
  "amount_per_visitor",
  "signals",
  "truth_visitors",
  "visitor_count_error",
  "visitors_in_interval",
  "occupancy_error",
  "median_abs_dwell_error_s",
  "visitor_f1",
  "passerby_f1",
] as const;

/**
 * `daily.csv`: one row per shop-day (RFC 4180, header row, `.` decimals, empty = unknown).
 * People, not MACs: `visitors` (with `visitors_low`/`visitors_high`, the 90 % interval),
 * `passers_by`, `capture_rate`, `conversion` and `amount_per_visitor` use the people estimate
 * (the MAC-level count when there is none), `mac_visitors` is the MAC-level count; the `dwell_*`
 * columns are the `summary` line's dwell (`shopDayDwell`: the identity-known visits' with an
 * estimate). With ground truth, `truth_visitors` is the people present, `visitor_count_error` the
 * estimate's error and `median_abs_dwell_error_s` |median dwell − true median of the people's
 * visits| (`scorePeople`); `visitor_f1` and `passerby_f1` stay MAC-level (sessions per MAC).
 *
 * @example
 * import { writeFile } from "node:fs/promises";
 * await writeFile("daily.csv", dailyCsv(results));
 */
export function dailyCsv(results: readonly DemoShopResult[], minCount = 0): string {
  const lines = [CSV_COLUMNS.join(",")];
  const num = (x: number | undefined, digits?: number): string => (x === undefined || !Number.isFinite(x) ? "" : digits === undefined ? String(x) : x.toFixed(digits));
  for (const r of results) {
    const c = r.counts;
    const d = dwellOf(r);
    const s = r.sales;
    const h = headlineOf(r);
    const p = r.peopleScore;
    const visitors = h.visitors;
    const row: Record<(typeof CSV_COLUMNS)[number], string> = {
      shop_id: String(r.id),
      shop: r.name,
      brand: r.brand,
      external_key: r.externalKey,
      date: r.date,
      visitors: num(visitors),
      visitors_low: num(h.visitorsLow),
      visitors_high: num(h.visitorsHigh),
      mac_visitors: String(c?.visitors ?? 0),
      visits: String(c?.visits ?? 0),
      passers_by: num(h.passersBy),
      unique_devices: String(c?.uniqueDevices ?? 0),
      capture_rate: num(h.captureRate, 4),
      universal_visitors: String(c?.universal.visitors ?? 0),
      randomized_visitors: String(c?.randomized.visitors ?? 0),
      dwell_median_s: num(d === undefined ? undefined : d.medianMs / 1000, 1),
      dwell_mean_s: num(d === undefined ? undefined : d.meanMs / 1000, 1),
      dwell_p90_s: num(d === undefined ? undefined : d.p90Ms / 1000, 1),
      dwell_lt5m: String(d?.buckets.lt5m ?? 0),
      dwell_m5to20: String(d?.buckets.m5to20 ?? 0),
      dwell_m20to60: String(d?.buckets.m20to60 ?? 0),
      dwell_h1to6: String(d?.buckets.h1to6 ?? 0),
      dwell_ge6h: String(d?.buckets.ge6h ?? 0),
      receipts: s === undefined ? "" : String(s.receipts),
      amount: s === undefined ? "" : String(s.amount),
      currency: s?.currency ?? "",
      quantity: s === undefined ? "" : String(s.quantity),
      sales_status: s?.status ?? "",
      // An empty cell is "not available": no visitors, or no sales.
      conversion: s === undefined ? "" : num(conversionRate(s.receipts, visitors), 4),
      amount_per_visitor: s === undefined || visitors === 0 ? "" : num(s.amount / visitors, 2),
      signals: String(r.signals),
      truth_visitors: p === undefined ? "" : String(p.truth),
      visitor_count_error: p === undefined ? "" : num(p.error, 4),
      visitors_in_interval: p === undefined ? "" : String(p.covered),
      occupancy_error: p === undefined ? "" : num(p.occupancyMae, 4),
      median_abs_dwell_error_s: num(absDwellError(p) / 1000, 1),
      visitor_f1: num(r.score?.visitor.f1, 4),
      passerby_f1: num(r.score?.passerby.f1, 4),
    };
    const line = summaryLineOf(r);
    if (line !== undefined) withhold(row, withheldFigures(line, minCount), minCount);
    lines.push(CSV_COLUMNS.map((k) => csvCell(row[k] ?? "")).join(","));
  }
  return `${lines.join("\n")}\n`;
}

// `--min-count` in daily.csv: the summary line's rule (`withheldFigures`), so the CSV withholds
// what the NDJSON line does. A withheld count is written "<K" (suppressed, not zero); a figure
// computed from it is empty, and so is every figure the CSV computes from the people counts.
const LINE_FIGURES: Partial<Record<(typeof CSV_COLUMNS)[number], readonly string[]>> = {
  visitors: ["visitors"],
  visitors_low: ["visitorsLow"],
  visitors_high: ["visitorsHigh"],
  mac_visitors: ["macs", "visitors"],
  visits: ["visits"],
  passers_by: ["passersBy"],
  unique_devices: ["uniqueDevices"],
  capture_rate: ["captureRate"],
  universal_visitors: ["universal", "visitors"],
  randomized_visitors: ["randomized", "visitors"],
  dwell_median_s: ["dwell", "medianMs"],
  dwell_mean_s: ["dwell", "meanMs"],
  dwell_p90_s: ["dwell", "p90Ms"],
  ...Object.fromEntries(DWELL_BUCKETS.map((b) => [`dwell_${b.key}`, ["dwell", "buckets", b.key]])),
};
const FROM_PEOPLE = ["conversion", "amount_per_visitor", "visitor_count_error", "visitors_in_interval", "occupancy_error", "median_abs_dwell_error_s"] as const;

function withhold(row: Record<(typeof CSV_COLUMNS)[number], string>, w: WithheldFigures, minCount: number): void {
  for (const [column, path] of Object.entries(LINE_FIGURES) as [(typeof CSV_COLUMNS)[number], readonly string[]][]) {
    const state = w.state(path);
    if (state !== "kept") row[column] = state === "withheld" ? `<${minCount}` : "";
  }
  if (w.peopleWithheld) for (const column of FROM_PEOPLE) row[column] = "";
}
