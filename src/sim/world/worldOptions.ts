import type { MacBehaviourOptions, Rotation } from "../phones/MacBehaviour.ts";
import type { PhonesOption } from "../phones/RealPhones.ts";

// What a simulated world can be asked for, and the defaults: the options' shape only. Checking
// and completing them is resolveWorldOptions; building the world is createWorld.

/**
 * Shape of a simulated world. Every field is optional; the defaults give 2 brands and
 * 5 shops in Seoul with a few hundred thousand signals per shop-day.
 *
 * @example
 * const options: WorldOptions = { seed: "demo", shops: 2, days: 3, randomizedShare: 0.6 };
 */
export interface WorldOptions {
  /** Seed of every random draw; same seed and options → identical world. @default 1 */
  readonly seed?: number | string;
  /** Number of brands (shops are dealt to brands in turn). @default 2 */
  readonly brands?: number;
  /** Number of shops. @default 5 */
  readonly shops?: number;
  /** Mean floor size [width, depth] in metres; each shop varies ±20 %. @default [16, 12] */
  readonly shopSizeM?: readonly [number, number];
  /** Sensors per shop, a fixed count or an inclusive [min, max] range (1–8). @default [2, 4] */
  readonly sensorsPerShop?: number | readonly [number, number];
  /** Attenuation of the street-side wall for devices outside, dB. @default 12 */
  readonly wallLossDb?: number;
  /** Standard deviation of per-reading RSSI noise, dB. @default 4 */
  readonly rssiNoiseDb?: number;
  /** Mean RSSI at 1 m, dBm. @default -45 */
  readonly rssiAt1m?: number;
  /** Path-loss exponent n of the log-distance model. @default 2.8 */
  readonly pathLossExponent?: number;
  /** Readings weaker than this are not recorded, dBm. @default -95 */
  readonly sensitivityDbm?: number;
  /** Standard deviation of the fixed transmit offset of each device, dB. @default 2 */
  readonly deviceSpreadDb?: number;
  /**
   * Standard deviation of slow fading (shadowing) at each sensor, dB: the body between a phone
   * and a sensor, the pocket or bag it is in, shelves and people in the way. It drifts as the
   * device moves and as time passes (`Shadowing`: correlated over ~2 m and ~30 s), so a burst's
   * frames share it and it differs between sensors. Indoor measurements put it at 3–8 dB; 0
   * (the default) leaves it out, and a world with it has the same people, tracks and MACs as
   * the world without. @default 0
   */
  readonly shadowingDb?: number;
  /** Range [min, max] of a device's mean probe interval, seconds (drawn log-uniformly per device; each gap is jittered, with occasional bursts). @default [8, 90] */
  readonly probeIntervalS?: readonly [number, number];
  /**
   * Share of visitors and passers-by using locally administered random MACs, re-randomized per
   * visit, when `rotation` is `"off"` (with rotation on, `macs.universalShare` decides instead).
   * @default 0.45
   */
  readonly randomizedShare?: number;
  /**
   * MAC behaviour of the phones: `"realistic"` is the burst model with `realisticMacBehaviour`
   * (MACs that rotate at almost every burst, as published captures show); a number in 0…1 is that
   * model with that share of the randomizing phones rotating; `"off"` gives each device one MAC per
   * visit and single probes — the simple world the MAC-level mechanics are tested on, easier than
   * reality (given alone, it turns `phones` off too). `macs` refines the model.
   * @default "realistic"
   */
  readonly rotation?: Rotation;
  /** Overrides of the burst model's parameters (see `MacBehaviour`); needs `rotation` other than `"off"` (alone, it implies `"realistic"`). @default undefined */
  readonly macs?: MacBehaviourOptions | undefined;
  /**
   * Devices as different from one another as real ones (see `RealPhones` and docs/simulator.md):
   * `"real"` has every person's phone replay, for its visit, one of 107 captures of 22 real phones
   * (`realPhoneCaptures`: its burst rate or timer, its MACs within a burst and how long one lasts,
   * its frames and channels, its universal MAC or not), lets some people carry a second or third
   * device (a device, not a person, in the truth), and has fixed equipment probe at its own
   * rates, some of it switched on and off with the shop. An object overrides `"real"`'s values
   * (`profiles` restricts the captures replayed). Refines the burst model: given alone it implies `rotation:
   * "realistic"`; with `rotation: "off"` it is an error, and with it `phones.universalShare`
   * replaces `macs.universalShare`. Drawn from random streams of its own. The default: a simulated
   * world is as hard as real phones (docs/simulator.md names the sources); `"off"` keeps every
   * device alike, as the simulator was before.
   * @default "real"
   */
  readonly phones?: PhonesOption;
  /**
   * Day-to-day variation of how long shoppers stay: each shop-day scales every visitor's dwell by
   * a factor e^(σ·z), z standard normal, σ this value (weather, weekday, a promotion; 0.2 ≈ ±20 %).
   * Drawn from a random stream of its own, so a world with it has the same visitors arriving at
   * the same times as without (what follows from their stay — bursts, MACs — differs). 0 (the
   * default) gives every day the same dwell distribution, which makes pooling a shop's days
   * (`poolPeople`) look better than it would in a real shop.
   * @default 0
   */
  readonly dwellDayVariation?: number;
  /**
   * Share of visitors who come with company: each such visitor brings 1–3 companions who arrive
   * within seconds of them, walk the shop beside them (within a metre) and leave with them (within
   * a minute), each with a phone of their own (drawn as any visitor's), buying nothing of their
   * own. Companions are visitors in the truth, on top of `visitorsPerDay`. Groups make a day's
   * visits alike in pairs and threes — fewer independent stays behind a day's sample than it
   * holds — and put rotated MACs of several phones side by side. Drawn from a random stream of
   * its own: without slow fading, the other visitors are those of the world without groups.
   * @default 0
   */
  readonly groupShare?: number;
  /** Mean visitors (entering the shop) per shop and day; shops vary ±30 %, weekends +30 %. @default 450 */
  readonly visitorsPerDay?: number;
  /** Mean passers-by (outside the street-side wall) per shop and day. @default 5000 */
  readonly passersByPerDay?: number;
  /** Share of passers-by who linger at the window for minutes. @default 0.15 */
  readonly lingerShare?: number;
  /** Staff per shop (each keeps one device; each works most days). @default 6 */
  readonly staffPerShop?: number;
  /** Always-on devices per shop (printer, POS). @default 2 */
  readonly stationaryPerShop?: number;
  /** Share of universal-MAC visitors on day 2+ who are returning devices. @default 0.15 */
  readonly returningShare?: number;
  /** Share of visitors who buy; `undefined` uses each brand's own rate (18–60 %). @default undefined */
  readonly conversion?: number | undefined;
  /** Opening hours [open, close], local hours (fractions allowed). @default [10, 22] */
  readonly openingHours?: readonly [number, number];
  /** First day, `YYYY-MM-DD` (local midnight in `timeZone`) or an instant in epoch ms. @default "2026-11-16" */
  readonly start?: string | number;
  /** Length of the span in days. @default 1 */
  readonly days?: number;
  /** IANA time zone of every shop. @default "Asia/Seoul" */
  readonly timeZone?: string;
  /** Sensors that go offline now and then (see {@link SensorOutageOptions}). @default undefined (never) */
  readonly sensorOutages?: SensorOutageOptions | undefined;
  /**
   * Sensor clocks that are off: each sensor's clock runs a fixed offset, drawn uniformly from
   * ±this many ms, ahead of the true time, and stamps `ts` (and the RTS) with it. Cheap sensors
   * without a synchronised clock drift by seconds; the truth stays in true time
   * (`World.sensorClockOffsets`). 0: every clock is right.
   * @default 0
   */
  readonly sensorClockSkewMs?: number;
  /**
   * Sensors that upload in batches, to a service whose RTS is when it *received* a record (the
   * other reading of RTS; without this it is the sensor's stamp): each sensor uploads what it
   * heard every this many ms, at its own seeded phase, and the service stores an upload's
   * records one ms apart in the order they were stamped. Signals then come in RTS order with a
   * sensor's records up to a period behind newer ones of the other sensors; `ts` is unchanged
   * (`ShopSignals.ts`). 0: the service has every record at its stamp. At most an hour.
   * @default 0
   */
  readonly sensorUploadEveryMs?: number;
}

/**
 * Sensors that go offline (power, network, a reboot): what they would have heard in the meantime
 * is lost — no record at all, not a late one. Each sensor has, on each local day, one outage with
 * probability `perSensorDay`, of a length drawn uniformly from `minutes`, starting at a uniform
 * time within opening hours (when it matters). The outages are truth: `World.sensorOutages`.
 *
 * @example
 * createWorld({ sensorOutages: { perSensorDay: 0.2, minutes: [10, 180] } });
 */
export interface SensorOutageOptions {
  /** Chance, 0…1, that a sensor has an outage on a given day. */
  readonly perSensorDay: number;
  /** Shortest and longest outage, minutes (within the opening hours' span). */
  readonly minutes: readonly [number, number];
}

/**
 * Defaults of {@link WorldOptions}.
 *
 * @example
 * createWorld({ visitorsPerDay: defaultWorldOptions.visitorsPerDay * 2 }); // a busier world
 */
export const defaultWorldOptions = {
  seed: 1,
  brands: 2,
  shops: 5,
  shopSizeM: [16, 12],
  sensorsPerShop: [2, 4],
  wallLossDb: 12,
  rssiNoiseDb: 4,
  rssiAt1m: -45,
  pathLossExponent: 2.8,
  sensitivityDbm: -95,
  deviceSpreadDb: 2,
  shadowingDb: 0,
  dwellDayVariation: 0,
  groupShare: 0,
  probeIntervalS: [8, 90],
  randomizedShare: 0.45,
  rotation: "realistic",
  macs: undefined,
  phones: "real",
  visitorsPerDay: 450,
  passersByPerDay: 5000,
  lingerShare: 0.15,
  staffPerShop: 6,
  stationaryPerShop: 2,
  returningShare: 0.15,
  conversion: undefined,
  openingHours: [10, 22],
  start: "2026-11-16",
  days: 1,
  timeZone: "Asia/Seoul",
  sensorOutages: undefined,
  sensorClockSkewMs: 0,
  sensorUploadEveryMs: 0,
} as const satisfies Required<WorldOptions>;

