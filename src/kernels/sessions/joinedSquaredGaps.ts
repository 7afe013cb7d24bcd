import type { Session } from "./Session.ts";

/**
 * Σ of the squared gaps of a visit rejoined from one device's sessions, as the next session
 * (`next`, starting at or after the visit so far, which ends at `endMs`) joins it: the visit's
 * `squaredGapsMs2` so far, the next session's own, and the silence between them — a gap of the
 * device's too, and its longest (sessions split where a gap passed the session gap). What
 * `estimatedDwell` takes for a visit of several sessions.
 *
 * @param squaredGapsMs2 Σ of the visit's squared gaps so far, ms²
 * @param endMs the visit's end so far, epoch ms
 * @param next the session that joins it
 * @example
 * joinedSquaredGaps(3 * 60_000 ** 2, 240_000, { start: 360_000, squaredGapsMs2: 3 * 60_000 ** 2 }) / 60_000 ** 2; // 10: six gaps of 1 min and 2 min between
 */
export function joinedSquaredGaps(squaredGapsMs2: number, endMs: number, next: Pick<Session, "start" | "squaredGapsMs2">): number {
  const between = Math.max(0, next.start - endMs);
  return squaredGapsMs2 + next.squaredGapsMs2 + between * between;
}
