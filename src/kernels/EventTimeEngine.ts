import type { Signal } from "../codec/Signal.ts";
import { checkNumberOption } from "./checkNumberOption.ts";
import { EventTimeReorder } from "./EventTimeReorder.ts";
import { defaultKalmanFilter, kalmanFilter, kalmanFilterOptions, type KalmanFilterOptions, type KalmanState, type ResolvedKalmanFilterOptions } from "./kalmanFilter.ts";
import { log10Distance, pathLossOptions, type PathLossModel, type PathLossOptions } from "./pathLoss.ts";
import {
  PROXIMITY_ZONES,
  proximityZoneIndex,
  proximityZoneOptions,
  type ProximityZone,
  type ProximityZoneOptions,
  type ResolvedProximityZoneOptions,
} from "./proximityZone.ts";
import type { Session, SessionSensor } from "./Session.ts";
import type { ProximitySlice, ProximityTimelineEntry, SensorZoneMs, SessionProximity } from "./SessionProximity.ts";
import { checkSink, type Kernel, type Sink } from "./Sink.ts";
import {
  createTrimmedMeanState,
  runningTrimmedMean,
  runningTrimmedMeanOptions,
  type ResolvedRunningTrimmedMeanOptions,
  type RunningTrimmedMeanOptions,
  type TrimmedMeanState,
} from "./trimmedMean.ts";

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
 * How RSSI is smoothed per (session, sensor): the time-aware 1-D Kalman filter (the default;
 * `method` may be omitted) or a running trimmed mean, with that kernel's options. One smoothed
 * series per device and sensor feeds both `peakSmoothedRssi` (visit classification) and
 * proximity.
 *
 * @example
 * const smoothing: RssiSmoothing = { method: "trimmedMean", size: 7 };
 */
export type RssiSmoothing =
  | ({ readonly method?: "kalman" } & KalmanFilterOptions)
  | ({ readonly method: "trimmedMean" } & RunningTrimmedMeanOptions);

/**
 * Proximity options of {@link EventTimeEngine}.
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
}

/**
 * Options of {@link EventTimeEngine} (and of the `sessionize` and `estimateProximity` operators).
 *
 * @example
 * const options: EventTimeEngineOptions = { gapMs: 5 * 60_000, allowedLatenessMs: 30_000, proximity: { sliceMs: 5_000 } };
 */
export interface EventTimeEngineOptions {
  /**
   * Largest silence inside a session, ms; signals no more than `gapMs` apart (inclusive) belong
   * to the same session. Phones probe every ~0.5–2 min when idle and a sensor can miss a few
   * probes in a row, while people who leave rarely come back within minutes: 5 min joins a visit
   * without joining two separate trips.
   * @default 300_000
   */
  readonly gapMs?: number;
  /**
   * How far (ms of event time) a record may arrive behind the newest one seen for its shop and
   * still count. Records are put back into event-time order within this horizon (so out-of-order
   * delivery changes nothing); older ones go to the late side channel. The service pages by RTS
   * while `ts` comes from the sensors, so small disagreements are expected; one minute covers
   * clock skew between sensors and several pages of reordering.
   * @default 60_000
   */
  readonly allowedLatenessMs?: number;
  /**
   * How far (ms of event time) a record may be ahead of the newest one of its shop before it
   * needs a second opinion. One record stamped by a clock that jumped (a year ahead, say) would
   * otherwise carry the watermark with it and make every later record late. A record further
   * ahead is held: taken, with everything held, once a record from another sensor is as far ahead
   * (the shop's time moved on: data after a gap), or dropped (`stats.ahead`) as soon as a record
   * arrives at the shop's time (a sensor clock that jumped). A shop with one sensor takes it at
   * once; what is held when the input ends is taken. `Infinity` turns this off.
   * @default 86_400_000 (a day: more than any gap a shop's records have while they run)
   */
  readonly maxLeapMs?: number;
  /** RSSI smoothing per (session, sensor). @default the Kalman filter with defaultKalmanFilter */
  readonly smoothing?: RssiSmoothing;
  /** Proximity per session (and per slice), or `false` to skip it (`Session.proximity` is then undefined). @default {} */
  readonly proximity?: ProximityOptions | false;
}

/** {@link EventTimeEngineOptions} with every field present. */
export interface ResolvedEventTimeEngineOptions {
  readonly gapMs: number;
  readonly allowedLatenessMs: number;
  readonly maxLeapMs: number;
  readonly smoothing: { readonly method: "kalman"; readonly kalman: ResolvedKalmanFilterOptions } | { readonly method: "trimmedMean"; readonly trimmed: ResolvedRunningTrimmedMeanOptions };
  readonly proximity: ResolvedProximityOptions | false;
}

/** {@link ProximityOptions} resolved: numbers checked, models built. */
export interface ResolvedProximityOptions {
  readonly sliceMs: number;
  readonly sensorStaleMs: number;
  readonly timelineLimit: number;
  readonly zones: ResolvedProximityZoneOptions;
  readonly defaultModel: PathLossModel;
  readonly models: ReadonlyMap<string, PathLossModel>;
}

/**
 * Defaults of {@link EventTimeEngineOptions} (numbers; smoothing and models default to their
 * kernels' defaults).
 *
 * @example
 * defaultEventTimeEngine.gapMs; // 300000
 */
export const defaultEventTimeEngine = Object.freeze({
  gapMs: 300_000,
  allowedLatenessMs: 60_000,
  maxLeapMs: 86_400_000,
  sliceMs: 10_000,
  sensorStaleMs: 30_000,
  timelineLimit: 64,
});

/**
 * Validates {@link EventTimeEngineOptions} eagerly (TypeError/RangeError) and fills in defaults.
 *
 * @example
 * eventTimeEngineOptions({ gapMs: 60_000 }).allowedLatenessMs; // 60000
 */
export function eventTimeEngineOptions(options: EventTimeEngineOptions = {}): ResolvedEventTimeEngineOptions {
  if (typeof options !== "object" || options === null) throw new TypeError("engine options must be an object");
  const d = defaultEventTimeEngine;
  const smoothing = options.smoothing ?? {};
  let resolvedSmoothing: ResolvedEventTimeEngineOptions["smoothing"];
  if (smoothing.method === undefined || smoothing.method === "kalman") {
    const { method: _m, ...kalman } = smoothing as { method?: "kalman" } & KalmanFilterOptions;
    resolvedSmoothing = { method: "kalman", kalman: smoothing === options.smoothing ? kalmanFilterOptions(kalman) : defaultKalmanFilter };
  } else if (smoothing.method === "trimmedMean") {
    resolvedSmoothing = { method: "trimmedMean", trimmed: runningTrimmedMeanOptions(smoothing) };
    createTrimmedMeanState(smoothing); // checks `size`
  } else {
    throw new TypeError(`smoothing.method must be "kalman" or "trimmedMean", got ${String((smoothing as { method: unknown }).method)}`);
  }
  return Object.freeze({
    gapMs: checkNumberOption("gapMs", options.gapMs ?? d.gapMs, { min: 0, unit: "ms" }),
    allowedLatenessMs: checkNumberOption("allowedLatenessMs", options.allowedLatenessMs ?? d.allowedLatenessMs, { min: 0, unit: "ms" }),
    maxLeapMs: checkNumberOption("maxLeapMs", options.maxLeapMs ?? d.maxLeapMs, { min: 0, unit: "ms", finite: false }),
    smoothing: Object.freeze(resolvedSmoothing),
    proximity: options.proximity === false ? false : proximityOptions(options.proximity ?? {}),
  });
}

function proximityOptions(options: ProximityOptions): ResolvedProximityOptions {
  if (typeof options !== "object" || options === null) throw new TypeError("proximity must be an object or false");
  const d = defaultEventTimeEngine;
  const sliceMs = checkNumberOption("sliceMs", options.sliceMs ?? d.sliceMs, { min: 1, integer: true, unit: "ms" });
  const sensorStaleMs = checkNumberOption("sensorStaleMs", options.sensorStaleMs ?? d.sensorStaleMs, { min: 0, unit: "ms" });
  if (sensorStaleMs < sliceMs) throw new RangeError(`sensorStaleMs (${sensorStaleMs}) must be ≥ sliceMs (${sliceMs})`);
  const timelineLimit = checkNumberOption("timelineLimit", options.timelineLimit ?? d.timelineLimit, { min: 0, integer: true });
  const defaultModel = pathLossOptions(options.calibration?.default);
  const models = new Map<string, PathLossModel>();
  const sensors = options.calibration?.sensors;
  if (sensors !== undefined) {
    const entries = sensors instanceof Map ? sensors.entries() : Object.entries(sensors);
    for (const [mac, model] of entries as Iterable<[string, PathLossOptions]>) {
      models.set(mac.toLowerCase(), pathLossOptions({ ...options.calibration?.default, ...model }));
    }
  }
  return Object.freeze({ sliceMs, sensorStaleMs, timelineLimit, zones: proximityZoneOptions(options.zones), defaultModel, models });
}

/**
 * Where an {@link EventTimeEngine} delivers: closed sessions (`emit`), signals behind their
 * shop's watermark (`late`), and, when given, each finished proximity slice (`slice`).
 *
 * @example
 * const sink: EngineSink = { emit: (s) => sessions.push(s), late: (signal) => late.push(signal) };
 */
export interface EngineSink extends Sink<Session, Signal> {
  /** A finished time slice of one device (nearest sensor, distance, zone). Slices are only computed for output when this is given. */
  slice?(slice: ProximitySlice): void;
}

/**
 * The extension point for anything computed per signal or per time interval of a shop —
 * data quality today, per-interval estimators (occupancy) next. Every method is optional and
 * called synchronously by the engine, in event time:
 *
 * 1. `signal` — each signal the engine applies, per shop in canonical order (time, device,
 *    sensor, RSSI, RTS); never a late one. Equal input gives equal calls, whatever the arrival
 *    order within the allowed lateness.
 * 2. `session` — each session as it closes, before the engine's sink gets it.
 * 3. `advance` — the shop's watermark rose to `watermark` (epoch ms): every signal earlier than
 *    it has been applied, so an interval ending at or before it is final and can be emitted.
 *    `Infinity` when the input ends ({@link EventTimeEngine.flush}).
 * 4. `reached` — the shop's event time reached `time`: every signal before it has been applied
 *    and none at or after it, every session that ended more than `gapMs` before it has closed
 *    (`session` was called), and `open()` lists the sessions still open as they are now (without
 *    proximity). It returns the next time it wants to hear of: it is called when the first
 *    signal at or after that time is applied — first at the shop's first signal, and again at
 *    the first one after a flush — and with `Infinity` when the input ends, before the last
 *    sessions close. Unlike `advance`, whose
 *    steps follow how the records arrived, these calls see exactly the same state for the same
 *    records whatever their arrival order within the allowed lateness: what a per-interval
 *    estimator emits from here (`LiveOccupancy`) is the same in batch and stream.
 *
 * An accumulator delivers its own results (e.g. through a {@link Sink} of its own).
 *
 * @example
 * let applied = 0;
 * const counting: EngineAccumulator = { signal: () => void applied++ };
 * const engine = new EventTimeEngine({}, { emit: () => {} }, [counting]);
 */
export interface EngineAccumulator {
  signal?(signal: Signal): void;
  session?(session: Session): void;
  advance?(shopId: number, watermark: number): void;
  reached?(shopId: number, time: number, open: () => readonly Session[]): number;
}

/**
 * Counters of an {@link EventTimeEngine}.
 *
 * @example
 * engine.stats.late; // 0
 */
export interface EventTimeEngineStats {
  /** Signals pushed. */
  readonly signals: number;
  /** Signals sent to the late side channel. */
  readonly late: number;
  /**
   * How far behind its shop's newest event time the latest of the late signals was, ms (0 when
   * none was late): an `allowedLatenessMs` of at least this takes every one of them, since the
   * newest time seen does not depend on the lateness allowed.
   */
  readonly maxLateMs: number;
  /**
   * Signals dropped for being more than `maxLeapMs` ahead of their shop's newest time with no
   * other sensor as far ahead: stamped by a clock that jumped.
   */
  readonly ahead: number;
  /** Sessions emitted. */
  readonly sessions: number;
  /** Sessions open now (one per active device and shop). */
  readonly openSessions: number;
  /** Signals held in the reorder buffers now (at most the allowed lateness's worth). */
  readonly buffered: number;
}

/** Signals closer together than this (ms) are counted as one probe in `Session.probeCount`. */
const PROBE_MERGE_MS = 1000;

/** Relative tolerance of a repeated probe gap (`Session.periodicGaps`). */
const PERIODIC_TOLERANCE = 0.1;

const NO_SLICE = Number.NaN;

// Per (session, sensor): counts, peaks, the smoothing state (it is its own Kalman state: x, p,
// t) and the path-loss model, so a sensor costs one allocation per session.
interface SensorAcc extends KalmanState {
  readonly sensor: string;
  readonly model: PathLossModel;
  readonly trimmed: TrimmedMeanState | null;
  count: number;
  first: number;
  last: number;
  peakRssi: number;
  peakSmoothed: number;
  /** Latest smoothed RSSI, dBm. */
  smoothed: number;
  /** log10 of the distance at the slice being finished (scratch of #finishSlice). */
  logDistance: number;
}

// The open session of one device at one shop, linked into two intrusive lists of its shop:
// by end (the order sessions close in) and by start (whose head bounds `complete`). It also
// carries the session's proximity while it is open.
interface OpenSession {
  readonly device: string;
  readonly start: number;
  end: number;
  count: number;
  probes: number;
  /** Start of the session's latest probe, and the gap before it (NaN before the second probe). */
  probeStart: number;
  lastGap: number;
  /** Probe gaps that repeat the one before or a whole multiple of it (`Session.periodicGaps`). */
  periodicGaps: number;
  readonly randomized: boolean;
  readonly local: boolean;
  readonly vendor: string | undefined;
  readonly sensors: SensorAcc[];
  prevByEnd: OpenSession | undefined;
  nextByEnd: OpenSession | undefined;
  prevByStart: OpenSession | undefined;
  nextByStart: OpenSession | undefined;
  // Proximity (untouched when it is off).
  slices: number;
  sliceStart: number;
  sliceSignals: number;
  zone: number;
  zoneFrom: number;
  nearest: string;
  zoneMs0: number;
  zoneMs1: number;
  zoneMs2: number;
  /** Sensors that were nearest in this session, and their zone times (3 per sensor, zone order). */
  readonly zoneSensors: string[];
  readonly zoneSensorMs: number[];
  closestSensor: string;
  closestDistanceM: number;
  /** log10 of `closestDistanceM`, the sensor's own (compared before raising a slice's distance). */
  closestLog: number;
  closestRssi: number;
  closestTime: number;
  readonly timeline: ProximityTimelineEntry[];
  timelineTruncated: boolean;
}

interface ShopState {
  readonly shopId: number;
  /** Watermark and reorder buffer, in canonical order (see `canonicalSignalOrder`). */
  readonly lane: EventTimeReorder;
  readonly open: Map<string, OpenSession>;
  /**
   * The open session of the last signal applied: a probe heard by several sensors gives
   * consecutive signals of one device (device is the second key of the canonical order), which
   * then skip the Map lookup.
   */
  recent: OpenSession | undefined;
  endHead: OpenSession | undefined;
  endTail: OpenSession | undefined;
  startHead: OpenSession | undefined;
  startTail: OpenSession | undefined;
  /** Index of the last slice boundary the watermark passed (slices are swept out once per boundary). */
  sweptSlice: number;
  /** Signals held for leaping more than `maxLeapMs` ahead of the shop's newest time, in arrival order. */
  held: Signal[];
  /** The first sensor the shop was heard by, and whether another has been since (for leaps). */
  firstSensor: string | undefined;
  manySensors: boolean;
  /** The next event time an accumulator's `reached` waits for (`Infinity`: none does). */
  nextReach: number;
}

/**
 * The event-time engine: one per stream, with the state of each shop apart. It owns the rules
 * every per-session and per-interval figure depends on, in one place:
 *
 * 1. **Watermark** per shop: the newest event time seen − `allowedLatenessMs`. A signal behind
 *    it is late: it goes to `sink.late` and changes nothing.
 * 2. **Reorder**: other signals are held until the watermark passes them, then applied in the
 *    canonical order (time, device, sensor, RSSI, RTS) — so any arrival order within the
 *    allowed lateness gives exactly the same results.
 * 3. **Gap rule**: per shop and device, signals no more than `gapMs` apart (inclusive) form one
 *    session; a signal that bridges two runs merges them (it is applied before either could
 *    close). A session closes when the watermark passes `end + gapMs`; {@link flush} closes
 *    every session. Sessions come out in order of `end`, ties in canonical order.
 * 4. **Per-session accumulators**, all from one pass over the applied signals: counts and
 *    probes, per sensor the raw and smoothed RSSI peaks (one smoothing per device × sensor),
 *    and proximity — per time slice the nearest sensor, its distance and zone; per session
 *    the closest approach, time per zone (overall and per nearest sensor) and a timeline.
 *    The session is emitted with its proximity (`Session.proximity`).
 * 5. **Extension point**: {@link EngineAccumulator}s see every applied signal, every closed
 *    session and every watermark advance (see there).
 *
 * State: per shop one Map of open sessions keyed by device plus the reorder buffer, so memory
 * follows the active devices and the records within the lateness horizon, never the total.
 * Each shop has its own watermark, so a merged stream of shops that progress at different
 * speeds loses nothing.
 *
 * @example
 * const sessions: Session[] = [];
 * const engine = new EventTimeEngine({ gapMs: 300_000 }, { emit: (s) => sessions.push(s) });
 * for (const signal of signals) engine.push(signal);
 * engine.flush();
 * sessions[0]?.proximity?.closestZone; // e.g. "near"
 */
export class EventTimeEngine implements Kernel<Signal> {
  /** The resolved options. */
  readonly options: ResolvedEventTimeEngineOptions;
  readonly #sink: EngineSink;
  readonly #accumulators: readonly EngineAccumulator[];
  readonly #onSignal: EngineAccumulator[];
  readonly #onSession: EngineAccumulator[];
  readonly #onAdvance: EngineAccumulator[];
  readonly #onReach: EngineAccumulator[];
  readonly #gap: number;
  readonly #lateness: number;
  readonly #kalman: ResolvedKalmanFilterOptions | null;
  readonly #trimmed: ResolvedRunningTrimmedMeanOptions | null;
  readonly #proximity: ResolvedProximityOptions | null;
  /** log10 of the zones' bounds (m), for zones decided from log-distances. */
  readonly #immediateLog: number;
  readonly #nearLog: number;
  /** Whether slices go to the sink (then they are also swept out as the watermark passes them). */
  readonly #slices: boolean;
  readonly #shops = new Map<number, ShopState>();
  #lastShop: ShopState | undefined;
  #signals = 0;
  #late = 0;
  #maxLateMs = 0;
  #ahead = 0;
  readonly #maxLeap: number;
  #sessions = 0;
  #openCount = 0;

  /**
   * @param options see {@link EventTimeEngineOptions}; validated here (TypeError/RangeError)
   * @param sink receives sessions, late signals and (optionally) slices
   * @param accumulators plug-ins that see applied signals, sessions and watermarks (see {@link EngineAccumulator})
   */
  constructor(options: EventTimeEngineOptions, sink: EngineSink, accumulators: readonly EngineAccumulator[] = []) {
    this.options = eventTimeEngineOptions(options);
    this.#sink = checkSink("EventTimeEngine", sink);
    if (sink.slice !== undefined && typeof sink.slice !== "function") throw new TypeError("EventTimeEngine: sink.slice must be a function");
    if (!Array.isArray(accumulators)) throw new TypeError("accumulators must be an array");
    this.#accumulators = [...accumulators];
    this.#onSignal = this.#accumulators.filter((a) => typeof a.signal === "function");
    this.#onSession = this.#accumulators.filter((a) => typeof a.session === "function");
    this.#onAdvance = this.#accumulators.filter((a) => typeof a.advance === "function");
    this.#onReach = this.#accumulators.filter((a) => typeof a.reached === "function");
    this.#gap = this.options.gapMs;
    this.#lateness = this.options.allowedLatenessMs;
    this.#maxLeap = this.options.maxLeapMs;
    const smoothing = this.options.smoothing;
    this.#kalman = smoothing.method === "kalman" ? smoothing.kalman : null;
    this.#trimmed = smoothing.method === "trimmedMean" ? smoothing.trimmed : null;
    this.#proximity = this.options.proximity === false ? null : this.options.proximity;
    this.#immediateLog = this.#proximity === null ? Number.NaN : Math.log10(this.#proximity.zones.immediateM);
    this.#nearLog = this.#proximity === null ? Number.NaN : Math.log10(this.#proximity.zones.nearM);
    this.#slices = this.#proximity !== null && sink.slice !== undefined;
    if (sink.slice !== undefined && this.#proximity === null) throw new TypeError("EventTimeEngine: sink.slice needs proximity on");
  }

  /** Counters so far (a fresh snapshot object). */
  get stats(): EventTimeEngineStats {
    let buffered = 0;
    for (const shop of this.#shops.values()) buffered += shop.lane.size;
    return { signals: this.#signals, late: this.#late, maxLateMs: this.#maxLateMs, ahead: this.#ahead, sessions: this.#sessions, openSessions: this.#openCount, buffered };
  }

  /**
   * The shop's current watermark (epoch ms; `-Infinity` before its first signal).
   *
   * @example
   * engine.watermark(101); // -Infinity
   */
  watermark(shopId: number): number {
    return this.#shops.get(shopId)?.lane.watermark ?? Number.NEGATIVE_INFINITY;
  }

  /** Feeds one decoded signal. May emit sessions (and slices) the advancing watermark finished. */
  push(signal: Signal): void {
    this.#signals++;
    let shop = this.#lastShop;
    if (shop === undefined || shop.shopId !== signal.shopId) {
      shop = this.#shops.get(signal.shopId);
      if (shop === undefined) {
        shop = {
          shopId: signal.shopId,
          lane: new EventTimeReorder({ allowedLatenessMs: this.#lateness }),
          open: new Map(),
          recent: undefined,
          endHead: undefined,
          endTail: undefined,
          startHead: undefined,
          startTail: undefined,
          sweptSlice: Number.NEGATIVE_INFINITY,
          held: [],
          firstSensor: undefined,
          manySensors: false,
          nextReach: this.#onReach.length > 0 ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY,
        };
        this.#shops.set(signal.shopId, shop);
      }
      this.#lastShop = shop;
    }
    if (!shop.manySensors && signal.sensor !== shop.firstSensor) {
      if (shop.firstSensor === undefined) shop.firstSensor = signal.sensor;
      else shop.manySensors = true;
    }
    // `-Infinity + x` before the first signal, and NaN, compare false: never held.
    if (signal.time > shop.lane.maxSeen + this.#maxLeap) {
      this.#hold(shop, signal);
      return;
    }
    // A signal at the shop's time says the held ones leapt alone: a clock that jumped.
    if (shop.held.length > 0) {
      this.#ahead += shop.held.length;
      shop.held = [];
    }
    this.#take(shop, signal);
  }

  // A signal far ahead of its shop's time: held until another sensor leaps as far (taken) or a
  // signal at the shop's time arrives (dropped). Alone on its shop's only sensor, taken at once.
  #hold(shop: ShopState, signal: Signal): void {
    const held = shop.held;
    held.push(signal);
    let confirmed = !shop.manySensors;
    for (let i = 0; i < held.length - 1 && !confirmed; i++) confirmed = held[i]!.sensor !== signal.sensor;
    if (!confirmed) return;
    shop.held = [];
    for (const s of held) this.#take(shop, s);
  }

  // The watermark rule for one signal: late, or held in canonical order and the watermark moved.
  #take(shop: ShopState, signal: Signal): void {
    const lane = shop.lane;
    const before = lane.watermark;
    if (!lane.add(signal)) {
      this.#late++;
      // A NaN time is late too, and compares false here: it says nothing about lateness.
      const behind = lane.maxSeen - signal.time;
      if (behind > this.#maxLateMs) this.#maxLateMs = behind;
      this.#sink.late?.(signal, lane.watermark);
      return;
    }
    if (lane.watermark > before) this.#advance(shop, lane.watermark);
  }

  /**
   * Applies every buffered signal and closes every open session, shop by shop (in order of each
   * shop's first signal), each in order of end; accumulators then see `advance(shopId,
   * Infinity)`. Call once when the source completes; the engine can go on being used afterwards
   * (it starts empty, watermarks kept).
   */
  flush(): void {
    for (const shop of this.#shops.values()) {
      // Held with nothing to say otherwise: taken.
      const held = shop.held;
      shop.held = [];
      for (const s of held) this.#take(shop, s);
      const lane = shop.lane;
      for (let s = lane.take(Number.POSITIVE_INFINITY); s !== undefined; s = lane.take(Number.POSITIVE_INFINITY)) this.#apply(shop, s);
      if (this.#onReach.length > 0) {
        this.#reach(shop, Number.POSITIVE_INFINITY);
        // Input after a flush starts afresh: the accumulators hear of its first signal.
        shop.nextReach = Number.NEGATIVE_INFINITY;
      }
      this.#closeUntil(shop, Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY);
      // Later signals must not reach back into what is closed here (raised after closing, so the
      // flushed sessions carry the watermark the stream had reached).
      if (lane.maxSeen > lane.watermark) lane.watermark = lane.maxSeen;
      const advance = this.#onAdvance;
      for (let i = 0; i < advance.length; i++) advance[i]!.advance!(shop.shopId, Number.POSITIVE_INFINITY);
    }
  }

  // Releases held signals below the watermark in order, closes what the watermark passed, then
  // (with a slice sink) finishes slices it passed, and tells the accumulators.
  #advance(shop: ShopState, watermark: number): void {
    const lane = shop.lane;
    for (let s = lane.take(watermark); s !== undefined; s = lane.take(watermark)) this.#apply(shop, s);
    this.#closeUntil(shop, watermark, watermark);
    if (this.#slices) {
      const slice = Math.floor(watermark / this.#proximity!.sliceMs);
      if (slice > shop.sweptSlice) {
        shop.sweptSlice = slice;
        const sliceMs = this.#proximity!.sliceMs;
        for (let open = shop.endHead; open !== undefined; open = open.nextByEnd) {
          if (open.sliceStart === open.sliceStart && watermark >= open.sliceStart + sliceMs) this.#finishSlice(shop, open);
        }
      }
    }
    const advance = this.#onAdvance;
    for (let i = 0; i < advance.length; i++) advance[i]!.advance!(shop.shopId, watermark);
  }

  // Applies one signal in canonical order: every signal before it has been applied.
  #apply(shop: ShopState, s: Signal): void {
    const t = s.time;
    // Sessions that cannot reach t close first, so emission order follows `end` exactly.
    const oldest = shop.endHead;
    if (oldest !== undefined && oldest.end + this.#gap < t) this.#closeUntil(shop, t, t);
    if (t >= shop.nextReach) this.#reach(shop, t);
    let open = shop.recent;
    if (open === undefined || open.device !== s.device) open = shop.open.get(s.device);
    if (open === undefined) {
      open = newSession(s, shop.endTail, shop.startTail);
      shop.open.set(s.device, open);
      this.#openCount++;
      if (shop.endTail === undefined) shop.endHead = open;
      else shop.endTail.nextByEnd = open;
      shop.endTail = open;
      // Signals are applied in time order, so a new session has the latest start.
      if (shop.startTail === undefined) shop.startHead = open;
      else shop.startTail.nextByStart = open;
      shop.startTail = open;
    } else {
      // Readings within a second are one probe (a burst, or several sensors hearing one frame).
      if (t - open.end > PROBE_MERGE_MS) {
        open.probes++;
        // A machine probes on a timer: its gaps repeat (a missed probe makes a whole multiple).
        const gap = t - open.probeStart;
        const last = open.lastGap;
        if (last > 0 && gap > 0) {
          const ratio = gap > last ? gap / last : last / gap;
          const k = Math.round(ratio);
          if (Math.abs(ratio - k) <= PERIODIC_TOLERANCE * k) open.periodicGaps++;
        }
        open.lastGap = gap;
        open.probeStart = t;
      }
      open.end = t;
      open.count++;
      if (shop.endTail !== open) {
        // Move to the tail of the by-end list: it now has the latest end.
        const prev = open.prevByEnd;
        const next = open.nextByEnd!;
        if (prev === undefined) shop.endHead = next;
        else prev.nextByEnd = next;
        next.prevByEnd = prev;
        open.prevByEnd = shop.endTail;
        open.nextByEnd = undefined;
        shop.endTail!.nextByEnd = open;
        shop.endTail = open;
      }
    }
    shop.recent = open;
    const proximity = this.#proximity;
    if (proximity !== null) {
      // A slice is finished by the first signal after it (before that signal changes any
      // smoothed value), so it describes the device as it was at the slice's end.
      // Signals come in time order, so one before the open slice's end is in it (no division);
      // NaN, no open slice, compares false.
      if (!(t < open.sliceStart + proximity.sliceMs)) {
        if (open.sliceStart === open.sliceStart) this.#finishSlice(shop, open);
        open.sliceStart = Math.floor(t / proximity.sliceMs) * proximity.sliceMs;
        open.sliceSignals = 0;
      }
      open.sliceSignals++;
    }
    const sensors = open.sensors;
    let acc: SensorAcc | undefined;
    for (let i = 0; i < sensors.length; i++) {
      if (sensors[i]!.sensor === s.sensor) {
        acc = sensors[i];
        break;
      }
    }
    if (acc === undefined) {
      acc = {
        sensor: s.sensor,
        model: proximity === null ? NO_MODEL : (proximity.models.get(s.sensor) ?? proximity.defaultModel),
        trimmed: this.#trimmed === null ? null : createTrimmedMeanState(this.#trimmed),
        count: 0,
        first: t,
        last: t,
        peakRssi: Number.NEGATIVE_INFINITY,
        peakSmoothed: Number.NEGATIVE_INFINITY,
        smoothed: Number.NaN,
        logDistance: Number.NaN,
        // A fresh Kalman state (see createKalmanState); unused with the trimmed mean.
        x: Number.NaN,
        p: Number.NaN,
        t: Number.NaN,
      };
      sensors.push(acc);
    }
    acc.count++;
    acc.last = t;
    if (s.rssi > acc.peakRssi) acc.peakRssi = s.rssi;
    const kalman = this.#kalman;
    const smoothed = kalman !== null ? kalmanFilter(acc, s.rssi, t, kalman) : runningTrimmedMean(acc.trimmed!, s.rssi, t, this.#trimmed!);
    acc.smoothed = smoothed;
    if (smoothed > acc.peakSmoothed) acc.peakSmoothed = smoothed;
    const onSignal = this.#onSignal;
    for (let i = 0; i < onSignal.length; i++) onSignal[i]!.signal!(s);
  }

  // Tells the `reached` accumulators that the shop's event time reached t (see EngineAccumulator).
  #reach(shop: ShopState, t: number): void {
    let snapshot: readonly Session[] | undefined;
    const open = (): readonly Session[] => (snapshot ??= this.#openSessions(shop, t));
    let next = Number.POSITIVE_INFINITY;
    const reach = this.#onReach;
    for (let i = 0; i < reach.length; i++) {
      const wants = reach[i]!.reached!(shop.shopId, t, open);
      if (wants < next) next = wants;
    }
    shop.nextReach = next;
  }

  // The shop's open sessions as they are now, by start (without proximity: it is finished only
  // when a session closes).
  #openSessions(shop: ShopState, frontier: number): Session[] {
    const out: Session[] = [];
    const complete = shop.startHead === undefined || shop.startHead.start > frontier ? frontier : shop.startHead.start;
    for (let open = shop.startHead; open !== undefined; open = open.nextByStart) out.push(toSession(shop, open, complete, undefined));
    return out;
  }

  // Finishes the open slice of a session: the nearest fresh sensor, its distance and zone.
  #finishSlice(shop: ShopState, d: OpenSession): void {
    const p = this.#proximity!;
    const sliceEnd = d.sliceStart + p.sliceMs;
    const freshFrom = sliceEnd - p.sensorStaleMs;
    let competing = 0;
    let minLog = Number.POSITIVE_INFINITY;
    const sensors = d.sensors;
    for (let i = 0; i < sensors.length; i++) {
      const s = sensors[i]!;
      if (s.last < freshFrom) continue;
      competing++;
      const l = log10Distance(s.smoothed, s.model);
      s.logDistance = l;
      if (l < minLog) minLog = l;
    }
    // Only sensors whose log-distance is within rounding of the smallest can be nearest: any other
    // is farther by a factor of at least 10^1e-9, far beyond the error of a power. Usually there
    // is one: it is the nearest, and its distance is raised from its log only where an exact
    // comparison below needs it (a power per slice was ~3 % of bench row 2). Several are raised
    // to distances and compared exactly as distances, so the winner and its distance are those
    // of converting every sensor.
    const within = minLog + 1e-9 * (1 + Math.abs(minLog));
    let best: SensorAcc | undefined;
    let candidates = 0;
    for (let i = 0; i < sensors.length; i++) {
      const s = sensors[i]!;
      if (s.last < freshFrom || s.logDistance > within) continue;
      candidates++;
      best = s;
    }
    // NaN until raised (by the exact path here, or where the distance is needed below).
    let bestDistance = Number.NaN;
    // Far from overflow and NaN, where logs and powers order alike.
    if (candidates !== 1 || !(Math.abs(best!.logDistance) < LOG_DISTANCE_SAFE)) {
      best = undefined;
      bestDistance = Number.POSITIVE_INFINITY;
      for (let i = 0; i < sensors.length; i++) {
        const s = sensors[i]!;
        if (s.last < freshFrom || s.logDistance > within) continue;
        const distance = 10 ** s.logDistance;
        // Ties go to the lexicographically smaller MAC so the result is independent of arrival order.
        if (distance < bestDistance || (distance === bestDistance && best !== undefined && s.sensor < best.sensor)) {
          best = s;
          bestDistance = distance;
        }
      }
    }
    const start = d.sliceStart;
    d.sliceStart = NO_SLICE;
    // A slice always has a signal, and sensorStaleMs ≥ sliceMs, so `best` exists.
    if (best === undefined) return;
    const bestLog = best.logDistance;
    // The distance itself is needed for a slice record, at a zone bound and for an approach that
    // may be the closest so far; elsewhere the log decides, being clear of the bounds and of the
    // closest approach's log by far more than a power's error.
    if (
      bestDistance !== bestDistance &&
      (this.#slices ||
        !(Math.abs(bestLog - this.#immediateLog) > LOG_MARGIN && Math.abs(bestLog - this.#nearLog) > LOG_MARGIN) ||
        !(bestLog > d.closestLog + LOG_MARGIN))
    ) {
      bestDistance = 10 ** bestLog;
    }
    const raised = bestDistance === bestDistance;
    const zone = raised ? proximityZoneIndex(bestDistance, p.zones) : bestLog < this.#immediateLog ? 0 : bestLog < this.#nearLog ? 1 : 2;
    const from = start > d.start ? start : d.start;
    if (d.zone >= 0) addZoneTime(d, from - d.zoneFrom);
    if (zone !== d.zone || best.sensor !== d.nearest) {
      if (d.timeline.length < p.timelineLimit) {
        d.timeline.push({ time: start, sensor: best.sensor, zone: PROXIMITY_ZONES[zone]!, distanceM: raised ? bestDistance : 10 ** bestLog });
      } else {
        d.timelineTruncated = true;
      }
    }
    d.zone = zone;
    d.zoneFrom = from;
    d.nearest = best.sensor;
    d.slices++;
    // Not raised: farther than the closest so far.
    if (raised && bestDistance < d.closestDistanceM) {
      d.closestDistanceM = bestDistance;
      d.closestLog = bestLog;
      d.closestSensor = best.sensor;
      d.closestRssi = best.smoothed;
      d.closestTime = best.last;
    }
    if (this.#slices) {
      this.#sink.slice!({
        type: "proximitySlice",
        shopId: shop.shopId,
        device: d.device,
        start,
        end: sliceEnd,
        sensor: best.sensor,
        rssi: best.smoothed,
        distanceM: bestDistance,
        zone: PROXIMITY_ZONES[zone]!,
        signals: d.sliceSignals,
        sensors: competing,
      });
    }
  }

  // Emits every open session with end + gap < limit; `frontier`: all signals before it are applied.
  #closeUntil(shop: ShopState, limit: number, frontier: number): void {
    const gap = this.#gap;
    let open = shop.endHead;
    while (open !== undefined && open.end + gap < limit) {
      const next = open.nextByEnd;
      shop.endHead = next;
      if (next === undefined) shop.endTail = undefined;
      else next.prevByEnd = undefined;
      const ps = open.prevByStart;
      const ns = open.nextByStart;
      if (ps === undefined) shop.startHead = ns;
      else ps.nextByStart = ns;
      if (ns === undefined) shop.startTail = ps;
      else ns.prevByStart = ps;
      shop.open.delete(open.device);
      if (shop.recent === open) shop.recent = undefined;
      this.#openCount--;
      const oldest = shop.startHead;
      const complete = oldest === undefined || oldest.start > frontier ? frontier : oldest.start;
      let proximity: SessionProximity | undefined;
      if (this.#proximity !== null) {
        if (open.sliceStart === open.sliceStart) this.#finishSlice(shop, open);
        if (open.zone >= 0) addZoneTime(open, open.end - open.zoneFrom);
        proximity = toProximity(open, this.#proximity.zones);
      }
      const session = toSession(shop, open, complete, proximity);
      this.#sessions++;
      const onSession = this.#onSession;
      for (let i = 0; i < onSession.length; i++) onSession[i]!.session!(session);
      this.#sink.emit(session);
      open = next;
    }
  }
}

/**
 * How far apart (log10 m) two log-distances must be for their order to be their distances' order
 * without raising them: a factor of 10^1e-9, far beyond the error of a power or a log10.
 */
const LOG_MARGIN = 1e-9;
/** Log-distances of smaller magnitude (log10 m) are taken from their log: their powers are finite, not 0. */
const LOG_DISTANCE_SAFE = 300;

/** Stands in for the path-loss model when proximity is off (never read then). */
const NO_MODEL: PathLossModel = Object.freeze({ rssiAt1m: Number.NaN, exponent: Number.NaN });

function newSession(s: Signal, endTail: OpenSession | undefined, startTail: OpenSession | undefined): OpenSession {
  return {
    device: s.device,
    start: s.time,
    end: s.time,
    count: 1,
    probes: 1,
    probeStart: s.time,
    lastGap: Number.NaN,
    periodicGaps: 0,
    randomized: s.randomized,
    local: s.local,
    vendor: s.vendor,
    sensors: [],
    prevByEnd: endTail,
    nextByEnd: undefined,
    prevByStart: startTail,
    nextByStart: undefined,
    slices: 0,
    sliceStart: NO_SLICE,
    sliceSignals: 0,
    zone: -1,
    zoneFrom: 0,
    nearest: "",
    zoneMs0: 0,
    zoneMs1: 0,
    zoneMs2: 0,
    zoneSensors: [],
    zoneSensorMs: [],
    closestSensor: "",
    closestDistanceM: Number.POSITIVE_INFINITY,
    closestLog: Number.POSITIVE_INFINITY,
    closestRssi: Number.NaN,
    closestTime: Number.NaN,
    timeline: [],
    timelineTruncated: false,
  };
}

function addZoneTime(d: OpenSession, ms: number): void {
  if (d.zone === 0) d.zoneMs0 += ms;
  else if (d.zone === 1) d.zoneMs1 += ms;
  else d.zoneMs2 += ms;
  // The same interval, charged to the sensor that was nearest: one rule for both breakdowns.
  const sensors = d.zoneSensors;
  let i = 0;
  while (i < sensors.length && sensors[i] !== d.nearest) i++;
  if (i === sensors.length) {
    sensors.push(d.nearest);
    d.zoneSensorMs.push(0, 0, 0);
  }
  d.zoneSensorMs[i * 3 + d.zone]! += ms;
}

function toProximity(d: OpenSession, zones: ResolvedProximityZoneOptions): SessionProximity {
  return {
    slices: d.slices,
    closestSensor: d.closestSensor,
    closestDistanceM: d.closestDistanceM,
    closestRssi: d.closestRssi,
    closestTime: d.closestTime,
    closestZone: PROXIMITY_ZONES[proximityZoneIndex(d.closestDistanceM, zones)] as ProximityZone,
    zoneMs: { immediate: d.zoneMs0, near: d.zoneMs1, far: d.zoneMs2 },
    zoneMsBySensor: sensorZoneList(d.zoneSensors, d.zoneSensorMs),
    timeline: d.timeline,
    timelineTruncated: d.timelineTruncated,
  };
}

function sensorZoneList(sensors: readonly string[], ms: readonly number[]): SensorZoneMs[] {
  // Sized up front: every session keeps this list, and a list grown by push from [] reserves 17
  // slots for its first element.
  const out: SensorZoneMs[] = new Array(sensors.length);
  for (let i = 0; i < sensors.length; i++) {
    out[i] = { sensor: sensors[i]!, immediate: ms[i * 3]!, near: ms[i * 3 + 1]!, far: ms[i * 3 + 2]! };
  }
  // Insertion sort by MAC (sensors are distinct): a session has one to a few nearest sensors, and
  // Array.prototype.sort allocates a work copy and a comparator per session.
  for (let i = 1; i < out.length; i++) {
    const x = out[i]!;
    let j = i;
    while (j > 0 && out[j - 1]!.sensor > x.sensor) {
      out[j] = out[j - 1]!;
      j--;
    }
    out[j] = x;
  }
  return out;
}

function toSession(shop: ShopState, open: OpenSession, complete: number, proximity: SessionProximity | undefined): Session {
  const accs = open.sensors;
  const sensors: SessionSensor[] = new Array(accs.length);
  let peakRssi = Number.NEGATIVE_INFINITY;
  let peakSmoothed = Number.NEGATIVE_INFINITY;
  let nearest = "";
  for (let i = 0; i < accs.length; i++) {
    const a = accs[i]!;
    sensors[i] = {
      sensor: a.sensor,
      signalCount: a.count,
      first: a.first,
      last: a.last,
      peakRssi: a.peakRssi,
      peakSmoothedRssi: a.peakSmoothed,
    };
    if (a.peakRssi > peakRssi) peakRssi = a.peakRssi;
    if (a.peakSmoothed > peakSmoothed) {
      peakSmoothed = a.peakSmoothed;
      nearest = a.sensor;
    }
  }
  return {
    shopId: shop.shopId,
    device: open.device,
    start: open.start,
    end: open.end,
    dwellMs: open.end - open.start,
    estimatedDwellMs: estimatedDwell(open.end - open.start, open.probes),
    signalCount: open.count,
    probeCount: open.probes,
    periodicGaps: open.periodicGaps,
    randomized: open.randomized,
    local: open.local,
    vendor: open.vendor,
    peakRssi,
    peakSmoothedRssi: peakSmoothed,
    nearestSensor: nearest,
    sensors,
    watermark: shop.lane.watermark,
    complete,
    proximity,
  };
}

/**
 * Observed dwell (ms) corrected by one mean probe interval (see `Session.estimatedDwellMs`).
 *
 * @example
 * estimatedDwell(600_000, 11); // 660000: ten intervals of 60 s observed, one more missed at the edges
 * estimatedDwell(0, 1);        // 0
 */
export function estimatedDwell(dwellMs: number, probeCount: number): number {
  return probeCount > 1 ? dwellMs + dwellMs / (probeCount - 1) : dwellMs;
}
