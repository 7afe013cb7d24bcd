import type { SessionProximity } from "../proximity/SessionProximity.ts";

/**
 * What one sensor heard of a device during one session.
 *
 * @example
 * const s: SessionSensor = {
 *   sensor: "b8:27:eb:00:00:01", signalCount: 12, first: 1763600000000, last: 1763600420000,
 *   peakRssi: -52, peakSmoothedRssi: -56.4,
 * };
 */
export interface SessionSensor {
  /** Sensor (`square_mac`) MAC. */
  readonly sensor: string;
  /** Signals this sensor received in the session. */
  readonly signalCount: number;
  /** Event time of its first signal, epoch ms. */
  readonly first: number;
  /** Event time of its last signal, epoch ms. */
  readonly last: number;
  /** Strongest raw RSSI, dBm. */
  readonly peakRssi: number;
  /** Strongest smoothed RSSI (1-D Kalman over this sensor's readings, in event-time order), dBm. */
  readonly peakSmoothedRssi: number;
}

/**
 * One session: the signals of one device at one shop, none more than `gapMs` apart.
 * Emitted by `EventTimeEngine` (and the `sessionize` operator) when it closes, with its proximity.
 *
 * `watermark` and `complete` describe the stream's progress when the session was emitted, so
 * downstream stages (visit classification, per-day counts) can close their own windows in event
 * time without seeing the signals: every session of this shop that starts before `complete` has
 * been emitted by then.
 *
 * @example
 * const s: Session = {
 *   shopId: 101, device: "f0:18:98:12:34:56", start: 1763600000000, end: 1763600420000,
 *   dwellMs: 420000, estimatedDwellMs: 484000, signalCount: 12, probeCount: 9, periodicGaps: 2, squaredGapsMs2: 2.688e10, randomized: false, local: false, vendor: "Apple, Inc.",
 *   peakRssi: -52, peakSmoothedRssi: -56.4, nearestSensor: "b8:27:eb:00:00:01", sensors: [],
 *   watermark: 1763600800000, complete: 1763600800000, proximity: undefined,
 * };
 */
export interface Session {
  /** SHOP ID. */
  readonly shopId: number;
  /** Device MAC (lowercase, colon form). */
  readonly device: string;
  /** Event time of the first signal, epoch ms. */
  readonly start: number;
  /** Event time of the last signal, epoch ms. */
  readonly end: number;
  /** `end − start`, ms (0 for a single signal). */
  readonly dwellMs: number;
  /**
   * Estimated true dwell, ms: `dwellMs` plus the mean probe gap seen from a random instant,
   * `squaredGapsMs2 / dwellMs` (`estimatedDwell`; nothing for a single probe). The device was there
   * before its first probe and after its last: on average half the gap that an arrival or a
   * departure falls into, and an instant falls into a long gap more often than into a short one, so
   * the two edges together miss Σgap² ÷ Σgap — one interval for a phone on a timer, about two for one
   * that probes at random, more for one whose gaps are mostly short and sometimes long. Dwell
   * statistics use this by default.
   */
  readonly estimatedDwellMs: number;
  /** Signals in the session, all sensors together. */
  readonly signalCount: number;
  /**
   * Distinct probes: signals more than 1 s after the previous one of the session start a new probe
   * (a phone's burst, and several sensors hearing one frame, count once). `dwellMs / (probeCount − 1)`
   * estimates the device's probe interval.
   */
  readonly probeCount: number;
  /**
   * Probe gaps that repeat the gap before, or a whole multiple of it, within 10 % (a missed probe
   * doubles a gap): a machine probing on a timer repeats nearly all of them, a person's phone few
   * (`isPeriodicProber`).
   */
  readonly periodicGaps: number;
  /**
   * Σ of the squared gaps between the session's probes (each probe's start to the next's), ms²: with
   * `dwellMs`, how long the gaps an arrival or a departure falls into are (`estimatedDwellMs`), and
   * what a visit rejoined from several sessions adds up.
   */
  readonly squaredGapsMs2: number;
  /** Locally administered (randomized) MAC, from the address bit. */
  readonly randomized: boolean;
  /** The service's `local` flag of the first signal. */
  readonly local: boolean;
  /** IEEE OUI vendor of a universal MAC, if known. */
  readonly vendor: string | undefined;
  /** Strongest raw RSSI over all sensors, dBm. */
  readonly peakRssi: number;
  /** Strongest smoothed RSSI over all sensors, dBm: what visit classification compares to `visitorRssi`. */
  readonly peakSmoothedRssi: number;
  /** Sensor where `peakSmoothedRssi` was reached. */
  readonly nearestSensor: string;
  /** Per-sensor detail, in order of first signal. */
  readonly sensors: readonly SessionSensor[];
  /** The shop's watermark (max event time seen − allowed lateness) when the session closed, epoch ms. */
  readonly watermark: number;
  /**
   * Every session of this shop starting before this instant (epoch ms) has been emitted by the time
   * this one is (it and earlier ones). `Infinity` once the source is drained.
   */
  readonly complete: number;
  /** Closest approach, time per zone and nearest-sensor timeline; `undefined` when the engine runs with `proximity: false`. */
  readonly proximity: SessionProximity | undefined;
}
