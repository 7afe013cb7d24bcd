import { SIGNAL_LOCAL_FLAG_MISMATCH, SIGNAL_TS_RTS_MISMATCH, type Signal } from "../../codec/Signal.ts";
import { checkNumberOption } from "../../options/checkNumberOption.ts";
import type { EngineAccumulator } from "../sessions/EventTimeEngine.ts";
import type { SessionSensor } from "../sessions/Session.ts";
import { checkSink, type Sink } from "../sessions/Sink.ts";

/**
 * Options of {@link DataQuality} (and the `assessQuality` operator).
 *
 * @example
 * const quality = new DataQuality({ gapThresholdMs: 15 * 60_000 });
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
  /**
   * Report per shop and window of this many ms of event time (aligned to the epoch), each
   * emitted through the sink once the shop's watermark passes the window's end; `undefined`:
   * one report over everything, from {@link DataQuality.report}.
   * @default undefined
   */
  readonly windowMs?: number | undefined;
}

/** {@link DataQualityOptions} with every field present. */
export interface ResolvedDataQualityOptions {
  readonly gapThresholdMs: number;
  readonly maxGapsPerSensor: number;
  readonly windowMs: number | undefined;
}

/**
 * Defaults of {@link DataQualityOptions}.
 *
 * @example
 * defaultDataQuality.gapThresholdMs; // 1800000
 */
export const defaultDataQuality: ResolvedDataQualityOptions = Object.freeze({
  gapThresholdMs: 1_800_000,
  maxGapsPerSensor: 100,
  windowMs: undefined,
});

/**
 * Validates {@link DataQualityOptions} eagerly (TypeError/RangeError) and fills in defaults.
 *
 * @example
 * dataQualityOptions({ windowMs: 3_600_000 }).gapThresholdMs; // 1800000
 */
export function dataQualityOptions(options: DataQualityOptions = {}): ResolvedDataQualityOptions {
  if (typeof options !== "object" || options === null) throw new TypeError("data-quality options must be an object");
  const d = defaultDataQuality;
  const windowMs = options.windowMs ?? d.windowMs;
  return Object.freeze({
    gapThresholdMs: checkNumberOption("gapThresholdMs", options.gapThresholdMs ?? d.gapThresholdMs, { min: 1, unit: "ms" }),
    maxGapsPerSensor: checkNumberOption("maxGapsPerSensor", options.maxGapsPerSensor ?? d.maxGapsPerSensor, { min: 0, integer: true }),
    windowMs: windowMs === undefined ? undefined : checkNumberOption("windowMs", windowMs, { min: 1, integer: true, unit: "ms" }),
  });
}

/**
 * Counters from outside the signal stream, merged into a report: the decoder's (`SignalDecoder`
 * `stats` fits as is) and the sessionizer's late count. Every field is optional.
 *
 * @example
 * const counts: DataQualityCounts = { ...decoder.stats, late: engine.stats.late };
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
  /** How far behind its shop's newest event time the latest late signal was, ms (`EventTimeEngineStats.maxLateMs`). */
  readonly maxLateMs?: number;
  /** Signals dropped for leaping ahead of their shop's time alone (`EventTimeEngineStats.ahead`). */
  readonly ahead?: number;
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
  /**
   * How much later this sensor stamps the same probe bursts than the shop's median clock, ms:
   * the median, over MACs heard in one burst by it and the shop's reference sensor (the one with
   * most signals; a rotated MAC lives one burst, so the pair is unambiguous, even when the clocks
   * are hours apart and the burst falls into two sessions), of the difference of their first
   * receptions, less the median of those offsets over the shop's sensors (so that one sensor far
   * off is the one moved). Within a burst the channels differ by up to a second, so only an offset
   * beyond that is a clock that is off; `DecodeSignalOptions.clockOffsetsMs` takes these values
   * to put every sensor on one clock. `NaN` with fewer than 20 such MACs, and for every sensor
   * when none was shared (one sensor; the batch `dataQuality`, which has no sessions). From every
   * session so far, also in windowed reports.
   */
  readonly clockOffsetMs: number;
  /** The one-burst MACs it shared with the reference sensor (behind `clockOffsetMs`). */
  readonly clockPairs: number;
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
  /** From {@link DataQualityCounts} (0 when not given): an allowed lateness of at least this would have taken every late signal. */
  readonly maxLateMs: number;
  /** From {@link DataQualityCounts} (0 when not given): signals stamped by a sensor clock that jumped ahead, not used. */
  readonly ahead: number;
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
  readonly sensor: string;
  signals: number;
  first: number;
  last: number;
  randomized: number;
  localMismatch: number;
  tsRtsMismatch: number;
  readonly gaps: MutableGap[];
}

// One shop's figures (of the current window, when windowed).
interface ShopQuality {
  readonly shopId: number;
  readonly sensors: Map<string, SensorState>;
  readonly devices: Set<string>;
  /** The device of the last signal: the several sensors hearing one probe skip the Set. */
  lastDevice: string;
  signals: number;
  randomizedDevices: number;
  randomizedSignals: number;
  localMismatch: number;
  tsRtsMismatch: number;
  first: number;
  last: number;
  /** Start of the current window, epoch ms (NaN: none open). */
  windowStart: number;
  /**
   * Per sensor pair a < b (by a, then b), b's first reception − a's of one-burst MACs both heard,
   * ms (the first CLOCK_SAMPLES). Two maps, not one keyed by a text of both: a key made per pair
   * of every one-burst session was ~2 % of a big shop-day's run, to make and to hash.
   */
  readonly clock: Map<string, Map<string, number[]>>;
  /**
   * Rotated MACs (randomized, one burst) seen in one session so far, by device: their sensors and
   * first receptions, waiting for the same MAC in another session — what a sensor whose clock is
   * further off than the session gap makes of one burst. Oldest first, at most ONE_BURST_MACS.
   */
  readonly bursts: Map<string, readonly SessionSensorFirst[]>;
}

/**
 * What one share of a device split has counted of signals (`DataQuality.part`), for another's
 * `absorb`. Internal; opaque.
 *
 * @internal
 * @example
 * const part: DataQualityPart = new DataQuality().part;
 */
export interface DataQualityPart {
  /** The shops' counters (their shape is DataQuality's own). */
  readonly shops: readonly object[];
}

/** What a clock pair needs of a session's sensor (copied when kept: the caller may reuse its own). */
type SessionSensorFirst = Pick<SessionSensor, "sensor" | "first">;

/**
 * What {@link DataQuality.session} reads of a closed session: a `Session` is one, and so is the
 * engine's open state of a session as it is handed on closed (`EngineSink.closed`), which the
 * analyzer gives it rather than have every session built for it.
 *
 * @example
 * const closed: ClosedSessionSensors = { shopId: 101, device: "da:a1:19:00:00:01", randomized: true, sensors: [{ sensor: "b8:27:eb:00:00:01", first: 0, last: 0 }] };
 */
export interface ClosedSessionSensors {
  readonly shopId: number;
  readonly device: string;
  readonly randomized: boolean;
  /** Its sensors, each with its first and last reception (epoch ms), in the session's order. */
  readonly sensors: readonly ClosedSessionSensor[];
}

/**
 * What {@link DataQuality.session} reads of a closed session's sensor: its first and last
 * reception; when data quality counts signals by session (the analyzer's, `countBySession`),
 * also how many signals it received and where it fell silent inside the session — what the
 * engine's per-sensor state (`SensorAcc`) of a closed session holds.
 *
 * @example
 * const sensor: ClosedSessionSensor = { sensor: "b8:27:eb:00:00:01", first: 0, last: 2_400_000, count: 3, holes: [60_000, 2_400_000] };
 */
export interface ClosedSessionSensor extends Pick<SessionSensor, "sensor" | "first" | "last"> {
  /** Signals the sensor received in the session. */
  readonly count?: number;
  /**
   * The sensor's silences inside the session longer than the gap threshold, flat: from, to, from,
   * to… (epoch ms, in order); null or absent for none (`EngineSink.sensorHolesOverMs`).
   */
  readonly holes?: readonly number[] | null;
}

/** Rotated MACs kept waiting for a second session: a busy shop-day's worth (a few tens of thousands). */
const ONE_BURST_MACS = 100_000;

/** One-burst MACs kept per sensor pair for its clock offset: the median of 20 000 is exact enough. */
const CLOCK_SAMPLES = 20_000;
/** Fewest one-burst MACs behind a reported clock offset. */
const MIN_CLOCK_PAIRS = 20;
/** A probe burst visits every channel within about a second: each sensor hears one burst within this. */
const ONE_BURST_MS = 1000;

/**
 * Data quality of a signal stream, as an accumulator of the event-time engine (see
 * `EngineAccumulator`): per shop and sensor, signals, first/last, the share from randomized
 * MACs, the decoder's findings (`local` flag vs MAC bit, `ts` vs RTS time — read from
 * `Signal.flags`, never checked twice) and silences longer than `gapThresholdMs`; per shop,
 * unique and randomized devices.
 *
 * Rules:
 * 1. It counts the signals the engine applies (late ones are counted by the engine and given
 *    to {@link DataQuality.report} as `counts.late`).
 * 2. Without `windowMs`, {@link DataQuality.report} gives one report over everything so far.
 * 3. With `windowMs`, each shop's figures are reported per window through the sink, once the
 *    shop's watermark passes the window's end (or at the end of input), and start afresh.
 *
 * Memory: per shop its sensors, the gaps found and the set of devices seen (of the window).
 *
 * @example
 * const quality = new DataQuality();
 * const engine = new EventTimeEngine({}, { emit: () => {} }, [quality]);
 * for (const s of signals) engine.push(s);
 * engine.flush();
 * const report = quality.report({ late: engine.stats.late });
 */
export class DataQuality implements EngineAccumulator {
  /** The resolved options. */
  readonly options: ResolvedDataQualityOptions;
  readonly #sink: Sink<DataQualityReport> | undefined;
  readonly #shops = new Map<number, ShopQuality>();
  #last: ShopQuality | undefined;
  /** Counts given to the last windowed report (each window reports the change since). */
  #given: DataQualityCounts = {};
  #countsOf: (() => DataQualityCounts) | undefined;
  /** Devices are counted from the closed sessions handed to {@link session} (see {@link countBySession}). */
  #devicesBySession = false;
  /** So are the signals, their times and their randomized MACs (see {@link countBySession}). */
  #signalsBySession = false;

  /**
   * @param options see {@link DataQualityOptions}; validated here (TypeError/RangeError)
   * @param sink receives the windowed reports (needed when `windowMs` is set)
   * @param counts where windowed reports take outside counters from (e.g. the decoder's stats); each report gets the change since the previous one
   */
  constructor(options: DataQualityOptions = {}, sink?: Sink<DataQualityReport>, counts?: () => DataQualityCounts) {
    this.options = dataQualityOptions(options);
    if (sink !== undefined) this.#sink = checkSink("DataQuality", sink);
    if (this.options.windowMs !== undefined && sink === undefined) throw new TypeError("DataQuality: windowMs needs a sink for the reports");
    if (counts !== undefined && typeof counts !== "function") throw new TypeError("DataQuality: counts must be a function");
    this.#countsOf = counts;
  }

  /** Counts one applied signal (the engine calls this in canonical order). */
  signal(signal: Signal): void {
    const shop = this.#shop(signal.shopId);
    this.#device(shop, signal, this.#time(shop, signal.sensor, signal.time));
  }

  /**
   * Internal (a device split, `AnalyzerShard`): counts an applied signal's time only (the shop's
   * and its sensor's signals, first, last and gaps), for the one share that sees every signal's
   * time; {@link signalDevice} counts the rest in the share that owns the device, and
   * {@link absorb} puts the shares together.
   * @internal
   */
  signalTime(shopId: number, sensor: string, time: number): void {
    this.#time(this.#shop(shopId), sensor, time);
  }

  /**
   * Internal (see {@link signalTime}): counts what an applied signal says of its device (devices,
   * randomized, flags).
   * @internal
   */
  signalDevice(signal: Signal): void {
    this.#device(this.#shop(signal.shopId), signal, undefined);
  }

  /**
   * Internal (the analyzer, which hands this every closed session): counts the unique and
   * randomized devices from the sessions given to {@link session} rather than from each signal;
   * with `signals`, also the signals themselves — per sensor their number, first and last, gaps
   * and randomized ones, read from each closed session's sensors (`count` and `holes`, the
   * engine's `SensorAcc`: its `closed` hand-off with `sensorHolesOverMs` at this `gapThresholdMs`)
   * — and from each signal only the decoder's findings ({@link signalFlags}).
   *
   * Every applied signal is in exactly one session, and every session is closed by the end, so the
   * counts are the same: a sensor's gaps depend only on the set of its signals' times (see
   * `addSpan`), which its sessions give as runs none of whose steps is longer than the threshold.
   * Per signal, a busy day's Set of devices cost ~3 % of a big shop-day's run, and the rest of
   * the counting (a map lookup of the sensor, its counters: ~40 ns a signal) ~60 ms of the
   * engine's thread's CPU. Unwindowed only (a session may span windows); call before any signal,
   * again to change what is counted.
   * @internal
   */
  countBySession(options: { readonly signals: boolean }): void {
    if (this.options.windowMs !== undefined) throw new Error("DataQuality: counting by session needs no windowMs");
    if (this.#shops.size > 0) throw new Error("DataQuality: countBySession before any signal");
    this.#devicesBySession = true;
    this.#signalsBySession = options.signals;
  }

  /**
   * Internal (counting signals by session, {@link countBySession}): counts what the decoder found
   * in one applied signal (`Signal.flags`): the rest of it is counted from its session.
   * @internal
   */
  signalFlags(signal: Signal): void {
    const flags = signal.flags ?? 0;
    if (flags !== 0) this.#flags(this.#shop(signal.shopId), signal, undefined, flags);
  }

  /**
   * Internal (a device split): what this accumulator has counted of signals, to be absorbed by
   * another ({@link absorb}); structured-cloneable, so it can cross from a thread.
   * @internal
   */
  get part(): DataQualityPart {
    return { shops: [...this.#shops.values()] };
  }

  /**
   * Internal (a device split): adds the counts of shares that counted other devices
   * ({@link signalDevice}) to this one, which counted every signal's time ({@link signalTime}):
   * device sets are joined, device counts summed; times, sensors and gaps stay this one's.
   * @internal
   */
  absorb(part: DataQualityPart): void {
    for (const other of part.shops as readonly ShopQuality[]) {
      const shop = this.#shop(other.shopId);
      for (const device of other.devices) shop.devices.add(device);
      shop.randomizedDevices += other.randomizedDevices;
      shop.randomizedSignals += other.randomizedSignals;
      shop.localMismatch += other.localMismatch;
      shop.tsRtsMismatch += other.tsRtsMismatch;
      for (const o of other.sensors.values()) {
        const s = shop.sensors.get(o.sensor);
        if (s === undefined) throw new Error(`DataQuality.absorb: sensor ${o.sensor} of shop ${other.shopId} has no times here`);
        s.randomized += o.randomized;
        s.localMismatch += o.localMismatch;
        s.tsRtsMismatch += o.tsRtsMismatch;
      }
    }
  }

  #shop(shopId: number): ShopQuality {
    let shop = this.#last;
    if (shop === undefined || shop.shopId !== shopId) {
      shop = this.#shops.get(shopId);
      if (shop === undefined) {
        shop = newShop(shopId);
        this.#shops.set(shopId, shop);
      }
      this.#last = shop;
    }
    return shop;
  }

  #sensor(shop: ShopQuality, sensor: string, time: number): SensorState {
    let s = shop.sensors.get(sensor);
    if (s === undefined) {
      s = { sensor, signals: 0, first: time, last: time, randomized: 0, localMismatch: 0, tsRtsMismatch: 0, gaps: [] };
      shop.sensors.set(sensor, s);
    }
    return s;
  }

  // Counts a signal's time; returns its sensor's state.
  #time(shop: ShopQuality, sensor: string, time: number): SensorState {
    const windowMs = this.options.windowMs;
    if (windowMs !== undefined) {
      const start = Math.floor(time / windowMs) * windowMs;
      if (shop.windowStart !== shop.windowStart) shop.windowStart = start;
      else if (start > shop.windowStart) this.#emitWindow(shop, start);
    }
    shop.signals++;
    if (time < shop.first) shop.first = time;
    if (time > shop.last) shop.last = time;
    const s = this.#sensor(shop, sensor, time);
    s.signals++;
    addSpan(s, time, time, this.options.gapThresholdMs);
    return s;
  }

  // Counts what a signal says of its device; `sensor`: its sensor's state, when at hand.
  #device(shop: ShopQuality, signal: Signal, sensor: SensorState | undefined): void {
    if (!this.#devicesBySession && signal.device !== shop.lastDevice) {
      shop.lastDevice = signal.device;
      addDevice(shop, signal.device, signal.randomized);
    }
    const randomized = signal.randomized;
    const flags = signal.flags ?? 0;
    if (!randomized && flags === 0) return;
    const s = sensor ?? this.#sensor(shop, signal.sensor, signal.time);
    if (randomized) {
      s.randomized++;
      shop.randomizedSignals++;
    }
    if (flags !== 0) this.#flags(shop, signal, s, flags);
  }

  // Counts a signal's decoder findings (`flags`, not 0); `sensor`: its sensor's state, when at hand.
  #flags(shop: ShopQuality, signal: Signal, sensor: SensorState | undefined, flags: number): void {
    const s = sensor ?? this.#sensor(shop, signal.sensor, signal.time);
    if ((flags & SIGNAL_LOCAL_FLAG_MISMATCH) !== 0) {
      s.localMismatch++;
      shop.localMismatch++;
    }
    if ((flags & SIGNAL_TS_RTS_MISMATCH) !== 0) {
      s.tsRtsMismatch++;
      shop.tsRtsMismatch++;
    }
  }

  // Counts a closed session's signals from its sensors (counting signals by session).
  #sessionSignals(shop: ShopQuality, session: ClosedSessionSensors): void {
    const threshold = this.options.gapThresholdMs;
    const sensors = session.sensors;
    for (let i = 0; i < sensors.length; i++) {
      const acc = sensors[i]!;
      const count = acc.count;
      if (count === undefined) throw new TypeError("DataQuality: counting signals by session needs each sensor's count");
      const s = this.#sensor(shop, acc.sensor, acc.first);
      s.signals += count;
      shop.signals += count;
      if (session.randomized) {
        s.randomized += count;
        shop.randomizedSignals += count;
      }
      if (acc.first < shop.first) shop.first = acc.first;
      if (acc.last > shop.last) shop.last = acc.last;
      // The sensor's times here are runs with no step longer than the threshold, between its holes.
      let from = acc.first;
      const holes = acc.holes;
      if (holes != null) {
        for (let h = 0; h < holes.length; h += 2) {
          addSpan(s, from, holes[h]!, threshold);
          from = holes[h + 1]!;
        }
      }
      addSpan(s, from, acc.last, threshold);
    }
  }

  /**
   * A closed session (the engine calls this): a MAC heard in one burst by several sensors gives
   * each pair of them one sample of how far apart their clocks stamp the same burst. A rotated MAC
   * lives one burst, so one heard again in a later session was stamped there by a clock further
   * off than the session gap (a sensor set hours wrong): that pair is a sample too.
   */
  session(session: ClosedSessionSensors): void {
    const shop = this.#signalsBySession ? this.#shop(session.shopId) : this.#shops.get(session.shopId);
    if (shop === undefined) return;
    if (this.#signalsBySession) this.#sessionSignals(shop, session);
    if (this.#devicesBySession) addDevice(shop, session.device, session.randomized);
    const sensors = session.sensors;
    for (let i = 0; i < sensors.length; i++) if (sensors[i]!.last - sensors[i]!.first > ONE_BURST_MS) return;
    addClockPairs(shop, sensors, sensors);
    if (!session.randomized) return; // a universal MAC is heard again by right
    const before = shop.bursts.get(session.device);
    if (before !== undefined) {
      shop.bursts.delete(session.device);
      addClockPairs(shop, before, sensors);
      return;
    }
    shop.bursts.set(session.device, sensors.map(({ sensor, first }) => ({ sensor, first })));
    if (shop.bursts.size > ONE_BURST_MACS) shop.bursts.delete(shop.bursts.keys().next().value!);
  }

  /** Windowed: emits each shop window the watermark passed (all of them at `Infinity`). */
  advance(shopId: number, watermark: number): void {
    const windowMs = this.options.windowMs;
    if (windowMs === undefined) return;
    const shop = this.#shops.get(shopId);
    if (shop === undefined || shop.windowStart !== shop.windowStart) return;
    if (watermark >= shop.windowStart + windowMs) this.#emitWindow(shop, Number.NaN);
  }

  /**
   * The report over every shop since the start (or, windowed, over what no window has reported
   * yet), with outside counters merged in (`counts`: the decoder's stats, the engine's late count).
   *
   * @example
   * quality.report({ ...decoder.stats, late: engine.stats.late }).randomizedDeviceShare;
   */
  report(counts: DataQualityCounts = {}): DataQualityReport {
    const shops = [...this.#shops.values()].sort((a, b) => a.shopId - b.shopId);
    return buildReport(shops, counts, undefined, this.options);
  }

  #emitWindow(shop: ShopQuality, next: number): void {
    const windowMs = this.options.windowMs!;
    const range = { from: shop.windowStart, to: shop.windowStart + windowMs };
    let counts: DataQualityCounts = {};
    if (this.#countsOf !== undefined) {
      const now = this.#countsOf();
      counts = difference(now, this.#given);
      this.#given = now;
    }
    const report = buildReport([shop], counts, range, this.options);
    resetShop(shop);
    shop.windowStart = next;
    this.#sink!.emit(report);
  }
}

function newShop(shopId: number): ShopQuality {
  return {
    shopId,
    sensors: new Map(),
    devices: new Set(),
    lastDevice: "",
    signals: 0,
    randomizedDevices: 0,
    randomizedSignals: 0,
    localMismatch: 0,
    tsRtsMismatch: 0,
    first: Number.POSITIVE_INFINITY,
    last: Number.NEGATIVE_INFINITY,
    windowStart: Number.NaN,
    clock: new Map(),
    bursts: new Map(),
  };
}

// One sample per pair of different sensors, a from `xs` and b from `ys`: b's first reception − a's,
// filed under the pair in MAC order.
function addClockPairs(shop: ShopQuality, xs: readonly SessionSensorFirst[], ys: readonly SessionSensorFirst[]): void {
  for (const a of xs) {
    for (const b of ys) {
      if (a.sensor === b.sensor || (xs === ys && !(a.sensor < b.sensor))) continue;
      if (a.sensor < b.sensor) addClockPair(shop, a.sensor, b.sensor, b.first - a.first);
      else addClockPair(shop, b.sensor, a.sensor, a.first - b.first);
    }
  }
}

function addClockPair(shop: ShopQuality, lo: string, hi: string, diff: number): void {
  let pairs = shop.clock.get(lo);
  if (pairs === undefined) shop.clock.set(lo, (pairs = new Map()));
  let diffs = pairs.get(hi);
  if (diffs === undefined) pairs.set(hi, (diffs = []));
  if (diffs.length < CLOCK_SAMPLES) diffs.push(diff);
}

// Each sensor's clock offset from the shop's reference sensor (the one with most signals).
function clockOffsets(shop: ShopQuality): Map<string, { offsetMs: number; pairs: number }> {
  const out = new Map<string, { offsetMs: number; pairs: number }>();
  // No shared burst at all (one sensor, or no sessions): nothing to tell, not even the reference.
  if (shop.clock.size === 0) return out;
  let ref: string | undefined;
  let most = -1;
  for (const [mac, s] of shop.sensors) if (s.signals > most || (s.signals === most && mac < ref!)) [ref, most] = [mac, s.signals];
  if (ref === undefined) return out;
  for (const mac of shop.sensors.keys()) {
    if (mac === ref) {
      out.set(mac, { offsetMs: 0, pairs: 0 });
      continue;
    }
    const diffs = (ref < mac ? shop.clock.get(ref)?.get(mac) : shop.clock.get(mac)?.get(ref)) ?? [];
    const sign = ref < mac ? 1 : -1;
    const sorted = Float64Array.from(diffs, (d) => sign * d).sort();
    const n = sorted.length;
    const median = n === 0 ? Number.NaN : n % 2 === 1 ? sorted[(n - 1) / 2]! : (sorted[n / 2 - 1]! + sorted[n / 2]!) / 2;
    out.set(mac, { offsetMs: n >= MIN_CLOCK_PAIRS ? Math.round(median) : Number.NaN, pairs: n });
  }
  // On the shop's median clock, not the reference's: when one sensor of three is hours off, and
  // heard most, the other two are right. Of two middle clocks, the one nearer the reference.
  const known = [...out.values()].map((o) => o.offsetMs).filter((x) => !Number.isNaN(x)).sort((a, b) => a - b);
  const lo = known[Math.floor((known.length - 1) / 2)]!;
  const hi = known[Math.ceil((known.length - 1) / 2)]!;
  const centre = Math.abs(lo) <= Math.abs(hi) ? lo : hi;
  if (centre !== 0) for (const o of out.values()) o.offsetMs -= centre;
  return out;
}

// A device seen (of the window): counted once, and as randomized when its MAC is.
function addDevice(shop: ShopQuality, device: string, randomized: boolean): void {
  const size = shop.devices.size;
  if (shop.devices.add(device).size > size && randomized) shop.randomizedDevices++;
}

function resetShop(shop: ShopQuality): void {
  shop.sensors.clear();
  shop.devices.clear();
  shop.lastDevice = "";
  shop.signals = 0;
  shop.randomizedDevices = 0;
  shop.randomizedSignals = 0;
  shop.localMismatch = 0;
  shop.tsRtsMismatch = 0;
  shop.first = Number.POSITIVE_INFINITY;
  shop.last = Number.NEGATIVE_INFINITY;
}

function buildReport(
  shops: readonly ShopQuality[],
  counts: DataQualityCounts,
  range: { readonly from: number; readonly to: number } | undefined,
  o: ResolvedDataQualityOptions,
): DataQualityReport {
  const sensors: SensorQuality[] = [];
  let signals = 0;
  let devices = 0;
  let randomizedDevices = 0;
  let randomizedSignals = 0;
  let localMismatch = 0;
  let tsRtsMismatch = 0;
  let first = Number.POSITIVE_INFINITY;
  let last = Number.NEGATIVE_INFINITY;
  for (const shop of shops) {
    signals += shop.signals;
    devices += shop.devices.size;
    randomizedDevices += shop.randomizedDevices;
    randomizedSignals += shop.randomizedSignals;
    localMismatch += shop.localMismatch;
    tsRtsMismatch += shop.tsRtsMismatch;
    if (shop.first < first) first = shop.first;
    if (shop.last > last) last = shop.last;
    const from = range?.from ?? shop.first;
    const to = range?.to ?? shop.last;
    const macs = [...shop.sensors.keys()].sort();
    const clocks = clockOffsets(shop);
    for (const mac of macs) {
      const s = shop.sensors.get(mac)!;
      const gaps: QualityGap[] = [];
      if (s.first - from > o.gapThresholdMs) gaps.push({ from, to: s.first, durationMs: s.first - from, edge: "start" });
      for (const g of s.gaps) gaps.push({ from: g.from, to: g.to, durationMs: g.to - g.from, edge: "none" });
      if (to - s.last > o.gapThresholdMs) gaps.push({ from: s.last, to, durationMs: to - s.last, edge: "end" });
      let gapMs = 0;
      for (const g of gaps) gapMs += g.durationMs;
      sensors.push({
        shopId: shop.shopId,
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
        clockOffsetMs: clocks.get(mac)?.offsetMs ?? Number.NaN,
        clockPairs: clocks.get(mac)?.pairs ?? 0,
      });
    }
  }
  const empty = signals === 0;
  return {
    type: "dataQuality",
    from: range?.from ?? (empty ? Number.NaN : first),
    to: range?.to ?? (empty ? Number.NaN : last),
    signals,
    devices,
    randomizedDevices,
    randomizedDeviceShare: randomizedDevices / devices,
    randomizedSignals,
    randomizedSignalShare: randomizedSignals / signals,
    localFlagMismatch: localMismatch,
    tsRtsMismatch,
    invalid: counts.invalid ?? 0,
    invalidByReason: { ...counts.invalidByReason },
    late: counts.late ?? 0,
    maxLateMs: counts.maxLateMs ?? 0,
    ahead: counts.ahead ?? 0,
    counts: { ...counts },
    sensors,
  };
}

/**
 * A data-quality report over signals in one call: each signal counted as given (in their
 * order; no watermark, nothing late), with outside counters merged in. For a stream use
 * {@link DataQuality} in the engine, or the `assessQuality` operator.
 *
 * @example
 * const r = dataQuality(signals, {}, decoder.stats);
 * console.log(r.randomizedDeviceShare, r.sensors.map((s) => s.gapCount));
 */
export function dataQuality(signals: Iterable<Signal>, options: Omit<DataQualityOptions, "windowMs"> = {}, counts: DataQualityCounts = {}): DataQualityReport {
  const quality = new DataQuality(options);
  for (const s of signals) quality.signal(s);
  return quality.report(counts);
}

// Counters that grow (numbers and per-reason maps): what changed between two readings.
function difference(now: DataQualityCounts, before: DataQualityCounts): DataQualityCounts {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(now)) {
    const prev = (before as Record<string, unknown>)[key];
    if (typeof value === "number") out[key] = value - (typeof prev === "number" ? prev : 0);
    else if (typeof value === "object" && value !== null) {
      const byReason: Record<string, number> = {};
      for (const [reason, n] of Object.entries(value as Record<string, number>)) {
        byReason[reason] = n - ((prev as Record<string, number> | undefined)?.[reason] ?? 0);
      }
      out[key] = byReason;
    }
  }
  return out as DataQualityCounts;
}

/**
 * Adds to a sensor's times a run from `from` to `to` (both times of its signals, `from` ≤ `to`)
 * none of whose steps is longer than `threshold` (one time: `from` = `to`). Its gaps are then
 * those of all its times sorted, whatever order they came in: each step longer than the
 * threshold between consecutive times, between `first` and `last`. So a sensor's times may be
 * added one by one in any order (late ones in `dataQuality`) or session by session, each as its
 * runs between the silences inside it (`ClosedSessionSensor.holes`), with the same gaps.
 */
function addSpan(s: SensorState, from: number, to: number, threshold: number): void {
  if (from > s.last) {
    if (from - s.last > threshold) s.gaps.push({ from: s.last, to: from });
    s.last = to;
    return;
  }
  if (to < s.first) {
    if (s.first - to > threshold) s.gaps.unshift({ from: to, to: s.first });
    s.first = from;
    return;
  }
  // The run meets the seen range: it may widen it, and fills what it covers of the recorded gaps (latest first).
  if (to > s.last) s.last = to;
  if (from < s.first) s.first = from;
  const gaps = s.gaps;
  for (let i = gaps.length - 1; i >= 0; i--) {
    const g = gaps[i]!;
    if (g.to <= from) return;
    if (g.from >= to) continue;
    const left = from - g.from > threshold;
    const right = g.to - to > threshold;
    if (left && right) gaps.splice(i + 1, 0, { from: to, to: g.to });
    if (left) g.to = from;
    else if (right) g.from = to;
    else gaps.splice(i, 1);
  }
}
