import { log10Distance, type PathLossModel } from "./pathLoss.ts";
import type { ResolvedProximityOptions } from "./proximityOptions.ts";
import { PROXIMITY_ZONES, proximityZoneIndex } from "./proximityZone.ts";
import type { ProximitySlice } from "./SessionProximity.ts";

/**
 * What proximity reads of one (session, sensor) while the session is open: the engine's
 * per-sensor record (counts, peaks, smoothing state) is one of these, so a sensor costs one
 * allocation per session.
 *
 * @example
 * const sensor: ProximitySensor = { sensor: "b8:27:eb:00:00:01", model: defaultPathLoss, last: 0, smoothed: -60, logDistance: Number.NaN };
 */
export interface ProximitySensor {
  readonly sensor: string;
  /** The sensor's path-loss model ({@link SessionProximityAccumulator.model}). */
  readonly model: PathLossModel;
  /** When the sensor last heard the device, epoch ms. */
  readonly last: number;
  /** Latest smoothed RSSI, dBm. */
  readonly smoothed: number;
  /** log10 of the distance at the slice being finished (scratch of the slice finishing). */
  logDistance: number;
}

/**
 * The proximity of one open session: its open slice, the zone it is in since when, the time per
 * zone (overall and per nearest sensor), the closest approach and the timeline so far. Made by
 * {@link SessionProximityAccumulator.open}, finished by its `finish` when the session closes, and
 * made again in place for a later session once `SessionColumns` has taken what it keeps.
 *
 * @example
 * const open: OpenProximity = new SessionProximityAccumulator(proximityOptions({})).open(101, "f0:18:98:12:34:56", 0, [], undefined);
 */
export interface OpenProximity {
  shopId: number;
  device: string;
  /** Session start, epoch ms (a slice that began before it counts from it). */
  start: number;
  /** The session's sensors, as the engine adds them. */
  sensors: readonly ProximitySensor[];
  slices: number;
  /** Start of the open slice (NaN: none open). */
  sliceStart: number;
  sliceSignals: number;
  /** Zone index since `zoneFrom` (−1 before the first slice). */
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
  /** Zone index of the closest approach (set by {@link SessionProximityAccumulator.finish}; −1 before). */
  closestZone: number;
  /**
   * The timeline so far (`SessionProximity.timeline`), flat: each entry's nearest sensor here, and
   * its time, zone index and distance (m) in `timelineNumbers`, three numbers an entry.
   */
  readonly timelineSensors: string[];
  readonly timelineNumbers: number[];
  timelineTruncated: boolean;
}

/**
 * How far apart (log10 m) two log-distances must be for their order to be their distances' order
 * without raising them: a factor of 10^1e-9, far beyond the error of a power or a log10.
 */
const LOG_MARGIN = 1e-9;
/** Log-distances of smaller magnitude (log10 m) are taken from their log: their powers are finite, not 0. */
const LOG_DISTANCE_SAFE = 300;

const NO_SLICE = Number.NaN;

/**
 * The proximity of the `EventTimeEngine`'s sessions: per time slice of a session the nearest
 * sensor, its distance and zone (delivered to `slice` when given); per session the closest
 * approach, time per zone (overall and per nearest sensor) and a timeline of changes. One per
 * engine; the engine owns the sessions and calls it, in event time, for each signal it applies
 * (before the signal changes any smoothed value), as the watermark passes slices, and when a
 * session closes. Not an `EngineAccumulator`: a slice must be finished before the signal after
 * it is smoothed, which those plug-ins (called after) cannot see.
 *
 * @example
 * const proximity = new SessionProximityAccumulator(proximityOptions({}));
 * const open = proximity.open(101, "f0:18:98:12:34:56", 0, [], undefined);
 * proximity.finish(open, 0);
 * open.slices; // 0
 */
export class SessionProximityAccumulator {
  /** The resolved options. */
  readonly options: ResolvedProximityOptions;
  /** Whether slices go to a sink (then the engine also sweeps them out as the watermark passes them). */
  readonly slices: boolean;
  readonly #sink: { slice?(slice: ProximitySlice): void };
  /** log10 of the zones' bounds (m), for zones decided from log-distances. */
  readonly #immediateLog: number;
  readonly #nearLog: number;

  /**
   * @param options resolved proximity options (`proximityOptions`)
   * @param sink its `slice`, when present, receives each finished slice (the engine's sink)
   */
  constructor(options: ResolvedProximityOptions, sink: { slice?(slice: ProximitySlice): void } = {}) {
    this.options = options;
    this.#sink = sink;
    this.slices = sink.slice !== undefined;
    this.#immediateLog = Math.log10(options.zones.immediateM);
    this.#nearLog = Math.log10(options.zones.nearM);
  }

  /**
   * The path-loss model of a sensor (its calibration's, else the default).
   *
   * @example
   * new SessionProximityAccumulator(proximityOptions({})).model("b8:27:eb:00:00:01").rssiAt1m; // -45
   */
  model(sensor: string): PathLossModel {
    return this.options.models.get(sensor) ?? this.options.defaultModel;
  }

  /**
   * The proximity of a session opened at `start`, whose sensors the engine adds to `sensors`;
   * made in `spare` (a closed session's, which nothing reads any more) when given.
   *
   * @example
   * new SessionProximityAccumulator(proximityOptions({})).open(101, "f0:18:98:12:34:56", 0, [], undefined).zone; // -1
   */
  open(shopId: number, device: string, start: number, sensors: readonly ProximitySensor[], spare: OpenProximity | undefined): OpenProximity {
    // Zone times start at none, or are not kept at all (`zoneTimes` off: NaN).
    const noTime = this.options.zoneTimes ? 0 : Number.NaN;
    if (spare === undefined) {
      return {
        shopId,
        device,
        start,
        sensors,
        slices: 0,
        sliceStart: NO_SLICE,
        sliceSignals: 0,
        zone: -1,
        zoneFrom: 0,
        nearest: "",
        zoneMs0: noTime,
        zoneMs1: noTime,
        zoneMs2: noTime,
        zoneSensors: [],
        zoneSensorMs: [],
        closestSensor: "",
        closestDistanceM: Number.POSITIVE_INFINITY,
        closestLog: Number.POSITIVE_INFINITY,
        closestRssi: Number.NaN,
        closestTime: Number.NaN,
        closestZone: -1,
        timelineSensors: [],
        timelineNumbers: [],
        timelineTruncated: false,
      };
    }
    spare.shopId = shopId;
    spare.device = device;
    spare.start = start;
    spare.sensors = sensors;
    spare.slices = 0;
    spare.sliceStart = NO_SLICE;
    spare.sliceSignals = 0;
    spare.zone = -1;
    spare.zoneFrom = 0;
    spare.nearest = "";
    spare.zoneMs0 = noTime;
    spare.zoneMs1 = noTime;
    spare.zoneMs2 = noTime;
    spare.zoneSensors.length = 0;
    spare.zoneSensorMs.length = 0;
    spare.closestSensor = "";
    spare.closestDistanceM = Number.POSITIVE_INFINITY;
    spare.closestLog = Number.POSITIVE_INFINITY;
    spare.closestRssi = Number.NaN;
    spare.closestTime = Number.NaN;
    spare.closestZone = -1;
    spare.timelineSensors.length = 0;
    spare.timelineNumbers.length = 0;
    spare.timelineTruncated = false;
    return spare;
  }

  /**
   * A signal at `t` of the session, before it changes any smoothed value: a slice is finished
   * by the first signal after it, so it describes the device as it was at the slice's end.
   *
   * @example
   * const proximity = new SessionProximityAccumulator(proximityOptions({}));
   * const open = proximity.open(101, "f0:18:98:12:34:56", 0, [], undefined);
   * proximity.signal(open, 0);
   * open.sliceSignals; // 1
   */
  signal(d: OpenProximity, t: number): void {
    const sliceMs = this.options.sliceMs;
    // Signals come in time order, so one before the open slice's end is in it (no division);
    // NaN, no open slice, compares false.
    if (!(t < d.sliceStart + sliceMs)) {
      if (d.sliceStart === d.sliceStart) this.#finishSlice(d);
      d.sliceStart = Math.floor(t / sliceMs) * sliceMs;
      d.sliceSignals = 0;
    }
    d.sliceSignals++;
  }

  /**
   * Finishes the session's open slice if the watermark passed its end (with a slice sink, the
   * slices go out as the watermark passes them, not only when the device is heard again).
   *
   * @example
   * const proximity = new SessionProximityAccumulator(proximityOptions({}));
   * proximity.sweep(proximity.open(101, "f0:18:98:12:34:56", 0, [], undefined), 60_000); // nothing open: nothing to finish
   */
  sweep(d: OpenProximity, watermark: number): void {
    if (d.sliceStart === d.sliceStart && watermark >= d.sliceStart + this.options.sliceMs) this.#finishSlice(d);
  }

  /**
   * Finishes the session's proximity when it closes at `end`: its last slice, the time in its
   * last zone up to `end`, and the zone of its closest approach. `SessionColumns` takes the
   * `SessionProximity` it is emitted with from it.
   *
   * @example
   * const proximity = new SessionProximityAccumulator(proximityOptions({}));
   * const open = proximity.open(101, "f0:18:98:12:34:56", 0, [], undefined);
   * proximity.finish(open, 0);
   * PROXIMITY_ZONES[open.closestZone]; // "far"
   */
  finish(d: OpenProximity, end: number): void {
    if (d.sliceStart === d.sliceStart) this.#finishSlice(d);
    if (d.zone >= 0) addZoneTime(d, end - d.zoneFrom);
    d.closestZone = proximityZoneIndex(d.closestDistanceM, this.options.zones);
  }

  // Finishes the open slice of a session: the nearest fresh sensor, its distance and zone.
  #finishSlice(d: OpenProximity): void {
    const p = this.options;
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
    let best: ProximitySensor | undefined;
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
    const zoneTimes = p.zoneTimes;
    // The distance itself is needed for a slice record, for an approach that may be the closest
    // so far and, where the zone is kept, at a zone bound; elsewhere the log decides, being clear
    // of the bounds and of the closest approach's log by far more than a power's error.
    if (
      bestDistance !== bestDistance &&
      (this.slices ||
        !(bestLog > d.closestLog + LOG_MARGIN) ||
        (zoneTimes && !(Math.abs(bestLog - this.#immediateLog) > LOG_MARGIN && Math.abs(bestLog - this.#nearLog) > LOG_MARGIN)))
    ) {
      bestDistance = 10 ** bestLog;
    }
    const raised = bestDistance === bestDistance;
    let zone = -1;
    if (zoneTimes || this.slices) zone = raised ? proximityZoneIndex(bestDistance, p.zones) : bestLog < this.#immediateLog ? 0 : bestLog < this.#nearLog ? 1 : 2;
    if (zoneTimes) {
      const from = start > d.start ? start : d.start;
      if (d.zone >= 0) addZoneTime(d, from - d.zoneFrom);
      if (zone !== d.zone || best.sensor !== d.nearest) {
        if (d.timelineSensors.length < p.timelineLimit) {
          d.timelineSensors.push(best.sensor);
          d.timelineNumbers.push(start, zone, raised ? bestDistance : 10 ** bestLog);
        } else {
          d.timelineTruncated = true;
        }
      }
      d.zone = zone;
      d.zoneFrom = from;
      d.nearest = best.sensor;
    }
    d.slices++;
    // Not raised: farther than the closest so far.
    if (raised && bestDistance < d.closestDistanceM) {
      d.closestDistanceM = bestDistance;
      d.closestLog = bestLog;
      d.closestSensor = best.sensor;
      d.closestRssi = best.smoothed;
      d.closestTime = best.last;
    }
    if (this.slices) {
      this.#sink.slice!({
        type: "proximitySlice",
        shopId: d.shopId,
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
}

function addZoneTime(d: OpenProximity, ms: number): void {
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
