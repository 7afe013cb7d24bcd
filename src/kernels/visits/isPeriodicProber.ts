import type { Session } from "../sessions/Session.ts";

/** Fewest probes for a session's gaps to show a timer (eleven gaps: a PC probing every minute for ten minutes). */
export const PERIODIC_MIN_PROBES = 12;

/**
 * Shortest session, ms, taken for a machine's: a phone on a network also scans on a timer for a
 * while (a shopper's, for the minutes of a visit); equipment runs for hours.
 */
export const PERIODIC_MIN_MS = 3_600_000;

/**
 * Least share of a session's gaps that repeat the gap before (or a whole multiple of it, within
 * 10 %: a missed probe doubles a gap) for the device to be a machine probing on a timer. The Brno
 * lab's fourteen all-in-one PCs probe every 60.0 s: 0.94–0.98 of their gaps do; phones and laptops
 * in use probe when their owners wake them, 0.03–0.4.
 */
export const PERIODIC_SHARE = 0.7;

/**
 * Whether a session is a machine's: at least {@link PERIODIC_MIN_PROBES} probes over at least
 * {@link PERIODIC_MIN_MS}, whose gaps repeat on a timer ({@link PERIODIC_SHARE} of them:
 * `Session.periodicGaps`). Fixed equipment — PCs,
 * tills, printers, boards — probes so, a person's phone does not; the classifier takes such
 * sessions for `stationary`, never a shopper.
 *
 * @example
 * isPeriodicProber({ probeCount: 200, periodicGaps: 190, dwellMs: 12_000_000 }); // true
 * isPeriodicProber({ probeCount: 200, periodicGaps: 40, dwellMs: 12_000_000 });  // false
 */
export function isPeriodicProber(s: Pick<Session, "probeCount" | "periodicGaps" | "dwellMs">): boolean {
  return s.dwellMs >= PERIODIC_MIN_MS && repeatsOnTimer(s.probeCount, s.periodicGaps, PERIODIC_MIN_PROBES);
}

/**
 * Whether `probes` probes came on a timer: at least `minProbes` of them, and at least `share` of
 * their gaps (`probes − 2` can repeat the gap before) repeating (`periodicGaps`, summed over a
 * device's sessions where it has several). The one timer test of the classifier's machines and
 * of the people estimate's phones on a timer, each at its own `minProbes` and `share`.
 *
 * @example
 * repeatsOnTimer(12, 10, 12);      // true (10 of 10 gaps repeat)
 * repeatsOnTimer(12, 6, 12);       // false (0.6 of them)
 * repeatsOnTimer(12, 8, 12, 0.9);  // false
 */
export function repeatsOnTimer(probes: number, periodicGaps: number, minProbes: number, share = PERIODIC_SHARE): boolean {
  return probes >= minProbes && periodicGaps >= share * (probes - 2);
}
