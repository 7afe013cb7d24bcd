import { rejectUnknownKeys } from "../../options/rejectUnknownKeys.ts";
import type { Range } from "./MacBehaviour.ts";
import type { Rng } from "../random/prng.ts";
import { ProfilePool } from "./ProfilePool.ts";

/**
 * What an extra device a person carries is (a label of the truth; it decides nothing else).
 *
 * @example
 * const d: ExtraDevice = "watch";
 */
export type ExtraDevice = "laptop" | "watch" | "tablet";

/**
 * How the devices of a world with `WorldOptions.phones` on differ from one another, as real ones
 * do. **Shoppers' phones replay real phones**: each one, for a visit, is one capture of one of 22
 * real phones (`realPhoneCaptures`, a phone in one mode) — its burst rate or timer, its gaps'
 * spread, how many MACs it takes within a burst and how many bursts a MAC lasts, its frames and
 * channels per burst, its universal MAC or not (`PhoneProfile`, drawn by `ProfilePool`). Staff
 * phones replay a capture's timing and keep their one MAC; besides, what the captures do not
 * describe: some people carry a second or third device (laptops mostly probe with a universal MAC
 * at rates of their own), and fixed equipment probes at its own rates, some of it switched on and
 * off with the shop. A visitor's phone on the shop's Wi-Fi (`macs.associatedShare`) still keeps
 * one MAC and probes at `macs.burstGapS.associated`. Rates are bursts per minute, shares 0…1.
 * See `docs/simulator.md` ("Real phones") for the source of every default.
 *
 * @example
 * const phones: RealPhones = { ...realPhones, secondDeviceShare: 0.4 };
 */
export interface RealPhones {
  /**
   * The captures the phones replay: `"all"`, or phone labels (`"B"`: every capture of phone B)
   * and capture ids (`"B-A"`: phone B in mode A). A phone draws a phone, then one of its selected
   * captures (`ProfilePool`).
   */
  readonly profiles: "all" | readonly string[];
  /**
   * Share of shoppers' own phones (visitors, passers-by) replaying a capture with a universal
   * (vendor) MAC; the others replay randomized ones. By default the selected captures' own share,
   * drawn a phone then a mode at a time (all captures: {@link realPhones}'s value, 0.27).
   * With `phones` on this replaces `macs.universalShare`.
   */
  readonly universalShare: number;
  /** Burst rate of an extra device probing with a universal MAC (laptops mostly), bursts per minute: [min, max], log-uniform per device. */
  readonly universalBurstsPerMinute: Range;
  /** Share of people (visitors, companions, passers-by) carrying a second device. */
  readonly secondDeviceShare: number;
  /** Share of people carrying a third device; at most `secondDeviceShare` (a third comes with a second). */
  readonly thirdDeviceShare: number;
  /**
   * Share of extra devices that are laptops probing with their universal MAC (a laptop Wi-Fi
   * module's vendor); the others (a watch, a tablet or a laptop, equally often) replay a
   * randomized capture, as modern watches and tablets randomize like phones.
   */
  readonly extraUniversalShare: number;
  /** Burst rate of fixed equipment (tills, printers, PCs; universal MACs), bursts per minute: [min, max], log-uniform per device. */
  readonly equipmentBurstsPerMinute: Range;
  /** Share of fixed equipment switched on and off with the shop (on from before opening to after closing); the rest is on all the time. */
  readonly equipmentSwitchedShare: number;
}

/**
 * Partial {@link RealPhones} overrides on top of {@link realPhones}: the object form of
 * `WorldOptions.phones`.
 *
 * @example
 * const o: RealPhonesOptions = { secondDeviceShare: 0.3, thirdDeviceShare: 0.1 };
 */
export type RealPhonesOptions = { readonly [K in keyof RealPhones]?: RealPhones[K] };

/**
 * The world's switch for real phones: `"off"` (every phone draws its gaps from `macs.burstGapS`),
 * `"real"` ({@link realPhones}: the default of `createWorld`), or overrides of it.
 *
 * @example
 * const p: PhonesOption = { profiles: ["B", "C", "X-PA"] };
 */
export type PhonesOption = "off" | "real" | RealPhonesOptions;

/**
 * The defaults of `phones: "real"`: every capture of the 22 real phones (`realPhoneCaptures`,
 * 107 captures of 10–20 minutes, one phone each, channels 1, 6 and 11), a universal MAC as often
 * as those captures have one when drawn a phone then a mode at a time (0.27), and assumptions for
 * what the captures do not describe (extra devices, equipment), named in `docs/simulator.md`.
 *
 * @example
 * createWorld({ shops: 1, phones: "real" }); // uses these values
 * realPhones.secondDeviceShare; // 0.2
 * realPhones.universalShare.toFixed(2); // "0.27"
 */
export const realPhones: RealPhones = Object.freeze({
  profiles: "all",
  universalShare: new ProfilePool("all").universalShare,
  universalBurstsPerMinute: Object.freeze([0.1, 0.5]) as Range,
  secondDeviceShare: 0.2,
  thirdDeviceShare: 0.05,
  extraUniversalShare: 0.5,
  equipmentBurstsPerMinute: Object.freeze([0.5, 4]) as Range,
  equipmentSwitchedShare: 0.5,
});

/** Every key of {@link RealPhones}, for {@link rejectUnknownKeys}. */
const PHONE_KEYS: ReadonlySet<string> = new Set(Object.keys(realPhones));

/** Keys of the model the capture profiles replaced: named, so an old world file says what to do. */
const REPLACED_KEYS: ReadonlySet<string> = new Set(["burstsPerMinute", "burstGapJitter", "macPerChannelShare"]);

/** Most bursts per minute a rate may name: a burst takes about a second, so gaps stay longer. */
const MAX_RATE = 50;

/**
 * Resolves `WorldOptions.phones` into the parameters the world uses, `undefined` when off.
 * Throws TypeError/RangeError for invalid values (unknown keys included). With `profiles` given
 * and no `universalShare`, the share is the selection's own.
 *
 * @example
 * resolveRealPhones(undefined); // undefined (off)
 * resolveRealPhones({ secondDeviceShare: 0.5 })!.thirdDeviceShare; // 0.05
 * resolveRealPhones({ profiles: ["C"] })!.universalShare; // 1
 */
export function resolveRealPhones(phones: PhonesOption | undefined): RealPhones | undefined {
  if (phones === undefined || phones === "off") return undefined;
  if (phones === "real") return realPhones;
  if (phones === null || typeof phones !== "object" || Array.isArray(phones)) throw new TypeError('phones must be "off", "real" or an object of overrides');
  for (const key of Object.keys(phones)) {
    if (REPLACED_KEYS.has(key)) throw new TypeError(`phones.${key} is gone: phones replay real captures now (phones.profiles selects them; docs/simulator.md, "Real phones")`);
  }
  rejectUnknownKeys(phones, PHONE_KEYS, "phones");
  const given = stripUndefined(phones);
  const out: { -readonly [K in keyof RealPhones]: RealPhones[K] } = { ...realPhones, ...given };
  const pool = poolOf("phones.profiles", out.profiles);
  if (given.profiles !== undefined && given.universalShare === undefined) out.universalShare = pool.universalShare;
  share("phones.universalShare", out.universalShare);
  if (out.universalShare > 0 && !pool.profiles.some((p) => p.universal)) throw new RangeError(`phones.universalShare ${out.universalShare} but phones.profiles holds no universal-MAC capture`);
  if (out.universalShare < 1 && pool.profiles.every((p) => p.universal)) throw new RangeError(`phones.universalShare ${out.universalShare} but phones.profiles holds only universal-MAC captures`);
  range("phones.universalBurstsPerMinute", out.universalBurstsPerMinute);
  share("phones.secondDeviceShare", out.secondDeviceShare);
  share("phones.thirdDeviceShare", out.thirdDeviceShare);
  if (out.thirdDeviceShare > out.secondDeviceShare) {
    throw new RangeError(`phones.thirdDeviceShare ${out.thirdDeviceShare} exceeds phones.secondDeviceShare ${out.secondDeviceShare}: a third device comes with a second`);
  }
  share("phones.extraUniversalShare", out.extraUniversalShare);
  range("phones.equipmentBurstsPerMinute", out.equipmentBurstsPerMinute);
  share("phones.equipmentSwitchedShare", out.equipmentSwitchedShare);
  if (Array.isArray(out.profiles)) out.profiles = Object.freeze([...(out.profiles as readonly string[])]);
  return Object.freeze(out);
}

/**
 * A device's burst rate drawn log-uniformly from `[min, max]` bursts per minute (one draw).
 *
 * @example
 * const rate = logUniformRate(createRng(7), realPhones.universalBurstsPerMinute); // within 0.1…0.5
 */
export function logUniformRate(rng: Rng, [min, max]: Range): number {
  return min * Math.pow(max / min, rng.next());
}

/**
 * The median gap, ms, that gives a device bursting at `perMinute` (bursts per minute) with
 * log-normal gaps of log-space spread `jitter` a mean gap of 60 000 ÷ `perMinute` ms: the mean of
 * a log-normal is its median × e^(σ²/2), so the median sits that much below the mean.
 *
 * @example
 * medianGapMs(0.5, 0); // 120000 (one burst every two minutes, regular)
 * medianGapMs(0.5, 0.35) < 120_000; // true: the mean stays at two minutes
 */
export function medianGapMs(perMinute: number, jitter: number): number {
  return (60_000 / perMinute) * Math.exp((-jitter * jitter) / 2);
}

// The pool of a `profiles` value, checked: "all" or a non-empty array of strings naming captures.
function poolOf(name: string, v: unknown): ProfilePool {
  if (v === "all") return new ProfilePool("all");
  if (!Array.isArray(v) || v.some((x) => typeof x !== "string")) throw new TypeError(`${name} must be "all" or an array of phone labels and capture ids (e.g. ["B", "C-A"])`);
  return new ProfilePool(v as string[]);
}

function stripUndefined(o: RealPhonesOptions): RealPhonesOptions {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) if (v !== undefined) out[k] = v;
  return out as RealPhonesOptions;
}

function num(name: string, v: unknown, min: number, max: number): void {
  if (typeof v !== "number" || !Number.isFinite(v)) throw new TypeError(`${name} must be a finite number`);
  if (v < min || v > max) throw new RangeError(`${name} must be in ${min}…${max}, got ${v}`);
}

function share(name: string, v: unknown): void {
  num(name, v, 0, 1);
}

// A rate range: positive (a log-uniform draw needs it) and within what a radio can burst.
function range(name: string, v: unknown): void {
  if (!Array.isArray(v) || v.length !== 2) throw new TypeError(`${name} must be a [min, max] pair of bursts per minute`);
  num(`${name}[0]`, v[0], 0.001, MAX_RATE);
  num(`${name}[1]`, v[1], 0.001, MAX_RATE);
  if (v[1] < v[0]) throw new RangeError(`${name} must be ascending, got [${v[0]}, ${v[1]}]`);
}
