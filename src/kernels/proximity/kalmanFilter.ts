/**
 * Options of {@link kalmanFilter}: the two noise variances of a 1-D random-walk model of RSSI.
 *
 * The state (true RSSI at the device's position) drifts as a random walk whose variance grows
 * linearly with elapsed event time; each probe is a noisy measurement of it.
 *
 * @example
 * const options = kalmanFilterOptions({ measurementNoise: 36 });
 */
export interface KalmanFilterOptions {
  /**
   * Process noise, dB² per second: how fast the true RSSI may wander. A shopper walking
   * ~0.5–1 m/s a few metres from a sensor changes path loss by a few dB over several seconds,
   * so 3 dB²/s (σ ≈ 1.7 dB after 1 s, ≈ 9.5 dB after 30 s) lets the estimate follow walking
   * while still averaging bursts of probes sent within a second.
   * @default 3
   */
  readonly processNoisePerS?: number;
  /**
   * Measurement noise, dB²: the variance of one RSSI reading around the true value.
   * Indoor multipath and body shadowing give σ ≈ 4–6 dB per probe, so 25 (σ = 5 dB).
   * @default 25
   */
  readonly measurementNoise?: number;
}

/** {@link KalmanFilterOptions} with every field present (what {@link kalmanFilter} reads). */
export type ResolvedKalmanFilterOptions = Readonly<Required<KalmanFilterOptions>>;

/**
 * Defaults of {@link KalmanFilterOptions}.
 *
 * @example
 * defaultKalmanFilter.measurementNoise; // 25
 */
export const defaultKalmanFilter: ResolvedKalmanFilterOptions = Object.freeze({
  processNoisePerS: 3,
  measurementNoise: 25,
});

/**
 * Validates options once (eagerly) and fills in defaults, so the per-record
 * {@link kalmanFilter} call does no checking.
 * Throws a RangeError for a negative or non-finite process noise or a non-positive measurement noise.
 *
 * @example
 * kalmanFilterOptions({ processNoisePerS: 1 }); // { processNoisePerS: 1, measurementNoise: 25 }
 */
export function kalmanFilterOptions(options: KalmanFilterOptions = {}): ResolvedKalmanFilterOptions {
  const processNoisePerS = options.processNoisePerS ?? defaultKalmanFilter.processNoisePerS;
  const measurementNoise = options.measurementNoise ?? defaultKalmanFilter.measurementNoise;
  if (typeof processNoisePerS !== "number" || !Number.isFinite(processNoisePerS) || processNoisePerS < 0) {
    throw new RangeError(`processNoisePerS must be a finite number ≥ 0 (dB²/s), got ${String(processNoisePerS)}`);
  }
  if (typeof measurementNoise !== "number" || !Number.isFinite(measurementNoise) || measurementNoise <= 0) {
    throw new RangeError(`measurementNoise must be a finite number > 0 (dB²), got ${String(measurementNoise)}`);
  }
  return Object.freeze({ processNoisePerS, measurementNoise });
}

/**
 * Mutable state of one 1-D Kalman filter: estimate `x` (dBm), its variance `p` (dB²) and the
 * event time `t` (epoch ms) of the latest measurement. `p` is `NaN` before the first update.
 * A plain object with a fixed shape so a Map of thousands of them stays cheap.
 *
 * @example
 * const s: KalmanState = createKalmanState(); // { x: NaN, p: NaN, t: NaN }
 */
export interface KalmanState {
  /** Smoothed RSSI, dBm. */
  x: number;
  /** Variance of `x`, dB². */
  p: number;
  /** Latest event time seen, epoch ms. */
  t: number;
}

/**
 * A fresh, empty {@link KalmanState}; the first {@link kalmanFilter} update initialises it.
 *
 * @example
 * const state = createKalmanState();
 * kalmanFilter(state, -60, 0); // -60
 */
export function createKalmanState(): KalmanState {
  return { x: Number.NaN, p: Number.NaN, t: Number.NaN };
}

/**
 * Feeds one RSSI reading (dBm) taken at event time `timeMs` (epoch ms) into `state` and returns
 * the smoothed RSSI (dBm). Time-aware: the prior variance grows by `processNoisePerS` per second
 * elapsed since the previous reading, so a reading after a long silence counts almost fully
 * while a burst of probes within a second is averaged.
 *
 * A reading older than the state's time (out of order within allowed lateness) is treated as
 * simultaneous (no variance growth) instead of being dropped. The result is always a convex
 * combination of readings, so it stays within their range.
 *
 * Why a Kalman filter: it is the minimum-variance linear estimator for this random-walk model,
 * costs a handful of flops and three numbers of state, and handles irregular probe intervals,
 * which a fixed-alpha exponential average does not.
 *
 * @param state mutated in place
 * @param rssi dBm
 * @param timeMs event time, epoch ms
 * @param options resolved options (see {@link kalmanFilterOptions}); defaults when omitted
 * @returns smoothed RSSI, dBm
 *
 * @example
 * const state = createKalmanState();
 * kalmanFilter(state, -60, 0);     // -60
 * kalmanFilter(state, -70, 1_000); // ≈ -61.1: one reading 1 s later moves it only a little
 */
export function kalmanFilter(
  state: KalmanState,
  rssi: number,
  timeMs: number,
  options: ResolvedKalmanFilterOptions = defaultKalmanFilter,
): number {
  const r = options.measurementNoise;
  if (!(state.p >= 0)) {
    // First reading (p is NaN): the best estimate is the reading, with the reading's variance.
    state.x = rssi;
    state.p = r;
    state.t = timeMs;
    return rssi;
  }
  const elapsed = timeMs - state.t;
  let p = state.p;
  if (elapsed > 0) {
    p += options.processNoisePerS * (elapsed / 1000);
    state.t = timeMs;
  }
  const gain = p / (p + r);
  state.x += gain * (rssi - state.x);
  state.p = (1 - gain) * p;
  return state.x;
}
