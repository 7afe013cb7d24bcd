import { median } from "simple-statistics";
import { conversionRate } from "../kernels/visits/conversionRate.ts";
import { DWELL_BUCKETS } from "../kernels/visits/dwellStats.ts";
import type { AccuracyScore } from "../kernels/visits/scoreAgainstTruth.ts";
import type { PeopleScore } from "../kernels/people/scorePeople.ts";
import type { DemoRun, DemoSales, DemoShopResult } from "./DemoShopResult.ts";
import { absDwellError, dwellOf, headlineOf, intervalText, macCountsOf, peopleAsMacs, type Headline } from "./headline.ts";
import { alignTable, int, minutes, moneyFormat, pct } from "./textFormats.ts";

/**
 * The summary printed on stdout at the end: one table of traffic, dwell and sales per shop —
 * visitors are people (the estimate with its 90 % interval), the MAC-level count beside them,
 * dwell is the `summary` line's (`shopDayDwell`: the identity-known visits' with an estimate),
 * and conversion is receipts ÷ people — and one of accuracy against ground truth: people counted
 * against people present and the median dwell against the people's true one (`people`, from
 * `scorePeople`), next to the MAC-level count and its visitor F1 (`overall` scores all shops'
 * sessions together); with `calibrated`, people as installed beside people calibrated on a door
 * count. Each table is its own function below, in the order printed.
 *
 * @example
 * io.stdout.write(summaryText(results, overall, run));
 */
export function summaryText(results: readonly DemoShopResult[], overall: AccuracyScore | undefined, run: DemoRun, people?: PeopleScore, calibrated?: PeopleScore): string {
  const scored = results.filter((r) => r.score !== undefined || r.peopleScore !== undefined);
  return [
    headingLine(results, run),
    trafficTable(results, run.currency),
    TRAFFIC_NOTE,
    ...(scored.length === 0 ? [] : [accuracyTable(scored, overall, people), ACCURACY_NOTE]),
    // People calibrated only beside the people scored (the accuracy table's "as installed").
    scored.length > 0 && calibrated !== undefined && people !== undefined ? calibrationTable(results, people, calibrated) : "",
    failureLines(results),
  ].join("");
}

// The first line: the day, the shops and how much was read, and how the day ended when cut short.
function headingLine(results: readonly DemoShopResult[], run: DemoRun): string {
  const signals = results.reduce((n, r) => n + r.signals, 0);
  return (
    `footfall demo: ${run.date} (${run.timeZone}), ${results.length} shop${results.length === 1 ? "" : "s"}, ${int(signals)} signals read live in ${Math.round(run.elapsedMs / 1000)} s` +
    `${run.partial ? ` — ${run.partial}` : ""}\n\n`
  );
}

// Traffic, dwell and sales: a row per shop, and all shops together when there are several.
function trafficTable(results: readonly DemoShopResult[], currency: string): string {
  const money = moneyFormat(currency);
  const rows = results.map((r) => {
    const d = dwellOf(r);
    return trafficRow(r.name, headlineOf(r), macCountsOf(r).visitors, DWELL_BUCKETS.map((b) => d?.buckets[b.key] ?? 0), d?.medianMs ?? Number.NaN, r.sales, money);
  });
  if (results.length > 1) rows.push(allShopsTrafficRow(results, currency, money));
  return alignTable(
    ["shop", "visitors [90 %]", "MAC visitors", "passers-by", "capture", ...DWELL_BUCKETS.map((b) => b.label), "median dwell", "receipts", "sales", "conversion", "per visitor"],
    rows,
    [false, true, true, true, true, true, true, true, true, true, true, true, true, true, true],
  );
}

function trafficRow(
  name: string,
  h: Headline,
  macVisitors: number,
  buckets: readonly number[],
  medianMs: number,
  sales: DemoSales | undefined,
  money: Intl.NumberFormat,
  interval = true,
): string[] {
  return [
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
}

// All shops: sums of people (without an interval: the shops' intervals do not add up to a 90 %
// interval of the sum) and of the MAC-level counts, dwell buckets and sales.
function allShopsTrafficRow(results: readonly DemoShopResult[], currency: string, money: Intl.NumberFormat): string[] {
  let visitors = 0;
  let passersBy = 0;
  let macVisitors = 0;
  let estimated = true;
  let anyEstimated = false;
  const buckets = DWELL_BUCKETS.map(() => 0);
  const dwells: number[] = [];
  let sales: DemoSales | undefined = { receipts: 0, receiptsByHour: [], amount: 0, quantity: 0, currency, status: "" };
  for (const r of results) {
    const h = headlineOf(r);
    visitors += h.visitors;
    passersBy += h.passersBy;
    macVisitors += macCountsOf(r).visitors;
    estimated &&= h.estimated;
    anyEstimated ||= h.estimated;
    const d = dwellOf(r);
    // Bucket counts of visits add up across shops, whichever visits each shop's dwell is of.
    DWELL_BUCKETS.forEach((b, i) => (buckets[i]! += d?.buckets[b.key] ?? 0));
    for (const s of r.sessions) if (s.kind === "visitor") dwells.push(s.estimatedDwellMs);
    sales = sales === undefined || r.sales === undefined ? undefined : { ...sales, receipts: sales.receipts + r.sales.receipts, amount: sales.amount + r.sales.amount };
  }
  const total: Headline = { visitors, visitorsLow: visitors, visitorsHigh: visitors, passersBy, captureRate: visitors + passersBy > 0 ? visitors / (visitors + passersBy) : Number.NaN, estimated };
  // All shops' median dwell: a people estimate gives its shop's dwell statistics, not the
  // identity-known visits' dwells, and medians do not pool, so with any estimate the median is
  // left out ("–") rather than re-derived from the MAC-level pieces of visits. Without any,
  // it is the median of every shop's visitor sessions (MAC-level, like each shop's).
  const medianMs = !anyEstimated && dwells.length > 0 ? median(dwells) : Number.NaN;
  return trafficRow("all shops", total, macVisitors, buckets, medianMs, sales, money, false);
}

const TRAFFIC_NOTE =
  "(visitors and passers-by: people, estimated with a 90 % interval; MAC visitors: distinct MAC addresses that visited, the count a MAC-level tool reports;\n" +
  " capture = visitors ÷ people heard; conversion = receipts ÷ visitors; dwell columns: visits by length of stay, of the visits seen whole (a phone\n" +
  " whose MAC held across its visit; a rotating phone's MACs see only pieces), MAC-level sessions for a shop without an estimate;\n" +
  " all shops' median is left out (–) when shops have estimates: their medians do not pool)\n";

// Accuracy against the simulator's ground truth: people counted against people present per
// scored shop, the MAC-level count and its visitor F1 beside them; all shops from `people`.
function accuracyTable(scored: readonly DemoShopResult[], overall: AccuracyScore | undefined, people: PeopleScore | undefined): string {
  const rows = scored.map((r) => {
    const p = r.peopleScore;
    const macs = macCountsOf(r).visitors;
    const macError = p === undefined || p.truth === 0 ? Number.NaN : (macs - p.truth) / p.truth;
    return accuracyRow(r.name, p?.truth, intervalText(headlineOf(r)), p?.error ?? Number.NaN, p === undefined ? "–" : p.covered ? "yes" : "NO", macs, macError, p?.occupancyMae ?? Number.NaN, absDwellError(p), r.score);
  });
  if (scored.length > 1 && people !== undefined) {
    const all = peopleAsMacs(scored, people);
    rows.push(accuracyRow("all shops", people.truth, int(people.visitors), people.totalError, `${people.covered} of ${people.days.length}`, all.macs, all.error, people.occupancyMae, people.meanAbsMedianDwellErrorMs, overall));
  }
  return (
    "\naccuracy against the simulator's ground truth: people counted vs people present\n" +
    alignTable(
      ["shop", "people present", "people counted [90 %]", "error", "in interval", "MAC visitors", "MAC error", "occupancy error", "median dwell error", "visitor F1"],
      rows,
      [false, true, true, true, true, true, true, true, true, true],
    )
  );
}

function accuracyRow(
  name: string,
  present: number | undefined,
  counted: string,
  error: number,
  inInterval: string,
  macs: number,
  macError: number,
  occupancy: number,
  dwellErrorMs: number,
  score: AccuracyScore | undefined,
): string[] {
  return [
    name,
    present === undefined ? "–" : int(present),
    counted,
    signed(error),
    inInterval,
    int(macs),
    signed(macError),
    Number.isFinite(occupancy) ? pct(occupancy) : "–",
    Number.isFinite(dwellErrorMs) ? `${Math.round(dwellErrorMs / 1000)} s` : "–",
    score === undefined ? "–" : score.visitor.f1.toFixed(3),
  ];
}

const ACCURACY_NOTE =
  "(people present: people who came inside (truth); error: (counted − present) ÷ present; in interval: whether the 90 % interval holds the truth;\n" +
  " MAC visitors / MAC error: the same day counted as MAC addresses; occupancy error: mean |estimated − true people inside| per 15 min ÷ mean inside;\n" +
  " median dwell error: |median dwell above − true median dwell of the people's visits|, all shops the mean over shops;\n" +
  " visitor F1: MAC-level, sessions against the truth per MAC)\n";

// Side by side: people as installed (the prior from real phones), calibrated on a door counter's
// first two opening hours, and present.
function calibrationTable(results: readonly DemoShopResult[], people: PeopleScore, calibrated: PeopleScore): string {
  const rows = people.days.map((d, i) => {
    const c = calibrated.days[i]!;
    const name = results.find((r) => r.id === d.shopId)?.name ?? String(d.shopId);
    return [name, int(d.truth), int(d.visitors), signed(d.error), int(c.visitors), signed(c.error), pct(d.occupancyMae), pct(c.occupancyMae)];
  });
  return (
    "\npeople as installed, calibrated on a door count of the first two opening hours, and present\n" +
    alignTable(
      ["shop", "people present", "as installed", "error", "calibrated", "error", "occupancy error installed", "calibrated"],
      rows,
      [false, true, true, true, true, true, true, true],
    )
  );
}

// The shops whose reading stopped early, and why.
function failureLines(results: readonly DemoShopResult[]): string {
  return results
    .filter((r) => r.error !== undefined)
    .map((r) => `\n${r.name}: reading stopped early: ${r.error}\n`)
    .join("");
}

// A share with its sign ("+14.2 %", "-20.1 %"), "–" when not finite.
function signed(x: number): string {
  return Number.isFinite(x) ? `${x >= 0 ? "+" : ""}${pct(x)}` : "–";
}

// No visitors: conversion is not available (conversionRate's rule), not "0 %" or "–" (no sales).
function rateText(rate: number | undefined): string {
  return rate === undefined ? "n/a" : pct(rate);
}
