import { studentQuantile } from "./studentQuantile.ts";

/**
 * The critical values of a two-sided interval at coverage `level`: the probability `tail` left
 * out on either side, (1 − level) ÷ 2, and the quantiles at 1 − `tail` of the standard normal
 * (`z`) and of Student's t at any degrees of freedom (`t(df)`, whole or not; `t(Infinity)` is `z`).
 *
 * @example
 * const i: TwoSided = twoSided(0.9);
 * Math.round(i.z * 1e4) / 1e4; // 1.6449
 */
export interface TwoSided {
  /** Coverage, in (0, 1). */
  readonly level: number;
  /** (1 − level) ÷ 2: what the interval leaves out above, and below. */
  readonly tail: number;
  /** The standard normal quantile at 1 − `tail`. */
  readonly z: number;
  /** Student's t quantile at 1 − `tail` with `df` > 0 degrees of freedom (exact to double precision, by @stdlib). */
  t(df: number): number;
}

/**
 * A two-sided `level` interval's critical values ({@link TwoSided}), worked out once: the one
 * place a coverage becomes a quantile, for every interval of a people estimate (the visitors', an
 * interval's people inside, a learned model's, the bound on silent persons).
 *
 * @param level coverage, in (0, 1)
 * @example
 * Math.round(twoSided(0.9).t(10) * 1e4) / 1e4; // 1.8125
 * twoSided(0.9).t(Infinity) === twoSided(0.9).z; // true
 * Math.round(twoSided(0.9).tail * 100) / 100; // 0.05
 */
export function twoSided(level: number): TwoSided {
  if (!(level > 0 && level < 1)) throw new RangeError(`twoSided: level must be in (0, 1), got ${level}`);
  const p = 0.5 + level / 2;
  return Object.freeze({ level, tail: (1 - level) / 2, z: studentQuantile(p, Number.POSITIVE_INFINITY), t: (df: number) => studentQuantile(p, df) });
}
