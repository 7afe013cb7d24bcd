import type { AnalyzeOptions, AnalyzeResult } from "./analyze.ts";
import { realPhonesPrior } from "../kernels/calibration/burstYardstick.ts";
import type { CalibrationRef } from "../kernels/calibration/Calibration.ts";
import { poolPeople } from "../kernels/people/poolPeople.ts";
import type { OccupancyInterval, PeopleEstimate } from "../kernels/people/PeopleEstimate.ts";
import type { PeopleEstimatorOptions } from "../kernels/people/peopleEstimatorOptions.ts";
import type { ProximityOptions } from "../kernels/proximity/proximityOptions.ts";
import { rawDevice, type AnalysisRecord, type DeviceId } from "./AnalysisRecord.ts";
import { ANALYSIS_LINES, type LineWriting } from "./analysisLines.ts";
import { occupancyRecord } from "./occupancyRecord.ts";
import { suppressSmallCounts } from "./suppressSmallCounts.ts";
import { peopleFields, type PeopleSampleRecord } from "./summaryRecord.ts";

/**
 * The proximity options of an analysis whose output is {@link analysisRecords} (`footfall
 * analyze`, a fleet shop-day job): a session line shows the closest approach, never the time per
 * zone, the zones by nearest sensor or the nearest-sensor timeline, so none of them is kept
 * (`zoneTimes: false`, `timelineLimit: 0`). Following every slice's nearest sensor and zone for
 * them was ~10 % of a big shop-day's CPU, and such an analysis holds every session until its input
 * is read (a timeline was about a quarter of a held session's memory: 1 336 → 1 051 bytes).
 *
 * @example
 * recordsProximity.zoneTimes; // false
 * const result = await analyze(records, { proximity: recordsProximity });
 */
export const recordsProximity: ProximityOptions = Object.freeze({ timelineLimit: 0, zoneTimes: false });

/**
 * The options of an analysis whose output is {@link analysisRecords} (`footfall analyze` and
 * `calibrate`, a fleet shop-day job) that leave out what no line shows: proximity as
 * {@link recordsProximity}, and no hourly counts (the lines are per session, day and interval;
 * the hours' counters cost ~3 % of a big shop-day's CPU).
 *
 * @example
 * recordsAnalysis.hourly; // false
 * const result = await analyze(records, { timeZone: "Asia/Seoul", ...recordsAnalysis });
 * result.hours.length; // 0
 */
export const recordsAnalysis: Pick<AnalyzeOptions, "proximity" | "hourly"> = Object.freeze({ proximity: recordsProximity, hourly: false });

/** Options of `analysisRecords`, the writer of the NDJSON lines (internal). */
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
  /** Whether the session lines are written (`false`: written already, as decode threads write them beside the analysis). @default true */
  readonly sessionLines?: boolean;
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
        // Lines do not carry the features: a day a shop's model estimated keeps its intervals
        // when pooled, and the others need none.
        features: [],
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
  const writing: LineWriting = { device, linkedAcrossDays: options.linkedAcrossDays ?? true };
  const sessions = options.sessionLines ?? true;
  for (const line of ANALYSIS_LINES) {
    if (!sessions && line.type === "session") continue;
    for (const item of line.items(result)) yield suppressSmallCounts(line.write(item as never, writing, result), minCount);
  }
}

