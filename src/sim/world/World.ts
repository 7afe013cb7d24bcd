import type { Brand } from "../../contract/brand.ts";
import type { RawSignal } from "../../contract/rawSignal.ts";
import type { MacBehaviour } from "../phones/MacBehaviour.ts";
import type { ExtraDevice, RealPhones } from "../phones/RealPhones.ts";

/**
 * A brand of the simulated world (`GET /api/v1/brands` lists these): the contract's `Brand`.
 *
 * @example
 * const brand: SimBrand = { id: 1, name: "Cafe Mori" };
 */
export type SimBrand = Brand;

/**
 * A shop of the simulated world, as `GET /__sim/world` returns it.
 *
 * @example
 * const shop: SimShop = {
 *   id: 101, name: "Cafe Mori Gangnam", brandId: 1, externalKey: "MORI-GN-01",
 *   timeZone: "Asia/Seoul", sensors: ["b8:27:eb:12:34:56", "b8:27:eb:ab:cd:ef"],
 * };
 */
export interface SimShop {
  /** SHOP ID. */
  readonly id: number;
  readonly name: string;
  readonly brandId: number;
  /** The client company's identifier of the shop (the `vendor_key` of the lookup). */
  readonly externalKey: string;
  /** IANA time zone of the shop's opening hours and sales days. */
  readonly timeZone: string;
  /** `square_mac` of each sensor in the shop (2–4). */
  readonly sensors: readonly string[];
}

/**
 * Floor plan of a shop, for analysts who want to check proximity estimates: metres, with
 * the street-side wall (the only wall passers-by are behind) along y = 0 and the inside at
 * 0 < y ≤ depthM.
 *
 * @example
 * const plan: ShopLayout = { widthM: 14, depthM: 10, doorXM: 7, sensors: [{ mac: "b8:27:eb:00:00:01", xM: 3, yM: 5 }] };
 */
export interface ShopLayout {
  readonly widthM: number;
  readonly depthM: number;
  /** x of the door in the street-side wall. */
  readonly doorXM: number;
  readonly sensors: readonly { readonly mac: string; readonly xM: number; readonly yM: number }[];
}

/**
 * What a true presence was: a shopper inside, someone outside, staff, or equipment.
 *
 * @example
 * const kind: VisitKind = "passerby";
 */
export type VisitKind = "visitor" | "passerby" | "staff" | "stationary";

/**
 * How a phone chooses the MAC it probes with: its universal (vendor OUI) address, one
 * randomized address kept for the whole visit, or randomized addresses that rotate every
 * few probe bursts (see `MacBehaviour`).
 *
 * @example
 * const c: MacClass = "rotating";
 */
export type MacClass = "universal" | "stable" | "rotating";

/**
 * The per-MAC view of the ground truth: one row per MAC a person's device was heard with
 * during one visit (a phone that keeps one MAC gives one row per visit, as before rotation
 * was modelled; a rotating phone gives one row per MAC). Every signal of `device` at that
 * shop lies inside [start, end] and inside [first, last]. Consumers that count MACs keep
 * working; consumers that count people group rows by `person` (or use `World.visits`).
 *
 * @example
 * const v: TruthVisit = {
 *   shop: 101, device: "f0:76:6f:12:34:56", start: 1794790800000, end: 1794791700000, kind: "visitor",
 *   person: 3, visit: 12, inside: true, macClass: "universal", first: 1794790801000, last: 1794791690000, records: 84,
 * };
 */
export interface TruthVisit {
  /** SHOP ID. */
  readonly shop: number;
  /** Device MAC (lowercase colon form), as it appears in `device_id`. */
  readonly device: string;
  /** Arrival of the person (the visit, not the MAC), epoch milliseconds. */
  readonly start: number;
  /** Departure of the person, epoch milliseconds. */
  readonly end: number;
  readonly kind: VisitKind;
  /** The person (or piece of equipment), numbered per shop: (shop, person) identifies them across days. */
  readonly person: number;
  /** The visit, numbered per shop: rows of one visit share it. */
  readonly visit: number;
  /** Whether the visit was inside the shop (visitors, staff, equipment) rather than outside (passers-by). */
  readonly inside: boolean;
  /** How the device chose its MACs. */
  readonly macClass: MacClass;
  /** First frame sent with this MAC in this visit, epoch ms. */
  readonly first: number;
  /** Last frame sent with this MAC in this visit, epoch ms. */
  readonly last: number;
  /** Records (sensor receptions) of this MAC in this visit; always ≥ 1 in this view. */
  readonly records: number;
  /**
   * Present only on a device a person carries besides their own phone (`WorldOptions.phones`):
   * what it is. Such a row is a device of `person`, not another person.
   */
  readonly extraDevice?: ExtraDevice;
}

/**
 * One MAC a person used during one visit, heard or not.
 *
 * @example
 * const m: TruthMac = { mac: "5a:12:9c:00:41:7e", first: 1794790801000, last: 1794790801021, records: 9 };
 */
export interface TruthMac {
  /** MAC, lowercase colon form. */
  readonly mac: string;
  /** First frame sent with it, epoch ms. */
  readonly first: number;
  /** Last frame sent with it, epoch ms. */
  readonly last: number;
  /** Receptions by the shop's sensors (0 when no sensor heard it). */
  readonly records: number;
}

/**
 * One true visit of one person (the person-level truth): when, where (inside or passing),
 * and every MAC their device used, in order. Listed whether or not any sensor heard it.
 *
 * @example
 * const v: TruthPersonVisit = {
 *   shop: 101, person: 3, visit: 12, kind: "visitor", inside: true, start: 1794790800000, end: 1794791700000,
 *   macClass: "rotating", associated: false, records: 130, macs: [{ mac: "5a:12:9c:00:41:7e", first: 1794790801000, last: 1794790801021, records: 9 }],
 * };
 */
export interface TruthPersonVisit {
  /** SHOP ID. */
  readonly shop: number;
  /** The person (or piece of equipment), numbered per shop. */
  readonly person: number;
  /** The visit, numbered per shop. */
  readonly visit: number;
  readonly kind: VisitKind;
  /** Inside the shop (visitors, staff, equipment) or outside the street-side wall (passers-by). */
  readonly inside: boolean;
  /** Arrival, epoch ms. */
  readonly start: number;
  /** Departure, epoch ms. */
  readonly end: number;
  /** How the device chose its MACs during the visit. */
  readonly macClass: MacClass;
  /** Whether the device was on the shop's Wi-Fi for the visit (it then keeps one MAC and probes rarely). */
  readonly associated: boolean;
  /** Receptions of all its MACs during the visit. */
  readonly records: number;
  /** Every MAC used, by first use. */
  readonly macs: readonly TruthMac[];
  /**
   * Present only on the visit of a device a person carries besides their own phone
   * (`WorldOptions.phones`): what it is. The person's own phone has a visit of its own; this one
   * adds a device, not a person, and no occupancy event.
   */
  readonly extraDevice?: ExtraDevice;
  /**
   * Present only on the visit of a device that replays a real phone's capture
   * (`WorldOptions.phones`): the capture's id (`device-mode`, e.g. `"B-A"`, see
   * `realPhoneCaptures`), the one the device followed for the whole visit.
   */
  readonly profile?: string;
}

/**
 * A person entering (+1) or leaving (−1) the inside of a shop: the true occupancy is the
 * running sum. Equipment is not a person and has no events; passers-by never enter.
 *
 * @example
 * const e: OccupancyEvent = { shop: 101, ms: 1794790800000, delta: 1, kind: "visitor", person: 3 };
 */
export interface OccupancyEvent {
  /** SHOP ID. */
  readonly shop: number;
  /** Epoch ms. */
  readonly ms: number;
  /** +1 enters, −1 leaves. */
  readonly delta: 1 | -1;
  readonly kind: "visitor" | "staff";
  readonly person: number;
}

/**
 * One point-of-sale line generated from the true visitors, shaped like a client company's
 * sales export: the sales uploader aggregates these into daily totals.
 *
 * @example
 * const t: SimTransaction = { brand: "Cafe Mori", external_key: "MORI-GN-01", timestamp: "2026-11-16T12:34:56+09:00", amount: 9500, quantity: 2 };
 */
export interface SimTransaction {
  /** brand_name. */
  readonly brand: string;
  /** External Key of the shop. */
  readonly external_key: string;
  /** ISO 8601 local time with the shop's UTC offset, seconds precision. */
  readonly timestamp: string;
  /** KRW, an integer multiple of 100; negative on a refund line. */
  readonly amount: number;
  /** Items; negative on a refund line. */
  readonly quantity: number;
}

/**
 * One site-survey reading: a reference phone held at a known distance from a sensor.
 *
 * @example
 * const s: SurveySample = { distanceM: 2, rssi: -54 };
 */
export interface SurveySample {
  /** True distance between phone and sensor, metres. */
  readonly distanceM: number;
  /** Recorded RSSI, integer dBm. */
  readonly rssi: number;
}

/**
 * The radio model the world was generated with, so fitted parameters can be compared:
 * rssi = rssiAt1m + deviceOffset − 10·n·log10(d) − wall + shadowing + N(0, noiseDb²), rounded,
 * clamped to −127…−1, dropped below `sensitivityDbm`; shadowing is a slowly drifting
 * N(0, shadowingDb²) per device and sensor (`Shadowing`).
 *
 * @example
 * const m: PathLossModel = { rssiAt1m: -45, pathLossExponent: 2.8, wallLossDb: 12, noiseDb: 4, sensitivityDbm: -95, deviceSpreadDb: 2, shadowingDb: 0, mountHeightM: 1.3 };
 */
export interface PathLossModel {
  /** Mean RSSI 1 m from a sensor, dBm. */
  readonly rssiAt1m: number;
  /** Path-loss exponent n. */
  readonly pathLossExponent: number;
  /** Attenuation of the street-side wall for devices outside, dB. */
  readonly wallLossDb: number;
  /** Standard deviation of per-reading Gaussian noise, dB. */
  readonly noiseDb: number;
  /** Readings below this are not recorded, dBm. */
  readonly sensitivityDbm: number;
  /** Standard deviation of the fixed per-device transmit offset, dB (phones differ). */
  readonly deviceSpreadDb: number;
  /** Standard deviation of the slow fading per device and sensor, dB (0: none). */
  readonly shadowingDb: number;
  /** Height of the ceiling sensors above a carried phone, m (a floor-plan distance d is really √(d² + h²)). */
  readonly mountHeightM: number;
}

/**
 * A shop's signals as columns sorted by time (RTS) with a stable order among equal times:
 * what the handler serves pages from by binary search.
 *
 * @example
 * const table = world.signalTable(101)!;
 * const first = table.lowerBound(Date.UTC(2026, 10, 16, 3)); // index of the first record at/after 12:00 KST
 */
export interface ShopSignals {
  readonly shopId: number;
  readonly count: number;
  /** When the service has each record, epoch milliseconds (integers), ascending: its RTS. */
  readonly time: Float64Array;
  /**
   * Each record's `ts`, its sensor's stamp (integer epoch ms): the very array `time` is, unless
   * the sensors upload in batches (`WorldOptions.sensorUploadEveryMs`), whose records reach the
   * service after they were heard.
   */
  readonly ts: Float64Array;
  /** Index into `devices`. */
  readonly device: Uint32Array;
  /** Index into `sensors`. */
  readonly sensor: Uint8Array;
  /** Integer dBm. */
  readonly rssi: Int8Array;
  /** Device MACs by index. */
  readonly devices: readonly string[];
  /** 1 when the device MAC is locally administered (bit 0x02 of the first octet). */
  readonly deviceLocal: Uint8Array;
  /** Sensor MACs by index (the shop's `sensors`). */
  readonly sensors: readonly string[];
  /** First index whose time is ≥ `ms` (`count` if none). */
  lowerBound(ms: number): number;
  /** First index whose time is > `ms` (`count` if none). */
  upperBound(ms: number): number;
}

/**
 * One sensor outage (truth): the sensor heard nothing in [from, to).
 *
 * @example
 * const o: SensorOutage = { shop: 101, sensor: "b8:27:eb:12:34:56", from: 1794798000000, to: 1794805200000 };
 */
export interface SensorOutage {
  readonly shop: number;
  /** The sensor's MAC (`square_mac`). */
  readonly sensor: string;
  /** Epoch ms, inclusive. */
  readonly from: number;
  /** Epoch ms, exclusive. */
  readonly to: number;
}

/**
 * A generated world: brands, shops, ground truth, every signal, and sales transactions.
 * Built by `createWorld`; immutable once built.
 *
 * @example
 * const world = createWorld({ seed: 7, shops: 1, days: 1 });
 * const shop = world.shops[0]!;
 * world.signalCount(shop.id) > 0; // true
 */
export interface World {
  /** The seed every byte was derived from. */
  readonly seed: number | string;
  readonly brands: readonly SimBrand[];
  readonly shops: readonly SimShop[];
  /** First instant of the simulated span, epoch ms (inclusive). */
  readonly startMs: number;
  /** End of the simulated span, epoch ms (exclusive). */
  readonly endMs: number;
  /** The radio model's parameters. */
  readonly model: PathLossModel;
  /** The shop with this SHOP ID. */
  shop(shopId: number): SimShop | undefined;
  /** Floor plan and sensor positions of a shop. */
  layout(shopId: number): ShopLayout | undefined;
  /** Per-MAC truth: one row per MAC heard per visit (each produced ≥ 1 signal), sorted by shop, start, end, device. */
  truth(shopId?: number): readonly TruthVisit[];
  /** Person-level truth: every visit (heard or not) with every MAC used, sorted by shop, start, end, visit. */
  visits(shopId?: number): readonly TruthPersonVisit[];
  /** Enter/leave events of people inside (visitors and staff), sorted by shop, ms, leaves before enters. */
  occupancy(shopId?: number): readonly OccupancyEvent[];
  /**
   * How far ahead of the true time each sensor's clock of a shop runs, ms, by sensor MAC
   * (`WorldOptions.sensorClockSkewMs`; empty when every clock is right).
   */
  sensorClockOffsets(shopId: number): Readonly<Record<string, number>>;
  /** Sensor outages of one shop or all shops (`WorldOptions.sensorOutages`), by shop and start. */
  sensorOutages(shopId?: number): readonly SensorOutage[];
  /** The MAC behaviour the world was generated with (`undefined`: one MAC per visit, rotation off). */
  readonly macBehaviour: MacBehaviour | undefined;
  /** The real-phone parameters the world was generated with (`undefined`: `phones` off). */
  readonly phones: RealPhones | undefined;
  /** Number of signal records of one shop, or of all shops. */
  signalCount(shopId?: number): number;
  /** The columnar, time-sorted signal table of a shop. */
  signalTable(shopId: number): ShopSignals | undefined;
  /** A shop's records in served order (by RTS), `ts` in ms, with the RTS's time in [fromMs, toMs) (the same as `ts` unless sensors upload in batches). */
  rawSignals(shopId: number, fromMs?: number, toMs?: number): IterableIterator<RawSignal>;
  /** Point-of-sale lines of one shop or all shops, by time. */
  transactions(shopId?: number): readonly SimTransaction[];
  /**
   * Site survey: `perDistance` recorded readings at each distance (metres) from one sensor,
   * drawn from the same model (no wall, reference device offset 0); readings below the
   * sensitivity floor are not recorded, so fewer may come back at long distances.
   */
  surveySamples(shopId: number, sensorMac: string, distancesM: readonly number[], perDistance: number): SurveySample[];
}
