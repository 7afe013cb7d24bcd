import type { AnalyzeResult, ShopDaySummary } from "./analyze.ts";
import type { OccupancyInterval } from "./kernels/PeopleEstimator.ts";
import type { ClassifiedSession } from "./kernels/VisitClassifier.ts";

/**
 * One line of `footfall analyze --format ndjson` (and of `footfall fleet results`): a plain JSON
 * object whose `type` is `"session"`, `"summary"`, `"occupancy"` or `"quality"`.
 *
 * @example
 * const line: AnalysisRecord = { type: "summary", shopId: 101, date: "2026-11-16", visitors: 390 };
 */
export type AnalysisRecord = { readonly type: string } & Record<string, unknown>;

/**
 * One session as a JSON line of `footfall analyze --format ndjson` and of the demo's
 * `sessions.ndjson` (the same fields, so either feeds the same downstream code):
 * `type: "session"`, shopId, device, start/end (epoch ms), local date, dwell observed and
 * estimated (ms), signals, kind, randomized MAC, vendor, peak smoothed RSSI (dBm, 0.1),
 * nearest sensor, closest zone and distance (m, 0.1; `null` without proximity), late.
 *
 * @example
 * for (const s of result.sessions) out.write(`${JSON.stringify(sessionRecord(s))}\n`);
 */
export function sessionRecord(s: ClassifiedSession): AnalysisRecord {
  return {
    type: "session",
    shopId: s.shopId,
    device: s.device,
    start: s.start,
    end: s.end,
    date: s.date,
    dwellMs: s.dwellMs,
    estimatedDwellMs: Math.round(s.estimatedDwellMs),
    signals: s.signalCount,
    kind: s.kind,
    randomized: s.randomized,
    vendor: s.vendor ?? null,
    peakRssi: round1(s.peakSmoothedRssi),
    nearestSensor: s.nearestSensor,
    closestZone: s.proximity?.closestZone ?? null,
    closestDistanceM: s.proximity === undefined ? null : round1(s.proximity.closestDistanceM),
    late: s.late,
  };
}

/**
 * One shop and local day as the `summary` line of `footfall analyze --format ndjson`. People, not
 * MACs: `visitors` is the estimate of people (rounded) with its 90 % interval `visitorsLow` …
 * `visitorsHigh` (floor / ceiling), `passersBy` and `captureRate` (0…1) are estimates too; the
 * MAC-level counts stay beside them in `macs` ({ visitors, passersBy, uniqueDevices, captureRate })
 * and in `visits`, `uniqueDevices`, new/repeat visitors (universal MACs), staff, stationary, the
 * universal and randomized series. Also visitor dwell (ms, rounded; `null` when there were no
 * visitors; from identity-known visits) with its buckets, and the visitor RSSI threshold (dBm).
 * Without a people estimate (`people: false`, or `NaN` for want of identity-known visits) the
 * estimates are the MAC-level counts.
 *
 * @example
 * for (const d of result.days) out.write(`${JSON.stringify(summaryRecord(d))}\n`);
 */
export function summaryRecord(d: ShopDaySummary): AnalysisRecord {
  // No estimate (people off, or no identity-known visit to learn a burst rate from): MAC-level.
  const p = d.people !== undefined && Number.isFinite(d.people.visitors) ? d.people : undefined;
  const passersBy = p === undefined || !Number.isFinite(p.passersBy) ? d.passersBy : Math.round(p.passersBy);
  return {
    type: "summary",
    shopId: d.shopId,
    date: d.label,
    visitors: p === undefined ? d.visitors : Math.round(p.visitors),
    visitorsLow: p === undefined ? d.visitors : Math.floor(p.visitorsLow),
    visitorsHigh: p === undefined ? d.visitors : Math.ceil(p.visitorsHigh),
    visits: d.visits,
    passersBy,
    uniqueDevices: d.uniqueDevices,
    captureRate: p === undefined || !Number.isFinite(p.captureRate) ? d.captureRate : p.captureRate,
    macs: { visitors: d.visitors, passersBy: d.passersBy, uniqueDevices: d.uniqueDevices, captureRate: d.captureRate },
    newVisitors: d.newVisitors,
    repeatVisitors: d.repeatVisitors,
    staff: d.staff,
    stationary: d.stationary,
    dwell: {
      count: d.dwell.count,
      meanMs: roundOrNull(d.dwell.meanMs),
      medianMs: roundOrNull(d.dwell.medianMs),
      p90Ms: roundOrNull(d.dwell.p90Ms),
      buckets: d.dwell.buckets,
    },
    universal: d.universal,
    randomized: d.randomized,
    visitorRssi: d.visitorRssi,
  };
}

/**
 * Every NDJSON line of one analysis, in the order `footfall analyze --format ndjson` prints them:
 * sessions, then per shop-day summaries, then per shop and interval `occupancy` lines (none when
 * `people` was false), then one `quality` line (when quality was on). The one formatting of these lines: the CLI
 * prints them and the fleet stores them, so both follow the engine when it changes.
 *
 * Lines are JSON values already (`JSON.stringify` of each is the printed line; NaN becomes null).
 *
 * @example
 * const lines = [...analysisRecords(await analyze(records))];
 * lines.at(-1)?.type; // "quality"
 */
export function* analysisRecords(result: AnalyzeResult): Iterable<AnalysisRecord> {
  for (const s of result.sessions) yield sessionRecord(s);
  for (const d of result.days) yield summaryRecord(d);
  for (const o of result.occupancy) yield occupancyRecord(o);
  if (result.quality !== undefined) {
    const { type: _type, ...quality } = result.quality;
    yield { type: "quality", ...quality, lateSessions: result.lateSessions };
  }
}

/**
 * One shop and interval as the `occupancy` line of `footfall analyze --format ndjson`: start and
 * end (epoch ms), the estimated mean phones `inside` with its 90 % interval `insideLow` …
 * `insideHigh`, and `outside` (people, 0.01), plus the interval's burst counts.
 *
 * @example
 * for (const o of result.occupancy) out.write(`${JSON.stringify(occupancyRecord(o))}\n`);
 * // {"type":"occupancy","shopId":101,"start":1794790800000,"end":1794791700000,"inside":7.41,"insideLow":6.1,"insideHigh":8.72,"outside":21.3,…}
 */
export function occupancyRecord(o: OccupancyInterval): AnalysisRecord {
  return {
    type: "occupancy",
    shopId: o.shopId,
    start: o.start,
    end: o.end,
    inside: round2(o.inside),
    insideLow: round2(o.insideLow),
    insideHigh: round2(o.insideHigh),
    outside: round2(o.outside),
    knownInside: round2(o.knownInside),
    insideBursts: round2(o.insideBursts),
    outsideBursts: round2(o.outsideBursts),
  };
}

function round2(x: number): number | null {
  return Number.isFinite(x) ? Math.round(x * 100) / 100 : null;
}

function round1(x: number): number | null {
  return Number.isFinite(x) ? Math.round(x * 10) / 10 : null;
}

function roundOrNull(x: number): number | null {
  return Number.isFinite(x) ? Math.round(x) : null;
}
