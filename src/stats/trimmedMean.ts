/**
 * Trimmed mean: sorts `values`, drops `floor(n · trim)` values from EACH end and averages the
 * rest. With `trim = 0` it is the mean; near 0.5 it approaches the median. Robust to the
 * occasional reflected (too strong) or shadowed (too weak) RSSI reading.
 * Returns `NaN` for an empty array. Does not modify `values`.
 *
 * @param values numbers (e.g. RSSI in dBm)
 * @param trim fraction cut from each end, 0 ≤ trim < 0.5
 * @default trim 0.2
 *
 * @example
 * trimmedMean([-60, -61, -59, -90, -30]); // -60 (drops -90 and -30)
 * trimmedMean([1, 2, 3, 4], 0);            // 2.5
 */
export function trimmedMean(values: readonly number[], trim: number = defaultRunningTrimmedMean.trim): number {
  checkTrim(trim);
  const n = values.length;
  if (n === 0) return Number.NaN;
  const sorted = Float64Array.from(values).sort();
  return meanOfTrimmed(sorted, n, trim);
}

/**
 * Options of {@link runningTrimmedMean} (and {@link createTrimmedMeanState}).
 *
 * @example
 * const options = runningTrimmedMeanOptions({ size: 7, windowMs: 60_000 });
 */
export interface RunningTrimmedMeanOptions {
  /**
   * Window length in samples (the ring buffer's capacity). Five readings trimmed by 0.2 drop the
   * single highest and lowest, which is the smallest window where trimming removes an outlier
   * on each side and still averages three values.
   * @default 5
   */
  readonly size?: number;
  /** Fraction trimmed from each end of the window, 0 ≤ trim < 0.5. @default 0.2 */
  readonly trim?: number;
  /**
   * Time window, ms of event time: samples older than the newest sample minus `windowMs` are
   * left out even while still in the ring, so a device that went quiet and came back is not
   * averaged with where it was minutes ago. `Infinity` = count window only.
   * @default 60_000
   */
  readonly windowMs?: number;
}

/** {@link RunningTrimmedMeanOptions} with every field present. */
export type ResolvedRunningTrimmedMeanOptions = Readonly<Required<RunningTrimmedMeanOptions>>;

/**
 * Defaults of {@link RunningTrimmedMeanOptions}.
 *
 * @example
 * defaultRunningTrimmedMean.size; // 5
 */
export const defaultRunningTrimmedMean: ResolvedRunningTrimmedMeanOptions = Object.freeze({
  size: 5,
  trim: 0.2,
  windowMs: 60_000,
});

/**
 * Validates options once and fills in defaults. Throws RangeError for a size that is not an
 * integer in 1…1024, a trim outside [0, 0.5) or a non-positive window.
 *
 * @example
 * runningTrimmedMeanOptions({ trim: 0 }); // { size: 5, trim: 0, windowMs: 60000 }
 */
export function runningTrimmedMeanOptions(options: RunningTrimmedMeanOptions = {}): ResolvedRunningTrimmedMeanOptions {
  const size = options.size ?? defaultRunningTrimmedMean.size;
  const trim = options.trim ?? defaultRunningTrimmedMean.trim;
  const windowMs = options.windowMs ?? defaultRunningTrimmedMean.windowMs;
  if (!Number.isInteger(size) || size < 1 || size > 1024) {
    throw new RangeError(`size must be an integer in 1…1024 (samples), got ${String(size)}`);
  }
  checkTrim(trim);
  if (typeof windowMs !== "number" || Number.isNaN(windowMs) || windowMs <= 0) {
    throw new RangeError(`windowMs must be > 0 (ms) or Infinity, got ${String(windowMs)}`);
  }
  return Object.freeze({ size, trim, windowMs });
}

/**
 * Ring buffer of the latest samples of one stream (e.g. one device at one sensor), plus a
 * scratch array for sorting, all preallocated so updates allocate nothing.
 *
 * @example
 * const state: TrimmedMeanState = createTrimmedMeanState({ size: 5 });
 */
export interface TrimmedMeanState {
  /** Sample values, ring order. */
  readonly values: Float64Array;
  /** Sample event times (epoch ms), ring order. */
  readonly times: Float64Array;
  /** Sort buffer. */
  readonly scratch: Float64Array;
  /** Index of the next write. */
  next: number;
  /** Samples held (≤ capacity). */
  count: number;
  /** Newest event time seen, epoch ms (−Infinity when empty). */
  newest: number;
}

/**
 * A fresh, empty {@link TrimmedMeanState} sized for `options.size` samples.
 *
 * @example
 * const state = createTrimmedMeanState();
 * runningTrimmedMean(state, -60, 0); // -60
 */
export function createTrimmedMeanState(options: RunningTrimmedMeanOptions = {}): TrimmedMeanState {
  const size = options.size ?? defaultRunningTrimmedMean.size;
  if (!Number.isInteger(size) || size < 1 || size > 1024) {
    throw new RangeError(`size must be an integer in 1…1024 (samples), got ${String(size)}`);
  }
  return {
    values: new Float64Array(size),
    times: new Float64Array(size),
    scratch: new Float64Array(size),
    next: 0,
    count: 0,
    newest: Number.NEGATIVE_INFINITY,
  };
}

/**
 * Adds one reading (e.g. RSSI, dBm, at event time `timeMs`) to the ring and returns the trimmed
 * mean of the samples still inside the count and time window. Out-of-order readings are
 * accepted; the time window is measured back from the newest event time seen.
 * Allocation-free: sorts a preallocated scratch array (insertion sort; windows are small).
 *
 * @param state mutated in place (sized by {@link createTrimmedMeanState})
 * @param value reading
 * @param timeMs event time, epoch ms
 * @param options resolved options (see {@link runningTrimmedMeanOptions}); `size` is taken from the state
 * @returns trimmed mean of the window
 *
 * @example
 * const s = createTrimmedMeanState({ size: 5 });
 * for (const [v, t] of [[-60, 0], [-62, 1000], [-30, 2000], [-61, 3000], [-95, 4000]]) runningTrimmedMean(s, v, t);
 * runningTrimmedMean(s, -59, 5000); // ≈ -60.67: -60 fell out of the ring; -30 and -95 are trimmed
 */
export function runningTrimmedMean(
  state: TrimmedMeanState,
  value: number,
  timeMs: number,
  options: ResolvedRunningTrimmedMeanOptions = defaultRunningTrimmedMean,
): number {
  const capacity = state.values.length;
  state.values[state.next] = value;
  state.times[state.next] = timeMs;
  state.next = state.next + 1 === capacity ? 0 : state.next + 1;
  if (state.count < capacity) state.count++;
  if (timeMs > state.newest) state.newest = timeMs;
  return currentTrimmedMean(state, options);
}

/**
 * The trimmed mean of the samples currently in the window, without adding one; `NaN` when empty.
 *
 * @example
 * const s = createTrimmedMeanState();
 * currentTrimmedMean(s); // NaN
 */
export function currentTrimmedMean(
  state: TrimmedMeanState,
  options: ResolvedRunningTrimmedMeanOptions = defaultRunningTrimmedMean,
): number {
  const cutoff = state.newest - options.windowMs;
  const scratch = state.scratch;
  let n = 0;
  for (let i = 0; i < state.count; i++) {
    if ((state.times[i] as number) < cutoff) continue;
    const v = state.values[i] as number;
    // Insertion sort while copying: windows are a handful of samples.
    let j = n - 1;
    while (j >= 0 && (scratch[j] as number) > v) {
      scratch[j + 1] = scratch[j] as number;
      j--;
    }
    scratch[j + 1] = v;
    n++;
  }
  if (n === 0) return Number.NaN;
  return meanOfTrimmed(scratch, n, options.trim);
}

function meanOfTrimmed(sorted: Float64Array, n: number, trim: number): number {
  // The epsilon keeps e.g. 100 · 0.29 = 28.999… from cutting one sample too few.
  const cut = Math.floor(n * trim + 1e-9);
  let sum = 0;
  for (let i = cut; i < n - cut; i++) sum += sorted[i] as number;
  return sum / (n - 2 * cut);
}

function checkTrim(trim: number): void {
  if (typeof trim !== "number" || !(trim >= 0 && trim < 0.5)) {
    throw new RangeError(`trim must be a fraction in [0, 0.5), got ${String(trim)}`);
  }
}
