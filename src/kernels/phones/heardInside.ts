import type { ClassifiedSession } from "../visits/VisitClassifier.ts";

/**
 * How far below the visit threshold a MAC of one or two bursts may read and still be inside, dB.
 * The threshold is met by a visit's strongest reading, and a visit holds some twenty of them: with
 * 4 dB of noise per reading the expected strongest of twenty is 1.87 σ ≈ 7.5 dB above a single
 * one, so a rotating phone's one-burst MACs, one reading each, are compared with that much less.
 */
const ONE_READING_DB = 7.5;

/**
 * Whether a session was heard inside: it reached its visit threshold (a one- or two-burst MAC,
 * less `ONE_READING_DB`). Internal: the one inside/outside rule of the people estimate (linking,
 * the day's bursts, the occupancy intervals).
 *
 * @example
 * classified.filter(heardInside).length <= classified.length; // true
 */
export function heardInside(s: ClassifiedSession): boolean {
  return s.peakSmoothedRssi >= s.visitorRssi - (s.probeCount <= 2 ? ONE_READING_DB : 0);
}
