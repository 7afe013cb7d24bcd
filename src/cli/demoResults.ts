import { median } from "simple-statistics";
import { conversionRate } from "../kernels/conversionRate.ts";
import { DWELL_BUCKETS, dwellStats, type DwellStats } from "../kernels/dwellStats.ts";
import { hasPeopleEstimate } from "../kernels/hasPeopleEstimate.ts";
import { shopDayDwell } from "../kernels/shopDayDwell.ts";
import { isSmallCount } from "../kernels/isSmallCount.ts";
import type { WindowDwell } from "../kernels/DwellMeter.ts";
import type { AccuracyScore } from "../kernels/scoreAgainstTruth.ts";
import type { ClassifiedSession } from "../kernels/VisitClassifier.ts";
import type { VisitCounts } from "../kernels/VisitCounter.ts";
import type { PeopleEstimate } from "../kernels/PeopleEstimator.ts";
import type { PeopleDayScore, PeopleScore } from "../kernels/scorePeople.ts";
import type { HtmlReportInput, ReportPeople, ReportShop } from "../report/htmlReport.ts";
import type { OccupancyRow } from "../report/occupancyChart.ts";
import type { ZoneTimeRow } from "../report/proximityZonesChart.ts";
import type { TruthVisit } from "../sim/World.ts";
import { alignTable, int, minutes, moneyFormat, pct } from "./demoFormat.ts";
import { csvCell } from "./common.ts";
import { sessionRecord } from "./sessionRecord.ts";
import { rawDevice, summaryRecord, type DeviceId } from "../analysisRecords.ts";

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
  /** `scoreAgainstTruth` of this shop's sessions (MAC-level: sessions against the truth per MAC). */
  readonly score: AccuracyScore | undefined;
  /** People, not MACs: the day's people estimate (`estimatePeople`), cut at the data's end if interrupted. */
  readonly people: PeopleEstimate | undefined;
  /** `scorePeople` of that estimate against the people present (undefined without truth or estimate). */
  readonly peopleScore: PeopleDayScore | undefined;
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
  /** The world's MAC rotation (`--rotation`), for the report's facts. @default undefined (not shown) */
  readonly rotation?: string;
}

const countsOf = (r: DemoShopResult) => ({
  visitors: r.counts?.visitors ?? 0,
  visits: r.counts?.visits ?? 0,
  passersBy: r.counts?.passersBy ?? 0,
  uniqueDevices: r.counts?.uniqueDevices ?? 0,
});

/**
 * The shop-day's headline figures — people, not MACs — exactly as `footfall analyze` writes them
 * in its `summary` line (`summaryRecord`: the estimate rounded, its interval floored and ceiled,
 * the MAC-level count when there is no estimate): one rule for the table, daily.csv and report.
 */
interface Headline {
  readonly visitors: number;
  readonly visitorsLow: number;
  readonly visitorsHigh: number;
  readonly passersBy: number;
  readonly captureRate: number;
  /** Whether the figures are an estimate of people (else the MAC-level counts). */
  readonly estimated: boolean;
}

function headlineOf(r: DemoShopResult): Headline {
  const c = r.counts;
  if (c === undefined) return { visitors: 0, visitorsLow: 0, visitorsHigh: 0, passersBy: 0, captureRate: Number.NaN, estimated: false };
  const line = summaryRecord({
    ...c,
    dwell: r.dwell ?? dwellStats([]),
    visitorRssi: r.sessions[0]?.visitorRssi ?? Number.NaN,
    people: r.people,
  });
  // null in the line: unknown (see summaryRecord), NaN here, an empty cell or "unknown" when shown.
  const figure = (x: unknown): number => (typeof x === "number" ? x : x === null ? Number.NaN : Number(x));
  return {
    visitors: figure(line.visitors),
    visitorsLow: figure(line.visitorsLow),
    visitorsHigh: figure(line.visitorsHigh),
    passersBy: figure(line.passersBy),
    captureRate: figure(line.captureRate),
    estimated: hasPeopleEstimate(r.people),
  };
}

/**
 * The shop-day's dwell as the `summary` line has it (`shopDayDwell`): the identity-known visits'
 * with a people estimate, else the MAC-level visitor sessions' (`undefined` with neither). One
 * rule for the traffic table and daily.csv.
 */
function dwellOf(r: DemoShopResult): DwellStats | undefined {
  return r.dwell === undefined && !hasPeopleEstimate(r.people) ? undefined : shopDayDwell(r.dwell ?? dwellStats([]), r.people);
}

/** |estimated − true median dwell| of a people score, ms (`NaN` when unavailable). */
const absDwellError = (p: PeopleDayScore | undefined): number => Math.abs(p?.medianDwellErrorMs ?? Number.NaN);

const intervalText = (h: Headline): string =>
  Number.isNaN(h.visitors)
    ? `unknown (≥${int(h.visitorsLow)})`
    : h.estimated
      ? `${int(h.visitors)} [${int(h.visitorsLow)}–${Number.isFinite(h.visitorsHigh) ? int(h.visitorsHigh) : "?"}]`
      : int(h.visitors);

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
 * The summary printed on stdout at the end: one table of traffic, dwell and sales per shop —
 * visitors are people (the estimate with its 90 % interval), the MAC-level count beside them,
 * dwell is the `summary` line's (`shopDayDwell`: the identity-known visits' with an estimate),
 * and conversion is receipts ÷ people — and one of accuracy against ground truth: people counted
 * against people present and the median dwell against the people's true one (`people`, from
 * `scorePeople`), next to the MAC-level count and its visitor F1 (`overall` scores all shops'
 * sessions together).
 *
 * @example
 * io.stdout.write(summaryText(results, overall, run));
 */
export function summaryText(results: readonly DemoShopResult[], overall: AccuracyScore | undefined, run: DemoRun, people?: PeopleScore, calibrated?: PeopleScore): string {
  const money = moneyFormat(run.currency);
  const signals = results.reduce((n, r) => n + r.signals, 0);
  const out: string[] = [];
  out.push(
    `footfall demo: ${run.date} (${run.timeZone}), ${results.length} shop${results.length === 1 ? "" : "s"}, ${int(signals)} signals read live in ${Math.round(run.elapsedMs / 1000)} s` +
      `${run.partial ? ` — ${run.partial}` : ""}\n\n`,
  );

  const trafficRow = (name: string, h: Headline, macVisitors: number, buckets: readonly number[], medianMs: number, sales: DemoSales | undefined, interval = true): string[] => [
    name,
    interval ? intervalText(h) : int(h.visitors),
    int(macVisitors),
    int(h.passersBy),
    pct(h.captureRate),
    ...buckets.map(int),
    minutes(medianMs),
    sales === undefined ? "–" : int(sales.receipts),
    sales === undefined ? "–" : money.format(sales.amount),
    sales === undefined ? "–" : rateText(conversionRate(sales.receipts, h.visitors)),
    sales === undefined || !(h.visitors > 0) ? "–" : money.format(sales.amount / h.visitors),
  ];
  const rows = results.map((r) => {
    const d = dwellOf(r);
    return trafficRow(r.name, headlineOf(r), countsOf(r).visitors, DWELL_BUCKETS.map((b) => d?.buckets[b.key] ?? 0), d?.medianMs ?? Number.NaN, r.sales);
  });
  if (results.length > 1) {
    let visitors = 0;
    let passersBy = 0;
    let macVisitors = 0;
    let estimated = true;
    let anyEstimated = false;
    const buckets = DWELL_BUCKETS.map(() => 0);
    const dwells: number[] = [];
    let sales: DemoSales | undefined = { receipts: 0, receiptsByHour: [], amount: 0, quantity: 0, currency: run.currency, status: "" };
    for (const r of results) {
      const h = headlineOf(r);
      visitors += h.visitors;
      passersBy += h.passersBy;
      macVisitors += countsOf(r).visitors;
      estimated &&= h.estimated;
      anyEstimated ||= h.estimated;
      const d = dwellOf(r);
      // Bucket counts of visits add up across shops, whichever visits each shop's dwell is of.
      DWELL_BUCKETS.forEach((b, i) => (buckets[i]! += d?.buckets[b.key] ?? 0));
      for (const s of r.sessions) if (s.kind === "visitor") dwells.push(s.estimatedDwellMs);
      sales = sales === undefined || r.sales === undefined ? undefined : { ...sales, receipts: sales.receipts + r.sales.receipts, amount: sales.amount + r.sales.amount };
    }
    // The shops' intervals do not add up to a 90 % interval of the sum, so the total has none.
    const total: Headline = { visitors, visitorsLow: visitors, visitorsHigh: visitors, passersBy, captureRate: visitors + passersBy > 0 ? visitors / (visitors + passersBy) : Number.NaN, estimated };
    // All shops' median dwell: a people estimate gives its shop's dwell statistics, not the
    // identity-known visits' dwells, and medians do not pool, so with any estimate the median is
    // left out ("–") rather than re-derived from the MAC-level pieces of visits. Without any,
    // it is the median of every shop's visitor sessions (MAC-level, like each shop's).
    const medianMs = !anyEstimated && dwells.length > 0 ? median(dwells) : Number.NaN;
    rows.push(trafficRow("all shops", total, macVisitors, buckets, medianMs, sales, false));
  }
  out.push(
    alignTable(
      ["shop", "visitors [90 %]", "MAC visitors", "passers-by", "capture", ...DWELL_BUCKETS.map((b) => b.label), "median dwell", "receipts", "sales", "conversion", "per visitor"],
      rows,
      [false, true, true, true, true, true, true, true, true, true, true, true, true, true, true],
    ),
  );
  out.push(
    "(visitors and passers-by: people, estimated with a 90 % interval; MAC visitors: distinct MAC addresses that visited, the count a MAC-level tool reports;\n" +
      " capture = visitors ÷ people heard; conversion = receipts ÷ visitors; dwell columns: visits by length of stay, of the visits seen whole (a phone\n" +
      " whose MAC held across its visit; a rotating phone's MACs see only pieces), MAC-level sessions for a shop without an estimate;\n" +
      " all shops' median is left out (–) when shops have estimates: their medians do not pool)\n",
  );

  const scored = results.filter((r) => r.score !== undefined || r.peopleScore !== undefined);
  if (scored.length > 0) {
    out.push("\naccuracy against the simulator's ground truth: people counted vs people present\n");
    const signed = (x: number): string => (Number.isFinite(x) ? `${x >= 0 ? "+" : ""}${pct(x)}` : "–");
    const accRow = (name: string, present: number | undefined, counted: string, error: number, inInterval: string, macs: number, occupancy: number, dwellErrorMs: number, score: AccuracyScore | undefined): string[] => [
      name,
      present === undefined ? "–" : int(present),
      counted,
      signed(error),
      inInterval,
      int(macs),
      present === undefined || present === 0 ? "–" : signed((macs - present) / present),
      Number.isFinite(occupancy) ? pct(occupancy) : "–",
      Number.isFinite(dwellErrorMs) ? `${Math.round(dwellErrorMs / 1000)} s` : "–",
      score === undefined ? "–" : score.visitor.f1.toFixed(3),
    ];
    const acc = scored.map((r) => {
      const p = r.peopleScore;
      return accRow(r.name, p?.truth, intervalText(headlineOf(r)), p?.error ?? Number.NaN, p === undefined ? "–" : p.covered ? "yes" : "NO", countsOf(r).visitors, p?.occupancyMae ?? Number.NaN, absDwellError(p), r.score);
    });
    if (scored.length > 1 && people !== undefined) {
      const macs = scored.reduce((n, r) => n + countsOf(r).visitors, 0);
      acc.push(accRow("all shops", people.truth, int(people.visitors), people.totalError, `${people.covered} of ${people.days.length}`, macs, people.occupancyMae, people.meanAbsMedianDwellErrorMs, overall));
    }
    out.push(
      alignTable(
        ["shop", "people present", "people counted [90 %]", "error", "in interval", "MAC visitors", "MAC error", "occupancy error", "median dwell error", "visitor F1"],
        acc,
        [false, true, true, true, true, true, true, true, true, true],
      ),
    );
    out.push(
      "(people present: people who came inside (truth); error: (counted − present) ÷ present; in interval: whether the 90 % interval holds the truth;\n" +
        " MAC visitors / MAC error: the same day counted as MAC addresses; occupancy error: mean |estimated − true people inside| per 15 min ÷ mean inside;\n" +
        " median dwell error: |median dwell above − true median dwell of the people's visits|, all shops the mean over shops;\n" +
        " visitor F1: MAC-level, sessions against the truth per MAC)\n",
    );
    if (calibrated !== undefined && people !== undefined) {
      // Side by side: people as installed (the prior from real phones), calibrated on a door
      // counter's first two opening hours, and present.
      const rows = people.days.map((d, i) => {
        const c = calibrated.days[i]!;
        const name = results.find((r) => r.id === d.shopId)?.name ?? String(d.shopId);
        return [name, int(d.truth), int(d.visitors), signed(d.error), int(c.visitors), signed(c.error), pct(d.occupancyMae), pct(c.occupancyMae)];
      });
      out.push("\npeople as installed, calibrated on a door count of the first two opening hours, and present\n");
      out.push(
        alignTable(
          ["shop", "people present", "as installed", "error", "calibrated", "error", "occupancy error installed", "calibrated"],
          rows,
          [false, true, true, true, true, true, true, true],
        ),
      );
    }
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
    if (minCount > 1) suppressCsvRow(row, minCount);
    lines.push(CSV_COLUMNS.map((k) => csvCell(row[k] ?? "")).join(","));
  }
  return `${lines.join("\n")}\n`;
}

// Counts of people in a daily.csv row; what is computed from a small one goes with it.
const CSV_COUNTS = ["visitors", "visitors_low", "visitors_high", "mac_visitors", "visits", "passers_by", "unique_devices", "universal_visitors", "randomized_visitors", "dwell_lt5m", "dwell_m5to20", "dwell_m20to60", "dwell_h1to6", "dwell_ge6h"] as const;
const CSV_DERIVED = ["capture_rate", "dwell_median_s", "dwell_mean_s", "dwell_p90_s", "conversion", "amount_per_visitor", "visitor_count_error", "visitors_in_interval", "occupancy_error", "median_abs_dwell_error_s"] as const;

// `--min-count`: a count from 1 to K − 1 is written "<K" (suppressed, not zero), and with small
// visitors or devices the figures computed from them are left empty.
function suppressCsvRow(row: Record<string, string>, minCount: number): void {
  let small = false;
  for (const k of CSV_COUNTS) {
    if (isSmallCount(Number(row[k]), minCount)) {
      row[k] = `<${minCount}`;
      if (k === "visitors" || k === "mac_visitors" || k === "unique_devices" || k === "visits") small = true;
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
 * The HTML report's input from the demo's results: people (the estimate, its occupancy, and the
 * people present when scored, `people` from `scorePeople`) beside the MAC-level counts.
 *
 * @example
 * import { writeFile } from "node:fs/promises";
 * await writeFile("report.html", htmlReport(reportInput(results, overall, run)));
 */
export function reportInput(results: readonly DemoShopResult[], overall: AccuracyScore | undefined, run: DemoRun, people?: PeopleScore): HtmlReportInput {
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
      medianDwellMs: dwellOf(r)?.medianMs ?? Number.NaN,
      dwellBuckets: DWELL_BUCKETS.map((b) => ({ bucket: b.label, count: dwellOf(r)?.buckets[b.key] ?? 0 })),
      ...(r.sales === undefined ? {} : { receipts: r.sales.receipts, amount: r.sales.amount }),
      hourly,
      zones: r.zones,
      devices: { universal: r.counts?.universal.uniqueDevices ?? 0, randomized: r.counts?.randomized.uniqueDevices ?? 0 },
      ...(r.score === undefined
        ? {}
        : {
            accuracy: {
              truthVisitors: trueVisitors(r.truth),
              truthMedianDwellMs: truthMedianDwellMs(r.truth),
              ...(r.peopleScore === undefined ? {} : { truthPeople: r.peopleScore.truth }),
            },
          }),
      ...peopleOf(r),
    };
  });
  // The all-shops median from the sessions only without people estimates: an estimate exposes
  // its dwell statistics, not the values, so the report then weighs the shops' medians.
  const dwells: number[] = [];
  if (!results.some((r) => hasPeopleEstimate(r.people))) for (const r of results) for (const s of r.sessions) if (s.kind === "visitor") dwells.push(s.estimatedDwellMs);
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
            // Dwell is people's where there is an estimate: its error against the people's true dwell.
            medianAbsDwellErrorMs: people !== undefined && Number.isFinite(people.meanAbsMedianDwellErrorMs) ? people.meanAbsMedianDwellErrorMs : overall.medianAbsDwellErrorMs,
            visitorF1: overall.visitor.f1,
            passerbyF1: overall.passerby.f1,
            truthMedianDwellMs: truthMedianDwellMs(truthAll),
            ...(people === undefined || people.days.length === 0
              ? {}
              : { people: { totalError: people.totalError, covered: people.covered, days: people.days.length, occupancyMae: people.occupancyMae } }),
          },
        }),
    ...(run.partial ? { partial: `This day was ${run.partial}: the figures cover it up to then.` } : {}),
    ...(run.minCount === undefined ? {} : { minCount: run.minCount }),
    facts: [
      { label: "seed", value: run.seed },
      { label: "speed", value: `${int(run.speed)}× while open` },
      ...(run.rotation === undefined ? [] : [{ label: "MAC rotation", value: run.rotation }]),
      { label: "run time", value: `${Math.round(run.elapsedMs / 1000)} s` },
      { label: "source", value: "footfall demo on the built-in simulator" },
    ],
  };
}

// The report's people of one shop-day: the headline (summaryRecord's rounding) and the occupancy
// with the true mean inside beside each interval when scored.
function peopleOf(r: DemoShopResult): { people?: ReportPeople; occupancy?: OccupancyRow[] } {
  const h = headlineOf(r);
  if (!h.estimated || r.people === undefined) return {};
  const truth = r.peopleScore?.trueInside;
  return {
    people: { visitors: h.visitors, visitorsLow: h.visitorsLow, visitorsHigh: h.visitorsHigh, passersBy: h.passersBy, captureRate: h.captureRate },
    occupancy: r.people.occupancy.map((o, i): OccupancyRow => ({
      start: o.start,
      end: o.end,
      inside: o.inside,
      insideLow: o.insideLow,
      insideHigh: o.insideHigh,
      outside: o.outside,
      ...(truth?.[i] === undefined ? {} : { truth: truth[i] }),
    })),
  };
}

// No visitors: conversion is not available (conversionRate's rule), not "0 %" or "–" (no sales).
function rateText(rate: number | undefined): string {
  return rate === undefined ? "n/a" : pct(rate);
}
