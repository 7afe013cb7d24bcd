/**
 * Parameters of the log-distance path-loss model of one sensor:
 * `rssi(d) = rssiAt1m − 10 · exponent · log10(d / 1 m)`.
 *
 * @example
 * const model = pathLossOptions({ rssiAt1m: -42, exponent: 3 });
 */
export interface PathLossOptions {
  /**
   * Expected RSSI (dBm) of a phone 1 m from the sensor. Phones probe at roughly +15 dBm EIRP;
   * free-space loss at 1 m and 2.4 GHz is 40 dB, and a hand or body plus antenna orientation
   * cost another 10–25 dB, so measured values cluster around −40 … −50 dBm; −45 sits in the middle.
   * @default -45
   */
  readonly rssiAt1m?: number;
  /**
   * Path-loss exponent n (dimensionless): 2 in free space, 2.5–3.5 indoors with shelving and
   * people in the way; 2.7 is a middle value for an open-plan shop floor. Fit it per shop with
   * {@link fitPathLoss} when survey samples exist.
   * @default 2.7
   */
  readonly exponent?: number;
}

/** {@link PathLossOptions} with every field present: what the conversions read. */
export type PathLossModel = Readonly<Required<PathLossOptions>>;

/**
 * Defaults of {@link PathLossOptions}.
 *
 * @example
 * defaultPathLoss.exponent; // 2.7
 */
export const defaultPathLoss: PathLossModel = Object.freeze({ rssiAt1m: -45, exponent: 2.7 });

/**
 * Validates a model once and fills in defaults. Throws RangeError for a non-finite rssiAt1m or
 * an exponent outside (0, 10].
 *
 * @example
 * pathLossOptions({ exponent: 2 }); // { rssiAt1m: -45, exponent: 2 }
 */
export function pathLossOptions(options: PathLossOptions = {}): PathLossModel {
  const rssiAt1m = options.rssiAt1m ?? defaultPathLoss.rssiAt1m;
  const exponent = options.exponent ?? defaultPathLoss.exponent;
  if (typeof rssiAt1m !== "number" || !Number.isFinite(rssiAt1m)) {
    throw new RangeError(`rssiAt1m must be a finite number (dBm), got ${String(rssiAt1m)}`);
  }
  if (typeof exponent !== "number" || !(exponent > 0 && exponent <= 10)) {
    throw new RangeError(`exponent must be a number in (0, 10], got ${String(exponent)}`);
  }
  return Object.freeze({ rssiAt1m, exponent });
}

/**
 * Estimated distance (metres) from an RSSI (dBm) under the log-distance model:
 * `d = 10^((rssiAt1m − rssi) / (10 · n))`. Use smoothed RSSI: one raw reading is off by
 * σ ≈ 5 dB, a factor of ~1.5 in distance at n = 2.7.
 *
 * @param rssi dBm
 * @param model see {@link pathLossOptions}; defaults when omitted
 * @returns metres (> 0)
 *
 * @example
 * rssiToDistance(-45); // 1
 * rssiToDistance(-72); // 10 (27 dB more loss at n = 2.7)
 */
export function rssiToDistance(rssi: number, model: PathLossModel = defaultPathLoss): number {
  return 10 ** log10Distance(rssi, model);
}

/**
 * log10 of {@link rssiToDistance}: `(rssiAt1m − rssi) / (10 · n)`, and `10 ** log10Distance(…)`
 * is exactly `rssiToDistance(…)`. Cheap (no power), and monotone in the distance, so a caller
 * comparing several sensors can rank them with this and raise only the nearest to a distance.
 *
 * @param rssi dBm
 * @param model see {@link pathLossOptions}; defaults when omitted
 * @returns log10 of metres
 *
 * @example
 * log10Distance(-72); // 1 (10 m)
 * 10 ** log10Distance(-60) === rssiToDistance(-60); // true
 */
export function log10Distance(rssi: number, model: PathLossModel = defaultPathLoss): number {
  return (model.rssiAt1m - rssi) / (10 * model.exponent);
}

/**
 * Expected RSSI (dBm) at a distance (metres) under the log-distance model; the inverse of
 * {@link rssiToDistance}.
 *
 * @param distanceM metres (> 0)
 * @param model see {@link pathLossOptions}; defaults when omitted
 * @returns dBm
 *
 * @example
 * distanceToRssi(1);  // -45
 * distanceToRssi(10); // -72
 */
export function distanceToRssi(distanceM: number, model: PathLossModel = defaultPathLoss): number {
  return model.rssiAt1m - 10 * model.exponent * Math.log10(distanceM);
}
