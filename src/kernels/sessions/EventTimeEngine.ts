import { markResolved, resolvedBy } from "../../options/resolvedOptions.ts";
import type { Signal } from "../../codec/Signal.ts";
import { checkNumberOption } from "../../options/checkNumberOption.ts";
import { EventTimeReorder } from "./EventTimeReorder.ts";
import { defaultKalmanFilter, kalmanFilter, kalmanFilterOptions, type KalmanFilterOptions, type ResolvedKalmanFilterOptions } from "../proximity/kalmanFilter.ts";
import { newSensorAcc, newSession, type OpenSession, type SensorAcc } from "./OpenSession.ts";
import type { PathLossModel } from "../proximity/pathLoss.ts";
import { defaultProximity, proximityOptions, type ProximityOptions, type ResolvedProximityOptions } from "../proximity/proximityOptions.ts";
import type { Session } from "./Session.ts";
import { SessionColumns } from "./SessionColumns.ts";
import type { ProximitySlice } from "../proximity/SessionProximity.ts";
import { SessionProximityAccumulator } from "../proximity/SessionProximityAccumulator.ts";
import { checkSink, type Kernel, type Sink } from "./Sink.ts";
import {
  createTrimmedMeanState,
  runningTrimmedMean,
  runningTrimmedMeanOptions,
  type ResolvedRunningTrimmedMeanOptions,
  type RunningTrimmedMeanOptions,
} from "../../stats/trimmedMean.ts";

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
  ...defaultProximity,
});

/**
 * Validates {@link EventTimeEngineOptions} eagerly (TypeError/RangeError) and fills in defaults.
 *
 * @example
 * eventTimeEngineOptions({ gapMs: 60_000 }).allowedLatenessMs; // 60000
 */
export function eventTimeEngineOptions(options: EventTimeEngineOptions = {}): ResolvedEventTimeEngineOptions {
  if (resolvedBy("eventTimeEngineOptions", options)) return options as unknown as ReturnType<typeof eventTimeEngineOptions>;
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
  return markResolved("eventTimeEngineOptions", {
    gapMs: checkNumberOption("gapMs", options.gapMs ?? d.gapMs, { min: 0, unit: "ms" }),
    allowedLatenessMs: checkNumberOption("allowedLatenessMs", options.allowedLatenessMs ?? d.allowedLatenessMs, { min: 0, unit: "ms" }),
    maxLeapMs: checkNumberOption("maxLeapMs", options.maxLeapMs ?? d.maxLeapMs, { min: 0, unit: "ms", finite: false }),
    smoothing: Object.freeze(resolvedSmoothing),
    proximity: options.proximity === false ? false : proximityOptions(options.proximity ?? {}),
  });
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
  /**
   * Internal (the classifier's, when it takes the engine's sessions directly): takes each closed
   * session instead of `emit`, before it is built — its open state, finished. Accumulators still
   * get the built session. The receiver copies what it keeps before returning
   * (`SessionColumns.add`): the engine then reuses `open`.
   */
  closed?(open: OpenSession, shopId: number, watermark: number, complete: number): void;
  /**
   * Internal, with `closed`: each sensor of a closed session lists its silences in the session
   * longer than this, ms (`SensorAcc.holes`), so that data quality counts each sensor's gaps from
   * closed sessions (`DataQuality.countBySession`). Read once, at construction. None are listed
   * when omitted.
   */
  readonly sensorHolesOverMs?: number;
}

/**
 * The extension point for anything computed per signal or per time interval of a shop —
 * data quality today, per-interval estimators (occupancy) next. Every method is optional and
 * called synchronously by the engine, in event time:
 *
 * 1. `signal` — each signal the engine applies, per shop in canonical order (time, device,
 *    sensor, RSSI, `local`, RTS); never a late one. Equal input gives equal calls, whatever the
 *    arrival order within the allowed lateness.
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
  /** Each signal the engine applies, per shop in canonical order; never a late one (1. above). */
  signal?(signal: Signal): void;
  /** Each session as it closes, before the engine's sink gets it (2. above). */
  session?(session: Session): void;
  /** The shop's watermark rose to `watermark`, epoch ms; `Infinity` when the input ends (3. above). */
  advance?(shopId: number, watermark: number): void;
  /** The shop's event time reached `time`, with its open sessions; returns the next time it wants (4. above). */
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

/**
 * What an engine that is one share of a device split (`AnalyzerShard`) is told of the records of
 * the devices it does not own, which it is given as times only (`EventTimeEngine.pushTick`).
 * Internal.
 *
 * @example
 * const share: EngineShare = { tick: (shopId, sensor, time) => {} };
 */
export interface EngineShare {
  /** Each other share's record that is not late, as it comes (in input order, not time order). */
  tick?(shopId: number, sensor: string, time: number): void;
}

/** The device of a held tick (`EventTimeEngine.pushTick` ahead of its shop): no MAC is empty. */
const TICK = "";

/** Signals closer together than this (ms) are counted as one probe in `Session.probeCount`. */
const PROBE_MERGE_MS = 1000;

/** Relative tolerance of a repeated probe gap (`Session.periodicGaps`). */
const PERIODIC_TOLERANCE = 0.1;

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
 *    canonical order (time, device, sensor, RSSI, `local`, RTS) — so any arrival order within the
 *    allowed lateness gives exactly the same results.
 * 3. **Gap rule**: per shop and device, signals no more than `gapMs` apart (inclusive) form one
 *    session; a signal that bridges two runs merges them (it is applied before either could
 *    close). A session closes when the watermark passes `end + gapMs`; {@link flush} closes
 *    every session. Sessions come out in order of `end`, ties in canonical order.
 * 4. **Per-session accumulators**, all from one pass over the applied signals: counts and
 *    probes, per sensor the raw and smoothed RSSI peaks (one smoothing per device × sensor),
 *    and proximity — per time slice the nearest sensor, its distance and zone; per session
 *    the closest approach, time per zone (overall and per nearest sensor) and a timeline
 *    (worked out by a `SessionProximityAccumulator` the engine feeds in event time).
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
  readonly #proximity: SessionProximityAccumulator | null;
  readonly #shops = new Map<number, ShopState>();
  #lastShop: ShopState | undefined;
  #signals = 0;
  #late = 0;
  #maxLateMs = 0;
  #ahead = 0;
  readonly #maxLeap: number;
  #sessions = 0;
  #openCount = 0;
  /** Whether closed sessions go to `sink.closed` unbuilt. */
  readonly #handOff: boolean;
  /** Sensor silences in a session longer than this are listed in its `SensorAcc.holes` (`EngineSink.sensorHolesOverMs`). */
  readonly #holesOver: number;
  /** Where a session is built from when it is emitted built (cleared after each). */
  readonly #columns = new SessionColumns();
  /** Closed sessions and per-sensor records nothing refers to any more, for new ones to reuse. */
  readonly #spareSessions: OpenSession[] = [];
  readonly #spareSensors: SensorAcc[] = [];
  /** What this engine, a share of a device split, is told of the others' records (null: not a share). */
  readonly #share: EngineShare | null;

  /**
   * @param options see {@link EventTimeEngineOptions}; validated here (TypeError/RangeError)
   * @param sink receives sessions, late signals and (optionally) slices
   * @param accumulators plug-ins that see applied signals, sessions and watermarks (see {@link EngineAccumulator})
   * @param share internal: when the analysis is split by device, what this share is told of the others' records (`pushTick`)
   */
  constructor(options: EventTimeEngineOptions, sink: EngineSink, accumulators: readonly EngineAccumulator[] = [], share?: EngineShare) {
    this.options = eventTimeEngineOptions(options);
    this.#sink = checkSink("EventTimeEngine", sink);
    if (sink.slice !== undefined && typeof sink.slice !== "function") throw new TypeError("EventTimeEngine: sink.slice must be a function");
    if (sink.closed !== undefined && typeof sink.closed !== "function") throw new TypeError("EventTimeEngine: sink.closed must be a function");
    if (!Array.isArray(accumulators)) throw new TypeError("accumulators must be an array");
    this.#accumulators = [...accumulators];
    this.#onSignal = this.#accumulators.filter((a) => typeof a.signal === "function");
    this.#onSession = this.#accumulators.filter((a) => typeof a.session === "function");
    this.#onAdvance = this.#accumulators.filter((a) => typeof a.advance === "function");
    this.#onReach = this.#accumulators.filter((a) => typeof a.reached === "function");
    this.#handOff = sink.closed !== undefined;
    const holes = sink.sensorHolesOverMs;
    if (holes !== undefined && !(typeof holes === "number" && holes >= 0)) throw new RangeError(`EventTimeEngine: sink.sensorHolesOverMs must be a number ≥ 0, got ${String(holes)}`);
    this.#holesOver = holes ?? Number.POSITIVE_INFINITY;
    this.#gap = this.options.gapMs;
    this.#lateness = this.options.allowedLatenessMs;
    this.#maxLeap = this.options.maxLeapMs;
    const smoothing = this.options.smoothing;
    this.#kalman = smoothing.method === "kalman" ? smoothing.kalman : null;
    this.#trimmed = smoothing.method === "trimmedMean" ? smoothing.trimmed : null;
    const proximity = this.options.proximity;
    if (sink.slice !== undefined && proximity === false) throw new TypeError("EventTimeEngine: sink.slice needs proximity on");
    this.#proximity = proximity === false ? null : new SessionProximityAccumulator(proximity, sink);
    this.#share = share ?? null;
  }

  /**
   * Internal (a device split's merge): each shop's oldest start among its open sessions, epoch
   * ms, for the shops with any open.
   * @internal
   */
  openStarts(each: (shopId: number, start: number) => void): void {
    for (const shop of this.#shops.values()) if (shop.startHead !== undefined) each(shop.shopId, shop.startHead.start);
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
    const shop = this.#shopOf(signal.shopId);
    this.#sensorSeen(shop, signal.sensor);
    // `-Infinity + x` before the first signal, and NaN, compare false: never held.
    if (signal.time > shop.lane.maxSeen + this.#maxLeap) {
      this.#hold(shop, signal);
      return;
    }
    this.#dropHeld(shop);
    this.#take(shop, signal);
  }

  /**
   * Internal (a share of a device split, `AnalyzerShard`): feeds the time of a record of a device
   * another share owns. It moves the watermark, is late or leaping exactly as the record would be,
   * and unless late is told to the share's `tick`; no session is built of it, and it is not held
   * for its turn (see `mergeShardSessions`). Every record goes to every share, as a signal or as
   * a tick, in input order.
   * @internal
   */
  pushTick(shopId: number, sensor: string, time: number): void {
    this.#signals++;
    const shop = this.#shopOf(shopId);
    this.#sensorSeen(shop, sensor);
    if (time > shop.lane.maxSeen + this.#maxLeap) {
      // Rare (a clock that jumped): held as a signal of no device.
      this.#hold(shop, { shopId, time, sensor, device: TICK, rssi: Number.NaN, rts: "", local: false, randomized: false, vendor: undefined, flags: 0 });
      return;
    }
    this.#dropHeld(shop);
    this.#takeTick(shop, sensor, time);
  }

  #shopOf(shopId: number): ShopState {
    let shop = this.#lastShop;
    if (shop === undefined || shop.shopId !== shopId) {
      shop = this.#shops.get(shopId);
      if (shop === undefined) {
        shop = {
          shopId,
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
        this.#shops.set(shopId, shop);
      }
      this.#lastShop = shop;
    }
    return shop;
  }

  #sensorSeen(shop: ShopState, sensor: string): void {
    if (!shop.manySensors && sensor !== shop.firstSensor) {
      if (shop.firstSensor === undefined) shop.firstSensor = sensor;
      else shop.manySensors = true;
    }
  }

  // A record at the shop's time says the held ones leapt alone: a clock that jumped (ticks are
  // another share's to count).
  #dropHeld(shop: ShopState): void {
    if (shop.held.length === 0) return;
    for (const h of shop.held) if (h.device !== TICK) this.#ahead++;
    shop.held = [];
  }

  // The watermark rule for another share's record: late (nothing), or counted in and the
  // watermark moved. It is not held for its turn: its time would only close sessions earlier
  // than the watermark does, which changes nothing but their `complete` — and the share's
  // `complete` is put right where the shares' sessions are merged (`mergeShardSessions`).
  #takeTick(shop: ShopState, sensor: string, time: number): void {
    const lane = shop.lane;
    const before = lane.watermark;
    if (!lane.see(time)) return;
    this.#share?.tick?.(shop.shopId, sensor, time);
    if (lane.watermark > before) this.#advance(shop, lane.watermark);
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
    for (const s of held) this.#takeHeld(shop, s);
  }

  // A held record taken at last: a signal, or another share's time held as one of no device
  // (told apart here, off the path every record takes).
  #takeHeld(shop: ShopState, signal: Signal): void {
    if (signal.device === TICK) this.#takeTick(shop, signal.sensor, signal.time);
    else this.#take(shop, signal);
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
      for (const s of held) this.#takeHeld(shop, s);
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
    const proximity = this.#proximity;
    if (proximity !== null && proximity.slices) {
      const slice = Math.floor(watermark / proximity.options.sliceMs);
      if (slice > shop.sweptSlice) {
        shop.sweptSlice = slice;
        for (let open = shop.endHead; open !== undefined; open = open.nextByEnd) proximity.sweep(open.proximity!, watermark);
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
      open = newSession(s, shop.shopId, shop.endTail, shop.startTail, this.#proximity, this.#spareSessions.pop());
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
        open.squaredGaps += gap * gap;
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
    // Before the signal changes any smoothed value: it may finish the slice before it.
    if (proximity !== null) proximity.signal(open.proximity!, t);
    const sensors = open.sensors;
    let acc: SensorAcc | undefined;
    for (let i = 0; i < sensors.length; i++) {
      if (sensors[i]!.sensor === s.sensor) {
        acc = sensors[i];
        break;
      }
    }
    if (acc === undefined) {
      const model = proximity === null ? NO_MODEL : proximity.model(s.sensor);
      acc =
        this.#trimmed === null
          ? newSensorAcc(s.sensor, t, model, null, this.#spareSensors.pop())
          : newSensorAcc(s.sensor, t, model, createTrimmedMeanState(this.#trimmed), undefined);
      sensors.push(acc);
    }
    acc.count++;
    if (t - acc.last > this.#holesOver) (acc.holes ??= []).push(acc.last, t);
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
    for (let open = shop.startHead; open !== undefined; open = open.nextByStart) out.push(this.#columns.build(open, shop.shopId, shop.lane.watermark, complete, false));
    return out;
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
      const proximity = this.#proximity;
      if (proximity !== null) proximity.finish(open.proximity!, open.end);
      this.#sessions++;
      const onSession = this.#onSession;
      // Built only where something reads it now: the accumulators, or a sink that is not the
      // classifier (which builds each session when it emits it, from its own copy).
      if (onSession.length > 0 || !this.#handOff) {
        const session = this.#columns.build(open, shop.shopId, shop.lane.watermark, complete, proximity !== null);
        for (let i = 0; i < onSession.length; i++) onSession[i]!.session!(session);
        if (!this.#handOff) this.#sink.emit(session);
      }
      if (this.#handOff) this.#sink.closed!(open, shop.shopId, shop.lane.watermark, complete);
      this.#reuse(open);
      open = next;
    }
  }

  // A closed session, built or handed on, is referred to by nothing: new sessions reuse it, its
  // proximity and its per-sensor records, so the open state is allocated once per session open at
  // a time, not once per session. Records with a trimmed-mean window are not reused (the window
  // would need clearing).
  #reuse(open: OpenSession): void {
    if (this.#trimmed === null) for (const acc of open.sensors) this.#spareSensors.push(acc);
    open.sensors = NO_SENSORS;
    open.prevByEnd = undefined;
    open.nextByEnd = undefined;
    open.prevByStart = undefined;
    open.nextByStart = undefined;
    this.#spareSessions.push(open);
  }
}

/** A spare session's sensors until it is reused (frozen: nothing may add to it). */
const NO_SENSORS = Object.freeze([]) as readonly SensorAcc[] as SensorAcc[];

/** Stands in for the path-loss model when proximity is off (never read then). */
const NO_MODEL: PathLossModel = Object.freeze({ rssiAt1m: Number.NaN, exponent: Number.NaN });
