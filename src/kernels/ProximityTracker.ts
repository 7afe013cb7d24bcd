import type { Signal } from "../codec/Signal.ts";
import {
  kalmanFilter,
  kalmanFilterOptions,
  type KalmanFilterOptions,
  type KalmanState,
  type ResolvedKalmanFilterOptions,
} from "./kalmanFilter.ts";
import { EventTimeReorder } from "./EventTimeReorder.ts";
import { log10Distance, pathLossOptions, type PathLossModel, type PathLossOptions } from "./pathLoss.ts";
import {
  PROXIMITY_ZONES,
  proximityZoneIndex,
  proximityZoneOptions,
  type ProximityZone,
  type ProximityZoneOptions,
  type ResolvedProximityZoneOptions,
} from "./proximityZone.ts";
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
 * How RSSI is smoothed per (device, sensor) before distances are estimated: the time-aware
 * 1-D Kalman filter (default) or a running trimmed mean, with that kernel's options.
 *
 * @example
 * const smoothing: ProximitySmoothing = { method: "trimmedMean", size: 7 };
 */
export type ProximitySmoothing =
  | ({ readonly method: "kalman" } & KalmanFilterOptions)
  | ({ readonly method: "trimmedMean" } & RunningTrimmedMeanOptions);

/**
 * The nearest sensor of one device during one time slice.
 *
 * @example
 * const tracker = new ProximityTracker({ onSlice: (s: ProximitySlice) => console.log(s.sensor, s.zone) });
 */
export interface ProximitySlice {
  readonly type: "proximitySlice";
  readonly shopId: number;
  readonly device: string;
  /** Slice start, epoch ms (a multiple of `sliceMs`). */
  readonly start: number;
  /** Slice end (exclusive), epoch ms. */
  readonly end: number;
  /** Nearest sensor MAC. */
  readonly sensor: string;
  /** Smoothed RSSI at that sensor, dBm. */
  readonly rssi: number;
  /** Estimated distance to that sensor, m. */
  readonly distanceM: number;
  readonly zone: ProximityZone;
  /** Signals of this device within the slice (all sensors). */
  readonly signals: number;
  /** Sensors that heard the device recently enough to compete for nearest. */
  readonly sensors: number;
}

/**
 * A change of nearest sensor or zone within a device session.
 *
 * @example
 * const e: ProximityTimelineEntry = { time: 1763600000000, sensor: "b8:27:eb:00:00:01", zone: "near", distanceM: 2.1 };
 */
export interface ProximityTimelineEntry {
  /** Start of the slice where the change was seen, epoch ms. */
  readonly time: number;
  readonly sensor: string;
  readonly zone: ProximityZone;
  /** Estimated distance, m. */
  readonly distanceM: number;
}

/**
 * Time one device session spent in each zone while one sensor was its nearest, ms.
 *
 * @example
 * const z: SensorZoneMs = { sensor: "b8:27:eb:00:00:01", immediate: 0, near: 40_000, far: 120_000 };
 */
export interface SensorZoneMs {
  /** Sensor MAC. */
  readonly sensor: string;
  readonly immediate: number;
  readonly near: number;
  readonly far: number;
}

/**
 * Proximity of one device session (signals of one shop and device no more than `gapMs` apart):
 * closest approach, time per zone and the nearest-sensor timeline.
 *
 * @example
 * const ms = (s: ProximitySummary) => s.zoneMs.immediate + s.zoneMs.near + s.zoneMs.far; // = s.end − s.start
 */
export interface ProximitySummary {
  readonly type: "proximitySummary";
  readonly shopId: number;
  readonly device: string;
  /** First signal of the session, epoch ms. */
  readonly start: number;
  /** Last signal of the session, epoch ms. */
  readonly end: number;
  /** Signals processed. */
  readonly signals: number;
  /** Time slices with at least one signal. */
  readonly slices: number;
  /** Sensor of the closest approach. */
  readonly closestSensor: string;
  /** Smallest estimated distance of any slice, m. */
  readonly closestDistanceM: number;
  /** Smoothed RSSI at the closest approach, dBm. */
  readonly closestRssi: number;
  /** Event time of the reading behind the closest approach, epoch ms. */
  readonly closestTime: number;
  readonly closestZone: ProximityZone;
  /**
   * Time per zone, ms. Each slice's zone holds from that slice's start (or the session start)
   * to the next heard slice (or the session end), so the three sum to `end − start` (the dwell).
   */
  readonly zoneMs: { readonly immediate: number; readonly near: number; readonly far: number };
  /**
   * `zoneMs` split by the sensor that was nearest, sensors in MAC order (only those that were
   * nearest at some slice); per zone they sum to `zoneMs`. What "where people stood" charts sum.
   */
  readonly zoneMsBySensor: readonly SensorZoneMs[];
  /** Changes of nearest sensor or zone, oldest first, at most `timelineLimit`. */
  readonly timeline: readonly ProximityTimelineEntry[];
  /** True when changes beyond `timelineLimit` were dropped. */
  readonly timelineTruncated: boolean;
}

/**
 * Options of {@link ProximityTracker}.
 *
 * @example
 * new ProximityTracker({ sliceMs: 5_000, smoothing: { method: "kalman", measurementNoise: 36 } });
 */
export interface ProximityTrackerOptions {
  /** Path-loss models. @default every sensor uses defaultPathLoss */
  readonly calibration?: ProximityCalibration;
  /** RSSI smoothing per (device, sensor). @default { method: "kalman" } with defaultKalmanFilter */
  readonly smoothing?: ProximitySmoothing;
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
  /** Session gap, ms: the same rule and value as `sessionize` (inclusive). @default 300_000 */
  readonly gapMs?: number;
  /**
   * Allowed lateness, ms: per shop, signals are buffered and processed in event-time order up
   * to the watermark (newest time seen in the shop − this); older ones are counted as late and
   * skipped. The same rule and default as `SessionTracker`/`sessionize`, so both trackers see
   * the same signals and close the same sessions at the same moment. @default 60_000
   */
  readonly allowedLatenessMs?: number;
  /**
   * Pull mode: a session summary nobody took with {@link ProximityTracker.takeSummary} for
   * longer than this after its session closed (by the watermark, ms) is forgotten, and with it
   * the idle device. Must exceed `gapMs`.
   * @default 900_000
   */
  readonly idleMs?: number;
  /** Most timeline entries kept per session. @default 64 */
  readonly timelineLimit?: number;
  /** Called for each finished slice (in event-time order per device). @default none */
  readonly onSlice?: (slice: ProximitySlice) => void;
  /**
   * Called for each finished session. When given, summaries are pushed here and not retained;
   * when absent they wait for {@link ProximityTracker.takeSummary}. @default none
   */
  readonly onSummary?: (summary: ProximitySummary) => void;
}

/**
 * Defaults of {@link ProximityTrackerOptions} (numbers only; models and smoothing default to
 * their kernels' defaults).
 *
 * @example
 * defaultProximityTracker.sliceMs; // 10000
 */
export const defaultProximityTracker = Object.freeze({
  sliceMs: 10_000,
  sensorStaleMs: 30_000,
  gapMs: 300_000,
  allowedLatenessMs: 60_000,
  idleMs: 900_000,
  timelineLimit: 64,
});

/**
 * Counters of a {@link ProximityTracker}.
 *
 * @example
 * const { late } = tracker.stats;
 */
export interface ProximityTrackerStats {
  /** Signals processed. */
  readonly signals: number;
  /** Signals older than the watermark, skipped. */
  readonly late: number;
  /** Signals buffered awaiting the watermark. */
  readonly buffered: number;
  /** Devices with state (open session or summary awaiting takeSummary). */
  readonly devices: number;
  /** Summaries forgotten after `idleMs` without being taken (pull mode only). */
  readonly expiredSummaries: number;
}

// Per (device, sensor). The Kalman filter's state (x, p, t) lives in this object itself, so a
// sensor costs one allocation per session.
interface SensorState extends KalmanState {
  readonly sensor: string;
  readonly model: PathLossModel;
  readonly trimmed: TrimmedMeanState | null;
  smoothed: number;
  lastTime: number;
  /** log10 of the distance at the slice being finished (scratch of #finishSlice). */
  logDistance: number;
}

interface DeviceState {
  readonly shopId: number;
  readonly device: string;
  sensors: SensorState[];
  open: boolean;
  first: number;
  last: number;
  signals: number;
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
  zoneSensors: string[];
  zoneSensorMs: number[];
  closestSensor: string;
  closestDistanceM: number;
  closestRssi: number;
  closestTime: number;
  timeline: ProximityTimelineEntry[];
  timelineTruncated: boolean;
  pending: ProximitySummary[];
  /**
   * The shop's watermark when the last session closed: untaken summaries age from here, not from
   * the last signal, so a watermark that jumps further than `idleMs` at once (a quiet hour, late
   * records arriving in a burst) cannot expire a summary in the sweep that closed it.
   */
  closedAt: number;
  /** Neighbours in the shop's device list, which keeps the Map's insertion order for #sweep. */
  prevDevice: DeviceState | undefined;
  nextDevice: DeviceState | undefined;
}

interface ShopState {
  readonly shopId: number;
  readonly devices: Map<string, DeviceState>;
  /** Watermark and reorder buffer, in this tracker's canonical order (see `proximityOrder`). */
  readonly lane: EventTimeReorder;
  sweptSlice: number;
  /**
   * The devices of `devices` linked in the Map's own (insertion) order: #sweep walks this list,
   * visiting devices in the same order as iterating the Map but without an iterator per step.
   */
  firstDevice: DeviceState | undefined;
  lastDevice: DeviceState | undefined;
  /**
   * The device of the last signal processed: the signals of one probe heard by several sensors
   * come one after another and then skip the Map lookup.
   */
  recent: DeviceState | undefined;
}

const NO_SLICE = Number.NaN;

/**
 * The timeline of a device between sessions: every session starts a fresh array (entries are
 * only added while a session is open), so closed ones share this frozen empty one.
 */
const NO_TIMELINE = Object.freeze([]) as unknown as ProximityTimelineEntry[];

/**
 * Per-device proximity in event time: smoothed RSSI per (shop, device, sensor), per time slice
 * the nearest sensor with its estimated distance and zone, and per device session the closest
 * approach, time per zone and a nearest-sensor timeline.
 *
 * State lives in one nested Map (shop → device) of plain objects and is bounded by active
 * devices: a session closes when the shop's watermark passes its last signal + `gapMs`, and the
 * idle device is forgotten then (pull mode: once its summaries are taken, or `idleMs` later).
 * Each shop has its own watermark (newest time seen − `allowedLatenessMs`) and a small sorted
 * buffer, and signals are processed in canonical event-time order, so the output does not
 * depend on arrival order within the allowed lateness nor on how shops are interleaved.
 *
 * Two ways to consume results:
 * - push: `onSlice` / `onSummary` callbacks (what `estimateProximity` uses);
 * - pull: feed the same signals as the session tracker, then at each session close call
 *   {@link ProximityTracker.takeSummary}(shopId, device, start, end).
 *
 * @example
 * const tracker = new ProximityTracker();
 * for (const s of signals) tracker.add(s);
 * tracker.flush();
 * const summary = tracker.takeSummary(101, "f0:18:98:12:34:56", sessionStart, sessionEnd);
 * summary?.closestZone; // "near"
 */
export class ProximityTracker {
  readonly #sliceMs: number;
  readonly #staleMs: number;
  readonly #gapMs: number;
  readonly #latenessMs: number;
  readonly #idleMs: number;
  readonly #timelineLimit: number;
  readonly #zones: ResolvedProximityZoneOptions;
  readonly #kalman: ResolvedKalmanFilterOptions | null;
  readonly #trimmed: ResolvedRunningTrimmedMeanOptions | null;
  readonly #defaultModel: PathLossModel;
  readonly #models: Map<string, PathLossModel>;
  readonly #onSlice: ((slice: ProximitySlice) => void) | undefined;
  readonly #onSummary: ((summary: ProximitySummary) => void) | undefined;
  readonly #shops = new Map<number, ShopState>();
  /** The shop of the previous signal: pages are per shop, so this skips most Map lookups. */
  #lastShop: ShopState | undefined;
  #signals = 0;
  #late = 0;
  #devices = 0;
  #expired = 0;

  /** Validates every option eagerly (TypeError / RangeError). */
  constructor(options: ProximityTrackerOptions = {}) {
    const d = defaultProximityTracker;
    this.#sliceMs = positiveInteger("sliceMs", options.sliceMs ?? d.sliceMs);
    this.#staleMs = nonNegative("sensorStaleMs", options.sensorStaleMs ?? d.sensorStaleMs);
    if (this.#staleMs < this.#sliceMs) {
      throw new RangeError(`sensorStaleMs (${this.#staleMs}) must be ≥ sliceMs (${this.#sliceMs})`);
    }
    this.#gapMs = nonNegative("gapMs", options.gapMs ?? d.gapMs);
    this.#latenessMs = nonNegative("allowedLatenessMs", options.allowedLatenessMs ?? d.allowedLatenessMs);
    this.#idleMs = nonNegative("idleMs", options.idleMs ?? d.idleMs);
    if (!(this.#idleMs > this.#gapMs)) throw new RangeError(`idleMs (${this.#idleMs}) must exceed gapMs (${this.#gapMs})`);
    this.#timelineLimit = options.timelineLimit ?? d.timelineLimit;
    if (!Number.isInteger(this.#timelineLimit) || this.#timelineLimit < 0) {
      throw new RangeError(`timelineLimit must be an integer ≥ 0, got ${String(this.#timelineLimit)}`);
    }
    this.#zones = proximityZoneOptions(options.zones);
    const smoothing = options.smoothing ?? { method: "kalman" };
    if (smoothing.method === "kalman") {
      this.#kalman = kalmanFilterOptions(smoothing);
      this.#trimmed = null;
    } else if (smoothing.method === "trimmedMean") {
      this.#kalman = null;
      this.#trimmed = runningTrimmedMeanOptions(smoothing);
    } else {
      throw new TypeError(`smoothing.method must be "kalman" or "trimmedMean", got ${String((smoothing as { method: unknown }).method)}`);
    }
    this.#defaultModel = pathLossOptions(options.calibration?.default);
    this.#models = new Map();
    const sensors = options.calibration?.sensors;
    if (sensors !== undefined) {
      const entries = sensors instanceof Map ? sensors.entries() : Object.entries(sensors);
      for (const [mac, model] of entries as Iterable<[string, PathLossOptions]>) {
        this.#models.set(mac.toLowerCase(), pathLossOptions({ ...options.calibration?.default, ...model }));
      }
    }
    for (const [name, fn] of [["onSlice", options.onSlice], ["onSummary", options.onSummary]] as const) {
      if (fn !== undefined && typeof fn !== "function") throw new TypeError(`${name} must be a function`);
    }
    this.#onSlice = options.onSlice;
    this.#onSummary = options.onSummary;
  }

  /** Counters (a fresh snapshot object). */
  get stats(): ProximityTrackerStats {
    return {
      signals: this.#signals,
      late: this.#late,
      buffered: this.#buffered(),
      devices: this.#devices,
      expiredSummaries: this.#expired,
    };
  }

  /**
   * A shop's watermark, epoch ms (newest event time seen − allowedLatenessMs; −∞ before its
   * first signal): every earlier signal has been processed, and older arrivals are late.
   *
   * @example
   * tracker.watermark(101); // -Infinity
   */
  watermark(shopId: number): number {
    return this.#shops.get(shopId)?.lane.watermark ?? Number.NEGATIVE_INFINITY;
  }

  /**
   * Adds one signal. Returns false when it was late (older than the watermark) and skipped.
   * May call `onSlice` / `onSummary` synchronously for slices and sessions it completes.
   */
  add(signal: Signal): boolean {
    const shop = this.#shopOf(signal.shopId);
    const lane = shop.lane;
    const before = lane.watermark;
    if (!lane.add(signal)) {
      this.#late++;
      return false;
    }
    const watermark = lane.watermark;
    if (watermark > before) {
      this.#release(shop, watermark);
      const slice = Math.floor(watermark / this.#sliceMs);
      if (slice > shop.sweptSlice) {
        shop.sweptSlice = slice;
        this.#sweep(shop, watermark);
      }
    }
    return true;
  }

  /**
   * End of input: processes buffered signals and closes every session (as if the watermark
   * went to +∞). Summaries go to `onSummary`, or wait for {@link takeSummary} /
   * {@link takeAllSummaries}. The tracker may keep receiving later signals afterwards.
   */
  flush(): void {
    for (const shop of this.#shops.values()) {
      this.#release(shop, Number.POSITIVE_INFINITY);
      this.#closeShop(shop);
    }
  }

  /**
   * Instead of {@link add}: takes one shop's signals that another tracker's event-time rule
   * released — `signals[0 … count − 1]`, in its canonical order, with the same
   * `allowedLatenessMs` — as `SessionSink.released` hands them over, then moves the shop to
   * `watermark` (finishing slices and sessions it passed); `Infinity` ends the shop's input, as
   * {@link flush} does. The results are those of `add`ing the same signals (per device both orders agree), without
   * a second reorder buffer. Use one way of feeding per tracker; late signals never reach it, so
   * `stats.late` stays 0.
   *
   * @example
   * const proximity = new ProximityTracker();
   * const sessions = new SessionTracker({}, {
   *   released: (shopId, signals, count, watermark) => proximity.addReleased(shopId, signals, count, watermark),
   *   session: (s) => console.log(s.device, proximity.takeSummary(s.shopId, s.device, s.start, s.end)?.closestZone),
   * });
   * for (const signal of signals) sessions.push(signal);
   * sessions.flush();
   */
  addReleased(shopId: number, signals: readonly Signal[], count: number, watermark: number): void {
    const shop = this.#shopOf(shopId);
    // Raised first, so sessions these signals close are stamped with the watermark that closed them.
    if (watermark !== Number.POSITIVE_INFINITY && watermark > shop.lane.watermark) shop.lane.watermark = watermark;
    for (let i = 0; i < count; i++) this.#process(shop, signals[i] as Signal);
    if (watermark === Number.POSITIVE_INFINITY) {
      this.#closeShop(shop);
      return;
    }
    const slice = Math.floor(watermark / this.#sliceMs);
    if (slice > shop.sweptSlice) {
      shop.sweptSlice = slice;
      this.#sweep(shop, watermark);
    }
  }

  #shopOf(shopId: number): ShopState {
    let shop = this.#lastShop;
    if (shop !== undefined && shop.shopId === shopId) return shop;
    shop = this.#shops.get(shopId);
    if (shop === undefined) {
      shop = {
        shopId,
        devices: new Map(),
        lane: new EventTimeReorder({ allowedLatenessMs: this.#latenessMs, order: proximityOrder }),
        sweptSlice: Number.NEGATIVE_INFINITY,
        firstDevice: undefined,
        lastDevice: undefined,
        recent: undefined,
      };
      this.#shops.set(shopId, shop);
    }
    this.#lastShop = shop;
    return shop;
  }

  // End of a shop's input: closes every session; devices with nothing to take are forgotten.
  #closeShop(shop: ShopState): void {
    // Later signals must not reach back into what is closed here.
    if (shop.lane.maxSeen > shop.lane.watermark) shop.lane.watermark = shop.lane.maxSeen;
    for (const d of shop.devices.values()) {
      if (d.open) this.#closeSession(d, shop.lane.watermark);
      if (d.pending.length === 0) this.#forget(d);
    }
  }

  /**
   * Takes (removes and returns) the proximity summary of a session the caller has closed,
   * typically the session tracker at the same watermark: every summary of that shop and device
   * overlapping [start, end] (ms) is merged into one, and a still-open session of the device
   * starting no later than `end` is closed first. `undefined` when none overlaps.
   *
   * @example
   * const p = tracker.takeSummary(session.shopId, session.device, session.start, session.end);
   */
  takeSummary(shopId: number, device: string, start: number, end: number): ProximitySummary | undefined {
    const shop = this.#shops.get(shopId);
    const d = shop?.devices.get(device);
    if (shop === undefined || d === undefined) return undefined;
    if (d.open && d.first <= end && d.last >= start) this.#closeSession(d, shop.lane.watermark);
    let merged: ProximitySummary | undefined;
    const pending = d.pending;
    let kept = 0;
    for (let i = 0; i < pending.length; i++) {
      const s = pending[i] as ProximitySummary;
      if (s.start <= end && s.end >= start) merged = merged === undefined ? s : mergeSummaries(merged, s, this.#timelineLimit);
      else pending[kept++] = s;
    }
    pending.length = kept;
    if (!d.open && kept === 0) this.#forget(d);
    return merged;
  }

  /**
   * Takes every retained summary (pull mode), in shop, device, then time order of first sight.
   *
   * @example
   * tracker.flush();
   * const all = tracker.takeAllSummaries();
   */
  takeAllSummaries(): ProximitySummary[] {
    const out: ProximitySummary[] = [];
    for (const shop of this.#shops.values()) {
      for (const d of shop.devices.values()) {
        for (const s of d.pending) out.push(s);
        d.pending.length = 0;
        if (!d.open) this.#forget(d);
      }
    }
    return out;
  }

  #buffered(): number {
    let n = 0;
    for (const shop of this.#shops.values()) n += shop.lane.size;
    return n;
  }

  /**
   * Processes a shop's buffered signals earlier than `upTo` (ms; strictly, so signals at the
   * watermark, which may still gain equal-time company, stay sorted), in canonical order.
   */
  #release(shop: ShopState, upTo: number): void {
    const lane = shop.lane;
    for (let s = lane.take(upTo); s !== undefined; s = lane.take(upTo)) this.#process(shop, s);
  }

  #process(shop: ShopState, signal: Signal): void {
    this.#signals++;
    const time = signal.time;
    const devices = shop.devices;
    let d = shop.recent;
    if (d === undefined || d.device !== signal.device) d = devices.get(signal.device);
    if (d === undefined) {
      d = newDevice(signal.shopId, signal.device);
      devices.set(signal.device, d);
      d.prevDevice = shop.lastDevice;
      if (shop.lastDevice === undefined) shop.firstDevice = d;
      else shop.lastDevice.nextDevice = d;
      shop.lastDevice = d;
      this.#devices++;
    } else if (d.open && time > d.last + this.#gapMs) {
      this.#closeSession(d, shop.lane.watermark);
    }
    shop.recent = d;
    if (!d.open) {
      d.open = true;
      d.first = time;
      d.last = time;
      d.signals = 0;
      d.slices = 0;
      d.sliceStart = NO_SLICE;
      d.zone = -1;
      d.nearest = "";
      d.zoneMs0 = d.zoneMs1 = d.zoneMs2 = 0;
      d.zoneSensors.length = 0;
      d.zoneSensorMs.length = 0;
      d.closestDistanceM = Number.POSITIVE_INFINITY;
      d.timeline = [];
      d.timelineTruncated = false;
    }
    const sliceStart = Math.floor(time / this.#sliceMs) * this.#sliceMs;
    if (sliceStart !== d.sliceStart) {
      if (d.sliceStart === d.sliceStart) this.#finishSlice(d);
      d.sliceStart = sliceStart;
      d.sliceSignals = 0;
    }
    const sensors = d.sensors;
    let s: SensorState | undefined;
    for (let i = 0; i < sensors.length; i++) {
      if ((sensors[i] as SensorState).sensor === signal.sensor) {
        s = sensors[i];
        break;
      }
    }
    if (s === undefined) {
      s = {
        sensor: signal.sensor,
        model: this.#models.get(signal.sensor) ?? this.#defaultModel,
        // A fresh Kalman state (see createKalmanState); unused with the trimmed mean.
        x: Number.NaN,
        p: Number.NaN,
        t: Number.NaN,
        trimmed: this.#trimmed === null ? null : createTrimmedMeanState(this.#trimmed),
        smoothed: Number.NaN,
        lastTime: time,
        logDistance: Number.NaN,
      };
      sensors.push(s);
    }
    const kalman = this.#kalman;
    s.smoothed =
      kalman !== null
        ? kalmanFilter(s, signal.rssi, time, kalman)
        : runningTrimmedMean(s.trimmed as TrimmedMeanState, signal.rssi, time, this.#trimmed as ResolvedRunningTrimmedMeanOptions);
    s.lastTime = time;
    d.sliceSignals++;
    d.signals++;
    d.last = time;
  }

  #finishSlice(d: DeviceState): void {
    const sliceEnd = d.sliceStart + this.#sliceMs;
    const freshFrom = sliceEnd - this.#staleMs;
    let competing = 0;
    let minLog = Number.POSITIVE_INFINITY;
    const sensors = d.sensors;
    for (let i = 0; i < sensors.length; i++) {
      const s = sensors[i] as SensorState;
      if (s.lastTime < freshFrom) continue;
      competing++;
      const l = log10Distance(s.smoothed, s.model);
      s.logDistance = l;
      if (l < minLog) minLog = l;
    }
    // Only sensors whose log-distance is within rounding of the smallest can be nearest: any other
    // is farther by a factor of at least 10^1e-9, far beyond the error of a power. Those few are
    // raised to distances (usually one) and compared exactly as distances, so the winner and its
    // distance are those of converting every sensor.
    const within = minLog + 1e-9 * (1 + Math.abs(minLog));
    let best: SensorState | undefined;
    let bestDistance = Number.POSITIVE_INFINITY;
    for (let i = 0; i < sensors.length; i++) {
      const s = sensors[i] as SensorState;
      if (s.lastTime < freshFrom || s.logDistance > within) continue;
      const distance = 10 ** s.logDistance;
      // Ties go to the lexicographically smaller MAC so the result is independent of arrival order.
      if (distance < bestDistance || (distance === bestDistance && best !== undefined && s.sensor < best.sensor)) {
        best = s;
        bestDistance = distance;
      }
    }
    const start = d.sliceStart;
    d.sliceStart = NO_SLICE;
    // A slice always has a signal, and sensorStaleMs ≥ sliceMs, so `best` exists.
    if (best === undefined) return;
    const zone = proximityZoneIndex(bestDistance, this.#zones);
    const from = start > d.first ? start : d.first;
    if (d.zone >= 0) this.#addZoneTime(d, from - d.zoneFrom);
    if (zone !== d.zone || best.sensor !== d.nearest) {
      if (d.timeline.length < this.#timelineLimit) {
        d.timeline.push({ time: start, sensor: best.sensor, zone: PROXIMITY_ZONES[zone] as ProximityZone, distanceM: bestDistance });
      } else {
        d.timelineTruncated = true;
      }
    }
    d.zone = zone;
    d.zoneFrom = from;
    d.nearest = best.sensor;
    d.slices++;
    if (bestDistance < d.closestDistanceM) {
      d.closestDistanceM = bestDistance;
      d.closestSensor = best.sensor;
      d.closestRssi = best.smoothed;
      d.closestTime = best.lastTime;
    }
    if (this.#onSlice !== undefined) {
      this.#onSlice({
        type: "proximitySlice",
        shopId: d.shopId,
        device: d.device,
        start,
        end: sliceEnd,
        sensor: best.sensor,
        rssi: best.smoothed,
        distanceM: bestDistance,
        zone: PROXIMITY_ZONES[zone] as ProximityZone,
        signals: d.sliceSignals,
        sensors: competing,
      });
    }
  }

  #addZoneTime(d: DeviceState, ms: number): void {
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
    (d.zoneSensorMs[i * 3 + d.zone] as number) += ms;
  }

  #closeSession(d: DeviceState, watermark: number): void {
    d.closedAt = watermark;
    if (d.sliceStart === d.sliceStart) this.#finishSlice(d);
    if (d.zone >= 0) this.#addZoneTime(d, d.last - d.zoneFrom);
    d.open = false;
    // A new session starts its smoothing afresh: after a gap the old estimate says nothing.
    d.sensors = [];
    const summary: ProximitySummary = {
      type: "proximitySummary",
      shopId: d.shopId,
      device: d.device,
      start: d.first,
      end: d.last,
      signals: d.signals,
      slices: d.slices,
      closestSensor: d.closestSensor,
      closestDistanceM: d.closestDistanceM,
      closestRssi: d.closestRssi,
      closestTime: d.closestTime,
      closestZone: PROXIMITY_ZONES[proximityZoneIndex(d.closestDistanceM, this.#zones)] as ProximityZone,
      zoneMs: { immediate: d.zoneMs0, near: d.zoneMs1, far: d.zoneMs2 },
      zoneMsBySensor: sensorZoneList(d.zoneSensors, d.zoneSensorMs),
      timeline: d.timeline,
      timelineTruncated: d.timelineTruncated,
    };
    // The summary keeps the array; the next session of the device starts a new one.
    d.timeline = NO_TIMELINE;
    if (this.#onSummary !== undefined) this.#onSummary(summary);
    else d.pending.push(summary);
  }

  // Every signal earlier than the watermark has been processed and no earlier one will be
  // accepted, so slices ending by it and sessions whose gap it passed are final.
  #sweep(shop: ShopState, watermark: number): void {
    const sliceMs = this.#sliceMs;
    for (let d = shop.firstDevice; d !== undefined; d = d.nextDevice) {
      if (d.open) {
        if (watermark > d.last + this.#gapMs) this.#closeSession(d, watermark);
        else if (d.sliceStart === d.sliceStart && watermark >= d.sliceStart + sliceMs) this.#finishSlice(d);
      }
      if (!d.open && (d.pending.length === 0 || watermark > d.closedAt + this.#idleMs)) {
        this.#expired += d.pending.length;
        this.#forget(d);
      }
    }
  }

  // Shops themselves stay (a few numbers each): their watermark must survive idle devices.
  #forget(d: DeviceState): void {
    const shop = this.#shops.get(d.shopId);
    if (shop?.devices.delete(d.device) !== true) return;
    this.#devices--;
    if (shop.recent === d) shop.recent = undefined;
    // Unlinked, `d.nextDevice` is left as it was, so a #sweep standing on `d` goes on to its successor.
    const prev = d.prevDevice;
    const next = d.nextDevice;
    if (prev === undefined) shop.firstDevice = next;
    else prev.nextDevice = next;
    if (next === undefined) shop.lastDevice = prev;
    else next.prevDevice = prev;
    d.prevDevice = undefined;
  }
}

function newDevice(shopId: number, device: string): DeviceState {
  return {
    shopId,
    device,
    sensors: [],
    open: false,
    first: 0,
    last: 0,
    signals: 0,
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
    closestRssi: Number.NaN,
    closestTime: Number.NaN,
    timeline: NO_TIMELINE,
    timelineTruncated: false,
    pending: [],
    closedAt: Number.NEGATIVE_INFINITY,
    prevDevice: undefined,
    nextDevice: undefined,
  };
}

/**
 * Merges two summaries of one shop and device (e.g. when the session tracker merged what the
 * proximity tracker saw as two sessions). Zone times add up; the closest approach is the nearer.
 *
 * @example
 * const both = mergeProximitySummaries(a, b);
 */
export function mergeProximitySummaries(a: ProximitySummary, b: ProximitySummary, timelineLimit: number = defaultProximityTracker.timelineLimit): ProximitySummary {
  return mergeSummaries(a, b, timelineLimit);
}

function mergeSummaries(a: ProximitySummary, b: ProximitySummary, limit: number): ProximitySummary {
  const [x, y] = a.start <= b.start ? [a, b] : [b, a];
  const closer = y.closestDistanceM < x.closestDistanceM ? y : x;
  const timeline = x.timeline.concat(y.timeline);
  const truncated = x.timelineTruncated || y.timelineTruncated || timeline.length > limit;
  if (timeline.length > limit) timeline.length = limit;
  return {
    type: "proximitySummary",
    shopId: x.shopId,
    device: x.device,
    start: x.start,
    end: x.end > y.end ? x.end : y.end,
    signals: x.signals + y.signals,
    slices: x.slices + y.slices,
    closestSensor: closer.closestSensor,
    closestDistanceM: closer.closestDistanceM,
    closestRssi: closer.closestRssi,
    closestTime: closer.closestTime,
    closestZone: closer.closestZone,
    zoneMs: {
      immediate: x.zoneMs.immediate + y.zoneMs.immediate,
      near: x.zoneMs.near + y.zoneMs.near,
      far: x.zoneMs.far + y.zoneMs.far,
    },
    zoneMsBySensor: mergeSensorZones(x.zoneMsBySensor, y.zoneMsBySensor),
    timeline,
    timelineTruncated: truncated,
  };
}

function sensorZoneList(sensors: readonly string[], ms: readonly number[]): SensorZoneMs[] {
  const out: SensorZoneMs[] = [];
  for (let i = 0; i < sensors.length; i++) {
    out.push({ sensor: sensors[i] as string, immediate: ms[i * 3] as number, near: ms[i * 3 + 1] as number, far: ms[i * 3 + 2] as number });
  }
  // Insertion sort by MAC (sensors are distinct): a session has one to a few nearest sensors, and
  // Array.prototype.sort allocates a work copy and a comparator per session.
  for (let i = 1; i < out.length; i++) {
    const x = out[i] as SensorZoneMs;
    let j = i;
    while (j > 0 && (out[j - 1] as SensorZoneMs).sensor > x.sensor) {
      out[j] = out[j - 1] as SensorZoneMs;
      j--;
    }
    out[j] = x;
  }
  return out;
}

function mergeSensorZones(a: readonly SensorZoneMs[], b: readonly SensorZoneMs[]): SensorZoneMs[] {
  const sensors: string[] = [];
  const ms: number[] = [];
  for (const list of [a, b]) {
    for (const z of list) {
      let i = sensors.indexOf(z.sensor);
      if (i < 0) {
        i = sensors.length;
        sensors.push(z.sensor);
        ms.push(0, 0, 0);
      }
      (ms[i * 3] as number) += z.immediate;
      (ms[i * 3 + 1] as number) += z.near;
      (ms[i * 3 + 2] as number) += z.far;
    }
  }
  return sensorZoneList(sensors, ms);
}

/**
 * Order of the reorder buffer: event time, then sensor, device, rssi. Per device it is the
 * session tracker's canonical order; across devices at one instant it decides only the order in
 * which slices and summaries of different devices come out.
 */
function proximityOrder(a: Signal, b: Signal): boolean {
  if (a.time !== b.time) return a.time < b.time;
  if (a.sensor !== b.sensor) return a.sensor < b.sensor;
  if (a.device !== b.device) return a.device < b.device;
  return a.rssi < b.rssi;
}

function positiveInteger(name: string, value: number): number {
  if (!Number.isInteger(value) || value <= 0) throw new RangeError(`${name} must be a positive integer (ms), got ${String(value)}`);
  return value;
}

function nonNegative(name: string, value: number): number {
  if (typeof value !== "number" || !(value >= 0) || !Number.isFinite(value)) {
    throw new RangeError(`${name} must be a finite number ≥ 0 (ms), got ${String(value)}`);
  }
  return value;
}
