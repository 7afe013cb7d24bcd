import { DEFAULT_TIME_ZONE } from "../time/timeZone.ts";
import { analyze, type AnalyzeOptions } from "./analyze.ts";
import { burstYardstick } from "../kernels/calibration/burstYardstick.ts";
import { CALIBRATION_VERSION, type Calibration, type CalibrationFile } from "../kernels/calibration/Calibration.ts";
import { fitCalibration, type CalibrationObservation, type FitCalibrationOptions } from "../kernels/calibration/fitCalibration.ts";
import { defaultPeopleEstimator } from "../kernels/people/peopleEstimatorOptions.ts";
import type { PeopleEstimate } from "../kernels/people/PeopleEstimate.ts";
import type { CountedTruth } from "../truth/CountedTruth.ts";
import { truthInside } from "./truthInside.ts";

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
  /** Half-life of a counted day's weight in the shop's model, days before the newest counted day (`FitCalibrationOptions.halfLifeDays`). @default 30 */
  readonly halfLifeDays?: number;
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
 * Fits a people calibration per shop from signal records and counted people — the one fit
 * `footfall calibrate`, a fleet and the demo use too: analyses the records as installed (the
 * prior from real phones; at the fixed `classify.visitorRssi` when one is given, which the
 * calibration records and pins), pairs every analysed interval that the counted segments cover
 * (at least `minCoverage` of it) and every analysed day with an entrance count with the
 * estimate's figures, and fits ({@link calibrationFromEstimates}): the shop's model of people
 * inside from its intervals' features, from two counted days on, and the one-scale burst
 * yardstick that stands in with fewer counts. Use the result with
 * `analyze(records, { calibration })`, `footfall analyze --calibration FILE`, the people and
 * occupancy operators, or a fleet (`footfall fleet calibration set`).
 *
 * @param records raw signal records or decoded signals of the counted days (any shops)
 * @param truth counted people (`readTruth`, `parseTruth`)
 * @param options the analysis settings (use the same when analysing with the calibration)
 * @throws RangeError when no shop's counts overlap the analysed days
 * @example
 * const world = createWorld({ seed: 3, shops: 1, phones: "real", visitorsPerDay: 150 });
 * const shop = world.shops[0]!;
 * const truth = parseTruth(countedTruthCsv(world, shop.id, world.startMs, world.endMs, { shape: "inside" }), "door.csv");
 * const { file } = await calibrate(world.rawSignals(shop.id), truth, { timeZone: shop.timeZone });
 * const { people } = await analyze(world.rawSignals(shop.id), { timeZone: shop.timeZone, calibration: file });
 * people[0]?.calibration?.id === file.shops[0]?.id; // true
 */
export async function calibrate(records: Iterable<unknown> | AsyncIterable<unknown>, truth: CountedTruth, options: CalibrateOptions = {}): Promise<CalibrationFit> {
  const { minCoverage = 0.5, halfLifeDays, ...analyzeOptions } = options;
  if (typeof minCoverage !== "number" || !(minCoverage > 0 && minCoverage <= 1)) throw new RangeError(`minCoverage must be in (0, 1], got ${String(minCoverage)}`);
  if (analyzeOptions.people === false) throw new RangeError("calibrate: people must not be false (the calibration is of the people estimate)");
  const result = await analyze(records, { ...analyzeOptions, proximity: false, quality: false, hourly: false });
  return calibrationFromEstimates(result.people, truth, { ...calibrationSettings(analyzeOptions), minCoverage, ...(halfLifeDays === undefined ? {} : { halfLifeDays }) });
}

/**
 * What a calibration records of the analysis it was fitted on, from the analysis options: the
 * prior, the interval, the time zone and the visit threshold (a fixed one, else `"auto"`). The
 * one place `calibrate` and `footfall calibrate` take them from.
 *
 * @example
 * calibrationSettings({ timeZone: "Europe/Prague", classify: { visitorRssi: -70 } }).settings.visitorRssi; // -70
 */
export function calibrationSettings(options: Pick<AnalyzeOptions, "people" | "timeZone" | "classify">): FitCalibrationOptions {
  const people = options.people === false || options.people === undefined ? {} : options.people;
  const fixed = options.classify?.visitorRssi;
  return {
    prior: burstYardstick(people.prior),
    settings: { intervalMs: people.intervalMs ?? defaultPeopleEstimator.intervalMs, timeZone: options.timeZone ?? DEFAULT_TIME_ZONE, visitorRssi: typeof fixed === "number" ? fixed : "auto" },
  };
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
      observations.push({ kind: "interval", shopId: p.shopId, day: p.label, start: o.start, end: o.end, people: counted.people, knownInside: o.knownInside, insideBursts: o.insideBursts, features: o.features });
    }
    const daily = dailyByKey.get(`${p.shopId} ${p.label}`);
    if (daily !== undefined) {
      matched.add(p.shopId);
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
        dwellRelVar: p.dwellRelVar,
      });
    }
  }
  const truthShops = new Set([...truth.segments.map((s) => s.shopId), ...truth.daily.map((d) => d.shopId)]);
  const shopsWithoutOverlap = [...truthShops].filter((s) => !matched.has(s)).sort((a, b) => a - b);
  if (matched.size === 0 && !options.allowNoOverlap) {
    throw new RangeError(`calibrate: the counts overlap none of the analysed shop-days (shops in the counts: ${[...truthShops].sort((a, b) => a - b).join(", ") || "none"}; analysed: ${[...new Set(estimates.map((p) => `${p.shopId} ${p.label}`))].slice(0, 5).join(", ") || "nothing"})`);
  }
  const calibrations = fitCalibration(observations, options);
  return {
    file: { format: "footfall-calibration", version: CALIBRATION_VERSION, shops: calibrations },
    calibrations,
    shopsWithoutOverlap,
    unknownRows: truth.unknownRows,
  };
}
