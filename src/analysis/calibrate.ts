import { DEFAULT_TIME_ZONE } from "../time/timeZone.ts";
import { analyze, type AnalyzeOptions } from "./analyze.ts";
import { burstYardstick } from "../kernels/calibration/burstYardstick.ts";
import { CALIBRATION_VERSION, type Calibration, type CalibrationFile } from "../kernels/calibration/Calibration.ts";
import { fitCalibration, MIN_TRUSTED_INTERVALS, type CalibrationObservation, type FitCalibrationOptions } from "../kernels/calibration/fitCalibration.ts";
import { defaultPeopleEstimator } from "../kernels/people/peopleEstimatorOptions.ts";
import { withCalibration } from "../kernels/people/withCalibration.ts";
import type { PeopleEstimate } from "../kernels/people/PeopleEstimate.ts";
import { rateModels } from "../kernels/people/rateModel.ts";
import type { CountedTruth } from "../truth/CountedTruth.ts";
import { truthInside } from "../truth/truthInside.ts";

/**
 * Options of {@link calibrate}: the analysis options the calibration will be used with (time
 * zone, interval, classification, the prior), and how much of an interval the counts must cover.
 *
 * @example
 * const options: CalibrateOptions = { timeZone: "Europe/Prague", minCoverage: 0.5 };
 */
export interface CalibrateOptions extends Omit<AnalyzeOptions, "calibration" | "poolDays" | "liveOccupancy" | "accumulators"> {
  /**
   * Least share of an interval the counted segments must cover for the interval to be used
   * (0 < x ≤ 1): the count is the time-weighted mean over the covered part.
   * @default 0.5
   */
  readonly minCoverage?: number;
}

/**
 * What {@link calibrate} fitted, and what it could not use.
 *
 * @example
 * const world = createWorld({ seed: 3, shops: 1, phones: "real", visitorsPerDay: 150 });
 * const shop = world.shops[0]!;
 * const truth = parseTruth(countedTruthCsv(world, shop.id, world.startMs, world.endMs, { shape: "inside" }), "door.csv");
 * const fit: CalibrationFit = await calibrate(world.rawSignals(shop.id), truth, { timeZone: shop.timeZone });
 * fit.calibrations.length; // 1
 */
export interface CalibrationFit {
  /** The calibration file to write: one calibration per shop that had a usable count. */
  readonly file: CalibrationFile;
  /** The same calibrations, by SHOP ID ascending. */
  readonly calibrations: readonly Calibration[];
  /** Shops in the truth with no overlap with the signals' days (no counted interval or day was analysed). */
  readonly shopsWithoutOverlap: readonly number[];
  /** Truth rows whose count was unknown (`NaN` or empty), skipped when the truth was read. */
  readonly unknownRows: number;
}

/**
 * The visit thresholds {@link calibrate} tries when the threshold is learned (`"auto"`), dBm:
 * every 5 dB from −50 (a sensor beside the counter) to −90 (an ESP32's floor). 5 dB is about
 * one reading's noise; a finer grid would fit the counts' noise.
 *
 * @example
 * CALIBRATION_THRESHOLDS.length; // 9
 */
export const CALIBRATION_THRESHOLDS: readonly number[] = Object.freeze([-50, -55, -60, -65, -70, -75, -80, -85, -90]);

/**
 * Fits a people calibration per shop from signal records and counted people: analyses the
 * records as installed (the prior from real phones) at each visit threshold of
 * `CALIBRATION_THRESHOLDS` (or at the fixed `classify.visitorRssi` given), pairs every
 * analysed interval that the counted segments cover (at least `minCoverage` of it) and every
 * analysed day with an entrance count with the estimate's figures, fits the burst yardstick
 * (`fitCalibration`) at each, and keeps per shop the threshold whose calibrated estimate errs
 * least on the counts (`calibrationFromCandidates`). The calibration pins that threshold:
 * a threshold learned day by day moves with the day's crowd (−79 to −87 dBm on three Brno lab
 * days), and with it the bursts counted inside, so a yardstick fitted on some days would not hold
 * on others (docs/people.md). Use the
 * result with `analyze(records, { calibration })`, `footfall analyze --calibration FILE`, the
 * people and occupancy operators, or a fleet (`footfall fleet calibration set`).
 *
 * @param records raw signal records or decoded signals of the counted days (any shops)
 * @param truth counted people (`readTruth`, `parseTruth`)
 * @param options the analysis settings (use the same when analysing with the calibration)
 * @throws RangeError when no shop's counts overlap the analysed days (see `allowNoOverlap`)
 * @example
 * const world = createWorld({ seed: 3, shops: 1, phones: "real", visitorsPerDay: 150 });
 * const shop = world.shops[0]!;
 * const truth = parseTruth(countedTruthCsv(world, shop.id, world.startMs, world.endMs, { shape: "inside" }), "door.csv");
 * const { file } = await calibrate(world.rawSignals(shop.id), truth, { timeZone: shop.timeZone });
 * const { people } = await analyze(world.rawSignals(shop.id), { timeZone: shop.timeZone, calibration: file });
 * people[0]?.calibration?.id === file.shops[0]?.id; // true
 */
export async function calibrate(records: Iterable<unknown> | AsyncIterable<unknown>, truth: CountedTruth, options: CalibrateOptions = {}): Promise<CalibrationFit> {
  const { minCoverage = 0.5, ...analyzeOptions } = options;
  if (typeof minCoverage !== "number" || !(minCoverage > 0 && minCoverage <= 1)) throw new RangeError(`minCoverage must be in (0, 1], got ${String(minCoverage)}`);
  if (analyzeOptions.people === false) throw new RangeError("calibrate: people must not be false (the calibration is of the people estimate)");
  const fixed = analyzeOptions.classify?.visitorRssi;
  const thresholds = typeof fixed === "number" ? [fixed] : CALIBRATION_THRESHOLDS;
  // Every threshold analyses the same records: keep them (the counted days of a few shops).
  const input = thresholds.length === 1 ? records : await toArray(records);
  const people = analyzeOptions.people ?? {};
  const settings = { intervalMs: people.intervalMs ?? defaultPeopleEstimator.intervalMs, timeZone: analyzeOptions.timeZone ?? DEFAULT_TIME_ZONE };
  const fitOptions = { prior: burstYardstick(people.prior), settings, minCoverage };
  const candidates: ThresholdCandidate[] = [];
  for (const visitorRssi of thresholds) {
    const result = await analyze(input, { ...analyzeOptions, classify: { ...analyzeOptions.classify, visitorRssi }, proximity: false, quality: false, hourly: false });
    // Counts that overlap nothing are an error at once, not after every threshold.
    if (candidates.length === 0) calibrationFromEstimates(result.people, truth, fitOptions);
    candidates.push({ visitorRssi, estimates: result.people });
  }
  return calibrationFromCandidates(candidates, truth, fitOptions);
}

async function toArray(records: Iterable<unknown> | AsyncIterable<unknown>): Promise<unknown[]> {
  const out: unknown[] = [];
  for await (const r of records) out.push(r);
  return out;
}

/**
 * The estimates of the counted days made at one fixed visit threshold (dBm), with the prior.
 *
 * @example
 * const c: ThresholdCandidate = { visitorRssi: -70, estimates: (await analyze(records, { classify: { visitorRssi: -70 } })).people };
 */
export interface ThresholdCandidate {
  readonly visitorRssi: number;
  readonly estimates: readonly PeopleEstimate[];
}

/**
 * The threshold choice of {@link calibrate} on estimates already made at each candidate threshold:
 * fits a calibration per shop at each ({@link calibrationFromEstimates}), estimates the counted
 * days again with it (`withCalibration`), and keeps per shop the candidate that errs least — the
 * mean absolute error over the counted intervals with people inside when the shop has at least
 * `MIN_TRUSTED_INTERVALS` of them, else the mean relative error of the daily visitors. Ties keep
 * the stronger threshold. The shops without overlap, and the unknown rows, are the candidates'.
 *
 * @example
 * const world = createWorld({ seed: 3, shops: 1, phones: "real", visitorsPerDay: 150 });
 * const shop = world.shops[0]!;
 * const truth = parseTruth(countedTruthCsv(world, shop.id, world.startMs, world.endMs, { shape: "inside" }), "door.csv");
 * const candidates = [];
 * for (const visitorRssi of [-60, -70]) candidates.push({ visitorRssi, estimates: (await analyze(world.rawSignals(shop.id), { timeZone: shop.timeZone, classify: { visitorRssi } })).people });
 * const fit = calibrationFromCandidates(candidates, truth, { prior: realPhonesPrior, settings: { intervalMs: 900_000, timeZone: shop.timeZone }, minCoverage: 0.5 });
 * fit.calibrations[0]?.settings.visitorRssi; // -60 or -70, whichever fits the door count better
 */
export function calibrationFromCandidates(candidates: readonly ThresholdCandidate[], truth: CountedTruth, options: CalibrationFromEstimatesOptions): CalibrationFit {
  if (candidates.length === 0) throw new RangeError("calibrationFromCandidates: no candidate threshold");
  const best = new Map<number, { error: number; calibration: Calibration }>();
  let fits: CalibrationFit | undefined;
  for (const { visitorRssi, estimates } of candidates) {
    const fit = calibrationFromEstimates(estimates, truth, { ...options, settings: { ...options.settings, visitorRssi }, allowNoOverlap: true });
    fits ??= fit;
    for (const c of fit.calibrations) {
      const error = inSampleError(withCalibration(estimates.filter((p) => p.shopId === c.shopId), [c], { intervalMs: options.settings.intervalMs, timeZone: options.settings.timeZone }), truth, options.minCoverage);
      const held = best.get(c.shopId);
      if (held === undefined || error < held.error) best.set(c.shopId, { error, calibration: c });
    }
  }
  const calibrations = [...best.values()].map((b) => b.calibration).sort((a, b) => a.shopId - b.shopId);
  if (calibrations.length === 0 && !options.allowNoOverlap) calibrationFromEstimates(candidates[0]!.estimates, truth, options); // throws: nothing overlaps
  return {
    file: { format: "footfall-calibration", version: CALIBRATION_VERSION, shops: calibrations },
    calibrations,
    shopsWithoutOverlap: fits!.shopsWithoutOverlap,
    unknownRows: truth.unknownRows,
  };
}

// How far a shop's calibrated estimates are from its counts: the mean absolute error over the
// counted intervals with people inside (the measure the calibration is for), or with too few of
// those, the mean relative error of the counted days' visitors.
function inSampleError(estimates: readonly PeopleEstimate[], truth: CountedTruth, minCoverage: number): number {
  let intervalError = 0;
  let intervals = 0;
  for (const p of estimates) {
    for (const o of p.occupancy) {
      const counted = truthInside(truth.segments, p.shopId, o.start, o.end);
      if (!(counted.coveredMs >= minCoverage * (o.end - o.start)) || !(counted.people > 0)) continue;
      intervalError += Math.abs(o.inside - counted.people);
      intervals++;
    }
  }
  if (intervals >= MIN_TRUSTED_INTERVALS) return intervalError / intervals;
  const daily = new Map(truth.daily.map((d) => [`${d.shopId} ${d.date}`, d.visitors]));
  let dayError = 0;
  let days = 0;
  for (const p of estimates) {
    const counted = daily.get(`${p.shopId} ${p.label}`);
    if (counted === undefined || !(counted > 0)) continue;
    dayError += Math.abs((Number.isFinite(p.visitors) ? p.visitors : 0) - counted) / counted;
    days++;
  }
  return days > 0 ? dayError / days : intervals > 0 ? intervalError / intervals : Number.POSITIVE_INFINITY;
}

/**
 * Options of {@link calibrationFromEstimates}: the fit's (`prior`, `settings`), the least coverage
 * of a counted interval, and whether no overlap at all is an answer rather than an error.
 *
 * @example
 * const o: CalibrationFromEstimatesOptions = { prior: realPhonesPrior, settings: { intervalMs: 900_000, timeZone: "Europe/Prague" }, minCoverage: 0.5 };
 */
export interface CalibrationFromEstimatesOptions extends FitCalibrationOptions {
  /** Least share of an interval the counted segments must cover (0 < x ≤ 1). */
  readonly minCoverage: number;
  /** Return an empty fit (every counted shop in `shopsWithoutOverlap`) instead of throwing when nothing overlaps. @default false */
  readonly allowNoOverlap?: boolean;
}

/**
 * The pairing and fit of {@link calibrate} on people estimates already made (with the prior):
 * for callers that analysed the counted days themselves.
 *
 * @example
 * const world = createWorld({ seed: 3, shops: 1, phones: "real", visitorsPerDay: 150 });
 * const shop = world.shops[0]!;
 * const truth = parseTruth(countedTruthCsv(world, shop.id, world.startMs, world.endMs, { shape: "inside" }), "door.csv");
 * const { people } = await analyze(world.rawSignals(shop.id), { timeZone: shop.timeZone });
 * const fit = calibrationFromEstimates(people, truth, { prior: realPhonesPrior, settings: { intervalMs: 900_000, timeZone: shop.timeZone }, minCoverage: 0.5 });
 * fit.shopsWithoutOverlap; // []
 */
export function calibrationFromEstimates(estimates: readonly PeopleEstimate[], truth: CountedTruth, options: CalibrationFromEstimatesOptions): CalibrationFit {
  const observations: CalibrationObservation[] = [];
  const dailyByKey = new Map(truth.daily.map((d) => [`${d.shopId} ${d.date}`, d]));
  const matched = new Set<number>();
  for (const p of estimates) {
    if (p.calibration !== null) throw new RangeError(`calibrate: the estimate of shop ${p.shopId} on ${p.label} was made with calibration ${p.calibration.id}; calibrate on estimates made with the prior`);
    for (const o of p.occupancy) {
      const len = o.end - o.start;
      const counted = truthInside(truth.segments, p.shopId, o.start, o.end);
      if (!(counted.coveredMs >= options.minCoverage * len)) continue;
      matched.add(p.shopId);
      observations.push({ kind: "interval", shopId: p.shopId, day: p.label, start: o.start, end: o.end, people: counted.people, knownInside: o.knownInside, insideBursts: o.insideBursts });
    }
    const daily = dailyByKey.get(`${p.shopId} ${p.label}`);
    if (daily !== undefined) {
      matched.add(p.shopId);
      const sample = p.sample.universal.visits >= 10 ? p.sample.universal : p.sample.shoppers;
      const model = rateModels([sample])[0]!;
      observations.push({
        kind: "day",
        shopId: p.shopId,
        day: p.label,
        start: p.start,
        end: p.end,
        visitors: daily.visitors,
        knownVisitors: p.knownVisitors,
        restBursts: p.restBursts,
        meanDwellMs: p.meanDwellMs,
        dwellRelVar: model.dwellRelVar,
      });
    }
  }
  const truthShops = new Set([...truth.segments.map((s) => s.shopId), ...truth.daily.map((d) => d.shopId)]);
  const shopsWithoutOverlap = [...truthShops].filter((s) => !matched.has(s)).sort((a, b) => a - b);
  if (matched.size === 0 && !options.allowNoOverlap) {
    throw new RangeError(`calibrate: the counts overlap none of the analysed shop-days (shops in the counts: ${[...truthShops].sort((a, b) => a - b).join(", ") || "none"}; analysed: ${[...new Set(estimates.map((p) => `${p.shopId} ${p.label}`))].slice(0, 5).join(", ") || "nothing"})`);
  }
  const calibrations = fitCalibration(observations, { prior: options.prior, settings: options.settings });
  return {
    file: { format: "footfall-calibration", version: CALIBRATION_VERSION, shops: calibrations },
    calibrations,
    shopsWithoutOverlap,
    unknownRows: truth.unknownRows,
  };
}
