import { checkNumberOption } from "../../options/checkNumberOption.ts";
import type { Session } from "../sessions/Session.ts";
import { defaultPathLoss } from "../proximity/pathLoss.ts";

/** Histogram resolution, dB per bin. */
const BIN_DB = 0.5;
/** Bins cover −127…0 dBm. */
const MIN_DB = -127;
const BINS = Math.round(-MIN_DB / BIN_DB) + 1;

/**
 * Options of {@link suggestRssiThreshold} (and {@link PeakRssiHistogram.suggest}).
 *
 * @example
 * const options: SuggestRssiThresholdOptions = { minDwellMs: 60_000, minSessions: 100 };
 */
export interface SuggestRssiThresholdOptions {
  /**
   * Only sessions at least this long take part: walkers-by (short) are far more numerous than
   * either group the threshold separates — people inside vs people lingering outside — and
   * would drown the lower mode.
   * @default 60_000
   */
  readonly minDwellMs?: number;
  /** Fewer qualifying sessions than this give no suggestion. @default 50 */
  readonly minSessions?: number;
  /**
   * Smallest separation (Ashman's D = |μ₁ − μ₂| / √((σ₁² + σ₂²) / 2)) for the two modes to count as
   * real; D > 2 means two clearly separated populations, below it a single skewed one.
   * @default 2
   */
  readonly minSeparation?: number;
  /** Smallest weight of either mode (share of qualifying sessions). @default 0.03 */
  readonly minModeShare?: number;
  /**
   * Highest boundary taken, dBm: the RSSI one metre from a sensor under the default path-loss
   * model (`defaultPathLoss.rssiAt1m`, −45 dBm). A boundary above it would call everyone further than
   * a metre from a sensor a passer-by, which no shop's layout makes the line between inside and
   * outside: the two modes are then groups of visitors (fuzzed worlds with few or no passers-by
   * put it at −28 to −36 dBm and counted 4–18 of 44–237 people), and no suggestion is made.
   * @default -45
   */
  readonly maxThreshold?: number;
  /**
   * Largest width of the stronger mode over the weaker one's (their standard deviations): a wider
   * one is not two groups of people but one spread of peaks from the sensors' floor up. Peaks of
   * far devices pile up just above the receiver's sensitivity, a narrow spike that two Gaussians
   * take for a group, and the rest, 30 dB of it, for the other: the boundary then lands a few dB
   * above the floor and calls nearly everyone heard inside. In the Brno lab (days before
   * 2023-07-01) the stronger mode was 3.1–7.5 times as wide as such a floor spike on nine days
   * (2.1–2.7 on four more, not told apart), at most 1.6 times where the weaker mode was no spike;
   * in the simulator's worlds, whose people outside stand at a street, at most 2.5 times. No
   * suggestion then: the classifier keeps its fallback.
   * @default 3
   */
  readonly maxSpreadRatio?: number;
}

/**
 * Defaults of {@link SuggestRssiThresholdOptions}.
 *
 * @example
 * defaultSuggestRssiThreshold.minSeparation; // 2
 */
export const defaultSuggestRssiThreshold = Object.freeze({
  minDwellMs: 60_000,
  minSessions: 50,
  minSeparation: 2,
  minModeShare: 0.03,
  maxThreshold: defaultPathLoss.rssiAt1m,
  maxSpreadRatio: 3,
});

/** One mode of the fitted two-component mixture. */
export interface RssiMode {
  /** Mean peak smoothed RSSI, dBm. */
  readonly mean: number;
  /** Standard deviation, dB. */
  readonly sd: number;
  /** Share of qualifying sessions (0…1). */
  readonly weight: number;
}

/**
 * What {@link suggestRssiThreshold} found.
 *
 * @example
 * const s: RssiThresholdSuggestion = suggestRssiThreshold(sessions);
 * if (s.threshold !== undefined) console.log(`visitorRssi ≈ ${s.threshold} dBm`);
 */
export interface RssiThresholdSuggestion {
  /**
   * Suggested `visitorRssi`, dBm (rounded to 0.5 dB): where a session is equally likely to belong to
   * either mode. `undefined` when the data are not clearly bimodal (too few sessions, modes too
   * close, one too small, or the stronger one a spread from the sensors' floor up: see
   * `maxSpreadRatio`), or the boundary lies above `maxThreshold`.
   */
  readonly threshold: number | undefined;
  /** Sessions that qualified (dwell ≥ `minDwellMs`, finite peak). */
  readonly sessions: number;
  /** Ashman's D of the fitted modes (NaN when no fit). */
  readonly separation: number;
  /** The weaker mode (outside / passing), when fitted. */
  readonly low: RssiMode | undefined;
  /** The stronger mode (inside / visiting), when fitted. */
  readonly high: RssiMode | undefined;
}

/**
 * Suggests a per-shop `visitorRssi` from the data. The peak smoothed RSSI of sessions long enough
 * to be visits is bimodal — people inside come close to a sensor, people lingering outside stay
 * behind the wall — and the best threshold is the valley between the two modes. This fits a
 * two-component Gaussian mixture by expectation–maximisation (on a 0.5 dB histogram, so it costs the
 * same for a hundred sessions or a million) and returns the Bayes boundary, where both components
 * are equally likely, rounded to 0.5 dB.
 *
 * Why a mixture and not a plain split (Otsu / ckmeans): the two groups differ in size and spread,
 * and a variance-based split drifts into the larger group; the mixture's boundary accounts for both.
 *
 * @example
 * const s = suggestRssiThreshold(sessions, { minDwellMs: 60_000 });
 * s.threshold; // e.g. -66.5, or undefined when the sessions do not show two modes
 */
export function suggestRssiThreshold(
  sessions: Iterable<Pick<Session, "dwellMs" | "peakSmoothedRssi">>,
  options: SuggestRssiThresholdOptions = {},
): RssiThresholdSuggestion {
  const histogram = new PeakRssiHistogram(options.minDwellMs ?? defaultSuggestRssiThreshold.minDwellMs);
  for (const s of sessions) histogram.add(s);
  return histogram.suggest(options);
}

/**
 * A running histogram of session-peak smoothed RSSI (0.5 dB bins, fixed size), so a stream can
 * keep learning a shop's threshold in constant memory. {@link suggestRssiThreshold} is this over
 * an array.
 *
 * @example
 * const h = new PeakRssiHistogram(60_000);
 * for (const s of sessions) h.add(s);
 * h.suggest().threshold;
 */
export class PeakRssiHistogram {
  readonly #counts = new Float64Array(BINS);
  readonly #minDwellMs: number;
  #n = 0;

  /** @param minDwellMs sessions shorter than this are ignored (ms). */
  constructor(minDwellMs: number = defaultSuggestRssiThreshold.minDwellMs) {
    this.#minDwellMs = checkNumberOption("minDwellMs", minDwellMs, { min: 0, unit: "ms" });
  }

  /** Qualifying sessions added so far. */
  get size(): number {
    return this.#n;
  }

  /** Adds one session if it qualifies. */
  add(session: Pick<Session, "dwellMs" | "peakSmoothedRssi">): void {
    const rssi = session.peakSmoothedRssi;
    if (session.dwellMs < this.#minDwellMs || !Number.isFinite(rssi)) return;
    let bin = Math.round((rssi - MIN_DB) / BIN_DB);
    if (bin < 0) bin = 0;
    else if (bin >= BINS) bin = BINS - 1;
    this.#counts[bin]!++;
    this.#n++;
  }

  /** A histogram holding what this one holds, to add to without changing this one. */
  copy(): PeakRssiHistogram {
    const c = new PeakRssiHistogram(this.#minDwellMs);
    c.#counts.set(this.#counts);
    c.#n = this.#n;
    return c;
  }

  /** The suggestion for what was added so far (see {@link suggestRssiThreshold}). */
  suggest(options: SuggestRssiThresholdOptions = {}): RssiThresholdSuggestion {
    const d = defaultSuggestRssiThreshold;
    const minSessions = checkNumberOption("minSessions", options.minSessions ?? d.minSessions, { min: 2 });
    const minSeparation = checkNumberOption("minSeparation", options.minSeparation ?? d.minSeparation, { min: 0 });
    const minModeShare = checkNumberOption("minModeShare", options.minModeShare ?? d.minModeShare, { min: 0, max: 0.5 });
    const maxThreshold = checkNumberOption("maxThreshold", options.maxThreshold ?? d.maxThreshold, { max: 0, unit: "dBm" });
    const maxSpreadRatio = checkNumberOption("maxSpreadRatio", options.maxSpreadRatio ?? d.maxSpreadRatio, { min: 1 });
    const none = { threshold: undefined, sessions: this.#n, separation: Number.NaN, low: undefined, high: undefined };
    if (this.#n < minSessions) return none;
    const fit = fitTwoGaussians(this.#counts, this.#n);
    if (fit === undefined) return none;
    const [low, high] = fit;
    const separation = Math.abs(high.mean - low.mean) / Math.sqrt((low.sd * low.sd + high.sd * high.sd) / 2);
    if (!(separation >= minSeparation) || low.weight < minModeShare || high.weight < minModeShare || high.sd > maxSpreadRatio * low.sd) {
      return { ...none, separation, low, high };
    }
    const threshold = bayesBoundary(low, high);
    return { threshold: threshold <= maxThreshold ? threshold : undefined, sessions: this.#n, separation, low, high };
  }
}

function centre(bin: number): number {
  return MIN_DB + bin * BIN_DB;
}

// Expectation–maximisation of a two-component 1-D Gaussian mixture over histogram bins.
function fitTwoGaussians(counts: Float64Array, n: number): [RssiMode, RssiMode] | undefined {
  let lo = -1;
  let hi = -1;
  for (let i = 0; i < BINS; i++) {
    if (counts[i]! > 0) {
      if (lo < 0) lo = i;
      hi = i;
    }
  }
  if (lo < 0 || hi === lo) return undefined;
  // Start from the lower and upper quartiles: robust whatever the shares of the two groups.
  let m1 = weightedQuantile(counts, n, 0.25);
  let m2 = weightedQuantile(counts, n, 0.75);
  if (m2 - m1 < 1) m2 = m1 + 1;
  let mean = 0;
  for (let i = lo; i <= hi; i++) mean += counts[i]! * centre(i);
  mean /= n;
  let variance = 0;
  for (let i = lo; i <= hi; i++) variance += counts[i]! * (centre(i) - mean) ** 2;
  variance /= n;
  // The bins are 0.5 dB wide: a floor keeps a component from collapsing onto one bin.
  const floor = 0.25;
  let v1 = Math.max(floor, variance / 4);
  let v2 = v1;
  let w1 = 0.5;
  for (let iter = 0; iter < 500; iter++) {
    let s1 = 0;
    let s1x = 0;
    let s1xx = 0;
    let s2 = 0;
    let s2x = 0;
    let s2xx = 0;
    const c1 = w1 / Math.sqrt(v1);
    const c2 = (1 - w1) / Math.sqrt(v2);
    for (let i = lo; i <= hi; i++) {
      const c = counts[i]!;
      if (c === 0) continue;
      const x = centre(i);
      const p1 = c1 * Math.exp(-((x - m1) ** 2) / (2 * v1));
      const p2 = c2 * Math.exp(-((x - m2) ** 2) / (2 * v2));
      const total = p1 + p2;
      const r1 = total > 0 ? p1 / total : x < (m1 + m2) / 2 ? 1 : 0;
      const a = c * r1;
      const b = c - a;
      s1 += a;
      s1x += a * x;
      s1xx += a * x * x;
      s2 += b;
      s2x += b * x;
      s2xx += b * x * x;
    }
    if (s1 < 1e-9 || s2 < 1e-9) return undefined;
    const nm1 = s1x / s1;
    const nm2 = s2x / s2;
    const nv1 = Math.max(floor, s1xx / s1 - nm1 * nm1);
    const nv2 = Math.max(floor, s2xx / s2 - nm2 * nm2);
    const nw1 = s1 / n;
    const moved = Math.abs(nm1 - m1) + Math.abs(nm2 - m2) + Math.abs(nv1 - v1) + Math.abs(nv2 - v2);
    m1 = nm1;
    m2 = nm2;
    v1 = nv1;
    v2 = nv2;
    w1 = nw1;
    if (moved < 1e-6) break;
  }
  const a: RssiMode = { mean: m1, sd: Math.sqrt(v1), weight: w1 };
  const b: RssiMode = { mean: m2, sd: Math.sqrt(v2), weight: 1 - w1 };
  return a.mean <= b.mean ? [a, b] : [b, a];
}

function weightedQuantile(counts: Float64Array, n: number, q: number): number {
  const target = q * n;
  let acc = 0;
  for (let i = 0; i < BINS; i++) {
    acc += counts[i]!;
    if (acc >= target) return centre(i);
  }
  return centre(BINS - 1);
}

// The point between the means where both weighted densities are equal (the Bayes decision boundary).
function bayesBoundary(low: RssiMode, high: RssiMode): number {
  const density = (m: RssiMode, x: number) => (m.weight / m.sd) * Math.exp(-((x - m.mean) ** 2) / (2 * m.sd * m.sd));
  let x = low.mean;
  const step = 0.05;
  while (x < high.mean && density(low, x) > density(high, x)) x += step;
  return Math.round(x / BIN_DB) * BIN_DB;
}
