import type { Rng } from "../random/prng.ts";

/**
 * How long after an instant the phone knows nothing of — a person walking in — its next burst
 * comes, ms, for a phone whose gaps are log-normal with median `medianGapMs` and log-space spread
 * `jitter`: a uniform share of a length-biased gap. An instant falls into a long gap more often than
 * into a short one (a gap is hit in proportion to its length; for a log-normal that is the same
 * spread at median × e^(jitter²)), so a phone's first burst after someone arrives waits longer
 * than half a typical gap — as long as its last one comes before they leave. Draws `rng.next()`,
 * then `rng.normal()`.
 *
 * @example
 * firstGapMs(createRng(1), 60_000, 0) < 60_000; // true: a timer's next tick is within one period
 */
export function firstGapMs(rng: Rng, medianGapMs: number, jitter: number): number {
  const share = rng.next();
  return Math.floor(share * medianGapMs * Math.exp(jitter * jitter + jitter * rng.normal()));
}
