/**
 * Persons behind `x` person-equivalents of bursts (bursts ÷ (ρ · interval)), median-unbiased:
 * the bursts of N persons whose rates spread with coefficient of variation `cv` sum to a skewed
 * total whose median lies below its mean by about e^(−σ²/2), σ² = ln(1 + cv²/N) (Fenton–Wilkinson),
 * so a few phones are seen below their number more often than above it. Solves
 * N = x · √(1 + cv²/N) by fixed-point iteration (a few steps: the map is a contraction). With
 * many persons it is x; with cv = 0, x.
 *
 * @param x bursts ÷ (ρ · interval), ≥ 0
 * @param cv coefficient of variation of the per-person rate
 * @example
 * Math.round(medianPersons(100, 1.86)); // 102
 * Math.round(medianPersons(3, 1.86) * 100) / 100; // 4.08
 */
export function medianPersons(x: number, cv: number): number {
  if (!(x > 0)) return 0;
  const cv2 = cv * cv;
  let n = x;
  for (let i = 0; i < 50; i++) {
    const next = x * Math.sqrt(1 + cv2 / n);
    if (Math.abs(next - n) <= 1e-9 * next) return next;
    n = next;
  }
  return n;
}
