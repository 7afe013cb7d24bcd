import type { Signal } from "../codec/Signal.ts";
import { millisRts, type RtsCodec } from "../codec/rts.ts";

/**
 * Options of the data-quality kernel ({@link createDataQuality}, {@link dataQuality}).
 *
 * @example
 * const state = createDataQuality({ gapThresholdMs: 15 * 60_000 });
 */
export interface DataQualityOptions {
  /**
   * A sensor silent for longer than this (ms of event time) while the shop is observed is
   * reported as a gap. In an open shop a sensor hears passing phones every few seconds, so
   * 30 minutes of silence means the sensor or its uplink was down, or the shop was closed
   * (closing hours do show up as gaps; that is intended, they are easy to tell apart).
   * @default 1_800_000
   */
  readonly gapThresholdMs?: number;
  /** Most gaps listed per sensor in a report (the latest ones); totals count all. @default 100 */
  readonly maxGapsPerSensor?: number;
  /** RTS rule used to compare each signal's RTS with its `ts`. @default millisRts */
  readonly rtsCodec?: RtsCodec;
  /** Largest |RTS time − ts| (ms) not counted as a disagreement; `Infinity` turns it off. @default 1000 */
  readonly tsToleranceMs?: number;
}

/** {@link DataQualityOptions} with every field present. */
export type ResolvedDataQualityOptions = Readonly<Required<DataQualityOptions>>;

/**
 * Defaults of {@link DataQualityOptions}.
 *
 * @example
 * defaultDataQuality.gapThresholdMs; // 1800000
 */
export const defaultDataQuality: ResolvedDataQualityOptions = Object.freeze({
  gapThresholdMs: 1_800_000,
  maxGapsPerSensor: 100,
  rtsCodec: millisRts,
  tsToleranceMs: 1000,
});

/**
 * Counters from outside the signal stream, merged into a report: the decoder's (`SignalDecoder`
 * `stats` fits as is) and the sessionizer's late count. Every field is optional.
 *
 * @example
 * const counts: DataQualityCounts = { ...decoder.stats, late: sessions.stats.late };
 */
export interface DataQualityCounts {
  /** Records the decoder turned into signals. */
  readonly decoded?: number;
  /** Records rejected by the decoder. */
  readonly invalid?: number;
  /** Rejected records per reason. */
  readonly invalidByReason?: Readonly<Record<string, number>>;
  /** Signals that arrived too late for their session. */
  readonly late?: number;
  /** The decoder's own count of `local` flag vs MAC bit disagreements. */
  readonly localFlagMismatch?: number;
  /** The decoder's own count of ts vs RTS disagreements. */
  readonly tsRtsMismatch?: number;
}

/**
 * A period in which a sensor heard nothing.
 *
 * @example
 * const g: QualityGap = { from: 0, to: 3_600_000, durationMs: 3_600_000, edge: "none" };
 */
export interface QualityGap {
  /** Last signal before the gap (or the start of the observed range), epoch ms. */
  readonly from: number;
  /** First signal after the gap (or the end of the observed range), epoch ms. */
  readonly to: number;
  readonly durationMs: number;
  /**
   * `"start"`: the sensor was silent from the start of the observed range; `"end"`: it fell
   * silent before the end (a sensor that went down and stayed down); `"none"`: between signals.
   */
  readonly edge: "none" | "start" | "end";
}

/**
 * Quality of one sensor of one shop.
 *
 * @example
 * const worst = (r: DataQualityReport) => r.sensors.toSorted((a, b) => b.gapMs - a.gapMs)[0];
 */
export interface SensorQuality {
  readonly shopId: number;
  readonly sensor: string;
  readonly signals: number;
  /** First and last signal, epoch ms. */
  readonly first: number;
  readonly last: number;
  readonly randomizedSignals: number;
  /** randomizedSignals ÷ signals. */
  readonly randomizedShare: number;
  readonly localFlagMismatch: number;
  readonly tsRtsMismatch: number;
  /** Gaps longer than the threshold, including edge gaps, oldest first; at most `maxGapsPerSensor` (the latest). */
  readonly gaps: readonly QualityGap[];
  /** Number of gaps (all of them). */
  readonly gapCount: number;
  /** Total gap time, ms. */
  readonly gapMs: number;
}

/**
 * A data-quality report over the signals seen (and the counters given).
 *
 * @example
 * const r: DataQualityReport = dataQuality(signals);
 * console.log(r.randomizedDeviceShare, r.localFlagMismatch, r.sensors.length);
 */
export interface DataQualityReport {
  readonly type: "dataQuality";
  /** Observed range, epoch ms: the given window, else first to last signal (NaN when empty). */
  readonly from: number;
  readonly to: number;
  readonly signals: number;
  /** Unique (shop, device) pairs. */
  readonly devices: number;
  readonly randomizedDevices: number;
  /** randomizedDevices ÷ devices (NaN when none). */
  readonly randomizedDeviceShare: number;
  readonly randomizedSignals: number;
  /** randomizedSignals ÷ signals (NaN when none). */
  readonly randomizedSignalShare: number;
  /** Signals whose `local` flag disagrees with bit 0x02 of the device MAC. */
  readonly localFlagMismatch: number;
  /** Signals whose RTS (per `rtsCodec`) and `ts` disagree by more than `tsToleranceMs`. */
  readonly tsRtsMismatch: number;
  /** From {@link DataQualityCounts} (0 when not given). */
  readonly invalid: number;
  readonly invalidByReason: Readonly<Record<string, number>>;
  readonly late: number;
  /** The counters as given (e.g. the decoder's own mismatch counts), for cross-checking. */
  readonly counts: DataQualityCounts;
  /** Per sensor, by shop then sensor MAC. */
  readonly sensors: readonly SensorQuality[];
}

interface MutableGap {
  from: number;
  to: number;
}

interface SensorState {
  readonly shopId: number;
  readonly sensor: string;
  signals: number;
  first: number;
  last: number;
  randomized: number;
  localMismatch: number;
  tsRtsMismatch: number;
  /** Interior gaps, sorted, non-overlapping. */
  gaps: MutableGap[];
}

/**
 * Mutable state of the data-quality kernel; create with {@link createDataQuality}.
 * Memory: one small record per sensor, its gaps, and one Set entry per unique device
 * (use `resetDataQuality` per reporting window on endless streams).
 *
 * @example
 * const state: DataQualityState = createDataQuality();
 */
export interface DataQualityState {
  readonly options: ResolvedDataQualityOptions;
  readonly sensors: Map<number, Map<string, SensorState>>;
  readonly devices: Map<number, Set<string>>;
  signals: number;
  deviceCount: number;
  randomizedDevices: number;
  randomizedSignals: number;
  localMismatch: number;
  tsRtsMismatch: number;
  first: number;
  last: number;
}

/**
 * Validates options (RangeError / TypeError) and returns an empty state.
 *
 * @example
 * const state = createDataQuality({ tsToleranceMs: Infinity });
 */
export function createDataQuality(options: DataQualityOptions = {}): DataQualityState {
  const gapThresholdMs = options.gapThresholdMs ?? defaultDataQuality.gapThresholdMs;
  const maxGapsPerSensor = options.maxGapsPerSensor ?? defaultDataQuality.maxGapsPerSensor;
  const rtsCodec = options.rtsCodec ?? defaultDataQuality.rtsCodec;
  const tsToleranceMs = options.tsToleranceMs ?? defaultDataQuality.tsToleranceMs;
  if (typeof gapThresholdMs !== "number" || !(gapThresholdMs > 0) || !Number.isFinite(gapThresholdMs)) {
    throw new RangeError(`gapThresholdMs must be a finite number > 0 (ms), got ${String(gapThresholdMs)}`);
  }
  if (!Number.isInteger(maxGapsPerSensor) || maxGapsPerSensor < 0) {
    throw new RangeError(`maxGapsPerSensor must be an integer ≥ 0, got ${String(maxGapsPerSensor)}`);
  }
  if (typeof rtsCodec !== "object" || rtsCodec === null || typeof rtsCodec.decode !== "function") {
    throw new TypeError("rtsCodec must be an RtsCodec (with a decode function)");
  }
  if (typeof tsToleranceMs !== "number" || !(tsToleranceMs >= 0)) {
    throw new RangeError(`tsToleranceMs must be a number ≥ 0 (ms) or Infinity, got ${String(tsToleranceMs)}`);
  }
  return {
    options: Object.freeze({ gapThresholdMs, maxGapsPerSensor, rtsCodec, tsToleranceMs }),
    sensors: new Map(),
    devices: new Map(),
    signals: 0,
    deviceCount: 0,
    randomizedDevices: 0,
    randomizedSignals: 0,
    localMismatch: 0,
    tsRtsMismatch: 0,
    first: Number.POSITIVE_INFINITY,
    last: Number.NEGATIVE_INFINITY,
  };
}

/**
 * Empties a state (keeps its options), e.g. at the start of each reporting window.
 *
 * @example
 * resetDataQuality(state);
 */
export function resetDataQuality(state: DataQualityState): void {
  state.sensors.clear();
  state.devices.clear();
  state.signals = 0;
  state.deviceCount = 0;
  state.randomizedDevices = 0;
  state.randomizedSignals = 0;
  state.localMismatch = 0;
  state.tsRtsMismatch = 0;
  state.first = Number.POSITIVE_INFINITY;
  state.last = Number.NEGATIVE_INFINITY;
}

/**
 * Adds one decoded signal. Order-independent: a signal older than a sensor's latest one
 * splits or shrinks the gap it falls into, so the report does not depend on arrival order.
 *
 * @example
 * for (const s of signals) updateDataQuality(state, s);
 */
export function updateDataQuality(state: DataQualityState, signal: Signal): void {
  const o = state.options;
  const time = signal.time;
  state.signals++;
  if (time < state.first) state.first = time;
  if (time > state.last) state.last = time;
  let devices = state.devices.get(signal.shopId);
  if (devices === undefined) {
    devices = new Set();
    state.devices.set(signal.shopId, devices);
  }
  if (!devices.has(signal.device)) {
    devices.add(signal.device);
    state.deviceCount++;
    if (signal.randomized) state.randomizedDevices++;
  }
  let sensors = state.sensors.get(signal.shopId);
  if (sensors === undefined) {
    sensors = new Map();
    state.sensors.set(signal.shopId, sensors);
  }
  let s = sensors.get(signal.sensor);
  if (s === undefined) {
    s = {
      shopId: signal.shopId,
      sensor: signal.sensor,
      signals: 0,
      first: time,
      last: time,
      randomized: 0,
      localMismatch: 0,
      tsRtsMismatch: 0,
      gaps: [],
    };
    sensors.set(signal.sensor, s);
  }
  s.signals++;
  if (signal.randomized) {
    s.randomized++;
    state.randomizedSignals++;
  }
  // Bit 0x02 of the first octet; the MAC is normalised to lowercase "xx:…" by the codec.
  const localBit = (hexValue(signal.device.charCodeAt(1)) & 2) !== 0;
  if (signal.local !== localBit) {
    s.localMismatch++;
    state.localMismatch++;
  }
  if (o.tsToleranceMs !== Number.POSITIVE_INFINITY && rtsDisagrees(signal, o)) {
    s.tsRtsMismatch++;
    state.tsRtsMismatch++;
  }
  addTime(s, time, o.gapThresholdMs);
}

/**
 * Builds the report: totals, shares, per-sensor gaps (with edge gaps measured against the
 * observed range: `range` when given, else the shop's first to last signal) and the external
 * counters.
 *
 * @param counts decoder / sessionizer counters to include
 * @param range observed window, epoch ms (e.g. the reporting window or the query's since/until)
 *
 * @example
 * const report = dataQualityReport(state, { ...decoder.stats, late: 3 });
 */
export function dataQualityReport(
  state: DataQualityState,
  counts: DataQualityCounts = {},
  range?: { readonly from: number; readonly to: number },
): DataQualityReport {
  const o = state.options;
  const sensors: SensorQuality[] = [];
  const shopIds = [...state.sensors.keys()].sort((a, b) => a - b);
  for (const shopId of shopIds) {
    const shopSensors = state.sensors.get(shopId) as Map<string, SensorState>;
    let shopFirst = Number.POSITIVE_INFINITY;
    let shopLast = Number.NEGATIVE_INFINITY;
    for (const s of shopSensors.values()) {
      if (s.first < shopFirst) shopFirst = s.first;
      if (s.last > shopLast) shopLast = s.last;
    }
    const from = range?.from ?? shopFirst;
    const to = range?.to ?? shopLast;
    const macs = [...shopSensors.keys()].sort();
    for (const mac of macs) {
      const s = shopSensors.get(mac) as SensorState;
      const gaps: QualityGap[] = [];
      if (s.first - from > o.gapThresholdMs) gaps.push({ from, to: s.first, durationMs: s.first - from, edge: "start" });
      for (const g of s.gaps) gaps.push({ from: g.from, to: g.to, durationMs: g.to - g.from, edge: "none" });
      if (to - s.last > o.gapThresholdMs) gaps.push({ from: s.last, to, durationMs: to - s.last, edge: "end" });
      let gapMs = 0;
      for (const g of gaps) gapMs += g.durationMs;
      sensors.push({
        shopId,
        sensor: mac,
        signals: s.signals,
        first: s.first,
        last: s.last,
        randomizedSignals: s.randomized,
        randomizedShare: s.randomized / s.signals,
        localFlagMismatch: s.localMismatch,
        tsRtsMismatch: s.tsRtsMismatch,
        gaps: gaps.length > o.maxGapsPerSensor ? gaps.slice(gaps.length - o.maxGapsPerSensor) : gaps,
        gapCount: gaps.length,
        gapMs,
      });
    }
  }
  const empty = state.signals === 0;
  return {
    type: "dataQuality",
    from: range?.from ?? (empty ? Number.NaN : state.first),
    to: range?.to ?? (empty ? Number.NaN : state.last),
    signals: state.signals,
    devices: state.deviceCount,
    randomizedDevices: state.randomizedDevices,
    randomizedDeviceShare: state.randomizedDevices / state.deviceCount,
    randomizedSignals: state.randomizedSignals,
    randomizedSignalShare: state.randomizedSignals / state.signals,
    localFlagMismatch: state.localMismatch,
    tsRtsMismatch: state.tsRtsMismatch,
    invalid: counts.invalid ?? 0,
    invalidByReason: { ...counts.invalidByReason },
    late: counts.late ?? 0,
    counts: { ...counts },
    sensors,
  };
}

/**
 * Data-quality report of a batch of decoded signals: per sensor, gaps with no signals longer
 * than a threshold; shares of randomized MACs (devices and signals); disagreements between the
 * service's `local` flag and the MAC bit; ts vs RTS disagreements; plus the invalid and late
 * counts given (the kernel never sees rejected records).
 *
 * @example
 * const report = dataQuality(signals, {}, decoder.stats);
 * report.sensors.filter((s) => s.gapCount > 0);
 */
export function dataQuality(
  signals: Iterable<Signal>,
  options: DataQualityOptions = {},
  counts: DataQualityCounts = {},
): DataQualityReport {
  const state = createDataQuality(options);
  for (const s of signals) updateDataQuality(state, s);
  return dataQualityReport(state, counts);
}

function addTime(s: SensorState, time: number, threshold: number): void {
  if (time > s.last) {
    if (time - s.last > threshold) s.gaps.push({ from: s.last, to: time });
    s.last = time;
    return;
  }
  if (time < s.first) {
    if (s.first - time > threshold) s.gaps.unshift({ from: time, to: s.first });
    s.first = time;
    return;
  }
  // Inside the seen range (out of order): it may fall into a recorded gap, latest first.
  const gaps = s.gaps;
  for (let i = gaps.length - 1; i >= 0; i--) {
    const g = gaps[i] as MutableGap;
    if (time >= g.to) return;
    if (time > g.from) {
      const left = time - g.from > threshold;
      const right = g.to - time > threshold;
      if (left && right) gaps.splice(i + 1, 0, { from: time, to: g.to });
      if (left) g.to = time;
      else if (right) g.from = time;
      else gaps.splice(i, 1);
      return;
    }
  }
}

function rtsDisagrees(signal: Signal, o: ResolvedDataQualityOptions): boolean {
  let rtsMs: number;
  try {
    rtsMs = o.rtsCodec.decode(signal.rts);
  } catch {
    return true; // a decoded signal always has a valid RTS; a custom codec may still refuse it
  }
  return !(Math.abs(rtsMs - signal.time) <= o.tsToleranceMs);
}

function hexValue(code: number): number {
  if (code >= 48 && code <= 57) return code - 48;
  if (code >= 97 && code <= 102) return code - 87;
  if (code >= 65 && code <= 70) return code - 55;
  return 0;
}
