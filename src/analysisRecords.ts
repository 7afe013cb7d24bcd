import type { AnalyzeResult, ShopDaySummary } from "./analyze.ts";
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
 * One shop and local day as the `summary` line of `footfall analyze --format ndjson`: visitors,
 * visits, passers-by, unique devices, capture rate (0…1), new/repeat visitors, staff, stationary,
 * visitor dwell (ms, rounded; `null` when there were no visitors) with its buckets, the universal
 * and randomized series, and the visitor RSSI threshold (dBm).
 *
 * @example
 * for (const d of result.days) out.write(`${JSON.stringify(summaryRecord(d))}\n`);
 */
export function summaryRecord(d: ShopDaySummary): AnalysisRecord {
  return {
    type: "summary",
    shopId: d.shopId,
    date: d.label,
    visitors: d.visitors,
    visits: d.visits,
    passersBy: d.passersBy,
    uniqueDevices: d.uniqueDevices,
    captureRate: d.captureRate,
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
 * sessions, then per shop-day summaries, then per-interval `occupancy` lines (when the result has
 * them), then one `quality` line (when quality was on). The one formatting of these lines: the CLI
 * prints them and the fleet stores them, so both follow the engine when it changes.
 *
 * Lines are JSON values already (`JSON.stringify` of each is the printed line; NaN becomes null).
 *
 * @example
 * for (const line of analysisRecords(analyzer.finish())) process.stdout.write(`${JSON.stringify(line)}\n`);
 */
export function* analysisRecords(result: AnalyzeResult): Iterable<AnalysisRecord> {
  for (const s of result.sessions) yield sessionRecord(s);
  for (const d of result.days) yield summaryRecord(d);
  // Interval estimates are being added to the engine; whatever lines it yields are passed on as is.
  const occupancy = (result as { readonly occupancy?: readonly Readonly<Record<string, unknown>>[] }).occupancy;
  if (occupancy !== undefined) for (const o of occupancy) yield { ...o, type: "occupancy" };
  if (result.quality !== undefined) {
    const { type: _type, ...quality } = result.quality;
    yield { type: "quality", ...quality, lateSessions: result.lateSessions };
  }
}

function round1(x: number): number | null {
  return Number.isFinite(x) ? Math.round(x * 10) / 10 : null;
}

function roundOrNull(x: number): number | null {
  return Number.isFinite(x) ? Math.round(x) : null;
}
