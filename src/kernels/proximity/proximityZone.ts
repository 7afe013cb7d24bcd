/**
 * A proximity zone around a sensor, nearest first.
 *
 * @example
 * const z: ProximityZone = "near";
 */
export type ProximityZone = "immediate" | "near" | "far";

/**
 * The zones in index order (0 = immediate, 1 = near, 2 = far), for per-zone arrays.
 *
 * @example
 * PROXIMITY_ZONES[proximityZoneIndex(2.5)]; // "near"
 */
export const PROXIMITY_ZONES: readonly ProximityZone[] = Object.freeze(["immediate", "near", "far"] as const);

/**
 * Zone boundaries in metres (upper bounds, exclusive).
 *
 * @example
 * const zones = proximityZoneOptions({ nearM: 6 });
 */
export interface ProximityZoneOptions {
  /**
   * Below this distance (m) a device is "immediate": within arm's reach of the display or counter
   * the sensor is mounted at. 1 m is also where the model is anchored (rssiAt1m), so the bound is
   * the least sensitive to a wrong exponent.
   * @default 1
   */
  readonly immediateM?: number;
  /**
   * Below this distance (m) a device is "near": the same aisle or section as the sensor. With
   * σ ≈ 5 dB per reading even smoothed estimates beyond ~4 m are uncertain by a factor of 1.5+,
   * so finer bands than "far" past 4 m would be noise.
   * @default 4
   */
  readonly nearM?: number;
}

/** {@link ProximityZoneOptions} with every field present. */
export type ResolvedProximityZoneOptions = Readonly<Required<ProximityZoneOptions>>;

/**
 * Defaults of {@link ProximityZoneOptions}.
 *
 * @example
 * defaultProximityZones.nearM; // 4
 */
export const defaultProximityZones: ResolvedProximityZoneOptions = Object.freeze({ immediateM: 1, nearM: 4 });

/**
 * Validates zone bounds once: both finite and 0 < immediateM ≤ nearM, else RangeError.
 *
 * @example
 * proximityZoneOptions({ immediateM: 0.5 }); // { immediateM: 0.5, nearM: 4 }
 */
export function proximityZoneOptions(options: ProximityZoneOptions = {}): ResolvedProximityZoneOptions {
  const immediateM = options.immediateM ?? defaultProximityZones.immediateM;
  const nearM = options.nearM ?? defaultProximityZones.nearM;
  if (typeof immediateM !== "number" || !(immediateM > 0) || !Number.isFinite(immediateM)) {
    throw new RangeError(`immediateM must be a finite number > 0 (m), got ${String(immediateM)}`);
  }
  if (typeof nearM !== "number" || !(nearM >= immediateM) || !Number.isFinite(nearM)) {
    throw new RangeError(`nearM must be a finite number ≥ immediateM (m), got ${String(nearM)}`);
  }
  return Object.freeze({ immediateM, nearM });
}

/**
 * Zone index (0 immediate, 1 near, 2 far) of a distance in metres; see {@link PROXIMITY_ZONES}.
 * Monotone: a larger distance never gives a nearer zone. `NaN` counts as far.
 *
 * @example
 * proximityZoneIndex(0.5); // 0
 * proximityZoneIndex(9);   // 2
 */
export function proximityZoneIndex(distanceM: number, zones: ResolvedProximityZoneOptions = defaultProximityZones): number {
  if (distanceM < zones.immediateM) return 0;
  if (distanceM < zones.nearM) return 1;
  return 2;
}

/**
 * Zone of a distance in metres: immediate below `immediateM`, near below `nearM`, else far.
 *
 * @example
 * proximityZone(0.8); // "immediate"
 * proximityZone(2.5); // "near"
 * proximityZone(12);  // "far"
 */
export function proximityZone(distanceM: number, zones: ResolvedProximityZoneOptions = defaultProximityZones): ProximityZone {
  return PROXIMITY_ZONES[proximityZoneIndex(distanceM, zones)] as ProximityZone;
}
