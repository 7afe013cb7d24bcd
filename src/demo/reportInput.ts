import { median } from "simple-statistics";
import { DWELL_BUCKETS } from "../kernels/visits/dwellStats.ts";
import { hasPeopleEstimate } from "../kernels/people/hasPeopleEstimate.ts";
import type { AccuracyScore } from "../kernels/visits/scoreAgainstTruth.ts";
import type { PeopleScore } from "../kernels/people/scorePeople.ts";
import type { VisitCounts } from "../kernels/visits/VisitCounter.ts";
import type { HtmlReportInput, ReportPeople, ReportShop } from "../report/htmlReport.ts";
import type { OccupancyRow } from "../report/occupancyChart.ts";
import type { TruthVisit } from "../sim/world/World.ts";
import type { DemoRun, DemoShopResult } from "./DemoShopResult.ts";
import { dwellOf, headlineOf, macCountsOf, peopleAsMacs } from "./headline.ts";
import { int } from "./textFormats.ts";

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
    const c = macCountsOf(r);
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
              : { people: { totalError: people.totalError, covered: people.covered, days: people.days.length, occupancyMae: people.occupancyMae, macError: peopleAsMacs(results, people).error } }),
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

// Visitors as the truth has them per MAC (distinct visiting devices): what the report's MAC-level
// visitors are held against.
function trueVisitors(truth: readonly TruthVisit[]): number {
  const devices = new Set<string>();
  for (const t of truth) if (t.kind === "visitor") devices.add(t.device);
  return devices.size;
}
