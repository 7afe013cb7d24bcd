import { rejectUnknownKeys } from "../errors/rejectUnknownKeys.ts";
import type { RawSignal } from "../contract/rawSignal.ts";
import { formatRowKey } from "../codec/rowKey.ts";
import { millisToRts } from "../codec/rts.ts";
import { MS_PER_DAY, epochDayOfDate } from "../time/calendarDate.ts";
import { assertTimeZone, localDayOf, localMidnight, zoneOffsetMinutes } from "../time/timeZone.ts";
import { formatLocalIso } from "./formatLocalIso.ts";
import { createRng, hashSeed, type Rng } from "./prng.ts";
import { freshMac } from "./freshMac.ts";
import { resolveMacBehaviour, type MacBehaviour, type MacBehaviourOptions, type Rotation } from "./MacBehaviour.ts";
import { MOUNT_HEIGHT_M, ShopBuilder, type Phone } from "./ShopBuilder.ts";
import { logUniformRate, medianGapMs, resolveRealPhones, type ExtraDevice, type PhonesOption, type RealPhones } from "./RealPhones.ts";
import { PHONE_VENDORS, SENSOR_VENDORS, STATIONARY_VENDORS } from "./vendorOuis.ts";
import type {
  OccupancyEvent,
  PathLossModel,
  ShopLayout,
  ShopSignals,
  SimBrand,
  SimShop,
  SimTransaction,
  SensorOutage,
  SurveySample,
  TruthPersonVisit,
  TruthVisit,
  World,
} from "./World.ts";

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
   * MAC behaviour of the phones: `"realistic"` is the burst model with {@link realisticMacBehaviour}
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
   * `"real"` gives each randomizing phone its own burst rate from the heavy-tailed distribution of
   * a labelled capture of 22 real phones (median 0.56 bursts a minute, p90 3.08, at most 18.5),
   * makes universal-MAC devices a population of their own with lower rates, lets some people
   * carry a second or third device (a device, not a person, in the truth), and has fixed
   * equipment probe at its own rates, some of it switched on and off with the shop. An object
   * overrides `"real"`'s values. Refines the burst model: given alone it implies `rotation:
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

/** Every world option, for {@link rejectUnknownKeys}. */
const WORLD_KEYS: ReadonlySet<string> = new Set(Object.keys(defaultWorldOptions));

type Resolved = { -readonly [K in Exclude<keyof WorldOptions, "conversion" | "macs" | "sensorOutages" | "phones">]-?: Exclude<WorldOptions[K], undefined> } & {
  phones: PhonesOption;
  /** The real-phone parameters, `undefined` when `phones` is off. */
  realPhones: RealPhones | undefined;
  conversion: number | undefined;
  sensorOutages: SensorOutageOptions | undefined;
  macs: MacBehaviourOptions | undefined;
  /** The burst model's parameters, `undefined` when rotation is off. */
  macBehaviour: MacBehaviour | undefined;
};

const MS_MIN = 60_000;
const MS_HOUR = 3_600_000;
/** Share of staff shifts whose phone is on the shop's Wi-Fi (burst model): staff use it all day. */
const STAFF_ASSOCIATED_SHARE = 0.6;

interface BrandProfile {
  readonly name: string;
  readonly code: string;
  readonly ticketKrw: number;
  readonly maxQty: number;
  readonly conversion: number;
}

const BRANDS: readonly BrandProfile[] = [
  { name: "Cafe Mori", code: "MORI", ticketKrw: 9_000, maxQty: 4, conversion: 0.55 },
  { name: "Hanbit Apparel", code: "HANBIT", ticketKrw: 62_000, maxQty: 3, conversion: 0.22 },
  { name: "Blue Arch Books", code: "BLUE", ticketKrw: 21_000, maxQty: 3, conversion: 0.3 },
  { name: "Sol Bakery", code: "SOL", ticketKrw: 12_500, maxQty: 6, conversion: 0.6 },
  { name: "Namu Living", code: "NAMU", ticketKrw: 38_000, maxQty: 3, conversion: 0.18 },
];

const DISTRICTS: readonly (readonly [string, string])[] = [
  ["Gangnam", "GN"], ["Hongdae", "HD"], ["Jamsil", "JS"], ["Myeongdong", "MD"], ["Seongsu", "SS"],
  ["Yeouido", "YD"], ["Itaewon", "IT"], ["Sinchon", "SC"], ["Konkuk", "KK"], ["Mapo", "MP"],
];

/**
 * Builds a seeded, deterministic world: brands, shops with sensors, devices moving through
 * a daily arrival profile (visitors, passers-by, staff, stationary equipment), every signal
 * record (log-distance path loss + noise, wall loss outside), the ground truth, and
 * point-of-sale transactions of the visitors who bought something. With `rotation` on, phones
 * probe in bursts and many rotate their randomized MACs (see `MacBehaviour`), and the truth
 * says which person used which MAC (`visits`, `occupancy`).
 * Throws TypeError/RangeError for invalid options.
 *
 * @example
 * const world = createWorld({ seed: 7, shops: 1, openingHours: [10, 13] });
 * const shop = world.shops[0]!;
 * const first = world.rawSignals(shop.id).next().value; // { row_key: "101:…", device_id, rssi, square_mac, ts, local }
 * const rotating = createWorld({ seed: 7, shops: 1, rotation: "realistic" });
 * rotating.visits(101)[0]!.macs.length; // how many MACs the first person used
 */
export function createWorld(options: WorldOptions = {}): World {
  const o = resolveOptions(options);
  const model: PathLossModel = {
    rssiAt1m: o.rssiAt1m,
    pathLossExponent: o.pathLossExponent,
    wallLossDb: o.wallLossDb,
    noiseDb: o.rssiNoiseDb,
    sensitivityDbm: o.sensitivityDbm,
    deviceSpreadDb: o.deviceSpreadDb,
    shadowingDb: o.shadowingDb,
    mountHeightM: MOUNT_HEIGHT_M,
  };
  const [startMs, endMs] = spanOf(o);

  const brands: SimBrand[] = [];
  const profiles: BrandProfile[] = [];
  for (let b = 0; b < o.brands; b++) {
    const p = BRANDS[b] ?? { name: `Brand ${b + 1}`, code: `B${b + 1}`, ticketKrw: 30_000, maxQty: 3, conversion: 0.3 };
    brands.push({ id: b + 1, name: p.name });
    profiles.push(p);
  }

  const shops: SimShop[] = [];
  const layouts: ShopLayout[] = [];
  const tables: ShopSignals[] = [];
  const truths: TruthVisit[][] = [];
  const personVisits: TruthPersonVisit[][] = [];
  const occupancies: OccupancyEvent[][] = [];
  const outages: SensorOutage[][] = [];
  const clockOffsets: Record<string, number>[] = [];
  const sales: SimTransaction[][] = [];
  const usedMacs = new Set<string>();
  const perBrandCount = new Array<number>(o.brands).fill(0);
  for (let s = 0; s < o.shops; s++) {
    const b = s % o.brands;
    const profile = profiles[b]!;
    const nth = ++perBrandCount[b]!;
    const [district, code] = DISTRICTS[(s * 3 + b) % DISTRICTS.length]!;
    const round = Math.floor(s / DISTRICTS.length);
    const built = buildShop(o, model, s, {
      id: 101 + s,
      name: `${profile.name} ${district}${round > 0 ? ` ${round + 1}` : ""}`,
      brandId: b + 1,
      externalKey: `${profile.code}-${code}-${String(nth).padStart(2, "0")}`,
      profile,
      startMs,
      endMs,
      usedMacs,
    });
    shops.push(built.shop);
    layouts.push(built.layout);
    tables.push(built.table);
    truths.push(built.truth);
    personVisits.push(built.visits);
    occupancies.push(built.occupancy);
    outages.push(built.outages);
    clockOffsets.push(built.clockOffsets);
    sales.push(built.sales);
  }

  const indexOf = new Map<number, number>(shops.map((shop, i) => [shop.id, i]));
  const at = (shopId: number): number | undefined => indexOf.get(shopId);
  const allTruth = truths.flat();
  const allVisits = personVisits.flat();
  const allOccupancy = occupancies.flat();
  const allOutages = outages.flat();
  const allSales = sales.flat();
  let total = 0;
  for (const t of tables) total += t.count;

  return {
    seed: o.seed,
    brands,
    shops,
    startMs,
    endMs,
    model,
    macBehaviour: o.macBehaviour,
    phones: o.realPhones,
    sensorClockOffsets: (id) => {
      const i = at(id);
      return i === undefined ? {} : clockOffsets[i]!;
    },
    sensorOutages: (id) => {
      if (id === undefined) return allOutages;
      const i = at(id);
      return i === undefined ? [] : outages[i]!;
    },
    shop: (id) => {
      const i = at(id);
      return i === undefined ? undefined : shops[i];
    },
    layout: (id) => {
      const i = at(id);
      return i === undefined ? undefined : layouts[i];
    },
    truth: (id) => {
      if (id === undefined) return allTruth;
      const i = at(id);
      return i === undefined ? [] : truths[i]!;
    },
    visits: (id) => {
      if (id === undefined) return allVisits;
      const i = at(id);
      return i === undefined ? [] : personVisits[i]!;
    },
    occupancy: (id) => {
      if (id === undefined) return allOccupancy;
      const i = at(id);
      return i === undefined ? [] : occupancies[i]!;
    },
    signalCount: (id) => {
      if (id === undefined) return total;
      const i = at(id);
      return i === undefined ? 0 : tables[i]!.count;
    },
    signalTable: (id) => {
      const i = at(id);
      return i === undefined ? undefined : tables[i];
    },
    rawSignals: (id, fromMs = -Infinity, toMs = Infinity) => {
      const i = at(id);
      return rawSignalsOf(i === undefined ? undefined : tables[i], fromMs, toMs);
    },
    transactions: (id) => {
      if (id === undefined) return allSales;
      const i = at(id);
      return i === undefined ? [] : sales[i]!;
    },
    surveySamples: (id, sensorMac, distancesM, perDistance) => {
      const i = at(id);
      if (i === undefined) throw new RangeError(`no shop ${id}`);
      if (!shops[i]!.sensors.includes(sensorMac)) throw new RangeError(`shop ${id} has no sensor ${sensorMac}`);
      if (!Number.isInteger(perDistance) || perDistance < 0) throw new RangeError("perDistance must be a non-negative integer");
      for (const d of distancesM) {
        if (!Number.isFinite(d) || d <= 0) throw new RangeError(`distances must be positive metres, got ${d}`);
      }
      return survey(model, createRng(hashSeed(o.seed, "survey", id, sensorMac, distancesM.join(","), perDistance)), distancesM, perDistance);
    },
  };
}

function* rawSignalsOf(table: ShopSignals | undefined, fromMs: number, toMs: number): IterableIterator<RawSignal> {
  if (table === undefined) return;
  const end = table.lowerBound(toMs);
  for (let i = table.lowerBound(fromMs); i < end; i++) {
    const ts = table.ts[i]!;
    const d = table.device[i]!;
    yield {
      row_key: formatRowKey({ shopId: table.shopId, rts: millisToRts(table.time[i]!) }),
      device_id: table.devices[d]!,
      rssi: table.rssi[i]!,
      square_mac: table.sensors[table.sensor[i]!]!,
      ts,
      local: table.deviceLocal[d] === 1,
    };
  }
}

function survey(model: PathLossModel, rng: Rng, distancesM: readonly number[], perDistance: number): SurveySample[] {
  const out: SurveySample[] = [];
  for (const distanceM of distancesM) {
    const mean = model.rssiAt1m - 10 * model.pathLossExponent * Math.log10(distanceM);
    for (let k = 0; k < perDistance; k++) {
      // Each sample is taken at a spot of its own, so its shadowing is a draw of its own (none drawn without it).
      const shade = model.shadowingDb > 0 ? model.shadowingDb * rng.normal() : 0;
      const rssi = Math.round(mean + model.noiseDb * rng.normal() + shade);
      if (rssi < model.sensitivityDbm) continue;
      out.push({ distanceM, rssi: Math.min(-1, Math.max(-127, rssi)) });
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------
// Options

function resolveOptions(options: WorldOptions): Resolved {
  if (options === null || typeof options !== "object") throw new TypeError("world options must be an object");
  rejectUnknownKeys(options, WORLD_KEYS, "world option");
  const o = { ...defaultWorldOptions, ...stripUndefined(options) } as Resolved;
  // `macs` alone switches the burst model on; `rotation: "off"` with `macs` is an error there.
  // `phones` refines the burst model, so it switches it on too, and is an error without it.
  // The default world's phones are real ones (docs/simulator.md); `rotation: "off"` alone asks
  // for the simple world — one MAC per visit, single probes — so it turns them off too.
  if (options.phones === undefined && options.rotation === "off") o.phones = "off";
  o.realPhones = resolveRealPhones(o.phones);
  if (o.realPhones !== undefined && options.rotation === "off") throw new RangeError('phones has no effect with rotation "off": set rotation to "realistic" or a share');
  o.macBehaviour = resolveMacBehaviour(options.rotation ?? (options.macs === undefined ? defaultWorldOptions.rotation : undefined), o.macs);
  if (o.realPhones !== undefined && o.macs?.universalShare !== undefined) {
    throw new RangeError("macs.universalShare is replaced by phones.universalShare when phones is on: give that one");
  }
  if (typeof o.seed !== "number" && typeof o.seed !== "string") throw new TypeError("seed must be a number or a string");
  intIn("brands", o.brands, 1, 1000);
  intIn("shops", o.shops, 1, 10_000);
  pair("shopSizeM", o.shopSizeM, 2, 500, false);
  if (typeof o.sensorsPerShop === "number") intIn("sensorsPerShop", o.sensorsPerShop, 1, 8);
  else {
    pair("sensorsPerShop", o.sensorsPerShop, 1, 8);
    intIn("sensorsPerShop[0]", o.sensorsPerShop[0], 1, 8);
    intIn("sensorsPerShop[1]", o.sensorsPerShop[1], o.sensorsPerShop[0], 8);
  }
  numIn("wallLossDb", o.wallLossDb, 0, 60);
  numIn("rssiNoiseDb", o.rssiNoiseDb, 0, 30);
  numIn("rssiAt1m", o.rssiAt1m, -100, -1);
  numIn("pathLossExponent", o.pathLossExponent, 1, 6);
  numIn("sensitivityDbm", o.sensitivityDbm, -127, -1);
  numIn("deviceSpreadDb", o.deviceSpreadDb, 0, 20);
  numIn("shadowingDb", o.shadowingDb, 0, 20);
  numIn("dwellDayVariation", o.dwellDayVariation, 0, 2);
  numIn("groupShare", o.groupShare, 0, 1);
  pair("probeIntervalS", o.probeIntervalS, 0.5, 3600);
  numIn("randomizedShare", o.randomizedShare, 0, 1);
  numIn("visitorsPerDay", o.visitorsPerDay, 0, 1e6);
  numIn("passersByPerDay", o.passersByPerDay, 0, 1e7);
  numIn("sensorClockSkewMs", o.sensorClockSkewMs, 0, 3_600_000);
  intIn("sensorUploadEveryMs", o.sensorUploadEveryMs, 0, 3_600_000);
  if (o.sensorOutages !== undefined) {
    if (typeof o.sensorOutages !== "object" || o.sensorOutages === null) throw new TypeError("sensorOutages must be { perSensorDay, minutes }");
    numIn("sensorOutages.perSensorDay", o.sensorOutages.perSensorDay, 0, 1);
    pair("sensorOutages.minutes", o.sensorOutages.minutes, 0, 24 * 60);
  }
  numIn("lingerShare", o.lingerShare, 0, 1);
  intIn("staffPerShop", o.staffPerShop, 0, 1000);
  intIn("stationaryPerShop", o.stationaryPerShop, 0, 1000);
  numIn("returningShare", o.returningShare, 0, 1);
  if (o.conversion !== undefined) numIn("conversion", o.conversion, 0, 1);
  pair("openingHours", o.openingHours, 0, 24);
  if (o.openingHours[1] - o.openingHours[0] < 0.25) throw new RangeError("openingHours must span at least 15 minutes");
  intIn("days", o.days, 1, 366);
  if (typeof o.timeZone !== "string") throw new TypeError("timeZone must be a string");
  assertTimeZone(o.timeZone);
  if (typeof o.start === "string") {
    if (epochDayOfDate(o.start) === undefined) throw new RangeError(`start must be YYYY-MM-DD or epoch ms, got ${JSON.stringify(o.start)}`);
  } else if (typeof o.start !== "number" || !Number.isSafeInteger(o.start) || o.start < 0) {
    throw new RangeError("start must be YYYY-MM-DD or a non-negative integer of epoch ms");
  }
  return o;
}

function stripUndefined(options: WorldOptions): WorldOptions {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(options)) if (v !== undefined) out[k] = v;
  return out as WorldOptions;
}

function numIn(name: string, v: unknown, min: number, max: number): void {
  if (typeof v !== "number" || !Number.isFinite(v)) throw new TypeError(`${name} must be a finite number`);
  if (v < min || v > max) throw new RangeError(`${name} must be in ${min}…${max}, got ${v}`);
}

function intIn(name: string, v: unknown, min: number, max: number): void {
  numIn(name, v, min, max);
  if (!Number.isInteger(v)) throw new RangeError(`${name} must be an integer, got ${String(v)}`);
}

function pair(name: string, v: unknown, min: number, max: number, ascending = true): void {
  if (!Array.isArray(v) || v.length !== 2) throw new TypeError(`${name} must be a pair of numbers`);
  numIn(`${name}[0]`, v[0], min, max);
  numIn(`${name}[1]`, v[1], min, max);
  if (ascending && v[1] < v[0]) throw new RangeError(`${name} must be ascending, got [${v[0]}, ${v[1]}]`);
}

function spanOf(o: Resolved): [number, number] {
  if (typeof o.start === "number") return [o.start, o.start + o.days * MS_PER_DAY];
  const day = epochDayOfDate(o.start)!;
  return [localMidnight(day, o.timeZone), localMidnight(day + o.days, o.timeZone)];
}

// ---------------------------------------------------------------------------------------
// One shop

interface ShopSeed {
  readonly id: number;
  readonly name: string;
  readonly brandId: number;
  readonly externalKey: string;
  readonly profile: BrandProfile;
  readonly startMs: number;
  readonly endMs: number;
  readonly usedMacs: Set<string>;
}

interface BuiltShop {
  readonly shop: SimShop;
  readonly layout: ShopLayout;
  readonly table: ShopSignals;
  readonly outages: SensorOutage[];
  readonly clockOffsets: Record<string, number>;
  readonly truth: TruthVisit[];
  readonly visits: TruthPersonVisit[];
  readonly occupancy: OccupancyEvent[];
  readonly sales: SimTransaction[];
}

function buildShop(o: Resolved, model: PathLossModel, index: number, seed: ShopSeed): BuiltShop {
  void model;
  const rng = createRng(hashSeed(o.seed, "shop", index));
  const [meanW, meanD] = o.shopSizeM;
  const widthM = round1(meanW * rng.uniform(0.8, 1.2));
  const depthM = round1(meanD * rng.uniform(0.8, 1.2));
  const nSensors = typeof o.sensorsPerShop === "number" ? o.sensorsPerShop : rng.int(o.sensorsPerShop[0], o.sensorsPerShop[1]);
  const sensorMacs: string[] = [];
  const sensorPos: { mac: string; xM: number; yM: number }[] = [];
  for (let k = 0; k < nSensors; k++) {
    const mac = freshMac(rng, SENSOR_VENDORS, seed.usedMacs);
    sensorMacs.push(mac);
    sensorPos.push({
      mac,
      xM: round1(clamp((widthM * (k + 0.5)) / nSensors + rng.uniform(-1, 1), 0.5, widthM - 0.5)),
      yM: round1(depthM * rng.uniform(0.3, 0.75)),
    });
  }
  const layout: ShopLayout = { widthM, depthM, doorXM: round1(widthM * rng.uniform(0.3, 0.7)), sensors: sensorPos };
  const popularity = rng.uniform(0.7, 1.3);
  const days = Math.max(1, Math.round((seed.endMs - seed.startMs) / MS_PER_DAY));
  const estimate = Math.ceil(days * (o.visitorsPerDay * 60 + o.passersByPerDay * 6 + o.staffPerShop * 2500 + o.stationaryPerShop * 8000) * popularity);
  const m = o.macBehaviour;
  // Bursts put several frames on each channel: a burst-model shop holds a few times more records.
  const real = o.realPhones;
  const b = new ShopBuilder(seed.id, o, layout, seed.usedMacs, m === undefined ? estimate : 3 * estimate, m, real);
  // Sensor outages, from their own random streams so that a world without them is unchanged.
  const outages: SensorOutage[] = [];
  if (o.sensorOutages !== undefined) {
    const { perSensorDay, minutes } = o.sensorOutages;
    const spanMs = (o.openingHours[1] - o.openingHours[0]) * MS_HOUR;
    for (let day = localDayOf(seed.startMs, o.timeZone); day <= localDayOf(seed.endMs - 1, o.timeZone); day++) {
      const opens = localMidnight(day, o.timeZone) + o.openingHours[0] * MS_HOUR;
      for (let k = 0; k < nSensors; k++) {
        const r = createRng(hashSeed(o.seed, "outage", index, day, k));
        if (!r.chance(perSensorDay)) continue;
        const length = Math.min(spanMs, Math.round(r.uniform(minutes[0], minutes[1]) * MS_MIN));
        const from = opens + Math.round(r.next() * (spanMs - length));
        outages.push({ shop: seed.id, sensor: sensorMacs[k]!, from, to: from + length });
        b.loseDuring(k, from, from + length);
      }
    }
    outages.sort((x, y) => x.from - y.from);
  }
  // Sensor clocks, from their own random stream: whole ms, so a record's ts stays an integer.
  const clockOffsets: Record<string, number> = {};
  if (o.sensorClockSkewMs > 0) {
    const r = createRng(hashSeed(o.seed, "clocks", index));
    for (let k = 0; k < nSensors; k++) {
      const offset = Math.round(r.uniform(-o.sensorClockSkewMs, o.sensorClockSkewMs));
      clockOffsets[sensorMacs[k]!] = offset;
      b.clockAhead(k, offset);
    }
  }

  // Sensor uploads, from their own random stream (a phase each), so nothing else changes.
  if (o.sensorUploadEveryMs > 0) {
    const r = createRng(hashSeed(o.seed, "uploads", index));
    for (let k = 0; k < nSensors; k++) b.uploadEvery(k, o.sensorUploadEveryMs, Math.floor(r.next() * o.sensorUploadEveryMs));
  }

  const shop: SimShop = {
    id: seed.id,
    name: seed.name,
    brandId: seed.brandId,
    externalKey: seed.externalKey,
    timeZone: o.timeZone,
    sensors: sensorMacs,
  };

  // Staff: one fixed device each, the same every day (a share use a fixed private address).
  const staff: { person: number; device: number; gap: number; shift: number; phone: Phone | undefined }[] = [];
  const staffRng = createRng(hashSeed(o.seed, "staff", index));
  for (let k = 0; k < o.staffPerShop; k++) {
    const person = b.newPerson();
    if (m === undefined) {
      const mac = b.newMac(staffRng, staffRng.chance(o.randomizedShare / 2) ? "local" : PHONE_VENDORS);
      staff.push({ person, device: b.device(mac, staffRng), gap: b.phoneGap(staffRng), shift: k % 3, phone: undefined });
    } else {
      // Staff phones live on the shop's Wi-Fi: universal, or one private address kept for that network.
      const universal = staffRng.chance(m.staffUniversalShare);
      const phone = b.phone(staffRng, universal ? "universal" : "stable", b.newMac(staffRng, universal ? PHONE_VENDORS : "local"));
      staff.push({ person, device: phone.fixedDevice, gap: 0, shift: k % 3, phone });
    }
  }

  // Stationary equipment: present for the whole span, frequent regular probes.
  const eqRng = createRng(hashSeed(o.seed, "stationary", index));
  for (let k = 0; k < o.stationaryPerShop; k++) {
    const person = b.newPerson();
    if (m === undefined) {
      const device = b.device(b.newMac(eqRng, STATIONARY_VENDORS), eqRng);
      const x = eqRng.uniform(0.5, widthM - 0.5);
      const y = eqRng.uniform(depthM * 0.5, depthM - 0.3);
      b.visit(eqRng, person, device, "stationary", [seed.startMs, seed.endMs, x, y, x, y], seed.startMs, seed.endMs, eqRng.uniform(15_000, 45_000), 0.15);
    } else if (real === undefined) {
      const phone = b.phone(eqRng, "universal", b.newMac(eqRng, STATIONARY_VENDORS), eqRng.uniform(15_000, 45_000));
      const x = eqRng.uniform(0.5, widthM - 0.5);
      const y = eqRng.uniform(depthM * 0.5, depthM - 0.3);
      b.burstVisit(eqRng, person, phone, "stationary", [seed.startMs, seed.endMs, x, y, x, y], seed.startMs, seed.endMs, true);
    } else equipment(createRng(hashSeed(o.seed, "equipment", index, k)), b, real, o, person, layout, seed.startMs, seed.endMs);
  }

  const sales: { ms: number; t: SimTransaction }[] = [];
  // Universal-MAC visitors who may come back on a later day (a randomized MAC can't be recognised):
  // by MAC with rotation off, by phone in the burst model.
  const returningPool: { person: number; mac: string }[] = [];
  const returningPhones: { person: number; phone: Phone }[] = [];
  const [openH, closeH] = o.openingHours;
  const firstDay = localDayOf(seed.startMs, o.timeZone);
  const lastDay = localDayOf(seed.endMs - 1, o.timeZone);
  for (let day = firstDay; day <= lastDay; day++) {
    const dayRng = createRng(hashSeed(o.seed, "day", index, day));
    const midnight = localMidnight(day, o.timeZone);
    const open = midnight + openH * MS_HOUR;
    const close = midnight + closeH * MS_HOUR;
    const dow = (((day + 4) % 7) + 7) % 7; // 1970-01-01 was a Thursday; 0 = Sunday
    const dayFactor = dow === 0 || dow === 6 ? 1.3 : dow === 5 ? 1.1 : 1;
    // Its own stream: the day's draws (and so its people and MACs) stay those of a world without it.
    const dwellFactor = o.dwellDayVariation > 0 ? Math.exp(o.dwellDayVariation * createRng(hashSeed(o.seed, "dwellDay", index, day)).normal()) : 1;
    const clip = (v: number): number => Math.min(seed.endMs, Math.max(seed.startMs, v));

    // Staff shifts: early, late or full, most days, with an optional break away from the shop.
    for (const member of staff) {
      if (!dayRng.chance(0.8)) continue;
      let from: number;
      let to: number;
      if (member.shift === 0) [from, to] = [open - 40 * MS_MIN, open + 7.5 * MS_HOUR];
      else if (member.shift === 1) [from, to] = [close - 7.5 * MS_HOUR, close + 25 * MS_MIN];
      else [from, to] = [open - 30 * MS_MIN, close + 20 * MS_MIN];
      from = Math.round(from + 10 * MS_MIN * dayRng.normal());
      to = Math.round(to + 10 * MS_MIN * dayRng.normal());
      const parts: [number, number][] = [];
      if (to - from > 4 * MS_HOUR && dayRng.chance(0.6)) {
        const breakAt = Math.round(from + (to - from) * dayRng.uniform(0.35, 0.65));
        const breakEnd = breakAt + Math.round(dayRng.uniform(25, 60) * MS_MIN);
        parts.push([from, breakAt], [breakEnd, to]);
      } else parts.push([from, to]);
      for (const [a0, z0] of parts) {
        const a = clip(a0);
        const z = clip(z0);
        if (z - a < MS_MIN) continue;
        if (member.phone === undefined) b.visit(dayRng, member.person, member.device, "staff", staffTrack(dayRng, layout, a, z), a, z, member.gap, 0.5);
        else b.burstVisit(dayRng, member.person, member.phone, "staff", staffTrack(dayRng, layout, a, z), a, z, dayRng.chance(STAFF_ASSOCIATED_SHARE));
      }
    }

    // Visitors: arrivals through the opening hours with lunch and evening peaks.
    const visitorRate = o.visitorsPerDay * popularity * dayFactor;
    const nVisitors = poisson(dayRng, visitorRate * ((close - open) / ((closeH - openH) * MS_HOUR)));
    const arrivals = sampleProfile(dayRng, nVisitors, midnight, openH, closeH - 3 / 60, 0.35);
    const conversion = o.conversion ?? seed.profile.conversion;
    // Companions draw from a stream of their own, so the day's own draws stay as without them.
    const groupRng = createRng(hashSeed(o.seed, "groups", index, day));
    // Devices people carry besides their phone, from a stream of their own (only with real phones).
    const devRng = real === undefined || m === undefined ? undefined : createRng(hashSeed(o.seed, "devices", index, day));
    const dayOffset = zoneOffsetMinutes(o.timeZone, open);
    for (const arrival of arrivals) {
      const longStay = dayRng.chance(0.04);
      let dwell = (longStay ? dayRng.logNormal(90 * MS_MIN, 0.4) : dayRng.logNormal(14 * MS_MIN, 0.65)) * dwellFactor;
      dwell = clamp(dwell, 3 * MS_MIN, 4 * MS_HOUR);
      let start = Math.round(arrival);
      let end = Math.min(start + Math.round(dwell), close + 15 * MS_MIN);
      if (end - start < 3 * MS_MIN) start = end - 3 * MS_MIN;
      start = clip(start);
      end = clip(end);
      if (end - start < MS_MIN) continue;
      let heard: number;
      let track: number[]; // drawn after the phone, as before groups: companions walk it too
      if (m === undefined) {
        let mac: string;
        let person: number;
        if (dayRng.chance(o.randomizedShare)) [mac, person] = [b.newMac(dayRng, "local"), b.newPerson()];
        else if (returningPool.length > 0 && day > firstDay && dayRng.chance(o.returningShare)) ({ mac, person } = dayRng.pick(returningPool));
        else {
          [mac, person] = [b.newMac(dayRng, PHONE_VENDORS), b.newPerson()];
          returningPool.push({ person, mac });
        }
        const device = b.device(mac, dayRng);
        track = visitorTrack(dayRng, layout, start, end);
        heard = b.visit(dayRng, person, device, "visitor", track, start, end, b.phoneGap(dayRng), 0.5);
      } else {
        let phone: Phone;
        let person: number;
        if (!dayRng.chance(real?.universalShare ?? m.universalShare)) [phone, person] = [b.phone(dayRng, dayRng.chance(m.rotatingShare) ? "rotating" : "stable", undefined), b.newPerson()];
        else if (returningPhones.length > 0 && day > firstDay && dayRng.chance(o.returningShare)) ({ phone, person } = dayRng.pick(returningPhones));
        else {
          [phone, person] = [b.phone(dayRng, "universal", b.newMac(dayRng, PHONE_VENDORS)), b.newPerson()];
          returningPhones.push({ person, phone });
        }
        const associated = dayRng.chance(m.associatedShare);
        track = visitorTrack(dayRng, layout, start, end);
        heard = b.burstVisit(dayRng, person, phone, "visitor", track, start, end, associated);
        if (devRng !== undefined) carried(devRng, b, real!, m, person, "visitor", track, start, end);
      }
      if (heard > 0 && dayRng.chance(conversion)) {
        purchases(dayRng, seed, start, end, close, dayOffset, sales);
      }
      if (o.groupShare > 0 && groupRng.chance(o.groupShare)) companions(groupRng, b, m, o.randomizedShare, layout, track, start, end, clip, real, devRng);
    }

    // Passers-by: street traffic outside the wall, from before opening to after closing.
    const nPassers = poisson(dayRng, o.passersByPerDay * popularity * dayFactor);
    const walks = sampleProfile(dayRng, nPassers, midnight, Math.max(0, openH - 1.5), Math.min(24, closeH + 1), 0.6);
    for (const at of walks) {
      const linger = dayRng.chance(o.lingerShare) ? Math.round(clamp(dayRng.logNormal(3 * MS_MIN, 0.6), 40_000, 20 * MS_MIN)) : 0;
      const start = clip(Math.round(at));
      const track = passerTrack(dayRng, layout, start, linger);
      const end = clip(track[track.length - 5]!);
      if (end - start < 2_000) continue;
      const person = b.newPerson();
      if (m === undefined) b.visit(dayRng, person, b.device(newShopperMac(dayRng, b, o.randomizedShare), dayRng), "passerby", track, start, end, b.phoneGap(dayRng), 0.5);
      else {
        b.burstVisit(dayRng, person, newShopperPhone(dayRng, b, m, real), "passerby", track, start, end, false);
        if (devRng !== undefined) carried(devRng, b, real!, m, person, "passerby", track, start, end);
      }
    }
  }

  b.truth.sort((p, q) => p.start - q.start || p.end - q.end || (p.device < q.device ? -1 : p.device > q.device ? 1 : 0));
  sales.sort((p, q) => p.ms - q.ms);
  b.visits.sort((p, q) => p.start - q.start || p.end - q.end || p.visit - q.visit);
  return {
    shop,
    layout,
    table: b.cols.finish(seed.id, b.devices, sensorMacs),
    outages,
    clockOffsets,
    truth: b.truth,
    visits: b.visits,
    occupancy: b.occupancy(),
    sales: sales.map((s) => s.t),
  };
}

// ---------------------------------------------------------------------------------------
// Tracks: flat [t0, t1, x0, y0, x1, y1] segments

// 1–3 companions of a visitor: arriving within 20 s of them, beside them (a fixed offset within a
// metre, kept inside the floor) along their track, leaving within a minute of them.
function companions(
  rng: Rng,
  b: ShopBuilder,
  m: MacBehaviour | undefined,
  randomizedShare: number,
  layout: ShopLayout,
  track: readonly number[],
  start: number,
  end: number,
  clip: (v: number) => number,
  real: RealPhones | undefined,
  devRng: Rng | undefined,
): void {
  const k = rng.int(1, 3);
  for (let i = 0; i < k; i++) {
    const dx = rng.uniform(-1, 1);
    const dy = rng.uniform(-1, 1);
    const beside = track.map((v, j) => {
      const field = j % 6;
      if (field === 2 || field === 4) return clamp(v + dx, 0.2, layout.widthM - 0.2);
      if (field === 3 || field === 5) return clamp(v + dy, 0.2, layout.depthM - 0.2);
      return v;
    });
    const from = clip(Math.round(start + rng.uniform(-20_000, 20_000)));
    const to = clip(Math.round(end + rng.uniform(-60_000, 60_000)));
    if (to - from < MS_MIN) continue;
    const person = b.newPerson();
    if (m === undefined) b.visit(rng, person, b.device(newShopperMac(rng, b, randomizedShare), rng), "visitor", beside, from, to, b.phoneGap(rng), 0.5);
    else {
      b.burstVisit(rng, person, newShopperPhone(rng, b, m, real), "visitor", beside, from, to, rng.chance(m.associatedShare));
      if (real !== undefined && devRng !== undefined) carried(devRng, b, real, m, person, "visitor", beside, from, to);
    }
  }
}

const EXTRA_DEVICES: readonly ExtraDevice[] = ["laptop", "watch", "tablet"];

// The devices a person carries besides their phone (real phones): a second with
// `secondDeviceShare`, a third with `thirdDeviceShare` (only with a second). Each goes where the
// person goes, for as long, and is recorded as that person's device (`extraDevice`), never as a
// person. Always the same draws per person, so one person's devices do not shift the next one's.
function carried(rng: Rng, b: ShopBuilder, real: RealPhones, m: MacBehaviour, person: number, kind: "visitor" | "passerby", track: number[], start: number, end: number): void {
  const u = rng.next();
  const n = u < real.thirdDeviceShare ? 2 : u < real.secondDeviceShare ? 1 : 0;
  for (let i = 0; i < n; i++) {
    const what = rng.pick(EXTRA_DEVICES);
    const phone = rng.chance(real.extraUniversalShare)
      ? b.phone(rng, "universal", b.newMac(rng, PHONE_VENDORS))
      : b.phone(rng, rng.chance(m.rotatingShare) ? "rotating" : "stable", undefined);
    b.burstVisit(rng, person, phone, kind, track, start, end, false, what);
  }
}

// One piece of fixed equipment with real phones (a till, a printer, a PC): a universal MAC
// probing at its own rate from `equipmentBurstsPerMinute`, either on all the time or, with
// `equipmentSwitchedShare`, switched on 15–45 min before opening and off 10–30 min after closing
// each local day. Its own stream per piece, so the shop's other draws stay put.
function equipment(rng: Rng, b: ShopBuilder, real: RealPhones, o: Resolved, person: number, layout: ShopLayout, startMs: number, endMs: number): void {
  const gapMs = medianGapMs(logUniformRate(rng, real.equipmentBurstsPerMinute), 0.15);
  const phone = b.phone(rng, "universal", b.newMac(rng, STATIONARY_VENDORS), gapMs);
  const x = rng.uniform(0.5, layout.widthM - 0.5);
  const y = rng.uniform(layout.depthM * 0.5, layout.depthM - 0.3);
  if (!rng.chance(real.equipmentSwitchedShare)) {
    b.burstVisit(rng, person, phone, "stationary", [startMs, endMs, x, y, x, y], startMs, endMs, true);
    return;
  }
  for (let day = localDayOf(startMs, o.timeZone); day <= localDayOf(endMs - 1, o.timeZone); day++) {
    const midnight = localMidnight(day, o.timeZone);
    const on = Math.max(startMs, Math.round(midnight + o.openingHours[0] * MS_HOUR - rng.uniform(15, 45) * MS_MIN));
    const off = Math.min(endMs, Math.round(midnight + o.openingHours[1] * MS_HOUR + rng.uniform(10, 30) * MS_MIN));
    if (off - on < MS_MIN) continue;
    b.burstVisit(rng, person, phone, "stationary", [on, off, x, y, x, y], on, off, true);
  }
}

// A new shopper's MAC with rotation off: random local (re-randomized per visit) or a vendor's.
function newShopperMac(rng: Rng, b: ShopBuilder, randomizedShare: number): string {
  return rng.chance(randomizedShare) ? b.newMac(rng, "local") : b.newMac(rng, PHONE_VENDORS);
}

// A new shopper's phone in the burst model (no returning device): universal, else rotating or stable.
function newShopperPhone(rng: Rng, b: ShopBuilder, m: MacBehaviour, real: RealPhones | undefined): Phone {
  return rng.chance(real?.universalShare ?? m.universalShare) ? b.phone(rng, "universal", b.newMac(rng, PHONE_VENDORS)) : b.phone(rng, rng.chance(m.rotatingShare) ? "rotating" : "stable", undefined);
}

function visitorTrack(rng: Rng, layout: ShopLayout, start: number, end: number): number[] {
  const { widthM: w, depthM: d, doorXM: door } = layout;
  const track: number[] = [];
  const dur = end - start;
  const edge = Math.min(15_000, dur / 6);
  let t = start;
  let x = door;
  let y = 0.6;
  const stay = (until: number): void => {
    track.push(t, until, x, y, x, y);
    t = until;
  };
  const move = (nx: number, ny: number, until: number): void => {
    track.push(t, until, x, y, nx, ny);
    t = until;
    x = nx;
    y = ny;
  };
  stay(start + edge);
  const stops = Math.min(5, 1 + Math.floor(rng.next() * (1 + dur / (8 * MS_MIN))));
  const weights: number[] = [];
  let sum = 0;
  for (let k = 0; k < stops; k++) {
    const wk = rng.exponential(1);
    weights.push(wk);
    sum += wk;
  }
  const inner = end - edge - t;
  const walkMs = Math.min(6_000, inner / (4 * stops));
  for (let k = 0; k < stops; k++) {
    const slot = (inner * weights[k]!) / sum;
    move(rng.uniform(0.8, w - 0.8), rng.uniform(0.8, d - 0.5), t + walkMs);
    stay(t + Math.max(0, slot - walkMs));
  }
  move(door, 0.6, Math.min(end, t + walkMs));
  stay(end);
  return track;
}

function staffTrack(rng: Rng, layout: ShopLayout, start: number, end: number): number[] {
  const { widthM: w, depthM: d } = layout;
  const track: number[] = [];
  let t = start;
  let x = rng.uniform(0.5, w - 0.5);
  let y = rng.uniform(d * 0.6, d - 0.3);
  while (t < end) {
    const until = Math.min(end, t + Math.round(rng.logNormal(10 * MS_MIN, 0.6)));
    track.push(t, until, x, y, x, y);
    t = until;
    if (t >= end) break;
    // Mostly the counter and back of house, sometimes the floor.
    const nx = rng.uniform(0.5, w - 0.5);
    const ny = rng.chance(0.6) ? rng.uniform(d * 0.6, d - 0.3) : rng.uniform(0.5, d - 0.3);
    const walk = Math.min(end, t + 5_000);
    track.push(t, walk, x, y, nx, ny);
    t = walk;
    x = nx;
    y = ny;
  }
  if (track.length === 0) track.push(start, end, x, y, x, y);
  return track;
}

function passerTrack(rng: Rng, layout: ShopLayout, start: number, lingerMs: number): number[] {
  const w = layout.widthM;
  const reach = 15;
  const speed = rng.uniform(0.8, 1.6) / 1000; // m per ms
  const lane = -rng.uniform(1, 8);
  const ltr = rng.chance(0.5);
  const x0 = ltr ? -reach : w + reach;
  const x1 = ltr ? w + reach : -reach;
  if (lingerMs <= 0) {
    const end = start + Math.round(Math.abs(x1 - x0) / speed);
    return [start, end, x0, lane, x1, lane];
  }
  // Walks up to the window, looks in for a few minutes, walks on.
  const wx = rng.uniform(0.5, w - 0.5);
  const wy = -rng.uniform(0.3, 1.5);
  const t1 = start + Math.round(Math.abs(wx - x0) / speed);
  const t2 = t1 + lingerMs;
  const t3 = t2 + Math.round(Math.abs(x1 - wx) / speed);
  return [start, t1, x0, lane, wx, wy, t1, t2, wx, wy, wx, wy, t2, t3, wx, wy, x1, lane];
}

// ---------------------------------------------------------------------------------------
// Sales

function purchases(
  rng: Rng,
  seed: ShopSeed,
  start: number,
  end: number,
  close: number,
  offsetMinutes: number,
  out: { ms: number; t: SimTransaction }[],
): void {
  const receipts = rng.chance(0.12) ? 2 : 1;
  for (let k = 0; k < receipts; k++) {
    const ms = Math.max(start, end - Math.round(rng.uniform(0.5, 3) * MS_MIN));
    const quantity = 1 + Math.min(seed.profile.maxQty - 1, Math.floor(rng.exponential(0.8)));
    const amount = Math.max(1000, Math.round((rng.logNormal(seed.profile.ticketKrw, 0.45) * (0.6 + 0.4 * quantity)) / 100) * 100);
    if (ms < seed.startMs || ms >= seed.endMs) continue;
    out.push({ ms, t: { brand: seed.profile.name, external_key: seed.externalKey, timestamp: formatLocalIso(ms, offsetMinutes), amount, quantity } });
    // A few lines come back later the same day as a refund.
    if (rng.chance(0.03)) {
      const back = ms + Math.round(rng.uniform(20, 240) * MS_MIN);
      if (back < close && back < seed.endMs) {
        out.push({ ms: back, t: { brand: seed.profile.name, external_key: seed.externalKey, timestamp: formatLocalIso(back, offsetMinutes), amount: -amount, quantity: -quantity } });
      }
    }
  }
}

// ---------------------------------------------------------------------------------------
// Small helpers

/**
 * `n` instants between local hours [fromH, toH) of the day starting at `midnight`, drawn
 * from a daily profile: a floor of `baseline` plus a lunch peak (~12:45) and a wider evening
 * peak (~18:45). Sorted ascending.
 */
function sampleProfile(rng: Rng, n: number, midnight: number, fromH: number, toH: number, baseline: number): number[] {
  const binMs = 5 * MS_MIN;
  const from = midnight + fromH * MS_HOUR;
  const bins = Math.max(1, Math.ceil(((toH - fromH) * MS_HOUR) / binMs));
  const cum = new Float64Array(bins);
  let acc = 0;
  for (let k = 0; k < bins; k++) {
    const h = fromH + ((k + 0.5) * binMs) / MS_HOUR;
    const lunch = Math.exp(-0.5 * ((h - 12.75) / 1.1) ** 2);
    const evening = 1.3 * Math.exp(-0.5 * ((h - 18.75) / 1.6) ** 2);
    acc += baseline + lunch + evening;
    cum[k] = acc;
  }
  const span = (toH - fromH) * MS_HOUR;
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const u = rng.next() * acc;
    let lo = 0;
    let hi = bins - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (cum[mid]! <= u) lo = mid + 1;
      else hi = mid;
    }
    const offset = Math.min(span - 1, (lo + rng.next()) * binMs);
    out.push(from + offset);
  }
  out.sort((p, q) => p - q);
  return out;
}

function poisson(rng: Rng, mean: number): number {
  if (mean <= 0) return 0;
  if (mean > 50) return Math.max(0, Math.round(mean + Math.sqrt(mean) * rng.normal()));
  const limit = Math.exp(-mean);
  let k = 0;
  let p = rng.next();
  while (p > limit) {
    k++;
    p *= rng.next();
  }
  return k;
}

function clamp(v: number, lo: number, hi: number): number {
  return v < lo ? lo : v > hi ? hi : v;
}

function round1(v: number): number {
  return Math.round(v * 10) / 10;
}
