import type { AnalyzeResult, ShopDaySummary } from "./analyze.ts";
import { realPhonesPrior, type BurstYardstick } from "../kernels/burstYardstick.ts";
import type { CalibrationRef } from "../kernels/Calibration.ts";
import { hasPeopleEstimate } from "../kernels/hasPeopleEstimate.ts";
import { poolPeople } from "../kernels/people/poolPeople.ts";
import type { OccupancyInterval, PeopleEstimate, PeopleSample } from "../kernels/people/PeopleEstimate.ts";
import type { PeopleEstimatorOptions } from "../kernels/people/peopleEstimatorOptions.ts";
import { shopDayDwell } from "../kernels/shopDayDwell.ts";
import type { ClassifiedSession } from "../kernels/VisitClassifier.ts";
import type { ProximityOptions } from "../kernels/proximityOptions.ts";
import { suppressSmallCounts } from "./suppressSmallCounts.ts";

/**
 * The proximity options of an analysis whose output is {@link analysisRecords} (`footfall
 * analyze`, a fleet shop-day job): no line shows a session's nearest-sensor timeline, so none is
 * built. Such an analysis holds every session until its input is read, and a timeline is about a
 * quarter of a held session's memory (1 336 → 1 051 bytes on the big shop-day).
 *
 * @example
 * recordsProximity.timelineLimit; // 0
 * const result = await analyze(records, { proximity: recordsProximity });
 */
export const recordsProximity: ProximityOptions = Object.freeze({ timelineLimit: 0 });

/**
 * One line of `footfall analyze --format ndjson` (and of `footfall fleet results`): a plain JSON
 * object whose `type` is `"session"`, `"summary"`, `"occupancy"` or `"quality"`.
 *
 * @example
 * const line: AnalysisRecord = { type: "summary", shopId: 101, date: "2026-11-16", visitors: 390 };
 */
export type AnalysisRecord = { readonly type: string } & Record<string, unknown>;

/**
 * How a device is identified in written lines: `(mac, localDate) => id`. Writers (the CLI, the
 * fleet's stored rows) pass a keyed pseudonym (`Pseudonymizer#pseudonym`) so no MAC leaves
 * footfall; `--raw-macs` passes {@link rawDevice}.
 *
 * @example
 * const p = new Pseudonymizer({ key: new Uint8Array(16).fill(1) });
 * const id: DeviceId = (mac, date) => p.pseudonym(mac, date);
 * id("a4:5e:60:00:00:01", "2026-11-16").length; // 32
 */
export type DeviceId = (mac: string, date: string) => string;

/**
 * The identity {@link DeviceId}: the MAC as the engine holds it (for the caller's own process,
 * or `--raw-macs` debugging output).
 *
 * @example
 * rawDevice("a4:5e:60:00:00:01", "2026-11-16"); // "a4:5e:60:00:00:01"
 */
export const rawDevice: DeviceId = (mac) => mac;

/** Options of {@link analysisRecords}. */
export interface AnalysisRecordsOptions {
  /** How each session's device is written. @default rawDevice (the MAC; writers pass a pseudonymizer) */
  readonly device?: DeviceId;
  /**
   * Small-count suppression of the aggregate lines (summary, occupancy): counts from 1 to
   * minCount − 1 are written as `null` with `suppressed: true` (see `suppressSmallCounts`).
   * @default 0 (off)
   */
  readonly minCount?: number;
  /**
   * Whether written devices link across days. `false` (pseudonyms with daily rotation): new and
   * repeat visitors are written as `null` (unavailable, not zero), since no reader of the output
   * could tell a repeat visit from a new one. @default true
   */
  readonly linkedAcrossDays?: boolean;
}

/**
 * One session as a JSON line of `footfall analyze --format ndjson` and of the demo's
 * `sessions.ndjson` (the same fields, so either feeds the same downstream code):
 * `type: "session"`, shopId, device, start/end (epoch ms), local date, dwell observed and
 * estimated (ms), signals, kind, randomized MAC, vendor, peak smoothed RSSI (dBm, 0.1),
 * nearest sensor, closest zone and distance (m, 0.1; `null` without proximity), late.
 * `device` is `device(mac, date)`: the MAC by default, a keyed pseudonym when written by the CLI
 * or the fleet.
 *
 * @example
 * const p = new Pseudonymizer({ key: new Uint8Array(16).fill(1) });
 * for (const s of result.sessions) out.write(`${JSON.stringify(sessionRecord(s, (mac, date) => p.pseudonym(mac, date)))}\n`);
 */
export function sessionRecord(s: ClassifiedSession, device: DeviceId = rawDevice): AnalysisRecord {
  return {
    type: "session",
    shopId: s.shopId,
    device: device(s.device, s.date),
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
 * `visitorsHigh` (whole numbers), `passersBy` and `captureRate` (0…1) are estimates too; the
 * MAC-level counts stay beside them in `macs` ({ visitors, passersBy, uniqueDevices, captureRate })
 * and in `visits`, `uniqueDevices`, new/repeat visitors (universal MACs), staff, stationary, the
 * universal and randomized series. Also visitor dwell (ms, rounded; `null` when there were no
 * visitors) with its buckets — of the identity-known visits (`PeopleEstimate.dwell`) when there is
 * an estimate, else of the visitor sessions (`shopDayDwell`) —, and the visitor RSSI threshold (dBm).
 * `pooledDays` is how many of the shop's days the estimate's burst rate and mean dwell were
 * learned from: 1 for the day alone, more with `poolDays` (`poolPeople`).
 * With `people: false` the estimates are the MAC-level counts. When people were estimated but are
 * unknown (inside bursts and no identity-known visit to learn a burst rate from, `NaN`), `visitors`,
 * `visitorsHigh` and `captureRate` are `null` and `visitorsLow` is the identity-known visitors: a
 * count of MACs is not written where people are unknown.
 *
 * @example
 * for (const d of result.days) out.write(`${JSON.stringify(summaryRecord(d))}\n`);
 */
export function summaryRecord(d: ShopDaySummary): AnalysisRecord {
  // Dwell of people: with an estimate, the identity-known visits' (see shopDayDwell).
  const dwell = shopDayDwell(d.dwell, d.people);
  const people = d.people === undefined ? undefined : peopleFields(d.people);
  return {
    type: "summary",
    shopId: d.shopId,
    date: d.label,
    // People off: the MAC-level count is the only count there is (people unknown stay null).
    visitors: people === undefined ? d.visitors : people.visitors,
    visitorsLow: people === undefined ? d.visitors : people.visitorsLow,
    visitorsHigh: people === undefined ? d.visitors : people.visitorsHigh,
    visits: d.visits,
    passersBy: people === undefined ? d.passersBy : people.passersBy,
    uniqueDevices: d.uniqueDevices,
    captureRate: people === undefined ? d.captureRate : people.captureRate,
    // Days of the shop whose samples the people estimate learned from (`--pool-days`); null without one.
    pooledDays: people === undefined ? null : people.pooledDays,
    // The calibration the people estimate used (id, fit span, warnings); null with the prior or without people.
    calibration: people === undefined ? null : people.calibration,
    macs: { visitors: d.visitors, passersBy: d.passersBy, uniqueDevices: d.uniqueDevices, captureRate: d.captureRate },
    newVisitors: d.newVisitors,
    repeatVisitors: d.repeatVisitors,
    staff: d.staff,
    stationary: d.stationary,
    dwell: {
      count: dwell.count,
      meanMs: roundOrNull(dwell.meanMs),
      medianMs: roundOrNull(dwell.medianMs),
      p90Ms: roundOrNull(dwell.p90Ms),
      buckets: dwell.buckets,
    },
    universal: d.universal,
    randomized: d.randomized,
    visitorRssi: d.visitorRssi,
    peopleSample: people === undefined ? null : people.peopleSample,
  };
}

/**
 * The data of one shop-day's people estimate that pooling its days needs, as the summary line's
 * `peopleSample` carries it: the day's window (epoch ms), its identity-known visitors, the other
 * phones' inside bursts, the unrounded passers-by, and its samples as sums.
 *
 * @example
 * const s = (await analyze(records)).days[0]!.people!;
 * const data: PeopleSampleRecord = { start: s.start, end: s.end, knownVisitors: s.knownVisitors, restBursts: s.restBursts, passersBy: s.passersBy, ...s.sample };
 */
export interface PeopleSampleRecord extends PeopleSample {
  readonly start: number;
  readonly end: number;
  readonly knownVisitors: number;
  readonly restBursts: number;
  /** `null` in a line when unknown (NaN). */
  readonly passersBy: number | null;
  /** The yardstick the day was estimated with (pooling estimates the day again with it). */
  readonly yardstick: BurstYardstick;
}

// A people estimate's fields of the summary line: the one formatting of them, for a day alone and
// for days pooled from stored lines (`poolPeopleRecords`).
function peopleFields(people: PeopleEstimate) {
  const p = hasPeopleEstimate(people) ? people : undefined;
  // Estimated but unknown: bursts were heard inside and no identity-known visit gave a burst rate
  // (a capture of rotating phones only). People are then unknown — null, at least the
  // identity-known visitors, no upper bound — never the MAC-level count in their place.
  const unknown = p === undefined;
  const sample: PeopleSampleRecord = {
    start: people.start,
    end: people.end,
    knownVisitors: people.knownVisitors,
    restBursts: people.restBursts,
    passersBy: Number.isFinite(people.passersBy) ? people.passersBy : null,
    yardstick: people.yardstick,
    ...people.sample,
  };
  return {
    visitors: unknown ? null : Math.round(p.visitors),
    visitorsLow: people.visitorsLow,
    visitorsHigh: unknown ? null : p.visitorsHigh,
    // Likewise passers-by: estimated is the estimate or unknown, never the MAC count.
    passersBy: Number.isFinite(people.passersBy) ? Math.round(people.passersBy) : null,
    captureRate: Number.isFinite(people.captureRate) ? people.captureRate : null,
    pooledDays: people.pooledDays,
    calibration: people.calibration,
    peopleSample: sample,
  };
}

/**
 * `footfall analyze --format ndjson` lines of days analysed one by one — a fleet's stored shop-days
 * — with each shop's days pooled as `analyze(records, { poolDays: true })` pools them
 * ({@link poolPeople}): every `summary` line's people (`visitors`, its interval, `passersBy`,
 * `captureRate`, `pooledDays`) and every `occupancy` line within its day are worked out again
 * from the days' `peopleSample` and the occupancy lines' bursts. Other lines pass unchanged, in
 * order. Summary lines without `peopleSample` (people off, or written before it was added) are
 * left alone and take no part. Figures match the pooled analysis up to the rounding of the
 * stored occupancy lines (0.01 of a phone).
 *
 * @param records lines of several days and shops, any order
 * @param options `level` of the intervals (0.9 by default)
 * @example
 * const lines = [...analysisRecords(await analyze(records))];
 * const pooled = poolPeopleRecords(lines);
 * pooled.filter((l) => l.type === "summary").map((l) => l.pooledDays);
 */
export function poolPeopleRecords(records: readonly AnalysisRecord[], options: Pick<PeopleEstimatorOptions, "level"> = {}): AnalysisRecord[] {
  const occupancyOf = new Map<number, number[]>(); // shop → indices of its occupancy lines
  records.forEach((r, i) => {
    if (r.type !== "occupancy") return;
    const shopId = r["shopId"] as number;
    const list = occupancyOf.get(shopId) ?? [];
    list.push(i);
    occupancyOf.set(shopId, list);
  });
  const estimates: PeopleEstimate[] = [];
  // For estimates[j]: the index of its summary line and of its occupancy lines, in its occupancy's order.
  const lines: { summary: number; occupancy: number[] }[] = [];
  records.forEach((r, index) => {
    const data = r.type === "summary" ? (r["peopleSample"] as PeopleSampleRecord | null | undefined) : undefined;
    if (data === undefined || data === null) return;
    const shopId = r["shopId"] as number;
    const inDay = (occupancyOf.get(shopId) ?? []).filter((i) => (records[i]!["start"] as number) >= data.start && (records[i]!["start"] as number) < data.end);
    const occupancy = inDay.map((i): OccupancyInterval => {
      const o = records[i]!;
      const number = (key: string) => (o[key] === null ? Number.NaN : (o[key] as number));
      return {
        shopId,
        start: o["start"] as number,
        end: o["end"] as number,
        inside: number("inside"),
        insideLow: number("insideLow"),
        insideHigh: number("insideHigh"),
        outside: number("outside"),
        knownInside: number("knownInside"),
        // Lines written before these fields: no universal device told apart.
        universalInside: o["universalInside"] === undefined ? 0 : number("universalInside"),
        universalPersons: o["universalPersons"] === undefined ? 0 : number("universalPersons"),
        insideBursts: number("insideBursts"),
        outsideBursts: number("outsideBursts"),
        calibration: (o["calibration"] ?? null) as CalibrationRef | null,
      };
    });
    estimates.push({
      shopId,
      window: "day",
      label: r["date"] as string,
      start: data.start,
      end: data.end,
      knownVisitors: data.knownVisitors,
      restBursts: data.restBursts,
      passersBy: data.passersBy ?? Number.NaN,
      // A line stores the prior's infinite degrees of freedom as null (JSON has no Infinity).
      yardstick: data.yardstick === undefined ? realPhonesPrior : { ...data.yardstick, df: data.yardstick.df ?? Number.POSITIVE_INFINITY },
      calibration: (r["calibration"] ?? null) as CalibrationRef | null,
      sample: { universal: data.universal, shoppers: data.shoppers },
      pooledDays: r["pooledDays"] as number,
      occupancy,
    } as unknown as PeopleEstimate); // the fields poolPeople reads; the rest it works out again
    lines.push({ summary: index, occupancy: inDay });
  });
  const out = [...records];
  poolPeople(estimates, options).forEach((p, j) => {
    const { summary, occupancy } = lines[j]!;
    out[summary] = { ...records[summary]!, ...peopleFields(p) };
    occupancy.forEach((i, k) => (out[i] = occupancyRecord(p.occupancy[k]!)));
  });
  return out;
}

/**
 * Every NDJSON line of one analysis, in the order `footfall analyze --format ndjson` prints them:
 * sessions, then per shop-day summaries, then per shop and interval `occupancy` lines (none when
 * `people` was false), then one `quality` line (when quality was on). The one formatting of these lines: the CLI
 * prints them and the fleet stores them, so both follow the engine when it changes.
 *
 * Lines are JSON values already (`JSON.stringify` of each is the printed line; NaN becomes null).
 * Session devices go through `options.device` (the MAC by default; the CLI and the fleet pass a
 * keyed pseudonym so no MAC is written).
 *
 * @example
 * const p = new Pseudonymizer({ key: new Uint8Array(16).fill(1) });
 * const lines = [...analysisRecords(await analyze(records), { device: (mac, date) => p.pseudonym(mac, date) })];
 * lines.at(-1)?.type; // "quality"
 */
export function* analysisRecords(result: AnalyzeResult, options: AnalysisRecordsOptions = {}): Iterable<AnalysisRecord> {
  const device = options.device ?? rawDevice;
  if (typeof device !== "function") throw new TypeError("analysisRecords: options.device must be a function");
  const minCount = options.minCount ?? 0;
  if (!Number.isInteger(minCount) || minCount < 0) throw new RangeError(`analysisRecords: minCount must be an integer ≥ 0, got ${String(minCount)}`);
  for (const s of result.sessions) yield sessionRecord(s, device);
  const linked = options.linkedAcrossDays ?? true;
  for (const d of result.days) {
    const line = summaryRecord(d);
    yield suppressSmallCounts(linked ? line : { ...line, newVisitors: null, repeatVisitors: null }, minCount);
  }
  for (const o of result.occupancy) yield suppressSmallCounts(occupancyRecord(o), minCount);
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
    universalInside: round2(o.universalInside),
    universalPersons: round2(o.universalPersons),
    insideBursts: round2(o.insideBursts),
    outsideBursts: round2(o.outsideBursts),
    // Which calibration applied (its id, fit span and warnings), or null for the prior.
    calibration: o.calibration,
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
