import { rejectUnknownKeys } from "../../options/rejectUnknownKeys.ts";
import { MS_PER_DAY, epochDayOfDate } from "../../time/calendarDate.ts";
import { assertTimeZone, localMidnight } from "../../time/timeZone.ts";
import { resolveMacBehaviour, type MacBehaviour, type MacBehaviourOptions } from "../phones/MacBehaviour.ts";
import { resolveRealPhones, type PhonesOption, type RealPhones } from "../phones/RealPhones.ts";
import { defaultWorldOptions, type SensorOutageOptions, type WorldOptions } from "./worldOptions.ts";

/** Every world option, for {@link rejectUnknownKeys}. */
const WORLD_KEYS: ReadonlySet<string> = new Set(Object.keys(defaultWorldOptions));

/**
 * {@link WorldOptions} checked and completed with the defaults, plus what they resolve to: the
 * burst model's parameters (`macBehaviour`) and the real phones' (`realPhones`). What every part
 * of the world builder reads.
 *
 * @example
 * const o: ResolvedWorldOptions = resolveWorldOptions({ rotation: "off" });
 * [o.macBehaviour, o.realPhones, o.visitorsPerDay]; // [undefined, undefined, 450]
 */
export type ResolvedWorldOptions = { -readonly [K in Exclude<keyof WorldOptions, "conversion" | "macs" | "sensorOutages" | "phones">]-?: Exclude<WorldOptions[K], undefined> } & {
  phones: PhonesOption;
  /** The real-phone parameters, `undefined` when `phones` is off. */
  realPhones: RealPhones | undefined;
  conversion: number | undefined;
  sensorOutages: SensorOutageOptions | undefined;
  macs: MacBehaviourOptions | undefined;
  /** The burst model's parameters, `undefined` when rotation is off. */
  macBehaviour: MacBehaviour | undefined;
};

/**
 * Checks `options` and completes them with {@link defaultWorldOptions}; throws TypeError or
 * RangeError naming the first option that is wrong (an unknown key included).
 *
 * @example
 * resolveWorldOptions({ shops: 2 }).shops; // 2
 * resolveWorldOptions({ phones: "real", rotation: "off" }); // RangeError
 */
export function resolveWorldOptions(options: WorldOptions): ResolvedWorldOptions {
  if (options === null || typeof options !== "object") throw new TypeError("world options must be an object");
  rejectUnknownKeys(options, WORLD_KEYS, "world option");
  const o = { ...defaultWorldOptions, ...stripUndefined(options) } as ResolvedWorldOptions;
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

/**
 * The world's span, [first ms, end ms) in epoch ms: from local midnight of `start` in `timeZone`
 * (or `start` itself, epoch ms) for `days` local days.
 *
 * @example
 * worldSpan(resolveWorldOptions({ start: 0, days: 2 })); // [0, 172800000]
 */
export function worldSpan(o: ResolvedWorldOptions): [number, number] {
  if (typeof o.start === "number") return [o.start, o.start + o.days * MS_PER_DAY];
  const day = epochDayOfDate(o.start)!;
  return [localMidnight(day, o.timeZone), localMidnight(day + o.days, o.timeZone)];
}
