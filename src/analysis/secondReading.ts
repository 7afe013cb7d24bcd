import { withAlignedClocks, type AnalyzeOptions, type AnalyzeResult } from "./analyze.ts";
import { defaultEventTimeEngine } from "../kernels/sessions/EventTimeEngine.ts";
import { misalignedClocks } from "../kernels/quality/misalignedClocks.ts";

/**
 * What a second read of the same records changes (see {@link secondReading}).
 *
 * @example
 * const again = secondReading(first, options);
 * const next: AnalyzeOptions | undefined = again?.apply(options);
 */
export interface SecondReading {
  /**
   * Sensor MAC → ms its clock runs ahead (`misalignedClocks`), when the clocks disagree and the
   * read dropped no record a wider lateness keeps (so never beside `allowedLatenessMs`).
   */
  readonly clockOffsetsMs?: Readonly<Record<string, number>>;
  /** The allowed lateness (ms) that keeps every record the read found late, when some were. */
  readonly allowedLatenessMs?: number;
  /**
   * The options of the next read: `options` (the read's, or options built afresh the same way)
   * with the change made — the lateness raised, or the clocks aligned (`withAlignedClocks`, which
   * also widens the lateness by the clocks' spread).
   */
  readonly apply: (options: AnalyzeOptions) => AnalyzeOptions;
}

/**
 * Reads of one complete input that {@link secondReading}'s rule takes at most: the first, one
 * that keeps the records that came too late, and one that aligns the clocks measured on it (a
 * read that dropped late records cannot measure them). Callers read again while `secondReading`
 * of the latest read says so, up to this many reads in all.
 *
 * @example
 * let used = options;
 * let result = await analyze(records, used);
 * for (let reads = 1; reads < MAX_READINGS; reads++) {
 *   const again = secondReading(result, used);
 *   if (again === undefined) break;
 *   used = again.apply(used);
 *   result = await analyze(records, used);
 * }
 */
export const MAX_READINGS = 3;

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
 * Whether a complete input (a file, a service range that is over) should be read and analysed
 * again, and with which options — the one rule `footfall analyze --input` and the fleet's
 * shop-day jobs follow (ask again after each read, up to {@link MAX_READINGS} reads). Two things
 * a read can only find out by reading everything:
 *
 * 1. **Records later than the allowed lateness** (`result.late`, usually a sensor that uploads in
 *    batches or whose clock runs behind, or a backlog after a sensor was offline): they changed
 *    nothing, so every figure misses them. The next read allows `ceil(maxLateMs)`, which keeps
 *    every one of them — the watermark only depends on the newest time seen, and that is the
 *    same in both reads. Records more than the engine's `maxLeapMs` (a day) behind stay late:
 *    holding more than a day of records would be the input, not a reorder buffer; the caller
 *    reports them as before.
 * 2. **Sensor clocks that disagree** (`misalignedClocks`): they split the probe bursts two
 *    sensors share, and the people estimate roughly doubles at a few seconds. The next read
 *    aligns them (`withAlignedClocks`) — measured on a read that dropped no record a wider
 *    lateness keeps: the dropped ones are most often the off clock's own, and offsets measured
 *    without them were off by minutes (people read 6× the truth). So with both, one read keeps
 *    the late records and the one after it aligns the clocks.
 *
 * @param first the latest read's result (with its quality report for the clocks)
 * @param options the options of that read
 * @param fixes which changes to consider (both by default)
 * @returns `undefined` when the read stands
 *
 * @example
 * let result = await analyze(records, options);
 * const again = secondReading(result, options);
 * if (again !== undefined) result = await analyze(records, again.apply(options));
 */
export function secondReading(first: AnalyzeResult, options: AnalyzeOptions, fixes: SecondReadingFixes = {}): SecondReading | undefined {
  const maxLeap = options.sessions?.maxLeapMs ?? defaultEventTimeEngine.maxLeapMs;
  const lateness = options.sessions?.allowedLatenessMs ?? defaultEventTimeEngine.allowedLatenessMs;
  const keep = Math.ceil(first.maxLateMs);
  // `keep > lateness` also guards a second read that would change nothing (a NaN, or a result
  // whose late records came from a narrower lateness than `options` says).
  const keepable = first.late > 0 && keep > lateness && keep <= maxLeap;
  const raise = fixes.keepLate !== false && keepable;
  // The offsets come from the records the read applied. Records that came too late are most
  // often those of the very sensor whose clock is off (behind by more than the lateness, or
  // uploading in batches), so a read that dropped some a wider lateness keeps cannot say how
  // far off that clock is: the clocks are looked at once a read has kept them.
  const offsets = fixes.alignClocks !== false && first.quality !== undefined && !keepable ? misalignedClocks(first.quality) : {};
  const align = Object.keys(offsets).length > 0;
  if (!raise && !align) return undefined;
  return {
    ...(align ? { clockOffsetsMs: offsets } : {}),
    ...(raise ? { allowedLatenessMs: keep } : {}),
    // One change at a time: the clocks are not measured on a read that calls for a raise.
    apply: (o) => (align ? withAlignedClocks(o, offsets) : { ...o, sessions: { ...o.sessions, allowedLatenessMs: keep } }),
  };
}
