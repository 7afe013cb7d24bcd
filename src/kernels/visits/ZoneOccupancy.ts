import { checkNumberOption } from "../../options/checkNumberOption.ts";
import type { Session } from "../sessions/Session.ts";
import type { ProximitySlice, SensorZoneMs } from "../proximity/SessionProximity.ts";
import { PROXIMITY_ZONES, type ProximityZone } from "../proximity/proximityZone.ts";

/**
 * Devices per proximity zone.
 *
 * @example
 * const z: ZoneCounts = { immediate: 2, near: 9, far: 31 };
 */
export interface ZoneCounts {
  readonly immediate: number;
  readonly near: number;
  readonly far: number;
}

/**
 * Device-time in one zone of one sensor, summed over devices: ms (two devices for one minute
 * = 120 000). The row shape `proximityZonesChart` draws.
 *
 * @example
 * const row: SensorZoneTime = { sensor: "b8:27:eb:00:00:01", zone: "near", ms: 5_400_000 };
 */
export interface SensorZoneTime {
  /** Sensor MAC. */
  readonly sensor: string;
  readonly zone: ProximityZone;
  /** Device-time, ms. */
  readonly ms: number;
}

/**
 * Options of {@link ZoneOccupancy}.
 *
 * @example
 * new ZoneOccupancy({ currentMs: 120_000 });
 */
export interface ZoneOccupancyOptions {
  /**
   * A device counts in {@link ZoneOccupancy.current} while its latest slice ended within this
   * many ms of event time before "now". Slices finish behind the proximity tracker's watermark
   * (newest time − `allowedLatenessMs`, one minute by default) once the device's next probe
   * arrives, which phones send every few seconds to a minute, so a present device's latest slice
   * is typically one to three minutes old.
   * @default 180_000
   */
  readonly currentMs?: number;
}

/**
 * Options of {@link zoneTimeBySensor}.
 *
 * @example
 * const options: ZoneTimeOptions = { sensors: ["b8:27:eb:00:00:01", "b8:27:eb:00:00:02"] };
 */
export interface ZoneTimeOptions {
  /**
   * Sensor MACs in the order rows should come (e.g. the shop's sensor list, entrance first);
   * sensors not listed follow in MAC order.
   * @default [] (MAC order)
   */
  readonly sensors?: readonly string[];
}

/**
 * Defaults of {@link ZoneOccupancyOptions}.
 *
 * @example
 * defaultZoneOccupancy.currentMs; // 180000
 */
export const defaultZoneOccupancy = Object.freeze({ currentMs: 180_000 });

/**
 * Sums the per-sensor zone time (`Session.proximity.zoneMsBySensor`) of sessions into chart
 * rows: sensors in `options.sensors` order (then MAC order), zones nearest first, rows with no
 * time left out. Use it on the sessions of the people asked about — e.g. the day's visitor
 * sessions, so a visitor's earlier walk past the window does not count as visitor time.
 * Sessions without proximity are skipped.
 *
 * @example
 * const result = await analyze(records);
 * const rows = zoneTimeBySensor(result.sessions.filter((s) => s.kind === "visitor"));
 * proximityZonesChart(rows);
 */
export function zoneTimeBySensor(sessions: Iterable<Pick<Session, "proximity">>, options: ZoneTimeOptions = {}): SensorZoneTime[] {
  const order = sensorOrder(options.sensors);
  const sums = new SensorZoneSums();
  for (const s of sessions) if (s.proximity !== undefined) sums.add(s.proximity.zoneMsBySensor);
  return sums.rows(order);
}

/**
 * Devices per proximity zone of one shop right now: each device counts in the zone of its
 * nearest sensor in its latest slice (the engine's slices, e.g. `sessionize({ onSlice })` or
 * `estimateProximity`), if that slice ended within `currentMs`. (Zone time over a day comes
 * from the sessions themselves: {@link zoneTimeBySensor}.) Memory: one entry per device with a
 * recent slice.
 *
 * @example
 * const occupancy = new ZoneOccupancy();
 * const engine = new EventTimeEngine({}, { emit: () => {}, slice: (s) => occupancy.addSlice(s) });
 * for (const s of signals) engine.push(s);
 * const lastSignalTime = signals.at(-1)!.time;
 * const { immediate, near, far } = occupancy.current(lastSignalTime);
 * immediate + near + far > 0; // true (the devices heard lately, each in its nearest sensor's zone)
 */
export class ZoneOccupancy {
  readonly #currentMs: number;
  #shopId: number | undefined;
  /** Latest slice per device: zone index and slice end (ms). */
  readonly #latest = new Map<string, { zone: number; end: number }>();

  /** Validates options eagerly (TypeError / RangeError). */
  constructor(options: ZoneOccupancyOptions = {}) {
    if (typeof options !== "object" || options === null) throw new TypeError("ZoneOccupancy options must be an object");
    this.#currentMs = checkNumberOption("currentMs", options.currentMs ?? defaultZoneOccupancy.currentMs, { min: 0, unit: "ms" });
  }


  /** A finished slice: the device's nearest sensor and zone for that slice. */
  addSlice(slice: ProximitySlice): void {
    this.#checkShop(slice.shopId);
    const zone = PROXIMITY_ZONES.indexOf(slice.zone);
    const last = this.#latest.get(slice.device);
    if (last === undefined) this.#latest.set(slice.device, { zone, end: slice.end });
    else if (slice.end >= last.end) {
      last.zone = zone;
      last.end = slice.end;
    }
  }


  /**
   * Devices per zone now: those whose latest slice ended at or after `nowMs − currentMs`
   * (event time, epoch ms; e.g. the newest signal time). Devices older than that are forgotten
   * until their next slice, so call it with a `nowMs` that does not go back.
   */
  current(nowMs: number): ZoneCounts {
    const from = nowMs - this.#currentMs;
    const counts = [0, 0, 0];
    for (const [device, last] of this.#latest) {
      if (last.end >= from) (counts[last.zone] as number)++;
      else this.#latest.delete(device);
    }
    return { immediate: counts[0] as number, near: counts[1] as number, far: counts[2] as number };
  }


  #checkShop(shopId: number): void {
    if (this.#shopId === undefined) this.#shopId = shopId;
    // Devices are keyed by MAC and "now" is one shop's event time: a second shop would mix both.
    else if (shopId !== this.#shopId) throw new RangeError(`ZoneOccupancy holds shop ${this.#shopId}; got an event of shop ${shopId} (use one per shop)`);
  }
}

function sensorOrder(sensors: readonly string[] | undefined): readonly string[] {
  if (sensors === undefined) return [];
  if (!Array.isArray(sensors) || sensors.some((s) => typeof s !== "string")) throw new TypeError("sensors must be an array of sensor MACs");
  return sensors.map((s) => s.toLowerCase());
}

/** Zone time per sensor: parallel arrays, three numbers (immediate, near, far) per sensor. */
class SensorZoneSums {
  readonly sensors: string[] = [];
  readonly ms: number[] = [];

  add(zones: readonly SensorZoneMs[]): void {
    for (const z of zones) {
      const i = this.#index(z.sensor);
      (this.ms[i] as number) += z.immediate;
      (this.ms[i + 1] as number) += z.near;
      (this.ms[i + 2] as number) += z.far;
    }
  }

  rows(order: readonly string[]): SensorZoneTime[] {
    const rank = (sensor: string): number => {
      const i = order.indexOf(sensor);
      return i < 0 ? order.length : i;
    };
    const sorted = this.sensors.map((sensor, k) => ({ sensor, k })).sort((a, b) => rank(a.sensor) - rank(b.sensor) || (a.sensor < b.sensor ? -1 : a.sensor > b.sensor ? 1 : 0));
    const out: SensorZoneTime[] = [];
    for (const { sensor, k } of sorted) {
      for (let z = 0; z < 3; z++) {
        const ms = this.ms[k * 3 + z] as number;
        if (ms > 0) out.push({ sensor, zone: PROXIMITY_ZONES[z] as ProximityZone, ms });
      }
    }
    return out;
  }

  #index(sensor: string): number {
    const k = this.sensors.indexOf(sensor);
    if (k >= 0) return k * 3;
    this.sensors.push(sensor);
    this.ms.push(0, 0, 0);
    return (this.sensors.length - 1) * 3;
  }
}
