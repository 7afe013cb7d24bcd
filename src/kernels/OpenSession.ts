import type { Signal } from "../codec/Signal.ts";
import { estimatedDwell } from "./estimatedDwell.ts";
import { compactNumber } from "./compactNumber.ts";
import type { KalmanState } from "./kalmanFilter.ts";
import type { PathLossModel } from "./pathLoss.ts";
import type { Session, SessionSensor } from "./Session.ts";
import type { SessionProximity } from "./SessionProximity.ts";
import type { OpenProximity, ProximitySensor, SessionProximityAccumulator } from "./SessionProximityAccumulator.ts";
import type { TrimmedMeanState } from "./trimmedMean.ts";

/**
 * Per (session, sensor) while the session is open: counts, peaks, the smoothing state (it is its
 * own Kalman state: x, p, t) and what proximity reads (the path-loss model, the latest smoothed
 * RSSI), so a sensor costs one allocation per session. Internal: the `EventTimeEngine`'s.
 *
 * @example
 * const acc: SensorAcc = newSensorAcc("b8:27:eb:00:00:01", 0, defaultPathLoss, null);
 */
export interface SensorAcc extends KalmanState, ProximitySensor {
  /** The running trimmed mean's window (`null`: the Kalman filter smooths). */
  readonly trimmed: TrimmedMeanState | null;
  count: number;
  first: number;
  last: number;
  peakRssi: number;
  peakSmoothed: number;
  smoothed: number;
}

/**
 * The open session of one device at one shop, linked into two intrusive lists of its shop:
 * by end (the order sessions close in) and by start (whose head bounds `complete`). It also
 * carries the session's proximity while it is open. Internal: the `EventTimeEngine`'s.
 *
 * @example
 * const open: OpenSession = newSession(signals[0]!, 101, undefined, undefined, null);
 */
export interface OpenSession {
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
  /** Its proximity so far: present exactly when proximity is on. */
  readonly proximity: OpenProximity | undefined;
}

/**
 * The session a signal opens at shop `shopId`, linked after the shop's current tails (it has the
 * latest end and start: signals are applied in time order), with its proximity when `proximity`
 * is given.
 *
 * @example
 * newSession(signals[0]!, 101, undefined, undefined, null).count; // 1
 */
export function newSession(
  s: Signal,
  shopId: number,
  endTail: OpenSession | undefined,
  startTail: OpenSession | undefined,
  proximity: SessionProximityAccumulator | null,
): OpenSession {
  const sensors: SensorAcc[] = [];
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
    sensors,
    prevByEnd: endTail,
    nextByEnd: undefined,
    prevByStart: startTail,
    nextByStart: undefined,
    proximity: proximity === null ? undefined : proximity.open(shopId, s.device, s.time, sensors),
  };
}

/**
 * A session's record of a sensor first heard at `t`, before its first reading is counted.
 *
 * @example
 * newSensorAcc("b8:27:eb:00:00:01", 0, defaultPathLoss, null).count; // 0
 */
export function newSensorAcc(sensor: string, t: number, model: PathLossModel, trimmed: TrimmedMeanState | null): SensorAcc {
  return {
    sensor,
    model,
    trimmed,
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
}

/**
 * The `Session` an open session is (when it closes, with its proximity; or as it is now, for
 * `EngineAccumulator.reached`, without): per sensor its counts and peaks, overall the peaks and
 * the sensor of the strongest smoothed RSSI.
 *
 * @example
 * const open = newSession(signals[0]!, 101, undefined, undefined, null);
 * toSession(101, 0, open, 0, undefined).dwellMs; // 0
 */
export function toSession(shopId: number, watermark: number, open: OpenSession, complete: number, proximity: SessionProximity | undefined): Session {
  const accs = open.sensors;
  const dwellMs = open.end - open.start;
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
      peakRssi: compactNumber(a.peakRssi),
      peakSmoothedRssi: a.peakSmoothed,
    };
    if (a.peakRssi > peakRssi) peakRssi = a.peakRssi;
    if (a.peakSmoothed > peakSmoothed) {
      peakSmoothed = a.peakSmoothed;
      nearest = a.sensor;
    }
  }
  return {
    shopId,
    device: open.device,
    start: open.start,
    end: open.end,
    dwellMs: compactNumber(dwellMs),
    estimatedDwellMs: estimatedDwell(dwellMs, open.probes),
    signalCount: open.count,
    probeCount: open.probes,
    periodicGaps: open.periodicGaps,
    randomized: open.randomized,
    local: open.local,
    vendor: open.vendor,
    peakRssi: compactNumber(peakRssi),
    peakSmoothedRssi: peakSmoothed,
    nearestSensor: nearest,
    sensors,
    watermark,
    complete,
    proximity,
  };
}
