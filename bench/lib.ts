/**
 * Shared bench harness: every bench file exports `default async (): Promise<BenchRow[]>`,
 * and `bench/run.ts` runs them all into one table. Figures are ratios of two things
 * measured in the same run (absolute rates drift on a shared 2-core machine).
 */
import { performance } from "node:perf_hooks";

/** One row of the results table. */
export interface BenchRow {
  /** What is measured, e.g. "Decode (records/s)". */
  readonly figure: string;
  /** footfall's figure, formatted (e.g. "1.92 M rec/s"). */
  readonly footfall: string;
  /** The baseline's figure, formatted. */
  readonly baseline: string;
  /** footfall ÷ baseline in the direction the goal is stated. */
  readonly ratio: number;
  /** The goal, e.g. "≤ 1.0× parse time". */
  readonly goal: string;
  /** Whether the goal is met in this run. */
  readonly met: boolean;
  /** Optional spread or note, e.g. "min 1.1 / max 1.4". */
  readonly note?: string;
  /**
   * Row number in issue 9's table (1 decode … 7 simulator), so the runner prints rows in that
   * order whichever file produced them. When absent, the runner infers it from `figure`.
   */
  readonly row?: number;
}

/** Timing summary of repeated runs, milliseconds. */
export interface Timing {
  readonly min: number;
  readonly median: number;
  readonly max: number;
}

/**
 * Runs `fn` `warmup` times untimed, then `runs` times timed; returns min/median/max ms.
 *
 * @example
 * const t = await time(() => JSON.parse(text), { runs: 7 });
 */
export async function time(fn: () => unknown, options: { runs?: number; warmup?: number } = {}): Promise<Timing> {
  const runs = options.runs ?? 7;
  const warmup = options.warmup ?? 2;
  for (let i = 0; i < warmup; i++) await fn();
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await fn();
    samples.push(performance.now() - t0);
  }
  samples.sort((a, b) => a - b);
  return { min: samples[0]!, median: samples[Math.floor(samples.length / 2)]!, max: samples[samples.length - 1]! };
}

/**
 * Times two contenders interleaved (A, B, A, B, …) so drift hits both alike.
 *
 * @example
 * const [a, b] = await timePair(() => decode(pages), () => parse(pages));
 */
export async function timePair(
  a: () => unknown,
  b: () => unknown,
  options: { runs?: number; warmup?: number } = {},
): Promise<[Timing, Timing]> {
  const runs = options.runs ?? 7;
  const warmup = options.warmup ?? 2;
  for (let i = 0; i < warmup; i++) {
    await a();
    await b();
  }
  const sa: number[] = [];
  const sb: number[] = [];
  for (let i = 0; i < runs; i++) {
    let t0 = performance.now();
    await a();
    sa.push(performance.now() - t0);
    t0 = performance.now();
    await b();
    sb.push(performance.now() - t0);
  }
  const summary = (s: number[]): Timing => {
    s.sort((x, y) => x - y);
    return { min: s[0]!, median: s[Math.floor(s.length / 2)]!, max: s[s.length - 1]! };
  };
  return [summary(sa), summary(sb)];
}

/**
 * Formats a rate, e.g. `rate(1_920_000, "rec/s")` → "1.92 M rec/s".
 *
 * @example
 * rate(1500, "pages/s"); // "1.50 k pages/s"
 */
export function rate(value: number, unit: string): string {
  if (value >= 1e6) return `${(value / 1e6).toFixed(2)} M ${unit}`;
  if (value >= 1e3) return `${(value / 1e3).toFixed(2)} k ${unit}`;
  return `${value.toFixed(1)} ${unit}`;
}
