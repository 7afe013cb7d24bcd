import { linearRegression } from "simple-statistics";

/**
 * One survey sample: an RSSI reading (dBm) taken at a known distance (m) from a sensor.
 *
 * @example
 * const s: PathLossSample = { distanceM: 2, rssi: -53 };
 */
export interface PathLossSample {
  /** Distance from the sensor, metres (> 0). */
  readonly distanceM: number;
  /** Received signal strength, dBm. */
  readonly rssi: number;
}

/**
 * A fitted log-distance model with goodness of fit.
 *
 * @example
 * const fit: PathLossFit = fitPathLoss([{ distanceM: 1, rssi: -45 }, { distanceM: 10, rssi: -72 }]);
 */
export interface PathLossFit {
  /** Fitted RSSI at 1 m, dBm (the regression intercept). */
  readonly rssiAt1m: number;
  /** Fitted path-loss exponent n. */
  readonly exponent: number;
  /** Coefficient of determination of RSSI on log10(distance), 0…1 (1 when every residual is 0). */
  readonly rSquared: number;
  /** Residual standard deviation, dB (n − 2 degrees of freedom; 0 with two samples). */
  readonly residualSigma: number;
  /** Samples used. */
  readonly count: number;
}

/**
 * Calibrates the log-distance model of a sensor from survey samples by ordinary least squares
 * of `rssi = A − 10·n·log10(d)` (so `rssiAt1m = A`): the spread in RSSI is roughly constant in
 * dB, which is why the fit is done on log distance rather than on distance.
 * The result can be passed straight to `pathLossOptions` / the proximity calibration.
 *
 * Throws RangeError with fewer than two samples, a non-positive or non-finite distance, a
 * non-finite RSSI, or when all samples share one distance (the slope is then undefined).
 *
 * @example
 * fitPathLoss([
 *   { distanceM: 1, rssi: -45 },
 *   { distanceM: 2, rssi: -53.13 },
 *   { distanceM: 10, rssi: -72 },
 * ]); // ≈ { rssiAt1m: -45, exponent: 2.7, rSquared: 1, residualSigma: 0, count: 3 }
 */
export function fitPathLoss(samples: readonly PathLossSample[]): PathLossFit {
  const count = samples.length;
  if (count < 2) throw new RangeError(`fitPathLoss needs at least 2 samples, got ${count}`);
  const points: number[][] = new Array<number[]>(count);
  let minX = Infinity;
  let maxX = -Infinity;
  for (let i = 0; i < count; i++) {
    const s = samples[i] as PathLossSample;
    if (!(s.distanceM > 0) || !Number.isFinite(s.distanceM)) {
      throw new RangeError(`sample ${i}: distanceM must be a finite number > 0 (m), got ${String(s.distanceM)}`);
    }
    if (typeof s.rssi !== "number" || !Number.isFinite(s.rssi)) {
      throw new RangeError(`sample ${i}: rssi must be a finite number (dBm), got ${String(s.rssi)}`);
    }
    const x = Math.log10(s.distanceM);
    if (x < minX) minX = x;
    if (x > maxX) maxX = x;
    points[i] = [x, s.rssi];
  }
  if (maxX === minX) throw new RangeError("fitPathLoss needs samples at two or more distinct distances");
  const { m, b } = linearRegression(points);
  let meanY = 0;
  for (const p of points) meanY += p[1] as number;
  meanY /= count;
  let sse = 0;
  let sst = 0;
  for (const p of points) {
    const y = p[1] as number;
    const e = y - (b + m * (p[0] as number));
    sse += e * e;
    sst += (y - meanY) * (y - meanY);
  }
  // simple-statistics' rSquared is 0/0 when every RSSI is equal; a flat, exact fit explains everything.
  const rSquared = sst === 0 ? 1 : Math.max(0, 1 - sse / sst);
  const residualSigma = count > 2 ? Math.sqrt(sse / (count - 2)) : 0;
  return { rssiAt1m: b, exponent: -m / 10, rSquared, residualSigma, count };
}
