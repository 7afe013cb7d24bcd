import type { Rng } from "./prng.ts";

/**
 * A Poisson-distributed count with mean `mean`: Knuth's product of uniforms up to a mean of 50,
 * above it the normal approximation (rounded, at least 0), which one draw gives.
 *
 * @example
 * poisson(createRng(1), 0); // 0
 * poisson(createRng(1), 450) > 350; // true
 */
export function poisson(rng: Rng, mean: number): number {
  if (mean <= 0) return 0;
  if (mean > 50) return Math.max(0, Math.round(mean + Math.sqrt(mean) * rng.normal()));
  const limit = Math.exp(-mean);
  let k = 0;
  let p = rng.next();
  while (p > limit) {
    k++;
    p *= rng.next();
  }
  return k;
}
