import type { PeopleModel } from "./PeopleModel.ts";

/**
 * The format version of a calibration file. Version 3 added the shop's learned `model`; version 2
 * added `settings.visitorRssi`. A version-1 file is read as fitted at the learned (`"auto"`)
 * threshold, and versions 1 and 2 as having no model (one scale). A reader refuses any other.
 */
export const CALIBRATION_VERSION = 3;

/**
 * The analysis settings a calibration was fitted with, which its yardstick holds for: the interval
 * (ms), the time zone, and the visit threshold (dBm, or `"auto"` when it was learned day by day).
 * A burst counts as inside by the threshold, so the yardstick — bursts inside per person — is the
 * threshold's: a shop calibrated at a fixed threshold is classified at it (`VisitClassifierOptions.calibration`).
 *
 * @example
 * const s: CalibrationSettings = { intervalMs: 900_000, timeZone: "Europe/Prague", visitorRssi: -70 };
 */
export interface CalibrationSettings {
  readonly intervalMs: number;
  readonly timeZone: string;
  readonly visitorRssi: number | "auto";
}

/**
 * A shop's people calibration, fitted on counted people (`fitCalibration`): the shop's learned
 * mapping from what was heard to people inside (`model`, from two counted days of intervals on),
 * and the one-scale burst yardstick (bursts heard per person per minute) that stands in when the
 * counts are too few for a model — or are daily entrance counts alone — with their
 * uncertainty, the span and the counts they rest on, and whether the calibration can be trusted.
 * The people estimate uses it for the shop in place of the prior from real phones
 * (`realPhonesPrior`), widened as it ages.
 *
 * @example
 * const c: Calibration = fitCalibration([{ kind: "day", shopId: 61, day: "2024-03-14", start: 0, end: 86_400_000, visitors: 180, knownVisitors: 12, restBursts: 4100, meanDwellMs: 1_500_000, dwellRelVar: 0.02 }], { prior: realPhonesPrior, settings: { intervalMs: 900_000, timeZone: "Europe/Prague" } })[0]!;
 * console.log(c.id, c.burstsPerMinute.toFixed(2), `±${(c.logSe * 100).toFixed(0)} %`, c.trusted ? "trusted" : c.warnings.join("; "));
 */
export interface Calibration {
  /** Stable id of this fit: `cal-<shopId>-<8 hex digits of its content>`; named by every output that used it. */
  readonly id: string;
  /** SHOP ID. */
  readonly shopId: number;
  /** First and last counted moment the fit rests on, epoch ms ([start, end)). */
  readonly start: number;
  readonly end: number;
  /** The fitted yardstick ρ̂: bursts heard inside per person per minute (the counts updating the prior). */
  readonly burstsPerMinute: number;
  /** What the counts alone say of ρ (before the prior): far from `burstsPerMinute` when they are few. */
  readonly countedBurstsPerMinute: number;
  /** Standard error of ln ρ̂ (from the days' spread, random effects). */
  readonly logSe: number;
  /** Spread of ln ρ from one day to the next (τ, random effects): what a new day adds to the error. */
  readonly dayLogSd: number;
  /** Between-person coefficient of variation the fit assumed (the prior's). */
  readonly personCv: number;
  /** The universal-MAC person share the fit assumed (the prior's). */
  readonly universalPersonShare: number;
  /**
   * How much more the counted intervals scatter around the fit than burst counting and the
   * persons' spread explain (≥ 1): the within-day variance of a calibrated estimate is multiplied by it.
   */
  readonly overdispersion: number;
  /** What the fit rests on. */
  readonly counts: {
    /** Counted intervals with people inside used (people > 0, at least half covered). */
    readonly intervals: number;
    /** Daily entrance counts used. */
    readonly dailyCounts: number;
    /** Distinct local days with a count used. */
    readonly days: number;
    /** Counted person-hours inside behind the interval counts. */
    readonly personHours: number;
  };
  /**
   * The shop's people model, learned from its counted intervals (`fitPeopleModel`): what `inside`
   * is with this calibration. `null` when the counts were too few for one (fewer than two counted
   * days of intervals, or daily counts alone): the yardstick stands in (one scale).
   */
  readonly model: PeopleModel | null;
  /** The analysis settings the fit was made with; analysing with others is flagged. */
  readonly settings: CalibrationSettings;
  /** False when the fit rests on too little or cannot be used as it is; `warnings` say why. */
  readonly trusted: boolean;
  /** Why the calibration should not be trusted, or what to keep in mind (empty when none). */
  readonly warnings: readonly string[];
}

/**
 * A calibration file: one calibration per shop, versioned.
 *
 * @example
 * const file: CalibrationFile = { format: "footfall-calibration", version: 3, shops: [] };
 */
export interface CalibrationFile {
  readonly format: "footfall-calibration";
  readonly version: typeof CALIBRATION_VERSION;
  readonly shops: readonly Calibration[];
}

/**
 * What an output line says about the calibration that applied: its id and fit span (ISO 8601),
 * how it estimates (`model`: the shop's learned model; `scale`: the one-scale yardstick), whether
 * it was trusted, and the warnings that applied to this use (its own, and its age).
 *
 * @example
 * const ref: CalibrationRef = { id: "cal-61-0a1b2c3d", start: "2024-03-07T13:00:00.000Z", end: "2024-03-14T19:00:00.000Z", method: "model", trusted: true, warnings: [] };
 */
export interface CalibrationRef {
  readonly id: string;
  readonly start: string;
  readonly end: string;
  readonly method: "model" | "scale";
  readonly trusted: boolean;
  readonly warnings: readonly string[];
}

const FIELDS = ["id", "shopId", "start", "end", "burstsPerMinute", "countedBurstsPerMinute", "logSe", "dayLogSd", "personCv", "universalPersonShare", "overdispersion", "counts", "settings", "trusted", "warnings"] as const;
const MODEL_NUMBERS = ["intercept", "alpha", "offset", "withinVariance", "dayVariance", "df", "days", "intervals", "validationMae"] as const;

// A model as fitPeopleModel writes it (TypeError naming the first field that is not), frozen.
function checkModel(value: unknown, where: string): PeopleModel {
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw new TypeError(`${where}: "model" must be an object or null`);
  const m = value as Record<string, unknown>;
  for (const f of MODEL_NUMBERS) {
    const x = m[f];
    if (typeof x !== "number" || !Number.isFinite(x)) throw new TypeError(`${where}: "model.${f}" must be a finite number, got ${JSON.stringify(x)}`);
  }
  for (const f of ["alpha", "offset", "withinVariance", "dayVariance"] as const) if ((m[f] as number) < 0) throw new TypeError(`${where}: "model.${f}" must be ≥ 0`);
  if (!((m["df"] as number) > 0)) throw new TypeError(`${where}: "model.df" must be > 0`);
  const features = m["features"];
  const coefficients = m["coefficients"];
  if (!Array.isArray(features) || !features.every((f) => typeof f === "string")) throw new TypeError(`${where}: "model.features" must be an array of strings`);
  if (!Array.isArray(coefficients) || coefficients.length !== features.length || !coefficients.every((c) => typeof c === "number" && Number.isFinite(c))) {
    throw new TypeError(`${where}: "model.coefficients" must be ${features.length} finite numbers, one per feature`);
  }
  return Object.freeze({ ...(m as unknown as PeopleModel), features: Object.freeze([...(features as string[])]), coefficients: Object.freeze([...(coefficients as number[])]) });
}

/**
 * Checks that `value` is a {@link Calibration} as `fitCalibration` writes it (TypeError naming the
 * first field that is not), and returns it frozen.
 *
 * @param where the value's place in messages (`calibration 0`, `cal.json: shop 61`)
 * @param version the file's format version (a version-1 calibration has no `settings.visitorRssi`)
 * @example
 * const text = JSON.stringify(fitCalibration([{ kind: "day", shopId: 61, day: "2024-03-14", start: 0, end: 86_400_000, visitors: 180, knownVisitors: 12, restBursts: 4100, meanDwellMs: 1_500_000, dwellRelVar: 0.02 }], { prior: realPhonesPrior, settings: { intervalMs: 900_000, timeZone: "Europe/Prague" } })[0]);
 * checkCalibration(JSON.parse(text), "cal.json: shops[0]").shopId; // 61
 */
export function checkCalibration(value: unknown, where = "calibration", version: number = CALIBRATION_VERSION): Calibration {
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw new TypeError(`${where} must be an object`);
  const c = value as Record<string, unknown>;
  for (const f of FIELDS) if (!(f in c)) throw new TypeError(`${where}: missing field "${f}"`);
  const num = (f: string, min: number, max = Number.POSITIVE_INFINITY): void => {
    const x = c[f];
    if (typeof x !== "number" || !Number.isFinite(x) || x < min || x > max) throw new TypeError(`${where}: "${f}" must be a finite number in [${min}, ${max}], got ${JSON.stringify(x)}`);
  };
  if (typeof c["id"] !== "string" || c["id"] === "") throw new TypeError(`${where}: "id" must be a non-empty string`);
  if (!Number.isInteger(c["shopId"])) throw new TypeError(`${where}: "shopId" must be an integer`);
  num("start", 0);
  num("end", c["start"] as number);
  num("burstsPerMinute", Number.MIN_VALUE);
  num("countedBurstsPerMinute", Number.MIN_VALUE);
  num("logSe", 0);
  num("dayLogSd", 0);
  num("personCv", 0);
  num("universalPersonShare", 0, 1);
  num("overdispersion", 1);
  const counts = c["counts"] as Record<string, unknown> | null;
  if (typeof counts !== "object" || counts === null) throw new TypeError(`${where}: "counts" must be an object`);
  for (const f of ["intervals", "dailyCounts", "days", "personHours"]) {
    if (typeof counts[f] !== "number" || !(counts[f] >= 0)) throw new TypeError(`${where}: "counts.${f}" must be a number ≥ 0`);
  }
  const settings = c["settings"] as Record<string, unknown> | null;
  if (typeof settings !== "object" || settings === null || typeof settings["intervalMs"] !== "number" || typeof settings["timeZone"] !== "string") {
    throw new TypeError(`${where}: "settings" must be { intervalMs, timeZone, visitorRssi }`);
  }
  // Version 1 had no threshold: its yardstick was fitted at the learned one.
  const visitorRssi = settings["visitorRssi"] ?? (version === 1 ? "auto" : undefined);
  if (!(visitorRssi === "auto" || (typeof visitorRssi === "number" && visitorRssi >= -127 && visitorRssi <= 0))) {
    throw new TypeError(`${where}: "settings.visitorRssi" must be "auto" or a number of dBm in [-127, 0], got ${JSON.stringify(visitorRssi)}`);
  }
  // Versions 1 and 2 had no model: one scale.
  const model = version < 3 ? null : c["model"] === null ? null : checkModel(c["model"], where);
  if (version >= 3 && !("model" in c)) throw new TypeError(`${where}: missing field "model"`);
  if (typeof c["trusted"] !== "boolean") throw new TypeError(`${where}: "trusted" must be a boolean`);
  if (!Array.isArray(c["warnings"]) || !c["warnings"].every((w) => typeof w === "string")) throw new TypeError(`${where}: "warnings" must be an array of strings`);
  return Object.freeze({ ...(c as unknown as Calibration), model, settings: Object.freeze({ intervalMs: settings["intervalMs"], timeZone: settings["timeZone"], visitorRssi }) });
}

/**
 * The calibrations of a {@link CalibrationFile} or a list, by SHOP ID, each checked
 * ({@link checkCalibration}); a file of another format or version, or two calibrations of one
 * shop, are a TypeError/RangeError.
 *
 * @example
 * calibrationsByShop({ format: "footfall-calibration", version: 1, shops: [] }).size; // 0
 */
export function calibrationsByShop(value: CalibrationFile | readonly Calibration[] | undefined): ReadonlyMap<number, Calibration> {
  const out = new Map<number, Calibration>();
  if (value === undefined) return out;
  let list: readonly unknown[];
  let version: number = CALIBRATION_VERSION;
  if (Array.isArray(value)) list = value;
  else {
    const file = value as unknown as Record<string, unknown> | null;
    if (typeof file !== "object" || file === null) throw new TypeError("calibration must be a calibration file or a list of calibrations");
    if (file["format"] !== "footfall-calibration") throw new TypeError(`calibration: not a footfall calibration file (format ${JSON.stringify(file["format"])})`);
    if (file["version"] !== CALIBRATION_VERSION && file["version"] !== 1 && file["version"] !== 2) {
      throw new RangeError(`calibration: version ${JSON.stringify(file["version"])} is not supported (this footfall reads versions 1 to ${CALIBRATION_VERSION})`);
    }
    version = file["version"];
    if (!Array.isArray(file["shops"])) throw new TypeError("calibration: \"shops\" must be an array");
    list = file["shops"];
  }
  list.forEach((entry, i) => {
    const c = checkCalibration(entry, `calibration ${i}`, version);
    if (out.has(c.shopId)) throw new RangeError(`calibration: shop ${c.shopId} is calibrated twice`);
    out.set(c.shopId, c);
  });
  return out;
}
