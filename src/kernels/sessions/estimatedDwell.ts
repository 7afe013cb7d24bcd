/**
 * A device's true stay (ms) from what its probes show: the span from its first probe to its last
 * (`dwellMs`) plus what the two edges miss, the mean gap seen from a random instant, Σgap² ÷ Σgap
 * (`squaredGapsMs2` is Σgap², ms²; Σgap is the span). A person arrives and leaves at instants the
 * phone knows nothing of, so each edge falls into a gap between probes and misses, on average, half
 * of it; long gaps hold more instants than short ones, so the gap an edge falls into is
 * length-biased: its mean is E[g²] ÷ E[g], not E[g] (the inspection paradox of a renewal process).
 * For a phone on a timer (every gap P) that is one interval, P; for a phone that probes at random
 * (exponential gaps) two mean gaps; more again for the real phones whose gaps are mostly short and
 * sometimes minutes. A burst heard as two probes a second apart adds a near-zero gap, which barely
 * moves the ratio (it would halve the mean gap). One probe (no span): 0.
 *
 * @example
 * estimatedDwell(600_000, 10 * 60_000 ** 2); // 660000: ten gaps of 60 s, one more missed at the edges
 * estimatedDwell(600_000, 3 * 20_000 ** 2 + 3 * 180_000 ** 2); // 764000: gaps of 20 s and 180 s miss 164 s, not their mean 100 s
 * estimatedDwell(0, 0);                      // 0
 */
export function estimatedDwell(dwellMs: number, squaredGapsMs2: number): number {
  return dwellMs > 0 ? dwellMs + squaredGapsMs2 / dwellMs : dwellMs;
}
