/**
 * Exponential backoff before retry number `retry` (0 for the first retry):
 * `min(maxTimeout, minTimeout · factor^retry)`, and with `randomize` a uniformly random
 * fraction of that ("full jitter", as in AWS's retry guidance), so many clients that
 * failed together do not retry together. Milliseconds.
 *
 * @param random  a source of uniform numbers in [0, 1) (injectable for tests)
 *
 * @example
 * backoffDelay(2, { minTimeout: 500, maxTimeout: 20000, factor: 2, randomize: false }); // 2000
 * backoffDelay(2, { minTimeout: 500, maxTimeout: 20000, factor: 2, randomize: true }, () => 0.5); // 1000
 */
export function backoffDelay(
  retry: number,
  options: { readonly minTimeout: number; readonly maxTimeout: number; readonly factor: number; readonly randomize: boolean },
  random: () => number = Math.random,
): number {
  const ceiling = Math.min(options.maxTimeout, options.minTimeout * options.factor ** retry);
  return Math.round(options.randomize ? random() * ceiling : ceiling);
}
