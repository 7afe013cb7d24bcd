import type { ProximityZone } from "./proximityZone.ts";

/**
 * The nearest sensor of one device during one time slice, as the engine finishes it (what the
 * `estimateProximity` operator emits).
 *
 * @example
 * const slice: ProximitySlice = {
 *   type: "proximitySlice", shopId: 101, device: "f0:18:98:12:34:56", start: 1763600000000, end: 1763600010000,
 *   sensor: "b8:27:eb:00:00:01", rssi: -58.2, distanceM: 2.6, zone: "near", signals: 4, sensors: 2,
 * };
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
 * Proximity of one session (`Session.proximity`): closest approach, time per zone and the
 * nearest-sensor timeline, computed by the engine from the same smoothed RSSI as the session's
 * `peakSmoothedRssi`.
 *
 * @example
 * const zoneTotal = (p: SessionProximity) => p.zoneMs.immediate + p.zoneMs.near + p.zoneMs.far; // = session.dwellMs
 */
export interface SessionProximity {
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
   * to the next heard slice (or the session end), so the three sum to the session's `dwellMs`.
   * NaN in each zone when the proximity option `zoneTimes` is off (not kept).
   */
  readonly zoneMs: { readonly immediate: number; readonly near: number; readonly far: number };
  /**
   * `zoneMs` split by the sensor that was nearest, sensors in MAC order (only those that were
   * nearest at some slice); per zone they sum to `zoneMs`. What "where people stood" charts sum.
   * Empty when the proximity option `zoneTimes` is off.
   */
  readonly zoneMsBySensor: readonly SensorZoneMs[];
  /** Changes of nearest sensor or zone, oldest first, at most `timelineLimit` (none when `zoneTimes` is off). */
  readonly timeline: readonly ProximityTimelineEntry[];
  /** True when changes beyond `timelineLimit` were dropped. */
  readonly timelineTruncated: boolean;
}
