import { Observable, type OperatorFunction } from "rxjs";
import type { Signal } from "../codec/Signal.ts";
import {
  createDataQuality,
  dataQualityReport,
  resetDataQuality,
  updateDataQuality,
  type DataQualityCounts,
  type DataQualityOptions,
  type DataQualityReport,
} from "../kernels/dataQuality.ts";

/**
 * Options of {@link assessQuality}: the kernel's (gap threshold, RTS codec, tolerance) plus
 * the reporting window and where external counters come from.
 *
 * @example
 * const options: AssessQualityOptions = { windowMs: 3_600_000, counts: () => decoder.stats };
 */
export interface AssessQualityOptions extends DataQualityOptions {
  /**
   * Report every `windowMs` of event time (windows aligned to multiples of it since the epoch;
   * a report is emitted when the first signal of a later window arrives, and at completion).
   * `undefined`: one report over everything, at completion.
   * @default undefined
   */
  readonly windowMs?: number | undefined;
  /**
   * Read when each report is built, e.g. `() => decoder.stats` or
   * `() => ({ ...decoder.stats, late: sessions.stats.late })`. The counters are cumulative;
   * with `windowMs` each report carries the increase since the previous report.
   * @default undefined (no external counters)
   */
  readonly counts?: (() => DataQualityCounts) | undefined;
}

/**
 * Defaults of {@link AssessQualityOptions} beyond the kernel's.
 *
 * @example
 * defaultAssessQuality.windowMs; // undefined
 */
export const defaultAssessQuality = Object.freeze({ windowMs: undefined, counts: undefined });

/**
 * RxJS operator: consumes decoded signals and emits data-quality reports (per sensor gaps,
 * randomized MAC shares, `local` flag and ts/RTS disagreements, invalid and late counts) — one
 * at completion, or one per event-time window. A thin wrapper over the `dataQuality` kernel.
 * Windows run on one event-time clock across all shops, so feed a time-ordered stream (e.g.
 * after `sessionize`'s reordering, or one shop at a time with one operator per shop): a signal
 * older than the current window (its report is already out) is not added to any window; it is
 * counted in the report's `late`. Without `windowMs` the result does not depend on order.
 *
 * @example
 * signals$.pipe(assessQuality({ windowMs: 86_400_000, counts: () => decoder.stats }))
 *   .subscribe((r) => console.error(r.sensors.filter((s) => s.gapCount > 0)));
 */
export function assessQuality(options: AssessQualityOptions = {}): OperatorFunction<Signal, DataQualityReport> {
  const { windowMs, counts, ...kernelOptions } = options;
  if (windowMs !== undefined && (!Number.isInteger(windowMs) || windowMs <= 0)) {
    throw new RangeError(`windowMs must be a positive integer (ms) or undefined, got ${String(windowMs)}`);
  }
  if (counts !== undefined && typeof counts !== "function") throw new TypeError("counts must be a function");
  createDataQuality(kernelOptions); // validates eagerly
  return (source) =>
    new Observable<DataQualityReport>((subscriber) => {
      const state = createDataQuality(kernelOptions);
      let windowStart = Number.NaN;
      let previous: DataQualityCounts = {};
      let stragglers = 0;

      const report = (range: { from: number; to: number } | undefined): DataQualityReport => {
        const now = counts?.() ?? {};
        const delta = windowMs === undefined ? now : difference(now, previous);
        previous = now;
        const given = stragglers === 0 ? delta : { ...delta, late: (delta.late ?? 0) + stragglers };
        stragglers = 0;
        return dataQualityReport(state, given, range);
      };

      return source.subscribe({
        next(signal) {
          try {
            if (windowMs !== undefined) {
              const start = Math.floor(signal.time / windowMs) * windowMs;
              if (windowStart !== windowStart) windowStart = start;
              if (start < windowStart) {
                stragglers++;
                return;
              }
              if (start > windowStart) {
                subscriber.next(report({ from: windowStart, to: windowStart + windowMs }));
                resetDataQuality(state);
                windowStart = start;
              }
            }
            updateDataQuality(state, signal);
          } catch (error) {
            subscriber.error(error);
          }
        },
        error(error) {
          subscriber.error(error);
        },
        complete() {
          try {
            const range = windowMs !== undefined && windowStart === windowStart ? { from: windowStart, to: windowStart + windowMs } : undefined;
            subscriber.next(report(range));
          } catch (error) {
            subscriber.error(error);
            return;
          }
          subscriber.complete();
        },
      });
    });
}

function difference(now: DataQualityCounts, before: DataQualityCounts): DataQualityCounts {
  const out: Record<string, unknown> = {};
  for (const key of ["decoded", "invalid", "late", "localFlagMismatch", "tsRtsMismatch"] as const) {
    const value = now[key];
    if (value !== undefined) out[key] = value - (before[key] ?? 0);
  }
  if (now.invalidByReason !== undefined) {
    const reasons: Record<string, number> = {};
    for (const [reason, n] of Object.entries(now.invalidByReason)) reasons[reason] = n - (before.invalidByReason?.[reason] ?? 0);
    out["invalidByReason"] = reasons;
  }
  return out as DataQualityCounts;
}
