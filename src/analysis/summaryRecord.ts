import type { ShopDaySummary } from "./analyze.ts";
import type { BurstYardstick } from "../kernels/calibration/burstYardstick.ts";
import { hasPeopleEstimate } from "../kernels/people/hasPeopleEstimate.ts";
import type { PeopleEstimate, PeopleSample } from "../kernels/people/PeopleEstimate.ts";
import { shopDayDwell } from "../kernels/people/shopDayDwell.ts";
import type { AnalysisRecord } from "./AnalysisRecord.ts";

/**
 * One shop and local day as the `summary` line of `footfall analyze --format ndjson`. People, not
 * MACs: `visitors` is the estimate of people (rounded) with its 90 % interval `visitorsLow` …
 * `visitorsHigh` (whole numbers), `passersBy` and `captureRate` (0…1) are estimates too; the
 * MAC-level counts stay beside them in `macs` ({ visitors, passersBy, uniqueDevices, captureRate })
 * and in `visits`, `uniqueDevices`, new/repeat visitors (universal MACs), staff, stationary, the
 * universal and randomized series. Also visitor dwell (ms, rounded; `null` when there were no
 * visitors) with its buckets — of the identity-known visits (`PeopleEstimate.dwell`) when there is
 * an estimate, else of the visitor sessions (`shopDayDwell`) —, and the visitor RSSI threshold (dBm).
 * `pooledDays` is how many of the shop's days the estimate's mean stay was learned from: 1 for
 * the day alone, more with `poolDays` (`poolPeople`; the burst yardstick is the day's own).
 * `calibration` names the calibration the estimate used (`null` for the prior).
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

/**
 * A people estimate's fields of the summary line: the one formatting of them, for a day alone
 * ({@link summaryRecord}) and for days pooled from stored lines (`poolPeopleRecords`).
 *
 * @example
 * const d = (await analyze(records)).days[0]!;
 * peopleFields(d.people!).visitors === summaryRecord(d).visitors; // true
 */
export function peopleFields(people: PeopleEstimate) {
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

function roundOrNull(x: number): number | null {
  return Number.isFinite(x) ? Math.round(x) : null;
}
