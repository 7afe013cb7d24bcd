import { rejectUnknownKeys } from "../../options/rejectUnknownKeys.ts";
import type { Range } from "./MacBehaviour.ts";
import type { Rng } from "../random/prng.ts";

/**
 * One knot of a quantile function: `[share, value]`, the value below which `share` (0…1) of
 * the draws fall. `drawFromQuantiles` interpolates between knots log-linearly.
 *
 * @example
 * const median: QuantileKnot = [0.5, 0.56]; // half of the phones burst less than 0.56 times a minute
 */
export type QuantileKnot = readonly [number, number];

/**
 * What an extra device a person carries is (a label of the truth; it decides nothing else).
 *
 * @example
 * const d: ExtraDevice = "watch";
 */
export type ExtraDevice = "laptop" | "watch" | "tablet";

/**
 * How the devices of a world with `WorldOptions.phones` on differ from one another, as real ones
 * do: each randomizing phone has a burst rate of its own from a heavy-tailed distribution fitted to
 * a labelled capture of 22 real phones; devices that probe with a universal MAC (older phones,
 * phones on another network, laptops) are a population of their own with lower rates; some
 * people carry a second or third device; fixed equipment probes at its own rates and some of it
 * is switched on and off with the shop. Refines the burst model (`MacBehaviour`): screen states
 * still decide how often a rotating phone draws a new MAC, and an associated phone still probes
 * at `macs.burstGapS.associated`. Rates are bursts per minute, shares 0…1.
 * See `docs/simulator.md` for the source of every default.
 *
 * @example
 * const phones: RealPhones = { ...realPhones, secondDeviceShare: 0.4 };
 */
export interface RealPhones {
  /**
   * Burst rate of each randomizing phone (visitors', passers-by's, staff's and randomized extra
   * devices), bursts per minute, as a quantile function: ascending knots from share 0 to share 1,
   * interpolated log-linearly, so the last knot's value is the most a phone bursts (truncation).
   * Each phone draws its rate once, for every visit.
   */
  readonly burstsPerMinute: readonly QuantileKnot[];
  /**
   * Log-space standard deviation of each gap around the phone's own median gap (0 = a metronome).
   * The median is set so that the mean gap is 60 ÷ rate seconds: the phone bursts at its rate.
   */
  readonly burstGapJitter: number;
  /**
   * Share of shoppers' own phones (visitors, passers-by) that probe with their universal (vendor)
   * MAC: they draw their rate from `universalBurstsPerMinute`, not from `burstsPerMinute`.
   * With `phones` on this replaces `macs.universalShare`.
   */
  readonly universalShare: number;
  /** Burst rate of a device probing with a universal MAC (phones, laptops), bursts per minute: [min, max], log-uniform per device. */
  readonly universalBurstsPerMinute: Range;
  /**
   * Share of rotating phones that draw a new MAC on every channel of a burst, not once per burst:
   * the few phones behind the captures' hundreds of new MACs per 10 minutes.
   */
  readonly macPerChannelShare: number;
  /** Share of people (visitors, companions, passers-by) carrying a second device. */
  readonly secondDeviceShare: number;
  /** Share of people carrying a third device; at most `secondDeviceShare` (a third comes with a second). */
  readonly thirdDeviceShare: number;
  /** Share of extra devices (laptop, watch or tablet, equally often) that probe with a universal MAC. */
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
 * The world's switch for real-phone heterogeneity: `"off"` (the default: every phone draws its
 * gaps from `macs.burstGapS`), `"real"` ({@link realPhones}), or overrides of it.
 *
 * @example
 * const p: PhonesOption = { universalShare: 0.1 };
 */
export type PhonesOption = "off" | "real" | RealPhonesOptions;

/**
 * The defaults of `phones: "real"`, from the public labelled capture of 22 phones (97 captures of
 * 10–20 minutes, one phone each, channels 1, 6 and 11) summarised in
 * `/work/shared/data/brno-sc6-61/README.md`: bursts per minute per capture p10 0.27, p25 0.34,
 * median 0.56, p75 1.23, p90 3.08, max 18.5 (mean 1.59, coefficient of variation 1.86); a phone
 * used a universal MAC at all in 21 of 97 captures. The knots are those quantiles with a floor
 * of 0.13 per minute at share 0 (a phone heard about twice in a 15-minute capture); the rest are
 * assumptions, named in `docs/simulator.md`.
 *
 * @example
 * createWorld({ shops: 1, phones: "real" }); // uses these values
 * realPhones.secondDeviceShare; // 0.2
 */
export const realPhones: RealPhones = Object.freeze({
  burstsPerMinute: Object.freeze([
    Object.freeze([0, 0.13]),
    Object.freeze([0.1, 0.27]),
    Object.freeze([0.25, 0.34]),
    Object.freeze([0.5, 0.56]),
    Object.freeze([0.75, 1.23]),
    Object.freeze([0.9, 3.08]),
    Object.freeze([1, 18.5]),
  ]) as readonly QuantileKnot[],
  burstGapJitter: 0.35,
  universalShare: 0.2,
  universalBurstsPerMinute: Object.freeze([0.1, 0.5]) as Range,
  macPerChannelShare: 0.25,
  secondDeviceShare: 0.2,
  thirdDeviceShare: 0.05,
  extraUniversalShare: 0.5,
  equipmentBurstsPerMinute: Object.freeze([0.5, 4]) as Range,
  equipmentSwitchedShare: 0.5,
});

/** Every key of {@link RealPhones}, for {@link rejectUnknownKeys}. */
const PHONE_KEYS: ReadonlySet<string> = new Set(Object.keys(realPhones));

/** Most bursts per minute a rate may name: a burst takes about a second, so gaps stay longer. */
const MAX_RATE = 50;

/**
 * Resolves `WorldOptions.phones` into the parameters the world uses, `undefined` when off.
 * Throws TypeError/RangeError for invalid values (unknown keys included).
 *
 * @example
 * resolveRealPhones(undefined); // undefined (off)
 * resolveRealPhones({ secondDeviceShare: 0.5 })!.thirdDeviceShare; // 0.05
 */
export function resolveRealPhones(phones: PhonesOption | undefined): RealPhones | undefined {
  if (phones === undefined || phones === "off") return undefined;
  if (phones === "real") return realPhones;
  if (phones === null || typeof phones !== "object" || Array.isArray(phones)) throw new TypeError('phones must be "off", "real" or an object of overrides');
  rejectUnknownKeys(phones, PHONE_KEYS, "phones");
  const out: RealPhones = { ...realPhones, ...stripUndefined(phones) };
  knots("phones.burstsPerMinute", out.burstsPerMinute);
  num("phones.burstGapJitter", out.burstGapJitter, 0, 3);
  share("phones.universalShare", out.universalShare);
  range("phones.universalBurstsPerMinute", out.universalBurstsPerMinute);
  share("phones.macPerChannelShare", out.macPerChannelShare);
  share("phones.secondDeviceShare", out.secondDeviceShare);
  share("phones.thirdDeviceShare", out.thirdDeviceShare);
  if (out.thirdDeviceShare > out.secondDeviceShare) {
    throw new RangeError(`phones.thirdDeviceShare ${out.thirdDeviceShare} exceeds phones.secondDeviceShare ${out.secondDeviceShare}: a third device comes with a second`);
  }
  share("phones.extraUniversalShare", out.extraUniversalShare);
  range("phones.equipmentBurstsPerMinute", out.equipmentBurstsPerMinute);
  share("phones.equipmentSwitchedShare", out.equipmentSwitchedShare);
  return Object.freeze(out);
}

/**
 * One draw from a quantile function given as knots (see {@link RealPhones.burstsPerMinute}):
 * a uniform share, then the value at that share, log-linear between the knots around it (the
 * values are rates spanning two orders of magnitude, so the log scale keeps each stretch's
 * draws spread as the quantiles are). One draw of `rng`.
 *
 * @example
 * const rate = drawFromQuantiles(createRng(7), realPhones.burstsPerMinute); // e.g. 0.48 bursts/min
 */
export function drawFromQuantiles(rng: Rng, knots: readonly QuantileKnot[]): number {
  const u = rng.next();
  for (let i = 1; i < knots.length; i++) {
    const [q1, v1] = knots[i]!;
    if (u > q1 && i < knots.length - 1) continue;
    const [q0, v0] = knots[i - 1]!;
    const f = q1 > q0 ? Math.min(1, Math.max(0, (u - q0) / (q1 - q0))) : 1;
    return v0 * Math.pow(v1 / v0, f);
  }
  return knots[0]![1];
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

function knots(name: string, v: unknown): void {
  if (!Array.isArray(v) || v.length < 2) throw new TypeError(`${name} must be at least two [share, bursts per minute] knots`);
  for (let i = 0; i < v.length; i++) {
    const k: unknown = v[i];
    if (!Array.isArray(k) || k.length !== 2) throw new TypeError(`${name}[${i}] must be a [share, bursts per minute] pair`);
    share(`${name}[${i}][0]`, k[0]);
    num(`${name}[${i}][1]`, k[1], 0.001, MAX_RATE);
    if (i > 0) {
      const [q0, v0] = v[i - 1] as QuantileKnot;
      if (!(k[0] > q0) || k[1] < v0) throw new RangeError(`${name} must ascend in share and not descend in rate, got [${q0}, ${v0}] then [${k[0]}, ${k[1]}]`);
    }
  }
  if (v[0][0] !== 0 || v[v.length - 1][0] !== 1) throw new RangeError(`${name} must run from share 0 to share 1`);
}
