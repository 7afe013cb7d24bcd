import { rejectUnknownKeys } from "../../options/rejectUnknownKeys.ts";

/**
 * An inclusive [min, max] range.
 *
 * @example
 * const r: Range = [5, 15];
 */
export type Range = readonly [number, number];

/**
 * Median gap between probe bursts for each state a phone can be in, as [min, max] seconds:
 * each phone draws its own median per state log-uniformly from the range.
 *
 * @example
 * const gaps: BurstGaps = { screenOn: [5, 15], screenOff: [30, 50], associated: [60, 180] };
 */
export interface BurstGaps {
  /** Screen on, not associated: phones scan often. */
  readonly screenOn: Range;
  /** Screen off or power saving, not associated. */
  readonly screenOff: Range;
  /** Associated to the shop's Wi-Fi: scans are rare. */
  readonly associated: Range;
}

/**
 * Mean bursts per MAC of a rotating phone, by screen state (see `MacBehaviour.burstsPerMac`).
 *
 * @example
 * const b: BurstsPerMac = { screenOn: 6, screenOff: 1 };
 */
export interface BurstsPerMac {
  readonly screenOn: number;
  readonly screenOff: number;
}

/**
 * How the simulated phones probe and which MACs they probe with: the per-phone model behind
 * `WorldOptions.rotation`. A phone sends probe requests in bursts (several frames on each
 * channel within about a second); between bursts it waits a gap that depends on its state
 * (screen on / off, associated to the shop's Wi-Fi). Each shopper's phone is of one class:
 * universal MAC (older devices), randomized and stable for the visit, or randomized and
 * rotating (a fresh locally administered MAC every k bursts while not associated).
 *
 * @example
 * const m: MacBehaviour = { ...realisticMacBehaviour, rotatingShare: 0.3 };
 */
export interface MacBehaviour {
  /** Share of shoppers' phones (visitors, passers-by) probing with their universal (vendor OUI) MAC. */
  readonly universalShare: number;
  /** Share of the other, randomizing, phones that rotate; the rest keep one randomized MAC per visit. */
  readonly rotatingShare: number;
  /**
   * Mean bursts a rotating phone sends with one MAC (≥ 1) with the screen on and off: before
   * each burst it draws a new MAC with probability 1 ÷ this, so 1 rotates at every burst and
   * 3 every three bursts on average (phones tend to keep a MAC longer while in use).
   */
  readonly burstsPerMac: BurstsPerMac;
  /** Frames a sensor hears on its channel in one burst, inclusive integer range drawn per burst and channel. */
  readonly framesPerBurst: Range;
  /** Time a burst takes to visit every channel, ms: each sensor's channel is reached somewhere in it. */
  readonly burstSpreadMs: number;
  /** Median burst gap per state, seconds. */
  readonly burstGapS: BurstGaps;
  /** Log-space standard deviation of each gap around the phone's median (0 = regular). */
  readonly burstGapJitter: number;
  /** Probability that the screen is on during each screen period. */
  readonly screenOnShare: number;
  /** Mean length of a screen period (on or off), seconds; periods are exponential. */
  readonly screenPeriodS: number;
  /** Share of visitors whose phone joins the shop's Wi-Fi for the visit (keeps its MAC, probes rarely). */
  readonly associatedShare: number;
  /** Share of staff phones with a universal MAC (the others keep one randomized MAC, associated). */
  readonly staffUniversalShare: number;
}

/**
 * Partial {@link MacBehaviour} overrides on top of {@link realisticMacBehaviour}. `burstGapS`
 * may also be one number (that median for every state and phone) or one range (for every state).
 *
 * @example
 * const o: MacBehaviourOptions = { rotatingShare: 0.6, burstGapS: 120 };
 */
export interface MacBehaviourOptions {
  readonly universalShare?: number;
  readonly rotatingShare?: number;
  /** One mean for both screen states, or per state. */
  readonly burstsPerMac?: number | Partial<BurstsPerMac>;
  readonly framesPerBurst?: Range;
  readonly burstSpreadMs?: number;
  readonly burstGapS?: number | Range | Partial<BurstGaps>;
  readonly burstGapJitter?: number;
  readonly screenOnShare?: number;
  readonly screenPeriodS?: number;
  readonly associatedShare?: number;
  readonly staffUniversalShare?: number;
}

/**
 * The MAC behaviour that reproduces published probe-request captures (see the README's
 * "The simulated phones: MAC behaviour"): a labelled capture of 22 phones (2021: bursts of a
 * median 5–6 frames per channel within about a second; gaps of a median 5–15 s with the
 * screen on and a 75th percentile near 60 s with it off, i.e. ~12 new MACs per 10 minutes for
 * a phone rotating at every burst; median randomized-MAC lifetime 0.02 s) and two-sensor lab
 * captures (2024: 95–98 % of distinct MACs randomized, 80–82 % of them heard at ≤ 2 instants,
 * 55–70 % of records from universal MACs — the last one a property of the place, not of the
 * phones: it holds in a lab-like world, see the README). Shares are 0…1, times as named.
 *
 * @example
 * const world = createWorld({ shops: 1, rotation: "realistic" }); // uses these values
 * realisticMacBehaviour.universalShare; // 0.08
 */
export const realisticMacBehaviour: MacBehaviour = Object.freeze({
  universalShare: 0.08,
  rotatingShare: 0.8,
  burstsPerMac: Object.freeze({ screenOn: 20, screenOff: 1 }),
  framesPerBurst: Object.freeze([3, 8]) as Range,
  burstSpreadMs: 1000,
  burstGapS: Object.freeze({
    screenOn: Object.freeze([5, 15]) as Range,
    screenOff: Object.freeze([30, 50]) as Range,
    associated: Object.freeze([60, 180]) as Range,
  }),
  burstGapJitter: 0.6,
  screenOnShare: 0.28,
  screenPeriodS: 120,
  associatedShare: 0.15,
  staffUniversalShare: 0.8,
});

/**
 * The world's switch for MAC behaviour: `"off"` keeps one MAC per visit with single probes
 * (the model before rotation was simulated), `"realistic"` is {@link realisticMacBehaviour},
 * a number in 0…1 is the realistic model with that share of randomizing phones rotating.
 *
 * @example
 * const r: Rotation = 0.6;
 */
export type Rotation = "off" | "realistic" | number;

/** Every key of {@link MacBehaviourOptions}, for {@link rejectUnknownKeys}. */
const MAC_KEYS: ReadonlySet<string> = new Set(Object.keys(realisticMacBehaviour));

/**
 * Resolves `rotation` and `macs` of the world options into the behaviour the world uses,
 * `undefined` for rotation off. Throws TypeError/RangeError for invalid values (including
 * `macs` with rotation `"off"`, which would silently be ignored).
 *
 * @example
 * resolveMacBehaviour(undefined, undefined); // undefined (off)
 * resolveMacBehaviour(0.3, { burstGapS: 120 })!.rotatingShare; // 0.3
 */
export function resolveMacBehaviour(rotation: Rotation | undefined, macs: MacBehaviourOptions | undefined): MacBehaviour | undefined {
  if (rotation !== undefined && rotation !== "off" && rotation !== "realistic" && typeof rotation !== "number") {
    throw new TypeError(`rotation must be "off", "realistic" or a share 0…1, got ${JSON.stringify(rotation)}`);
  }
  if (typeof rotation === "number") share("rotation", rotation);
  if (macs !== undefined && (macs === null || typeof macs !== "object" || Array.isArray(macs))) throw new TypeError("macs must be an object");
  if (rotation === "off" || (rotation === undefined && macs === undefined)) {
    if (macs !== undefined) throw new RangeError('macs has no effect with rotation "off": set rotation to "realistic" or a share');
    return undefined;
  }
  const m = macs ?? {};
  rejectUnknownKeys(m, MAC_KEYS, "macs");
  if (typeof rotation === "number" && m.rotatingShare !== undefined && m.rotatingShare !== rotation) {
    throw new RangeError(`rotation ${rotation} and macs.rotatingShare ${m.rotatingShare} disagree: give one`);
  }
  const base = realisticMacBehaviour;
  const out: MacBehaviour = {
    universalShare: m.universalShare ?? base.universalShare,
    rotatingShare: typeof rotation === "number" ? rotation : (m.rotatingShare ?? base.rotatingShare),
    burstsPerMac: burstsPerMacOf(m.burstsPerMac, base.burstsPerMac),
    framesPerBurst: m.framesPerBurst ?? base.framesPerBurst,
    burstSpreadMs: m.burstSpreadMs ?? base.burstSpreadMs,
    burstGapS: gapsOf(m.burstGapS, base.burstGapS),
    burstGapJitter: m.burstGapJitter ?? base.burstGapJitter,
    screenOnShare: m.screenOnShare ?? base.screenOnShare,
    screenPeriodS: m.screenPeriodS ?? base.screenPeriodS,
    associatedShare: m.associatedShare ?? base.associatedShare,
    staffUniversalShare: m.staffUniversalShare ?? base.staffUniversalShare,
  };
  share("macs.universalShare", out.universalShare);
  share("macs.rotatingShare", out.rotatingShare);
  num("macs.burstsPerMac.screenOn", out.burstsPerMac.screenOn, 1, 1e6);
  num("macs.burstsPerMac.screenOff", out.burstsPerMac.screenOff, 1, 1e6);
  intRange("macs.framesPerBurst", out.framesPerBurst, 1, 64);
  num("macs.burstSpreadMs", out.burstSpreadMs, 0, 5_000);
  // Gaps shorter than a burst would overlap the bursts; 1 s is the floor the captures show.
  for (const state of ["screenOn", "screenOff", "associated"] as const) range(`macs.burstGapS.${state}`, out.burstGapS[state], 1, 3_600);
  num("macs.burstGapJitter", out.burstGapJitter, 0, 3);
  share("macs.screenOnShare", out.screenOnShare);
  num("macs.screenPeriodS", out.screenPeriodS, 1, 86_400);
  share("macs.associatedShare", out.associatedShare);
  share("macs.staffUniversalShare", out.staffUniversalShare);
  return Object.freeze(out);
}

function burstsPerMacOf(b: MacBehaviourOptions["burstsPerMac"], base: BurstsPerMac): BurstsPerMac {
  if (b === undefined) return base;
  if (typeof b === "number") return { screenOn: b, screenOff: b };
  if (b === null || typeof b !== "object" || Array.isArray(b)) throw new TypeError("macs.burstsPerMac must be a number or { screenOn, screenOff }");
  for (const k of Object.keys(b)) {
    if (k !== "screenOn" && k !== "screenOff") throw new RangeError(`macs.burstsPerMac has no state ${JSON.stringify(k)} (screenOn, screenOff)`);
  }
  return { screenOn: b.screenOn ?? base.screenOn, screenOff: b.screenOff ?? base.screenOff };
}

function gapsOf(g: MacBehaviourOptions["burstGapS"], base: BurstGaps): BurstGaps {
  if (g === undefined) return base;
  if (typeof g === "number") {
    num("macs.burstGapS", g, 1, 3_600);
    return { screenOn: [g, g], screenOff: [g, g], associated: [g, g] };
  }
  if (Array.isArray(g)) {
    range("macs.burstGapS", g, 1, 3_600);
    const r = g as unknown as Range;
    return { screenOn: r, screenOff: r, associated: r };
  }
  if (g === null || typeof g !== "object") throw new TypeError("macs.burstGapS must be seconds, a [min, max] range or { screenOn, screenOff, associated }");
  const o = g as Partial<BurstGaps>;
  for (const k of Object.keys(o)) {
    if (k !== "screenOn" && k !== "screenOff" && k !== "associated") throw new RangeError(`macs.burstGapS has no state ${JSON.stringify(k)} (screenOn, screenOff, associated)`);
  }
  return { screenOn: o.screenOn ?? base.screenOn, screenOff: o.screenOff ?? base.screenOff, associated: o.associated ?? base.associated };
}

function num(name: string, v: unknown, min: number, max: number): void {
  if (typeof v !== "number" || !Number.isFinite(v)) throw new TypeError(`${name} must be a finite number`);
  if (v < min || v > max) throw new RangeError(`${name} must be in ${min}…${max}, got ${v}`);
}

function share(name: string, v: unknown): void {
  num(name, v, 0, 1);
}

function range(name: string, v: unknown, min: number, max: number): void {
  if (!Array.isArray(v) || v.length !== 2) throw new TypeError(`${name} must be a [min, max] pair of numbers`);
  num(`${name}[0]`, v[0], min, max);
  num(`${name}[1]`, v[1], min, max);
  if (v[1] < v[0]) throw new RangeError(`${name} must be ascending, got [${v[0]}, ${v[1]}]`);
}

function intRange(name: string, v: unknown, min: number, max: number): void {
  range(name, v, min, max);
  const [a, b] = v as Range;
  if (!Number.isInteger(a) || !Number.isInteger(b)) throw new RangeError(`${name} must be integers, got [${a}, ${b}]`);
}
