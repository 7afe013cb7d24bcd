import { median } from "simple-statistics";
import { conversionRate } from "../kernels/conversionRate.ts";
import { DWELL_BUCKETS } from "../kernels/dwellStats.ts";
import { isSmallCount } from "../kernels/isSmallCount.ts";
import type { WindowDwell } from "../kernels/DwellMeter.ts";
import type { AccuracyScore } from "../kernels/scoreAgainstTruth.ts";
import type { ClassifiedSession } from "../kernels/VisitClassifier.ts";
import type { VisitCounts } from "../kernels/VisitCounter.ts";
import type { HtmlReportInput, ReportShop } from "../report/htmlReport.ts";
import type { ZoneTimeRow } from "../report/proximityZonesChart.ts";
import type { TruthVisit } from "../sim/World.ts";
import { alignTable, int, minutes, moneyFormat, pct } from "./demoFormat.ts";
import { csvCell } from "./common.ts";
import { sessionRecord } from "./sessionRecord.ts";
import { rawDevice, type DeviceId } from "../analysisRecords.ts";

/**
 * The day's point-of-sale figures of one shop, as the demo uploaded them.
 *
 * @example
 * const s: DemoSales = { receipts: 250, receiptsByHour: new Array(24).fill(0), amount: 2_400_000, quantity: 410, currency: "KRW", status: "uploaded" };
 */
export interface DemoSales {
  /** Sale lines net of refund lines. */
  readonly receipts: number;
  /** Net receipts per local hour 0–23. */
  readonly receiptsByHour: readonly number[];
  /** The day's total, major units (what was posted, or would have been). */
  readonly amount: number;
  /** Items, as posted. */
  readonly quantity: number;
  readonly currency: string;
  /** `uploaded`, `unchanged`, `failed: …`, `rejected: …` or `not uploaded (…)`. */
  readonly status: string;
}

/**
 * Everything the demo learnt about one shop-day.
 *
 * @example
 * results[0].counts?.visitors;
 */
export interface DemoShopResult {
  readonly id: number;
  readonly name: string;
  readonly brand: string;
  readonly externalKey: string;
  readonly sensors: readonly string[];
  readonly timeZone: string;
  /** Local date of the day, `YYYY-MM-DD`. */
  readonly date: string;
  /** Signal records read and decoded. */
  readonly signals: number;
  /** Records rejected by the decoder. */
  readonly invalid: number;
  /** Why reading stopped early, if it failed. */
  readonly error?: string | undefined;
  /** `countVisits` of the day. */
  readonly counts: VisitCounts | undefined;
  /** `countVisits` per hour. */
  readonly hours: readonly VisitCounts[];
  /** `measureDwell` of the day's visits. */
  readonly dwell: WindowDwell | undefined;
  readonly sessions: readonly ClassifiedSession[];
  /** Visitors' device-time per sensor and zone. */
  readonly zones: readonly ZoneTimeRow[];
  readonly sales: DemoSales | undefined;
  /** The ground truth the figures are scored on (cut at the data's end if the day was interrupted). */
  readonly truth: readonly TruthVisit[];
  /** `scoreAgainstTruth` of this shop's sessions. */
  readonly score: AccuracyScore | undefined;
}

/**
 * Facts about the run, for the summary's first line and the report's footer.
 *
 * @example
 * const run: DemoRun = { date: "2026-11-16", timeZone: "Asia/Seoul", seed: "1", speed: 900, elapsedMs: 61_000, currency: "KRW" };
 */
export interface DemoRun {
  readonly date: string;
  readonly timeZone: string;
  readonly seed: string;
  readonly speed: number;
  readonly elapsedMs: number;
  readonly currency: string;
  /** Set when the day was cut short, e.g. "interrupted at 14:05". */
  readonly partial?: string | undefined;
  /** `--min-count K` of the run: small counts shown as suppressed. @default 0 (off) */
  readonly minCount?: number;
}

const countsOf = (r: DemoShopResult) => ({
  visitors: r.counts?.visitors ?? 0,
  visits: r.counts?.visits ?? 0,
  passersBy: r.counts?.passersBy ?? 0,
  uniqueDevices: r.counts?.uniqueDevices ?? 0,
});

/**
 * Median true dwell of the true visitors, ms (`NaN` without any).
 *
 * @example
 * truthMedianDwellMs(world.truth(101)); // e.g. 870000
 */
export function truthMedianDwellMs(truth: readonly TruthVisit[]): number {
  const dwells: number[] = [];
  for (const t of truth) if (t.kind === "visitor") dwells.push(t.end - t.start);
  return dwells.length > 0 ? median(dwells) : Number.NaN;
}

/**
 * The summary printed on stdout at the end: one table of traffic, dwell and sales per shop, and
 * one of accuracy against ground truth (`overall` scores all shops together).
 *
 * @example
 * io.stdout.write(summaryText(results, overall, run));
 */
export function summaryText(results: readonly DemoShopResult[], overall: AccuracyScore | undefined, run: DemoRun): string {
  const money = moneyFormat(run.currency);
  const signals = results.reduce((n, r) => n + r.signals, 0);
  const out: string[] = [];
  out.push(
    `footfall demo: ${run.date} (${run.timeZone}), ${results.length} shop${results.length === 1 ? "" : "s"}, ${int(signals)} signals read live in ${Math.round(run.elapsedMs / 1000)} s` +
      `${run.partial ? ` — ${run.partial}` : ""}\n\n`,
  );

  const trafficRow = (name: string, c: ReturnType<typeof countsOf>, buckets: readonly number[], medianMs: number, sales: DemoSales | undefined): string[] => [
    name,
    int(c.visitors),
    int(c.passersBy),
    pct(c.uniqueDevices > 0 ? c.visitors / c.uniqueDevices : Number.NaN),
    ...buckets.map(int),
    minutes(medianMs),
    sales === undefined ? "–" : int(sales.receipts),
    sales === undefined ? "–" : money.format(sales.amount),
    sales === undefined ? "–" : rateText(conversionRate(sales.receipts, c.visitors)),
    sales === undefined || c.visitors === 0 ? "–" : money.format(sales.amount / c.visitors),
  ];
  const rows = results.map((r) =>
    trafficRow(r.name, countsOf(r), DWELL_BUCKETS.map((b) => r.dwell?.buckets[b.key] ?? 0), r.dwell?.medianMs ?? Number.NaN, r.sales),
  );
  if (results.length > 1) {
    const sum = { visitors: 0, visits: 0, passersBy: 0, uniqueDevices: 0 };
    const buckets = DWELL_BUCKETS.map(() => 0);
    const dwells: number[] = [];
    let sales: DemoSales | undefined = { receipts: 0, receiptsByHour: [], amount: 0, quantity: 0, currency: run.currency, status: "" };
    for (const r of results) {
      const c = countsOf(r);
      sum.visitors += c.visitors;
      sum.visits += c.visits;
      sum.passersBy += c.passersBy;
      sum.uniqueDevices += c.uniqueDevices;
      DWELL_BUCKETS.forEach((b, i) => (buckets[i]! += r.dwell?.buckets[b.key] ?? 0));
      for (const s of r.sessions) if (s.kind === "visitor") dwells.push(s.estimatedDwellMs);
      sales = sales === undefined || r.sales === undefined ? undefined : { ...sales, receipts: sales.receipts + r.sales.receipts, amount: sales.amount + r.sales.amount };
    }
    rows.push(trafficRow("all shops", sum, buckets, dwells.length > 0 ? median(dwells) : Number.NaN, sales));
  }
  out.push(
    alignTable(
      ["shop", "visitors", "passers-by", "capture", ...DWELL_BUCKETS.map((b) => b.label), "median dwell", "receipts", "sales", "conversion", "per visitor"],
      rows,
      [false, true, true, true, true, true, true, true, true, true, true, true, true, true],
    ),
  );
  out.push("(dwell columns: visits by length of stay; capture = visitors ÷ devices heard; conversion = receipts ÷ visitors)\n");

  const scored = results.filter((r) => r.score !== undefined);
  if (scored.length > 0) {
    out.push("\naccuracy against the simulator's ground truth\n");
    const accRow = (name: string, truthVisitors: number, counted: number, score: AccuracyScore): string[] => [
      name,
      int(truthVisitors),
      int(counted),
      truthVisitors > 0 ? `${counted >= truthVisitors ? "+" : ""}${pct((counted - truthVisitors) / truthVisitors)}` : "–",
      Number.isFinite(score.medianAbsDwellErrorMs) ? `${Math.round(score.medianAbsDwellErrorMs / 1000)} s` : "–",
      score.visitor.f1.toFixed(3),
      score.passerby.f1.toFixed(3),
    ];
    const acc = scored.map((r) => accRow(r.name, trueVisitors(r.truth), countsOf(r).visitors, r.score!));
    if (overall !== undefined && scored.length > 1) {
      acc.push(accRow("all shops", scored.reduce((n, r) => n + trueVisitors(r.truth), 0), scored.reduce((n, r) => n + countsOf(r).visitors, 0), overall));
    }
    out.push(alignTable(["shop", "true visitors", "counted", "count error", "median dwell error", "visitor F1", "passer-by F1"], acc, [false, true, true, true, true, true, true]));
  }
  const failed = results.filter((r) => r.error !== undefined);
  for (const r of failed) out.push(`\n${r.name}: reading stopped early: ${r.error}\n`);
  return out.join("");
}

function trueVisitors(truth: readonly TruthVisit[]): number {
  const devices = new Set<string>();
  for (const t of truth) if (t.kind === "visitor") devices.add(t.device);
  return devices.size;
}

const CSV_COLUMNS = [
  "shop_id",
  "shop",
  "brand",
  "external_key",
  "date",
  "visitors",
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
  "median_abs_dwell_error_s",
  "visitor_f1",
  "passerby_f1",
] as const;

/**
 * `daily.csv`: one row per shop-day (RFC 4180, header row, `.` decimals, empty = unknown).
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
    const d = r.dwell;
    const s = r.sales;
    const truthVisitors = r.score === undefined ? undefined : trueVisitors(r.truth);
    const visitors = c?.visitors ?? 0;
    const row: Record<(typeof CSV_COLUMNS)[number], string> = {
      shop_id: String(r.id),
      shop: r.name,
      brand: r.brand,
      external_key: r.externalKey,
      date: r.date,
      visitors: String(visitors),
      visits: String(c?.visits ?? 0),
      passers_by: String(c?.passersBy ?? 0),
      unique_devices: String(c?.uniqueDevices ?? 0),
      capture_rate: num(c?.captureRate, 4),
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
      truth_visitors: truthVisitors === undefined ? "" : String(truthVisitors),
      visitor_count_error: truthVisitors === undefined || truthVisitors === 0 ? "" : num((visitors - truthVisitors) / truthVisitors, 4),
      median_abs_dwell_error_s: num(r.score === undefined ? undefined : r.score.medianAbsDwellErrorMs / 1000, 1),
      visitor_f1: num(r.score?.visitor.f1, 4),
      passerby_f1: num(r.score?.passerby.f1, 4),
    };
    if (minCount > 1) suppressCsvRow(row, minCount);
    lines.push(CSV_COLUMNS.map((k) => csvCell(row[k] ?? "")).join(","));
  }
  return `${lines.join("\n")}\n`;
}

// Counts of people in a daily.csv row; what is computed from a small one goes with it.
const CSV_COUNTS = ["visitors", "visits", "passers_by", "unique_devices", "universal_visitors", "randomized_visitors", "dwell_lt5m", "dwell_m5to20", "dwell_m20to60", "dwell_h1to6", "dwell_ge6h"] as const;
const CSV_DERIVED = ["capture_rate", "dwell_median_s", "dwell_mean_s", "dwell_p90_s", "conversion", "amount_per_visitor", "visitor_count_error"] as const;

// `--min-count`: a count from 1 to K − 1 is written "<K" (suppressed, not zero), and with small
// visitors or devices the figures computed from them are left empty.
function suppressCsvRow(row: Record<string, string>, minCount: number): void {
  let small = false;
  for (const k of CSV_COUNTS) {
    if (isSmallCount(Number(row[k]), minCount)) {
      row[k] = `<${minCount}`;
      if (k === "visitors" || k === "unique_devices" || k === "visits") small = true;
    }
  }
  if (small) for (const k of CSV_DERIVED) row[k] = "";
}

/**
 * One `sessions.ndjson` line per classified session, with the fields and names of the session
 * lines of `footfall analyze --format ndjson`: `type: "session"`, shopId, device, start/end
 * (epoch ms), local date, dwell (observed and estimated, ms), signals, kind, randomized MAC,
 * vendor, peak smoothed RSSI (dBm), nearest sensor, late (see {@link sessionRecord}). `device`
 * is `device(mac, date)`: the demo passes a keyed pseudonym (the MAC only with `--raw-macs`).
 *
 * @example
 * const p = new Pseudonymizer({ key: new Uint8Array(16).fill(1) });
 * for (const line of sessionLines(results, (mac, date) => p.pseudonym(mac, date))) stream.write(line);
 */
export function* sessionLines(results: readonly DemoShopResult[], device: DeviceId = rawDevice): Generator<string> {
  for (const r of results) {
    for (const s of r.sessions) {
      yield `${JSON.stringify(sessionRecord(s, device))}\n`;
    }
  }
}

/**
 * The HTML report's input from the demo's results.
 *
 * @example
 * import { writeFile } from "node:fs/promises";
 * await writeFile("report.html", htmlReport(reportInput(results, overall, run)));
 */
export function reportInput(results: readonly DemoShopResult[], overall: AccuracyScore | undefined, run: DemoRun): HtmlReportInput {
  const shops = results.map((r): ReportShop => {
    const c = countsOf(r);
    const byHour = new Map<number, VisitCounts>();
    for (const h of r.hours) byHour.set(Number(h.label.slice(11, 13)), h);
    // The hours that matter: those with visitors or sales, and one on either side (the night's
    // few passers-by would only squeeze the day's bars).
    const busy = [
      ...r.hours.filter((h) => h.visitors > 0).map((h) => Number(h.label.slice(11, 13))),
      ...(r.sales ? r.sales.receiptsByHour.flatMap((n, h) => (n !== 0 ? [h] : [])) : []),
    ];
    const from = Math.max(0, Math.min(...busy) - 1);
    const to = Math.min(23, Math.max(...busy) + 1);
    const hourly = [];
    if (Number.isFinite(from)) {
      for (let h = from; h <= to; h++) {
        const w = byHour.get(h);
        hourly.push({ hour: h, visitors: w?.visitors ?? 0, passersBy: w?.passersBy ?? 0, ...(r.sales ? { sales: r.sales.receiptsByHour[h] ?? 0 } : {}) });
      }
    }
    return {
      id: r.id,
      name: r.name,
      ...c,
      captureRate: c.uniqueDevices > 0 ? c.visitors / c.uniqueDevices : Number.NaN,
      medianDwellMs: r.dwell?.medianMs ?? Number.NaN,
      dwellBuckets: DWELL_BUCKETS.map((b) => ({ bucket: b.label, count: r.dwell?.buckets[b.key] ?? 0 })),
      ...(r.sales === undefined ? {} : { receipts: r.sales.receipts, amount: r.sales.amount }),
      hourly,
      zones: r.zones,
      devices: { universal: r.counts?.universal.uniqueDevices ?? 0, randomized: r.counts?.randomized.uniqueDevices ?? 0 },
      ...(r.score === undefined ? {} : { accuracy: { truthVisitors: trueVisitors(r.truth), truthMedianDwellMs: truthMedianDwellMs(r.truth) } }),
    };
  });
  const dwells: number[] = [];
  for (const r of results) for (const s of r.sessions) if (s.kind === "visitor") dwells.push(s.estimatedDwellMs);
  const truthAll = results.flatMap((r) => r.truth);
  return {
    date: run.date,
    timeZone: run.timeZone,
    currency: run.currency,
    shops,
    ...(dwells.length > 0 ? { medianDwellMs: median(dwells) } : {}),
    signals: results.reduce((n, r) => n + r.signals, 0),
    sensors: results.reduce((n, r) => n + r.sensors.length, 0),
    ...(overall === undefined
      ? {}
      : {
          accuracy: {
            totalCountError: overall.totalCountError,
            medianAbsDwellErrorMs: overall.medianAbsDwellErrorMs,
            visitorF1: overall.visitor.f1,
            passerbyF1: overall.passerby.f1,
            truthMedianDwellMs: truthMedianDwellMs(truthAll),
          },
        }),
    ...(run.partial ? { partial: `This day was ${run.partial}: the figures cover it up to then.` } : {}),
    ...(run.minCount === undefined ? {} : { minCount: run.minCount }),
    facts: [
      { label: "seed", value: run.seed },
      { label: "speed", value: `${int(run.speed)}× while open` },
      { label: "run time", value: `${Math.round(run.elapsedMs / 1000)} s` },
      { label: "source", value: "footfall demo on the built-in simulator" },
    ],
  };
}

// No visitors: conversion is not available (conversionRate's rule), not "0 %" or "–" (no sales).
function rateText(rate: number | undefined): string {
  return rate === undefined ? "n/a" : pct(rate);
}
