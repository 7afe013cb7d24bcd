import { checkNumberOption } from "../../options/checkNumberOption.ts";
import { pathLossOptions, type PathLossModel, type PathLossOptions } from "./pathLoss.ts";
import { proximityZoneOptions, type ProximityZoneOptions, type ResolvedProximityZoneOptions } from "./proximityZone.ts";

/**
 * Path-loss calibration: one model for every sensor, optionally overridden per sensor MAC
 * (e.g. with the result of `fitPathLoss` for that sensor).
 *
 * @example
 * const calibration: ProximityCalibration = {
 *   default: { rssiAt1m: -45, exponent: 2.7 },
 *   sensors: { "b8:27:eb:00:00:01": { rssiAt1m: -41, exponent: 3.1 } },
 * };
 */
export interface ProximityCalibration {
  /** Model of sensors not listed in `sensors`. @default defaultPathLoss (−45 dBm at 1 m, n = 2.7) */
  readonly default?: PathLossOptions;
  /** Per-sensor models keyed by sensor MAC (any case; normalised to lowercase). @default none */
  readonly sensors?: ReadonlyMap<string, PathLossOptions> | Readonly<Record<string, PathLossOptions>>;
}

/**
 * Proximity options of the `EventTimeEngine` (its `proximity` option).
 *
 * @example
 * const proximity: ProximityOptions = { sliceMs: 5_000, calibration: { default: { rssiAt1m: -43, exponent: 2.5 } } };
 */
export interface ProximityOptions {
  /** Path-loss models. @default every sensor uses defaultPathLoss */
  readonly calibration?: ProximityCalibration;
  /** Zone bounds, m. @default defaultProximityZones (1 m, 4 m) */
  readonly zones?: ProximityZoneOptions;
  /**
   * Time slice, ms of event time, aligned to multiples of it since the epoch. Phones probe in
   * bursts every few seconds to a minute; 10 s is short enough to see a walk past a display
   * and long enough that a burst lands in one slice.
   * @default 10_000
   */
  readonly sliceMs?: number;
  /**
   * A sensor competes for "nearest" in a slice only if it heard the device within this many ms
   * of the slice end; older smoothed values describe where the device was, not where it is.
   * At least `sliceMs`.
   * @default 30_000
   */
  readonly sensorStaleMs?: number;
  /** Most timeline entries kept per session. @default 64 */
  readonly timelineLimit?: number;
  /**
   * Whether each session's time per zone is kept: `zoneMs`, `zoneMsBySensor` and the timeline of
   * nearest-sensor changes, which every slice's nearest sensor and zone are followed for. Off, the
   * slices find the closest approach only (`closestDistanceM`, `closestZone` and the rest of it,
   * as with it on); `zoneMs` is NaN in each zone, `zoneMsBySensor` and `timeline` are empty. That
   * is ~10 % of the CPU of a big shop-day's analysis, for figures no `analyze` line shows (see
   * `recordsProximity`).
   * @default true
   */
  readonly zoneTimes?: boolean;
}

/** {@link ProximityOptions} resolved: numbers checked, models built. */
export interface ResolvedProximityOptions {
  readonly sliceMs: number;
  readonly sensorStaleMs: number;
  readonly timelineLimit: number;
  readonly zoneTimes: boolean;
  readonly zones: ResolvedProximityZoneOptions;
  readonly defaultModel: PathLossModel;
  readonly models: ReadonlyMap<string, PathLossModel>;
}

/**
 * Defaults of {@link ProximityOptions} but the models and zones (also part of `defaultEventTimeEngine`,
 * which is where the public API shows them).
 *
 * @example
 * defaultProximity.sliceMs; // 10000
 */
export const defaultProximity = Object.freeze({
  sliceMs: 10_000,
  sensorStaleMs: 30_000,
  timelineLimit: 64,
  zoneTimes: true,
});

/**
 * Validates {@link ProximityOptions} eagerly (TypeError/RangeError), fills in defaults and builds
 * the path-loss models (per-sensor ones over the default, keyed by lowercase MAC).
 *
 * @example
 * proximityOptions({ sliceMs: 5_000 }).sensorStaleMs; // 30000
 */
export function proximityOptions(options: ProximityOptions): ResolvedProximityOptions {
  if (typeof options !== "object" || options === null) throw new TypeError("proximity must be an object or false");
  const d = defaultProximity;
  const sliceMs = checkNumberOption("sliceMs", options.sliceMs ?? d.sliceMs, { min: 1, integer: true, unit: "ms" });
  const sensorStaleMs = checkNumberOption("sensorStaleMs", options.sensorStaleMs ?? d.sensorStaleMs, { min: 0, unit: "ms" });
  if (sensorStaleMs < sliceMs) throw new RangeError(`sensorStaleMs (${sensorStaleMs}) must be ≥ sliceMs (${sliceMs})`);
  const timelineLimit = checkNumberOption("timelineLimit", options.timelineLimit ?? d.timelineLimit, { min: 0, integer: true });
  const zoneTimes = options.zoneTimes ?? d.zoneTimes;
  if (typeof zoneTimes !== "boolean") throw new TypeError(`zoneTimes must be a boolean, got ${typeof zoneTimes}`);
  const defaultModel = pathLossOptions(options.calibration?.default);
  const models = new Map<string, PathLossModel>();
  const sensors = options.calibration?.sensors;
  if (sensors !== undefined) {
    const entries = sensors instanceof Map ? sensors.entries() : Object.entries(sensors);
    for (const [mac, model] of entries as Iterable<[string, PathLossOptions]>) {
      models.set(mac.toLowerCase(), pathLossOptions({ ...options.calibration?.default, ...model }));
    }
  }
  return Object.freeze({ sliceMs, sensorStaleMs, timelineLimit, zoneTimes, zones: proximityZoneOptions(options.zones), defaultModel, models });
}
