// The decoding rules without the OUI registry: the vendor lookup is given (decodeSignal.ts gives
// the IEEE list's), so a decode thread, which looks up no vendors, does not load the registry's
// 5.6 MB of JSON (~0.15 s of its start and ~0.2 s of its CPU on the big shop-day).
import { isEpochUnit, scaleToMillis, unitOfMagnitude, type EpochUnit } from "./inferEpochUnit.ts";
import { lowerHexDigit } from "./hexDigit.ts";
import { toNormalMac } from "./mac.ts";
import type { RowKeyScan } from "./rowKey.ts";
import { checkRowKey, invalid, isInvalidRecord, shopMatches, tsNumber, typeName, typesInvalid, type InvalidReason, type InvalidRecord } from "./InvalidRecord.ts";
import { millisRts, presetUnitOf, type RtsCodec } from "./rts.ts";
import { SIGNAL_LOCAL_FLAG_MISMATCH, SIGNAL_TS_RTS_MISMATCH, type Signal } from "./Signal.ts";
import { describeValue } from "./describeValue.ts";

/**
 * Options of {@link decodeSignal} (and, through {@link SignalDecoderOptions}, of
 * {@link SignalDecoder}).
 *
 * @example
 * const options: DecodeSignalOptions = { shopId: 101, tsUnit: "ms" };
 */
export interface DecodeSignalOptions {
  /**
   * The shop that was asked for: a record whose row_key names another shop is rejected
   * (`shop-mismatch`). Any shop is accepted when unset.
   * @default undefined
   */
  readonly shopId?: number | undefined;
  /**
   * Unit of `ts`: `"auto"` infers it per record from its magnitude (see `inferEpochUnit`).
   * @default "auto"
   */
  readonly tsUnit?: "auto" | EpochUnit;
  /**
   * Look up the IEEE vendor of each universal device MAC (first use loads the OUI list).
   * @default true
   */
  readonly vendors?: boolean;
  /**
   * How far ahead of the true time each sensor's clock runs, ms, by sensor MAC (any MAC form):
   * subtracted from that sensor's `ts`, so that every sensor's signals are on one clock. A
   * sensor a few seconds off splits each probe burst it shares with another sensor in two, and
   * the people estimate with it; the data-quality report estimates the offsets
   * (`SensorQuality.clockOffsetMs`). Sensors not listed are taken as right.
   * @default undefined (every clock right)
   */
  readonly clockOffsetsMs?: Readonly<Record<string, number>> | undefined;
}

/**
 * Options of {@link SignalDecoder}: those of {@link decodeSignal} plus the data-quality
 * checks and the invalid side channel.
 *
 * @example
 * const options: SignalDecoderOptions = { shopId: 101, onInvalid: (bad) => console.error(bad.message) };
 */
export interface SignalDecoderOptions extends DecodeSignalOptions {
  /**
   * How the service turns time into RTS; used only to compare each row_key's RTS with
   * the record's `ts` (`stats.tsRtsMismatch`). `inferRtsCodec` can pick one from a record.
   * @default millisRts
   */
  readonly rtsCodec?: RtsCodec;
  /**
   * Largest |RTS time − ts time| in ms that is not counted as a mismatch. `Infinity`
   * turns the check off.
   * @default 1000
   */
  readonly tsToleranceMs?: number;
  /**
   * Receives each invalid record (the invalid side channel); it is also counted in
   * `stats`. If it throws, the error reaches the caller of `decode`.
   * @default undefined
   */
  readonly onInvalid?: ((invalid: InvalidRecord) => void) | undefined;
}

/**
 * Defaults of {@link SignalDecoderOptions} (and so of {@link DecodeSignalOptions}).
 *
 * @example
 * defaultSignalDecoderOptions.tsToleranceMs; // 1000
 */
export const defaultSignalDecoderOptions = Object.freeze({
  shopId: undefined,
  tsUnit: "auto",
  vendors: true,
  rtsCodec: millisRts,
  tsToleranceMs: 1000,
  onInvalid: undefined,
  clockOffsetsMs: undefined,
} as const satisfies Required<SignalDecoderOptions>);

/**
 * Counters of a {@link SignalDecoder}: how many records decoded, how many were rejected
 * and why, and the data-quality findings among the decoded ones.
 *
 * @example
 * new SignalDecoder().stats.decoded; // 0
 */
export interface SignalDecoderStats {
  /** Records that became signals. */
  readonly decoded: number;
  /** Records rejected (the sum of `invalidByReason`). */
  readonly invalid: number;
  /** Rejected records per reason; every reason is present. */
  readonly invalidByReason: Readonly<Record<InvalidReason, number>>;
  /** Signals whose service `local` flag differs from bit 0x02 of the device MAC. */
  readonly localFlagMismatch: number;
  /** Signals whose RTS time (per `rtsCodec`) and `ts` time differ by more than `tsToleranceMs`. */
  readonly tsRtsMismatch: number;
  /** Signals whose device MAC is randomised (locally administered, unicast). */
  readonly randomized: number;
  /** Signals with a universal device MAC the OUI list has no vendor for (0 when `vendors` is off). */
  readonly vendorless: number;
}

/** Beyond this many ms from the epoch a Date is invalid, so such a `ts` is nonsense. */
const MAX_TIME_MS = 8.64e15;
/**
 * 2000-01-01T00:00Z, epoch ms: a signal stamped earlier comes from a sensor clock that was never
 * set (a sensor reboots counting from 1970 until it finds a time source). Its unit cannot even be
 * told (`inferEpochUnit` is unambiguous from 1973), and taken as 1970 it would make a day of its
 * own and a watermark decades behind. Internal (the source skips such records when it checks
 * the RTS rule).
 *
 * @example
 * new Date(MIN_TIME_MS).toISOString(); // "2000-01-01T00:00:00.000Z"
 */
export const MIN_TIME_MS = 946_684_800_000;
/** Validated options, in the form the hot loop reads. */
interface Config {
  readonly shopId: number;
  /** `undefined` = infer per record. */
  readonly tsUnit: EpochUnit | undefined;
  /** The vendor lookup, `undefined` when vendors are off or not looked up here. */
  readonly vendorOf: VendorLookup | undefined;
  readonly rtsCodec: RtsCodec;
  /** Unit of a preset `rtsCodec` (RTS read in place), or `undefined` for a custom one. */
  readonly rtsUnit: EpochUnit | undefined;
  readonly tsToleranceMs: number;
  /** By normal sensor MAC, ms to subtract from its time; `undefined` when none is off. */
  readonly clockOffsets: ReadonlyMap<string, number> | undefined;
}

function configOf(options: SignalDecoderOptions | undefined, what: string, vendorOf: VendorLookup | undefined): Config {
  if (options !== undefined && (typeof options !== "object" || options === null)) {
    throw new TypeError(`${what}: options must be an object`);
  }
  const shopId = options?.shopId ?? defaultSignalDecoderOptions.shopId;
  if (shopId !== undefined && (!Number.isSafeInteger(shopId) || shopId < 0)) {
    throw new RangeError(`${what}: shopId must be a non-negative safe integer, got ${describeValue(shopId)}`);
  }
  const tsUnit = options?.tsUnit ?? defaultSignalDecoderOptions.tsUnit;
  if (tsUnit !== "auto" && !isEpochUnit(tsUnit)) {
    throw new TypeError(`${what}: tsUnit must be "auto", "s", "ms", "us" or "ns", got ${describeValue(tsUnit)}`);
  }
  const vendors = options?.vendors ?? defaultSignalDecoderOptions.vendors;
  if (typeof vendors !== "boolean") throw new TypeError(`${what}: vendors must be a boolean`);
  const rtsCodec = options?.rtsCodec ?? defaultSignalDecoderOptions.rtsCodec;
  if (typeof rtsCodec !== "object" || rtsCodec === null || typeof rtsCodec.decode !== "function" || typeof rtsCodec.encode !== "function") {
    throw new TypeError(`${what}: rtsCodec must be an RtsCodec ({ unit, encode, decode })`);
  }
  const tsToleranceMs = options?.tsToleranceMs ?? defaultSignalDecoderOptions.tsToleranceMs;
  if (typeof tsToleranceMs !== "number" || !(tsToleranceMs >= 0)) {
    throw new RangeError(`${what}: tsToleranceMs must be a non-negative number (Infinity to disable), got ${describeValue(tsToleranceMs)}`);
  }
  const onInvalid = options?.onInvalid;
  if (onInvalid !== undefined && typeof onInvalid !== "function") throw new TypeError(`${what}: onInvalid must be a function`);
  let clockOffsets: Map<string, number> | undefined;
  const givenOffsets = options?.clockOffsetsMs;
  if (givenOffsets !== undefined) {
    if (typeof givenOffsets !== "object" || givenOffsets === null) throw new TypeError(`${what}: clockOffsetsMs must be an object of sensor MAC → ms`);
    for (const [mac, ms] of Object.entries(givenOffsets)) {
      const sensor = toNormalMac(mac);
      if (sensor === undefined) throw new RangeError(`${what}: clockOffsetsMs: ${describeValue(mac)} is not a MAC address`);
      if (typeof ms !== "number" || !Number.isInteger(ms)) throw new RangeError(`${what}: clockOffsetsMs[${mac}] must be whole ms, got ${describeValue(ms)}`);
      if (ms !== 0) (clockOffsets ??= new Map()).set(sensor, ms);
    }
  }
  return {
    shopId: shopId ?? -1,
    tsUnit: tsUnit === "auto" ? undefined : tsUnit,
    vendorOf: vendors ? vendorOf : undefined,
    rtsCodec,
    rtsUnit: presetUnitOf(rtsCodec),
    tsToleranceMs,
    clockOffsets,
  };
}

/**
 * Receives the RTS value read while checking the row_key, so the ts/RTS check need not
 * read it again. Decoding is synchronous, so one object serves every decoder.
 */
const scan: RowKeyScan = { rtsValue: 0, rts: undefined };

/** Mutable counters behind {@link SignalDecoderStats}. */
interface Counters {
  decoded: number;
  localFlagMismatch: number;
  tsRtsMismatch: number;
  randomized: number;
  vendorless: number;
}

/**
 * The one decoding rule, shared by {@link decodeSignal} and {@link SignalDecoder}: the shape
 * (an object, {@link rowKeyInvalid}'s row_key rule, {@link fieldsInvalid}'s types), then the
 * values in wire order (MACs, rssi range, ts range); stops at the first problem. Counts
 * data-quality findings into `counters` when given.
 */
function decodeRecord(raw: unknown, config: Config, counters: Counters | undefined): Signal | InvalidRecord {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    return invalid("not-an-object", "", `record: expected an object, got ${typeName(raw)}`, raw);
  }
  // A JSON object: read fields as plain properties.
  const record = raw as Record<string, unknown>;
  const rowKey = record.row_key as string;
  const shopId = checkRowKey(raw, rowKey, config.shopId, scan);
  if (typeof shopId !== "number") return shopId;
  const deviceId = record.device_id;
  const rssi = record.rssi;
  const squareMac = record.square_mac;
  const rawTs = record.ts;
  const local = record.local;
  const shape = typesInvalid(raw, deviceId, rssi, squareMac, rawTs, local);
  if (shape !== undefined) return shape;

  const device = toNormalMac(deviceId as string);
  if (device === undefined) return invalid("bad-mac", "device_id", "device_id: not a MAC address", raw);
  if (!rssiInRange(rssi as number)) {
    return invalid("rssi-out-of-range", "rssi", `rssi: ${rssi as number} dBm is outside -127…0`, raw);
  }
  const sensor = toNormalMac(squareMac as string);
  if (sensor === undefined) return invalid("bad-mac", "square_mac", "square_mac: not a MAC address", raw);
  const ts = typeof rawTs === "number" ? rawTs : tsNumber(rawTs);
  // `!(ts >= 0)` also catches NaN.
  if (!(ts >= 0) || ts === Infinity) return invalid("bad-ts", "ts", `ts: ${ts} is not a non-negative epoch time`, raw);
  const tsUnit = config.tsUnit ?? unitOfMagnitude(ts);
  const time = timeOf(ts, tsUnit);
  if (time > MAX_TIME_MS) return invalid("bad-ts", "ts", `ts: ${ts} ${tsUnit} is beyond the year 275760`, raw);
  if (time < MIN_TIME_MS) return invalid("bad-ts", "ts", `ts: ${ts} is before 2000: a sensor clock that was never set`, raw);

  // One spelling of an RTS inside footfall (compared, stored, stepped), whatever the service's.
  const rts = scan.rts ?? rowKey.slice(rowKey.length - 16);
  return signalOf(shopId, rts, scan.rtsValue, device, rssi as number, sensor, time, local as boolean, config, counters);
}

/** The rssi range rule: −127…0 dBm. */
function rssiInRange(rssi: number): boolean {
  return rssi >= -127 && rssi <= 0;
}

/** `ts` (≥ 0, in `unit`) as whole epoch ms. */
function timeOf(ts: number, unit: EpochUnit): number {
  return Math.floor(scaleToMillis(ts, unit));
}

/**
 * The signal of a record whose fields all passed their checks: the data-quality findings
 * (`local` flag vs the MAC's bit 0x02, RTS time vs `ts` time), the vendor, the counters. The one
 * place a {@link Signal} is built, whichever way its fields were read.
 */
function signalOf(
  shopId: number,
  rts: string,
  rtsValue: number,
  device: string,
  rssi: number,
  sensor: string,
  time: number,
  local: boolean,
  config: Config,
  counters: Counters | undefined,
): Signal {
  // Bits 0x02 (local) and 0x01 (multicast) of the first octet live in its second hex digit.
  const bits = lowerHexDigit(device.charCodeAt(1));
  const localBit = (bits & 2) !== 0;
  const randomized = (bits & 3) === 2;
  const found = deviceVendor(config.vendorOf, device, localBit);
  const vendor = found ?? undefined;

  let flags = local === localBit ? 0 : SIGNAL_LOCAL_FLAG_MISMATCH;
  if (config.tsToleranceMs !== Infinity) {
    const rtsMs = config.rtsUnit !== undefined ? scaleToMillis(rtsValue, config.rtsUnit) : config.rtsCodec.decode(rts);
    if (!(Math.abs(rtsMs - time) <= config.tsToleranceMs)) flags |= SIGNAL_TS_RTS_MISMATCH;
  }
  if (counters !== undefined) {
    counters.decoded++;
    if ((flags & SIGNAL_LOCAL_FLAG_MISMATCH) !== 0) counters.localFlagMismatch++;
    if ((flags & SIGNAL_TS_RTS_MISMATCH) !== 0) counters.tsRtsMismatch++;
    if (randomized) counters.randomized++;
    if (found === null) counters.vendorless++;
  }

  // On one clock (after the ts/RTS check, which compares the sensor's own two stamps).
  if (config.clockOffsets !== undefined) time -= config.clockOffsets.get(sensor) ?? 0;
  // One literal, fields always in this order: every Signal shares one hidden class.
  return { shopId, rts, time, device, rssi, sensor, local, randomized, vendor, flags };
}

/**
 * A record's fields as a reader specialised for the service's record shape reads them (see
 * `scanSignalLine`), already in the form the decoder's syntax checks demand: `row_key` split into
 * its SHOP ID and RTS (16 lowercase hex digits, with their value), MACs in normal lowercase colon
 * form, `rssi` an integer, `ts` a non-negative integer (in its own unit). One mutable object is
 * reused record after record.
 *
 * @example
 * const fields: SignalFields = { shopId: 101, rts: "0000019a9ec06410", rtsValue: 1763600000016,
 *   device: "f0:18:98:12:34:56", rssi: -61, sensor: "b8:27:eb:00:00:01", ts: 1763600000016, local: false };
 * new SignalDecoder().decodeFields(fields)?.vendor; // "Apple, Inc."
 */
export interface SignalFields {
  shopId: number;
  rts: string;
  /** Numeric value of `rts`. */
  rtsValue: number;
  device: string;
  /** dBm. */
  rssi: number;
  sensor: string;
  ts: number;
  local: boolean;
}

/**
 * The IEEE vendor of a device MAC in normal form, as a vendor lookup gives it: the lookup returns
 * `undefined` for a MAC it has no vendor for, and for a MAC it never assigns one (locally
 * administered). Internal: `decodeSignal.ts` gives the `oui-data` lookup.
 *
 * @example
 * const lookup: VendorLookup = (mac) => (mac.startsWith("f0:18:98") ? "Apple, Inc." : undefined);
 */
export type VendorLookup = (normalMac: string) => string | undefined;

/**
 * The vendor a signal of `device` gets: `undefined` for a locally administered MAC (`localBit`)
 * or when no lookup is made (vendors off), else the lookup's name, or `null` when it has none (a
 * signal counted `vendorless`). The one rule, wherever the vendor is looked up.
 */
function deviceVendor(vendorOf: VendorLookup | undefined, device: string, localBit: boolean): string | null | undefined {
  return localBit || vendorOf === undefined ? undefined : (vendorOf(device) ?? null);
}

/** The last configuration {@link decodeSignalWith} made without options, and its lookup. */
let defaultConfig: { readonly vendorOf: VendorLookup; readonly config: Config } | undefined;

/**
 * `decodeSignal` with a given vendor lookup (see `decodeSignal.ts`, which gives the IEEE list's).
 * Internal.
 *
 * @example
 * const s = decodeSignalWith({ row_key: "101:0000019a9ec06410", device_id: "f0:18:98:12:34:56", rssi: -61,
 *   square_mac: "b8:27:eb:00:00:01", ts: 1763600000016, local: false }, undefined, () => "Apple, Inc.");
 * (s as Signal).vendor; // "Apple, Inc."
 */
export function decodeSignalWith(raw: unknown, options: DecodeSignalOptions | undefined, vendorOf: VendorLookup): Signal | InvalidRecord {
  let config: Config;
  if (options !== undefined) config = configOf(options, "decodeSignal", vendorOf);
  else if (defaultConfig?.vendorOf === vendorOf) config = defaultConfig.config;
  else config = (defaultConfig = { vendorOf, config: configOf(undefined, "decodeSignal", vendorOf) }).config;
  return decodeRecord(raw, config, undefined);
}

/**
 * `SignalDecoder` with a given vendor lookup, or none: the one implementation of decoding a stream
 * of records, which `SignalDecoder` (in `decodeSignal.ts`, with the IEEE list) extends. Without a
 * lookup no vendor is looked up, as with `vendors: false`: a decode thread's decoder, whose
 * signals get their vendors where they are applied ({@link vendorOfDevice}). Internal.
 *
 * @example
 * const decoder = new SignalDecoderCore({ shopId: 101 }, undefined);
 * decoder.decode({ row_key: "101:0000019a9ec06410", device_id: "f0:18:98:12:34:56", rssi: -61,
 *   square_mac: "b8:27:eb:00:00:01", ts: 1763600000016, local: false })?.vendor; // undefined
 * decoder.stats.vendorless; // 0
 */
export class SignalDecoderCore {
  readonly #config: Config;
  readonly #onInvalid: ((invalid: InvalidRecord) => void) | undefined;
  readonly #counters: Counters = { decoded: 0, localFlagMismatch: 0, tsRtsMismatch: 0, randomized: 0, vendorless: 0 };
  readonly #invalidByReason: Record<InvalidReason, number> = {
    "not-an-object": 0,
    "missing-field": 0,
    "wrong-type": 0,
    "bad-row-key": 0,
    "bad-mac": 0,
    "rssi-out-of-range": 0,
    "shop-mismatch": 0,
    "bad-ts": 0,
    "not-json": 0,
  };
  #invalid = 0;

  /** @param vendorOf the vendor lookup (used unless `options.vendors` is false); `undefined` looks up none */
  constructor(options: SignalDecoderOptions | undefined, vendorOf: VendorLookup | undefined) {
    this.#config = configOf(options, "SignalDecoder", vendorOf);
    this.#onInvalid = options?.onInvalid;
  }

  /**
   * The vendor this decoder gives a signal of `device` (a MAC in normal form): the IEEE vendor,
   * `null` for a universal MAC with none (such a signal is counted `vendorless`), `undefined` for a
   * locally administered MAC or when no vendors are looked up. For signals decoded by a decoder
   * without a lookup (a decode thread's), looked up once per device where they are applied;
   * counts nothing.
   *
   * @example
   * new SignalDecoder().vendorOfDevice("f0:18:98:12:34:56"); // "Apple, Inc."
   * new SignalDecoder().vendorOfDevice("da:a1:19:00:00:01"); // undefined
   */
  vendorOfDevice(device: string): string | null | undefined {
    return deviceVendor(this.#config.vendorOf, device, (lowerHexDigit(device.charCodeAt(1)) & 2) !== 0);
  }

  /**
   * One raw record → a {@link Signal}, or `undefined` when it is invalid (then it has gone
   * to `onInvalid` and been counted).
   *
   * @example
   * new SignalDecoder().decode("not a record"); // undefined
   */
  decode(raw: unknown): Signal | undefined {
    const result = decodeRecord(raw, this.#config, this.#counters);
    if ("reason" in result) {
      this.reject(result);
      return undefined;
    }
    return result;
  }

  /**
   * The signal of a record whose fields were read and syntax-checked by a specialised reader
   * (`scanSignalLine`), without building the raw record: the decoder's remaining checks (shop,
   * rssi range, ts range) and everything else {@link decode} does, counted alike. Returns
   * `undefined`, counting nothing, when one of those checks fails: the caller then decodes the
   * raw record with {@link decode}, which rejects it with the reason, message and record a
   * rejection always has. So a record gives the same signal, or the same rejection, either way.
   *
   * @example
   * const decoder = new SignalDecoder({ shopId: 101 });
   * const fields: SignalFields = { shopId: 101, rts: "0000019a9ec06410", rtsValue: 1763600000016,
   *   device: "da:a1:19:00:00:01", rssi: -70, sensor: "b8:27:eb:00:00:01", ts: 1763600000016, local: true };
   * decoder.decodeFields(fields)?.randomized;                 // true
   * decoder.decodeFields({ ...fields, rssi: 5 });             // undefined
   * [decoder.stats.decoded, decoder.stats.invalid];           // [1, 0]
   */
  decodeFields(fields: SignalFields): Signal | undefined {
    const config = this.#config;
    const { shopId, rssi, ts } = fields;
    if (!shopMatches(shopId, config.shopId)) return undefined;
    if (!rssiInRange(rssi)) return undefined;
    const time = timeOf(ts, config.tsUnit ?? unitOfMagnitude(ts));
    if (time > MAX_TIME_MS || time < MIN_TIME_MS) return undefined;
    return signalOf(shopId, fields.rts, fields.rtsValue, fields.device, rssi, fields.sensor, time, fields.local, config, this.#counters);
  }

  /**
   * Rejects a record found invalid before it reached {@link decode} — a line that is not JSON,
   * a `row_key` the source could not page by — through this decoder's one channel: counted
   * under its reason in `stats` and handed to `onInvalid`, exactly like a record `decode`
   * rejects. One channel, one set of counters, whoever found the problem.
   *
   * @example
   * const decoder = new SignalDecoder();
   * decoder.reject({ reason: "not-json", field: "", message: "not JSON", record: "{oops" });
   * decoder.stats.invalidByReason["not-json"]; // 1
   */
  reject(invalid: InvalidRecord): void {
    if (!isInvalidRecord(invalid)) throw new TypeError("reject needs an InvalidRecord");
    this.#invalid++;
    this.#invalidByReason[invalid.reason]++;
    this.#onInvalid?.(invalid);
  }

  /**
   * Every valid record of `records` (e.g. one page's `signals`), in order; invalid ones go
   * to `onInvalid` and the counters.
   *
   * @example
   * new SignalDecoder().decodeAll([null, 42]); // []
   */
  decodeAll(records: readonly unknown[]): Signal[] {
    const out: Signal[] = [];
    for (let i = 0; i < records.length; i++) {
      const signal = this.decode(records[i]);
      if (signal !== undefined) out.push(signal);
    }
    return out;
  }

  /**
   * A snapshot of the counters (a fresh object each time).
   *
   * @example
   * new SignalDecoder().stats.invalidByReason["bad-mac"]; // 0
   */
  get stats(): SignalDecoderStats {
    const c = this.#counters;
    return {
      decoded: c.decoded,
      invalid: this.#invalid,
      invalidByReason: { ...this.#invalidByReason },
      localFlagMismatch: c.localFlagMismatch,
      tsRtsMismatch: c.tsRtsMismatch,
      randomized: c.randomized,
      vendorless: c.vendorless,
    };
  }
}
