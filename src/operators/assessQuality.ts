import type { OperatorFunction } from "rxjs";
import type { Signal } from "../codec/Signal.ts";
import { DataQuality, dataQualityOptions, type DataQualityCounts, type DataQualityOptions, type DataQualityReport } from "../kernels/quality/dataQuality.ts";
import { EventTimeEngine, eventTimeEngineOptions } from "../kernels/sessions/EventTimeEngine.ts";
import { kernelOperator } from "./kernelOperator.ts";

/**
 * Options of {@link assessQuality}: the accumulator's (gap threshold, reporting window), the
 * engine's allowed lateness, and where outside counters come from.
 *
 * @example
 * const options: AssessQualityOptions = { windowMs: 3_600_000, counts: () => decoder.stats };
 */
export interface AssessQualityOptions extends DataQualityOptions {
  /** How far records may arrive out of order (the engine's rule, as in `sessionize`). @default 60_000 */
  readonly allowedLatenessMs?: number;
  /**
   * Outside counters merged into each report (e.g. `() => decoder.stats`); a windowed report
   * gets the change since the previous one. The engine's late count is added to `late`.
   * @default undefined
   */
  readonly counts?: (() => DataQualityCounts) | undefined;
}

/**
 * RxJS operator: decoded signals → data-quality reports (per sensor gaps, randomized MAC
 * shares, `local` flag and ts/RTS disagreements, invalid and late counts): one at completion,
 * or, with `windowMs`, one per shop and event-time window. The `DataQuality` accumulator in
 * an `EventTimeEngine` (proximity off), so windows follow each shop's watermark exactly as
 * sessions do, and arrival order within the allowed lateness changes nothing.
 *
 * ```
 * signals:  -a-b-c-(window passes)-d-e-|
 * reports:  --------R1-----------------(R2|)     (one report at | without windowMs)
 * ```
 *
 * State rules:
 * 1. Signals behind their shop's watermark are counted as late, not assessed.
 * 2. Windowed: a shop's window is reported once its watermark passes the window's end, then
 *    that shop starts afresh; the last, partial window at completion.
 * 3. Not windowed: one report over all shops at completion.
 *
 * @example
 * signals$.pipe(assessQuality({ windowMs: 86_400_000, counts: () => decoder.stats }))
 *   .subscribe((r) => console.error(r.sensors.filter((s) => s.gapCount > 0)));
 */
export function assessQuality(options: AssessQualityOptions = {}): OperatorFunction<Signal, DataQualityReport> {
  const { counts, allowedLatenessMs, ...qualityOptions } = options;
  dataQualityOptions(qualityOptions); // validates eagerly
  const engineOptions = { proximity: false as const, ...(allowedLatenessMs === undefined ? {} : { allowedLatenessMs }) };
  eventTimeEngineOptions(engineOptions);
  if (counts !== undefined && typeof counts !== "function") throw new TypeError("counts must be a function");
  return kernelOperator<Signal, DataQualityReport>((emit) => {
    let engine: EventTimeEngine | undefined = undefined;
    const outside = (): DataQualityCounts => {
      const given = counts?.() ?? {};
      const stats = engine?.stats;
      return {
        ...given,
        late: (given.late ?? 0) + (stats?.late ?? 0),
        maxLateMs: Math.max(given.maxLateMs ?? 0, stats?.maxLateMs ?? 0),
        ahead: (given.ahead ?? 0) + (stats?.ahead ?? 0),
      };
    };
    const quality = new DataQuality(qualityOptions, qualityOptions.windowMs === undefined ? undefined : { emit }, outside);
    engine = new EventTimeEngine(engineOptions, { emit: () => {} }, [quality]);
    const e = engine;
    return {
      push: (signal) => e.push(signal),
      flush: () => {
        e.flush();
        if (qualityOptions.windowMs === undefined) emit(quality.report(outside()));
      },
    };
  });
}
