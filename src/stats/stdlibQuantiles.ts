// @stdlib's two quantile functions, in one module of their own so that the build can bundle them.
// Each @stdlib function is a CommonJS package over hundreds of others: loading these two resolved
// ~880 requires across ~430 files, ~55 ms of every `footfall` start. `npm run build` (its
// `bundle:quantiles` step, which the benches' builds run too) replaces this module's compiled
// file, dist/stats/stdlibQuantiles.js, with the same two functions bundled by esbuild into one
// ES module (~12 ms to load); run from the sources (tests, notebooks) it is the packages
// themselves. test/stats/stdlibQuantiles.test.ts holds the two to the same values.

/**
 * @stdlib's quantile of the normal distribution: `normalQuantile(p, mu, sigma)`.
 *
 * @example
 * Math.round(normalQuantile(0.975, 0, 1) * 1e4) / 1e4; // 1.96
 */
export { default as normalQuantile } from "@stdlib/stats-base-dists-normal-quantile";

/**
 * @stdlib's quantile of Student's t distribution: `tQuantile(p, df)` (see `studentQuantile`).
 *
 * @example
 * Math.round(tQuantile(0.95, 10) * 1e4) / 1e4; // 1.8125
 */
export { default as tQuantile } from "@stdlib/stats-base-dists-t-quantile";
