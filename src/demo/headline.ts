import type { AnalysisRecord } from "../analysis/AnalysisRecord.ts";
import { summaryRecord } from "../analysis/summaryRecord.ts";
import { dwellStats, type DwellStats } from "../kernels/visits/dwellStats.ts";
import { hasPeopleEstimate } from "../kernels/people/hasPeopleEstimate.ts";
import type { PeopleDayScore, PeopleScore } from "../kernels/people/scorePeople.ts";
import { shopDayDwell } from "../kernels/people/shopDayDwell.ts";
import type { DemoShopResult } from "./DemoShopResult.ts";
import { int } from "./textFormats.ts";

/**
 * The shop-day's headline figures — people, not MACs — exactly as `footfall analyze` writes them
 * in its `summary` line (`summaryRecord`: the estimate rounded, its interval floored and ceiled,
 * the MAC-level count when there is no estimate): one rule for the summary's tables, daily.csv
 * and the report.
 *
 * @example
 * const h: Headline = { visitors: 53, visitorsLow: 25, visitorsHigh: 169, passersBy: 1280, captureRate: 0.039, estimated: true };
 */
export interface Headline {
  readonly visitors: number;
  readonly visitorsLow: number;
  readonly visitorsHigh: number;
  readonly passersBy: number;
  readonly captureRate: number;
  /** Whether the figures are an estimate of people (else the MAC-level counts). */
  readonly estimated: boolean;
}

/**
 * The {@link Headline} of one shop-day (zeros when it has no counts).
 *
 * @example
 * const h = headlineOf(results[0]!);
 * h.visitorsLow <= h.visitors; // true
 */
export function headlineOf(r: DemoShopResult): Headline {
  const line = summaryLineOf(r);
  if (line === undefined) return { visitors: 0, visitorsLow: 0, visitorsHigh: 0, passersBy: 0, captureRate: Number.NaN, estimated: false };
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
 * The shop-day's `summary` line, as `footfall analyze` writes it (`summaryRecord`), or `undefined`
 * when the shop-day has no counts.
 *
 * @example
 * summaryLineOf(results[0]!)?.type; // "summary"
 */
export function summaryLineOf(r: DemoShopResult): AnalysisRecord | undefined {
  const c = r.counts;
  if (c === undefined) return undefined;
  return summaryRecord({ ...c, dwell: r.dwell ?? dwellStats([]), visitorRssi: r.sessions[0]?.visitorRssi ?? Number.NaN, people: r.people });
}

/**
 * The shop-day's MAC-level counts (`countVisits`), 0 when it has none.
 *
 * @example
 * macCountsOf({ ...results[0]!, counts: undefined }).visitors; // 0
 */
export function macCountsOf(r: DemoShopResult): { readonly visitors: number; readonly visits: number; readonly passersBy: number; readonly uniqueDevices: number } {
  return {
    visitors: r.counts?.visitors ?? 0,
    visits: r.counts?.visits ?? 0,
    passersBy: r.counts?.passersBy ?? 0,
    uniqueDevices: r.counts?.uniqueDevices ?? 0,
  };
}

/**
 * All shops' people as MAC addresses: over the shop-days `people` scored, their MAC visitors, the
 * people present, and the MAC count's error, (MAC visitors − present) ÷ present (a fraction; NaN
 * with no one present). One figure for the text table's "all shops" row and the report.
 *
 * @example
 * const none: PeopleScore = { days: [], truth: 0, visitors: 0, totalError: Number.NaN, meanAbsError: Number.NaN, covered: 0, occupancyMae: Number.NaN, intervals: 0, intervalsCovered: 0, meanAbsMedianDwellErrorMs: Number.NaN };
 * peopleAsMacs(results, none).error; // NaN
 */
export function peopleAsMacs(results: readonly DemoShopResult[], people: PeopleScore): { readonly macs: number; readonly present: number; readonly error: number } {
  let macs = 0;
  let present = 0;
  for (const d of people.days) {
    const r = results.find((x) => x.id === d.shopId);
    if (r === undefined) continue;
    macs += macCountsOf(r).visitors;
    present += d.truth;
  }
  return { macs, present, error: present > 0 ? (macs - present) / present : Number.NaN };
}

/**
 * The shop-day's dwell as the `summary` line has it (`shopDayDwell`): the identity-known visits'
 * with a people estimate, else the MAC-level visitor sessions' (`undefined` with neither). One
 * rule for the traffic table, daily.csv and the report.
 *
 * @example
 * dwellOf({ ...results[0]!, dwell: undefined, people: undefined }); // undefined
 */
export function dwellOf(r: DemoShopResult): DwellStats | undefined {
  return r.dwell === undefined && !hasPeopleEstimate(r.people) ? undefined : shopDayDwell(r.dwell ?? dwellStats([]), r.people);
}

/**
 * |estimated − true median dwell| of a people score, ms (`NaN` when unavailable).
 *
 * @example
 * absDwellError(undefined); // NaN
 */
export function absDwellError(p: PeopleDayScore | undefined): number {
  return Math.abs(p?.medianDwellErrorMs ?? Number.NaN);
}

/**
 * Visitors as the tables show them: the estimate with its 90 % interval, the count alone when it
 * is not an estimate, "unknown" with the lower bound when the estimate is unknown.
 *
 * @example
 * intervalText({ visitors: 53, visitorsLow: 25, visitorsHigh: 169, passersBy: 0, captureRate: 0, estimated: true }); // "53 [25–169]"
 */
export function intervalText(h: Headline): string {
  return Number.isNaN(h.visitors)
    ? `unknown (≥${int(h.visitorsLow)})`
    : h.estimated
      ? `${int(h.visitors)} [${int(h.visitorsLow)}–${Number.isFinite(h.visitorsHigh) ? int(h.visitorsHigh) : "?"}]`
      : int(h.visitors);
}
