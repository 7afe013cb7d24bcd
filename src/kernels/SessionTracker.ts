import type { Signal } from "../codec/Signal.ts";
import { checkNumberOption } from "./checkNumberOption.ts";
import { EventTimeReorder } from "./EventTimeReorder.ts";
import {
  defaultKalmanFilter,
  kalmanFilter,
  kalmanFilterOptions,
  type KalmanFilterOptions,
  type KalmanState,
  type ResolvedKalmanFilterOptions,
} from "./kalmanFilter.ts";
import type { Session, SessionSensor } from "./Session.ts";

/**
 * Options of {@link SessionTracker} (and the `sessionize` operator).
 *
 * @example
 * const options: SessionTrackerOptions = { gapMs: 5 * 60_000, allowedLatenessMs: 30_000 };
 */
export interface SessionTrackerOptions {
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
   * Kalman filter applied per session and sensor to get the smoothed RSSI whose peak classifies
   * visits (see `kalmanFilter`).
   * @default defaultKalmanFilter ({ processNoisePerS: 3, measurementNoise: 25 })
   */
  readonly smoothing?: KalmanFilterOptions;
}

/** {@link SessionTrackerOptions} with every field present. */
export interface ResolvedSessionTrackerOptions {
  readonly gapMs: number;
  readonly allowedLatenessMs: number;
  readonly smoothing: ResolvedKalmanFilterOptions;
}

/**
 * Defaults of {@link SessionTrackerOptions}.
 *
 * @example
 * defaultSessionTracker.gapMs; // 300000
 */
export const defaultSessionTracker: ResolvedSessionTrackerOptions = Object.freeze({
  gapMs: 300_000,
  allowedLatenessMs: 60_000,
  smoothing: defaultKalmanFilter,
});

/**
 * Validates {@link SessionTrackerOptions} eagerly and fills in defaults.
 * Throws TypeError/RangeError for a negative or non-finite `gapMs` or `allowedLatenessMs`.
 *
 * @example
 * sessionTrackerOptions({ gapMs: 60_000 }).allowedLatenessMs; // 60000
 */
export function sessionTrackerOptions(options: SessionTrackerOptions = {}): ResolvedSessionTrackerOptions {
  if (typeof options !== "object" || options === null) throw new TypeError("SessionTracker options must be an object");
  return Object.freeze({
    gapMs: checkNumberOption("gapMs", options.gapMs ?? defaultSessionTracker.gapMs, { min: 0, unit: "ms" }),
    allowedLatenessMs: checkNumberOption(
      "allowedLatenessMs",
      options.allowedLatenessMs ?? defaultSessionTracker.allowedLatenessMs,
      { min: 0, unit: "ms" },
    ),
    smoothing: options.smoothing === undefined ? defaultSessionTracker.smoothing : kalmanFilterOptions(options.smoothing),
  });
}

/**
 * Where a {@link SessionTracker} delivers its results. Created once per tracker, so the hot path
 * calls plain methods and allocates no closures.
 *
 * @example
 * const sink: SessionSink = { session: (s) => sessions.push(s), late: (signal) => late.push(signal) };
 */
export interface SessionSink {
  /** A session closed (or was flushed). */
  session(session: Session): void;
  /**
   * A signal arrived more than `allowedLatenessMs` behind the newest event time of its shop
   * (`watermark` is the shop's watermark then, epoch ms): it could change a session that may
   * already be closed, so it is not used. Not called for a late signal when omitted (it is still counted).
   */
  late?(signal: Signal, watermark: number): void;
  /**
   * The signals of one shop the watermark just released — `signals[0 … count − 1]`, in canonical
   * order — before the tracker applies them; `watermark` is the shop's new watermark (`Infinity`
   * when flushing). Called on every advance of a shop's watermark, also with no signals. For a
   * second tracker to follow the same event-time order without a reorder buffer of its own
   * (`analyze()` feeds its `ProximityTracker` this way, see `ProximityTracker.addReleased`). The
   * array is reused and may hold more than `count` entries: copy what must outlive the call, and
   * do not push into this tracker from it.
   */
  released?(shopId: number, signals: readonly Signal[], count: number, watermark: number): void;
}

/**
 * Counters of a {@link SessionTracker}.
 *
 * @example
 * tracker.stats.late; // 0
 */
export interface SessionTrackerStats {
  /** Signals pushed. */
  readonly signals: number;
  /** Signals sent to the late side channel. */
  readonly late: number;
  /** Sessions emitted. */
  readonly sessions: number;
  /** Sessions open now (one per active device and shop). */
  readonly openSessions: number;
  /** Signals held in the reorder buffers now (at most the allowed lateness's worth). */
  readonly buffered: number;
}

/** Signals closer together than this (ms) are counted as one probe in `Session.probeCount`. */
const PROBE_MERGE_MS = 1000;

// Per (session, sensor) accumulator. Plain mutable object with a fixed shape; it is its own
// Kalman state (x, p, t), so a sensor costs one allocation per session.
interface SensorAcc extends KalmanState {
  readonly sensor: string;
  count: number;
  first: number;
  last: number;
  peakRssi: number;
  peakSmoothed: number;
}

// The open session of one device at one shop, linked into two intrusive lists of its shop:
// by end (the order sessions close in) and by start (whose head bounds `complete`).
interface OpenSession {
  readonly device: string;
  readonly start: number;
  end: number;
  count: number;
  probes: number;
  readonly randomized: boolean;
  readonly local: boolean;
  readonly vendor: string | undefined;
  readonly sensors: SensorAcc[];
  prevByEnd: OpenSession | undefined;
  nextByEnd: OpenSession | undefined;
  prevByStart: OpenSession | undefined;
  nextByStart: OpenSession | undefined;
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
}

/**
 * Splits a stream of decoded signals into per-device sessions, in event time, with bounded memory.
 *
 * Rules (DESIGN.md "Session"):
 * - Per shop and device, signals no more than `gapMs` apart (inclusive) form one session;
 *   dwell = last − first. A signal that bridges two sessions joins them into one.
 * - Per shop, the watermark is the newest event time seen minus `allowedLatenessMs`. Signals are
 *   held in a small reorder buffer until the watermark passes them, then applied in canonical
 *   event-time order — so any arrival order within the allowed lateness gives exactly the same
 *   sessions, and the smoothed RSSI is computed in time order. (This is how bridging signals merge
 *   sessions: they are slotted in before either side could close.)
 * - A session is emitted when the watermark passes `end + gapMs`; {@link SessionTracker.flush}
 *   emits every open session (call it when the source completes). Sessions come out in order of
 *   `end`, ties in canonical order.
 * - A signal behind the watermark goes to `sink.late` and changes nothing.
 *
 * State: one Map of open sessions per shop (keyed by device) — no per-device streams — plus the
 * reorder buffer, so memory follows the number of active devices and the records within the
 * lateness horizon, never the total number of records. Each shop has its own watermark, so a
 * merged stream of shops that progress at different speeds loses nothing.
 *
 * @example
 * const sessions: Session[] = [];
 * const tracker = new SessionTracker({ gapMs: 300_000 }, { session: (s) => sessions.push(s) });
 * for (const signal of signals) tracker.push(signal);
 * tracker.flush();
 */
export class SessionTracker {
  /** The resolved options. */
  readonly options: ResolvedSessionTrackerOptions;
  readonly #sink: SessionSink;
  readonly #gap: number;
  readonly #lateness: number;
  readonly #kalman: ResolvedKalmanFilterOptions;
  /** Whether the sink observes released signals (`sink.released`), and the batch handed to it. */
  readonly #observed: boolean;
  readonly #batch: Signal[] = [];
  readonly #shops = new Map<number, ShopState>();
  #lastShop: ShopState | undefined;
  #signals = 0;
  #late = 0;
  #sessions = 0;
  #openCount = 0;

  /**
   * @param options see {@link SessionTrackerOptions}; validated here (TypeError/RangeError)
   * @param sink receives sessions and late signals
   */
  constructor(options: SessionTrackerOptions, sink: SessionSink) {
    this.options = sessionTrackerOptions(options);
    if (typeof sink?.session !== "function") throw new TypeError("SessionTracker needs a sink with a session() method");
    if (sink.released !== undefined && typeof sink.released !== "function") throw new TypeError("sink.released must be a function");
    this.#sink = sink;
    this.#observed = sink.released !== undefined;
    this.#gap = this.options.gapMs;
    this.#lateness = this.options.allowedLatenessMs;
    this.#kalman = this.options.smoothing;
  }

  /** Counters so far (a fresh snapshot object). */
  get stats(): SessionTrackerStats {
    let buffered = 0;
    for (const shop of this.#shops.values()) buffered += shop.lane.size;
    return {
      signals: this.#signals,
      late: this.#late,
      sessions: this.#sessions,
      openSessions: this.#openCount,
      buffered,
    };
  }

  /**
   * The shop's current watermark (epoch ms; `-Infinity` before its first signal).
   *
   * @example
   * tracker.watermark(101); // -Infinity
   */
  watermark(shopId: number): number {
    return this.#shops.get(shopId)?.lane.watermark ?? Number.NEGATIVE_INFINITY;
  }

  /**
   * Feeds one decoded signal. May emit sessions (through the sink) whose end + gap the advancing
   * watermark passed.
   */
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
        };
        this.#shops.set(signal.shopId, shop);
      }
      this.#lastShop = shop;
    }
    const lane = shop.lane;
    const before = lane.watermark;
    if (!lane.add(signal)) {
      this.#late++;
      this.#sink.late?.(signal, lane.watermark);
      return;
    }
    if (lane.watermark > before) this.#advance(shop, lane.watermark);
  }

  /**
   * Applies every buffered signal and emits every open session, shop by shop (in order of each
   * shop's first signal), each in order of end. Call once when the source completes; the tracker
   * can go on being used afterwards (it starts empty, watermarks kept).
   */
  flush(): void {
    for (const shop of this.#shops.values()) {
      this.#applyReleased(shop, Number.POSITIVE_INFINITY);
      this.#closeUntil(shop, Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY);
    }
    this.#batch.length = 0;
  }

  // Releases buffered signals below the watermark in order, then closes what the watermark passed.
  #advance(shop: ShopState, watermark: number): void {
    this.#applyReleased(shop, watermark);
    this.#closeUntil(shop, watermark, watermark);
  }

  // Applies the shop's held signals earlier than `until`, showing them to `sink.released` first.
  #applyReleased(shop: ShopState, until: number): void {
    const lane = shop.lane;
    if (!this.#observed) {
      for (let s = lane.take(until); s !== undefined; s = lane.take(until)) this.#apply(shop, s);
      return;
    }
    // Reused, with a count instead of a length: setting an array's length costs more than the rest.
    const batch = this.#batch;
    let n = 0;
    for (let s = lane.take(until); s !== undefined; s = lane.take(until)) batch[n++] = s;
    this.#sink.released!(shop.shopId, batch, n, until);
    for (let i = 0; i < n; i++) this.#apply(shop, batch[i]!);
  }

  // Applies one signal in canonical order: every signal before it has been applied.
  #apply(shop: ShopState, s: Signal): void {
    const t = s.time;
    // Sessions that cannot reach t close first, so emission order follows `end` exactly.
    const oldest = shop.endHead;
    if (oldest !== undefined && oldest.end + this.#gap < t) this.#closeUntil(shop, t, t);
    let open = shop.recent;
    if (open === undefined || open.device !== s.device) open = shop.open.get(s.device);
    if (open === undefined) {
      open = {
        device: s.device,
        start: t,
        end: t,
        count: 1,
        probes: 1,
        randomized: s.randomized,
        local: s.local,
        vendor: s.vendor,
        sensors: [],
        prevByEnd: shop.endTail,
        nextByEnd: undefined,
        prevByStart: shop.startTail,
        nextByStart: undefined,
      };
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
      if (t - open.end > PROBE_MERGE_MS) open.probes++;
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
        count: 0,
        first: t,
        last: t,
        peakRssi: Number.NEGATIVE_INFINITY,
        peakSmoothed: Number.NEGATIVE_INFINITY,
        // A fresh Kalman state (see createKalmanState).
        x: Number.NaN,
        p: Number.NaN,
        t: Number.NaN,
      };
      sensors.push(acc);
    }
    acc.count++;
    acc.last = t;
    if (s.rssi > acc.peakRssi) acc.peakRssi = s.rssi;
    const smoothed = kalmanFilter(acc, s.rssi, t, this.#kalman);
    if (smoothed > acc.peakSmoothed) acc.peakSmoothed = smoothed;
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
      this.#sessions++;
      this.#sink.session(toSession(shop, open, complete));
      open = next;
    }
  }
}

function toSession(shop: ShopState, open: OpenSession, complete: number): Session {
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
    randomized: open.randomized,
    local: open.local,
    vendor: open.vendor,
    peakRssi,
    peakSmoothedRssi: peakSmoothed,
    nearestSensor: nearest,
    sensors,
    watermark: shop.lane.watermark,
    complete,
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
