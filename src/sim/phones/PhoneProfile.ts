import { realPhoneCaptures, type RealPhoneCapture } from "./realPhoneCaptures.ts";

/**
 * How one real phone probed in one capture, as the simulator replays it (`phones: "real"`): the
 * capture's figures (`realPhoneCaptures`) turned into what a burst loop needs. Gaps are
 * log-normal around `gapMedianMs` with log-space spread `gapJitter` (a timer's spread is small);
 * within a burst the phone uses `macsPerBurst` MACs on average (> 1: a new MAC for a few frames
 * at a time), and a randomized MAC lasts `burstsPerMac` bursts on average (`Infinity`: it holds
 * for the visit). See {@link phoneProfiles} for how each figure is derived.
 *
 * @example
 * const b = phoneProfiles(realPhoneCaptures).find((p) => p.id === "B-A")!;
 * [b.timer, b.gapMedianMs, b.burstsPerMac]; // [true, 15000, 1]
 */
export interface PhoneProfile {
  /** `device-mode`, e.g. `"B-A"` or `"W-S_new"`: the capture replayed. */
  readonly id: string;
  /** The phone's label (A–X). */
  readonly device: string;
  /** The capture's mode (A, PA, PS, S, WA, WS; `_new` a later session). */
  readonly mode: string;
  /** The phone probes with its universal (vendor) MAC: one MAC, kept. */
  readonly universal: boolean;
  /** The phone probes on a timer: its gaps' 90th percentile is within 10 % of their median. */
  readonly timer: boolean;
  /** Median gap between burst starts, ms. */
  readonly gapMedianMs: number;
  /** Log-space standard deviation of a gap around `gapMedianMs` (0 = a metronome). */
  readonly gapJitter: number;
  /** Mean MACs within one burst, ≥ 1: more than 1 for a phone that takes new MACs within a burst (each of them new). */
  readonly macsPerBurst: number;
  /** Mean bursts a randomized MAC is used for, ≥ 1; `Infinity` when it holds (one MAC in the whole capture). */
  readonly burstsPerMac: number;
  /** Mean frames in a burst, all channels together. */
  readonly framesPerBurst: number;
  /** Channels of the three a burst reaches, 1–3 (a half: either neighbour, alike). */
  readonly channelsPerBurst: number;
}

/** z of the normal's 90th percentile: a log-normal's p90 is its median × e^(Z90 σ). */
const Z90 = 1.2815515655446004;
/** A capture whose gaps' p90 is within this factor of their median probes on a timer. */
const TIMER_RATIO = 1.1;
/** A spread needs at least two gaps (three bursts) to say anything. */
const MIN_BURSTS_FOR_SPREAD = 3;
/** Half the 0.1 s step the gaps are given in: a timer's spread is at least what that rounding can hide, s. */
const HALF_STEP_S = 0.05;

/**
 * The median log-space spread of the gaps of the irregular captures that measure one (at least
 * three bursts): what a capture of one or two bursts is given, and what a universal-MAC extra
 * device (a laptop: no capture describes it) probes with.
 *
 * @example
 * TYPICAL_GAP_JITTER.toFixed(2); // "0.42"
 */
export const TYPICAL_GAP_JITTER: number = irregularSpread(realPhoneCaptures);

/**
 * The profile of each capture, in the captures' order:
 * - **timer** (at least three bursts and gap p90 ≤ 1.1 × median): gaps at the capture's median,
 *   with the spread its p90 shows (at least what the figures' 0.1 s rounding hides);
 * - **irregular** (the rest): the capture's burst rate kept — the mean gap is 60 ÷ bursts per
 *   minute — with the log-normal spread its p90 shows over its median; a capture of one or two
 *   bursts says nothing of its spread and gets the median spread of the irregular captures that do;
 * - **MACs**: a universal capture keeps its one MAC; a randomized one with more MACs than bursts
 *   takes macs ÷ bursts new MACs in every burst; with fewer, each MAC lasts bursts ÷ macs bursts,
 *   and one MAC in the whole capture holds for the visit;
 * - **frames**: frames ÷ bursts (the capture's frames kept), over its median channels per burst.
 *
 * @example
 * const profiles = phoneProfiles(realPhoneCaptures);
 * profiles.length; // 107
 * profiles.filter((p) => p.macsPerBurst >= 2).map((p) => p.device).join(""); // "BBEEJJWWWW"
 */
export function phoneProfiles(captures: readonly RealPhoneCapture[]): readonly PhoneProfile[] {
  const fallbackSpread = irregularSpread(captures);
  return Object.freeze(
    captures.map((c): PhoneProfile => {
      const timer = isTimer(c);
      let gapMedianMs: number;
      let gapJitter: number;
      if (timer) {
        const medianS = c.gapMedianS!;
        gapJitter = Math.max(spreadOf(c)!, Math.log(1 + HALF_STEP_S / medianS) / Z90);
        gapMedianMs = 1000 * medianS;
      } else {
        gapJitter = spreadOf(c) ?? fallbackSpread;
        // A log-normal's mean is its median × e^(σ²/2): the median sits that much below the mean gap.
        gapMedianMs = (60_000 / c.burstsPerMinute) * Math.exp((-gapJitter * gapJitter) / 2);
      }
      const randomized = !c.universal;
      return Object.freeze({
        id: `${c.device}-${c.mode}`,
        device: c.device,
        mode: c.mode,
        universal: c.universal,
        timer,
        gapMedianMs,
        gapJitter,
        macsPerBurst: randomized && c.macs > c.bursts ? c.macs / c.bursts : 1,
        burstsPerMac: !randomized || c.macs <= 1 ? Number.POSITIVE_INFINITY : c.macs >= c.bursts ? 1 : c.bursts / c.macs,
        framesPerBurst: c.frames / c.bursts,
        channelsPerBurst: c.channelsPerBurst,
      });
    }),
  );
}

// A capture's log-space gap spread from its p90 over its median, when it has gaps enough to say.
function spreadOf(c: RealPhoneCapture): number | undefined {
  if (c.bursts < MIN_BURSTS_FOR_SPREAD || c.gapMedianS === null || c.gapP90S === null || c.gapMedianS <= 0) return undefined;
  return Math.log(Math.max(c.gapP90S, c.gapMedianS) / c.gapMedianS) / Z90;
}

function isTimer(c: RealPhoneCapture): boolean {
  return spreadOf(c) !== undefined && c.gapP90S! <= TIMER_RATIO * c.gapMedianS!;
}

// The median spread of the irregular captures that measure one.
function irregularSpread(captures: readonly RealPhoneCapture[]): number {
  return median(captures.filter((c) => !isTimer(c)).flatMap((c) => spreadOf(c) ?? []));
}

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}
