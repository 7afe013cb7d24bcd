/**
 * Observed dwell (ms) corrected by one mean probe interval (see `Session.estimatedDwellMs`).
 *
 * @example
 * estimatedDwell(600_000, 11); // 660000: ten intervals of 60 s observed, one more missed at the edges
 * estimatedDwell(0, 1);        // 0
 */
export function estimatedDwell(dwellMs: number, probeCount: number): number {
  return probeCount > 1 ? dwellMs + dwellMs / (probeCount - 1) : dwellMs;
}
