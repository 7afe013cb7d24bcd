import type { Brand } from "../contract/brand.ts";
import type { RawSignal } from "../contract/rawSignal.ts";

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
 * One true presence of one device at one shop: the ground truth analytics are scored on.
 * Every signal of the device at that shop lies inside [start, end].
 *
 * @example
 * const v: TruthVisit = { shop: 101, device: "f0:76:6f:12:34:56", start: 1794790800000, end: 1794791700000, kind: "visitor" };
 */
export interface TruthVisit {
  /** SHOP ID. */
  readonly shop: number;
  /** Device MAC (lowercase colon form), as it appears in `device_id`. */
  readonly device: string;
  /** Arrival, epoch milliseconds. */
  readonly start: number;
  /** Departure, epoch milliseconds. */
  readonly end: number;
  readonly kind: VisitKind;
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
 * rssi = rssiAt1m + deviceOffset − 10·n·log10(d) − wall + N(0, noiseDb²), rounded,
 * clamped to −127…−1, dropped below `sensitivityDbm`.
 *
 * @example
 * const m: PathLossModel = { rssiAt1m: -45, pathLossExponent: 2.8, wallLossDb: 12, noiseDb: 4, sensitivityDbm: -95, deviceSpreadDb: 2, mountHeightM: 1.3 };
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
  /** Epoch milliseconds (integers), ascending. */
  readonly time: Float64Array;
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
  /** True visits (each produced ≥ 1 signal), sorted by shop, start, device. */
  truth(shopId?: number): readonly TruthVisit[];
  /** Number of signal records of one shop, or of all shops. */
  signalCount(shopId?: number): number;
  /** The columnar, time-sorted signal table of a shop. */
  signalTable(shopId: number): ShopSignals | undefined;
  /** A shop's records in served order, `ts` in ms, with time in [fromMs, toMs). */
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
