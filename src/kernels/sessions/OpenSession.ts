import type { Signal } from "../../codec/Signal.ts";
import type { KalmanState } from "../proximity/kalmanFilter.ts";
import type { PathLossModel } from "../proximity/pathLoss.ts";
import type { OpenProximity, ProximitySensor, SessionProximityAccumulator } from "../proximity/SessionProximityAccumulator.ts";
import type { TrimmedMeanState } from "../../stats/trimmedMean.ts";

/**
 * Per (session, sensor) while the session is open: counts, peaks, the smoothing state (it is its
 * own Kalman state: x, p, t) and what proximity reads (the path-loss model, the latest smoothed
 * RSSI), so a sensor costs one allocation per session, and none once closed sessions' records are
 * reused (`spare` of {@link newSensorAcc}). Internal: the `EventTimeEngine`'s.
 *
 * @example
 * const acc: SensorAcc = newSensorAcc("b8:27:eb:00:00:01", 0, defaultPathLoss, null, undefined);
 */
export interface SensorAcc extends KalmanState, ProximitySensor {
  sensor: string;
  model: PathLossModel;
  /** The running trimmed mean's window (`null`: the Kalman filter smooths). */
  trimmed: TrimmedMeanState | null;
  count: number;
  first: number;
  last: number;
  /**
   * The sensor's silences in the session longer than `EngineSink.sensorHolesOverMs`, flat: from,
   * to, from, to… (epoch ms); null for none (data quality's gaps, counted from closed sessions).
   */
  holes: number[] | null;
  peakRssi: number;
  peakSmoothed: number;
  smoothed: number;
}

/**
 * The open session of one device at one shop, linked into two intrusive lists of its shop:
 * by end (the order sessions close in) and by start (whose head bounds `complete`). It also
 * carries the session's proximity while it is open. Once closed and handed on, the engine reuses
 * it for a later session (`spare` of {@link newSession}). Internal: the `EventTimeEngine`'s.
 *
 * @example
 * const open: OpenSession = newSession(signals[0]!, 101, undefined, undefined, null, undefined);
 */
export interface OpenSession {
  device: string;
  start: number;
  end: number;
  count: number;
  probes: number;
  /** Start of the session's latest probe, and the gap before it (NaN before the second probe). */
  probeStart: number;
  lastGap: number;
  /** Probe gaps that repeat the one before or a whole multiple of it (`Session.periodicGaps`). */
  periodicGaps: number;
  /** Σ of the squared probe gaps, ms² (`Session.squaredGapsMs2`). */
  squaredGaps: number;
  randomized: boolean;
  local: boolean;
  vendor: string | undefined;
  sensors: SensorAcc[];
  prevByEnd: OpenSession | undefined;
  nextByEnd: OpenSession | undefined;
  prevByStart: OpenSession | undefined;
  nextByStart: OpenSession | undefined;
  /** Its proximity so far: present exactly when proximity is on. */
  proximity: OpenProximity | undefined;
}

/**
 * The session a signal opens at shop `shopId`, linked after the shop's current tails (it has the
 * latest end and start: signals are applied in time order), with its proximity when `proximity`
 * is given. Made in `spare` (a closed session nothing refers to any more) when given: the open
 * state is then allocated once per session open at a time, not once per session.
 *
 * @example
 * newSession(signals[0]!, 101, undefined, undefined, null, undefined).count; // 1
 */
export function newSession(
  s: Signal,
  shopId: number,
  endTail: OpenSession | undefined,
  startTail: OpenSession | undefined,
  proximity: SessionProximityAccumulator | null,
  spare: OpenSession | undefined,
): OpenSession {
  const sensors: SensorAcc[] = [];
  const open = proximity === null ? undefined : proximity.open(shopId, s.device, s.time, sensors, spare?.proximity);
  if (spare === undefined) {
    return {
      device: s.device,
      start: s.time,
      end: s.time,
      count: 1,
      probes: 1,
      probeStart: s.time,
      lastGap: Number.NaN,
      periodicGaps: 0,
      squaredGaps: 0,
      randomized: s.randomized,
      local: s.local,
      vendor: s.vendor,
      sensors,
      prevByEnd: endTail,
      nextByEnd: undefined,
      prevByStart: startTail,
      nextByStart: undefined,
      proximity: open,
    };
  }
  spare.device = s.device;
  spare.start = s.time;
  spare.end = s.time;
  spare.count = 1;
  spare.probes = 1;
  spare.probeStart = s.time;
  spare.lastGap = Number.NaN;
  spare.periodicGaps = 0;
  spare.squaredGaps = 0;
  spare.randomized = s.randomized;
  spare.local = s.local;
  spare.vendor = s.vendor;
  spare.sensors = sensors;
  spare.prevByEnd = endTail;
  spare.nextByEnd = undefined;
  spare.prevByStart = startTail;
  spare.nextByStart = undefined;
  spare.proximity = open;
  return spare;
}

/**
 * A session's record of a sensor first heard at `t`, before its first reading is counted; made
 * in `spare` (a closed session's record nothing refers to any more) when given.
 *
 * @example
 * newSensorAcc("b8:27:eb:00:00:01", 0, defaultPathLoss, null, undefined).count; // 0
 */
export function newSensorAcc(sensor: string, t: number, model: PathLossModel, trimmed: TrimmedMeanState | null, spare: SensorAcc | undefined): SensorAcc {
  if (spare === undefined) {
    return {
      sensor,
      model,
      trimmed,
      count: 0,
      first: t,
      last: t,
      holes: null,
      peakRssi: Number.NEGATIVE_INFINITY,
      peakSmoothed: Number.NEGATIVE_INFINITY,
      smoothed: Number.NaN,
      logDistance: Number.NaN,
      // A fresh Kalman state (see createKalmanState); unused with the trimmed mean.
      x: Number.NaN,
      p: Number.NaN,
      t: Number.NaN,
    };
  }
  spare.sensor = sensor;
  spare.model = model;
  spare.trimmed = trimmed;
  spare.count = 0;
  spare.first = t;
  spare.last = t;
  spare.holes = null;
  spare.peakRssi = Number.NEGATIVE_INFINITY;
  spare.peakSmoothed = Number.NEGATIVE_INFINITY;
  spare.smoothed = Number.NaN;
  spare.logDistance = Number.NaN;
  spare.x = Number.NaN;
  spare.p = Number.NaN;
  spare.t = Number.NaN;
  return spare;
}
