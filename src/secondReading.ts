import { withAlignedClocks, type AnalyzeOptions, type AnalyzeResult } from "./analyze.ts";
import { defaultEventTimeEngine } from "./kernels/EventTimeEngine.ts";
import { misalignedClocks } from "./kernels/misalignedClocks.ts";

/**
 * What a second read of the same records changes (see {@link secondReading}).
 *
 * @example
 * const again = secondReading(first, options);
 * const next: AnalyzeOptions | undefined = again?.apply(options);
 */
export interface SecondReading {
  /** Sensor MAC → ms its clock runs ahead (`misalignedClocks`), when the clocks disagree. */
  readonly clockOffsetsMs?: Readonly<Record<string, number>>;
  /**
   * The allowed lateness (ms) that keeps every record the first read found late, when some were.
   * It is the lateness before the clocks are aligned; `apply` adds the clocks' spread to it
   * (`withAlignedClocks`).
   */
  readonly allowedLatenessMs?: number;
  /**
   * The options of the second read: `options` (the first read's, or options built afresh the same
   * way) with both changes made — the lateness raised, then the clocks aligned (`withAlignedClocks`).
   */
  readonly apply: (options: AnalyzeOptions) => AnalyzeOptions;
}

/**
 * Which of {@link secondReading}'s changes it may make; a caller whose user chose a setting turns
 * that change off (`footfall analyze --clock-offsets` or `--lateness-ms`).
 *
 * @example
 * const fixes: SecondReadingFixes = { keepLate: false }; // the user set the lateness
 */
export interface SecondReadingFixes {
  /** Align sensor clocks that disagree (`misalignedClocks` of the quality report). @default true */
  readonly alignClocks?: boolean;
  /** Raise the allowed lateness to keep every late record (up to `maxLeapMs`). @default true */
  readonly keepLate?: boolean;
}

/**
 * Whether a complete input (a file, a service range that is over) should be read and analysed a
 * second time, and with which options — the one rule `footfall analyze --input` and the fleet's
 * shop-day jobs follow. Two things the first read can only find out by reading everything:
 *
 * 1. **Sensor clocks that disagree** (`misalignedClocks`): they split the probe bursts two
 *    sensors share, and the people estimate roughly doubles at a few seconds. The second read
 *    aligns them (`withAlignedClocks`).
 * 2. **Records later than the allowed lateness** (`result.late`, usually a sensor that uploads in
 *    batches, or a backlog after a sensor was offline): they changed nothing, so every figure
 *    misses them. The second read allows `ceil(maxLateMs)`, which keeps every one of them — the
 *    watermark only depends on the newest time seen, and that is the same in both reads. Records
 *    more than the engine's `maxLeapMs` (a day) behind stay late: holding more than a day of
 *    records would be the input, not a reorder buffer; the caller reports them as before.
 *
 * @param first the first read's result (with its quality report for the clocks)
 * @param options the options of the first read
 * @param fixes which changes to consider (both by default)
 * @returns `undefined` when the first read stands
 *
 * @example
 * let result = await analyze(records, options);
 * const again = secondReading(result, options);
 * if (again !== undefined) result = await analyze(records, again.apply(options));
 */
export function secondReading(first: AnalyzeResult, options: AnalyzeOptions, fixes: SecondReadingFixes = {}): SecondReading | undefined {
  const offsets = fixes.alignClocks !== false && first.quality !== undefined ? misalignedClocks(first.quality) : {};
  const maxLeap = options.sessions?.maxLeapMs ?? defaultEventTimeEngine.maxLeapMs;
  const lateness = options.sessions?.allowedLatenessMs ?? defaultEventTimeEngine.allowedLatenessMs;
  const keep = Math.ceil(first.maxLateMs);
  // `keep > lateness` also guards a second read that would change nothing (a NaN, or a result
  // whose late records came from a narrower lateness than `options` says).
  const raise = fixes.keepLate !== false && first.late > 0 && keep > lateness && keep <= maxLeap;
  const align = Object.keys(offsets).length > 0;
  if (!raise && !align) return undefined;
  return {
    ...(align ? { clockOffsetsMs: offsets } : {}),
    ...(raise ? { allowedLatenessMs: keep } : {}),
    apply: (o) => {
      const kept = raise ? { ...o, sessions: { ...o.sessions, allowedLatenessMs: keep } } : o;
      return align ? withAlignedClocks(kept, offsets) : kept;
    },
  };
}
