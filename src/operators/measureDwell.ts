import { Observable, type OperatorFunction, type Subscriber } from "rxjs";
import { DwellMeter, dwellMeterOptions, type DwellMeterOptions, type WindowDwell } from "../kernels/DwellMeter.ts";
import type { ClassifiedSession } from "../kernels/VisitClassifier.ts";
import { OperatorObserver } from "./OperatorObserver.ts";

/**
 * Options of {@link measureDwell}: those of `DwellMeter` plus the late side channel.
 *
 * @example
 * const options: MeasureDwellOptions = { window: "hour", timeZone: "Asia/Seoul" };
 */
export interface MeasureDwellOptions extends DwellMeterOptions {
  /** Receives sessions that arrived after their window was emitted (they are not measured). @default undefined */
  readonly onLate?: (session: ClassifiedSession) => void;
}

/**
 * RxJS operator: classified sessions → per shop and local window (hour or day of the session's
 * start, shop time zone) the dwell count, mean, median, p90 and buckets (<5 min, 5–20 min,
 * 20–60 min, 1–6 h, ≥6 h) of visitors (or the `kinds` asked for). A window is emitted once every
 * session starting in it has arrived (`ClassifiedSession.complete`), the rest on completion.
 * A thin wrapper over one `DwellMeter` per subscription.
 *
 * @example
 * signals$.pipe(decodeSignals(), sessionize(), classifyVisits(), measureDwell({ window: "day" }))
 *   .subscribe((d) => console.log(d.label, d.count, d.medianMs / 60_000, "min"));
 */
export function measureDwell(options: MeasureDwellOptions = {}): OperatorFunction<ClassifiedSession, WindowDwell> {
  const { onLate, ...meterOptions } = options;
  dwellMeterOptions(meterOptions); // validates eagerly
  if (onLate !== undefined && typeof onLate !== "function") throw new TypeError("onLate must be a function");
  return (source) =>
    new Observable<WindowDwell>((subscriber) =>
      source.subscribe(new DwellObserver(subscriber, new DwellMeter(meterOptions, (d) => subscriber.next(d), onLate))),
    );
}

class DwellObserver extends OperatorObserver<ClassifiedSession, WindowDwell> {
  readonly #meter: DwellMeter;

  constructor(destination: Subscriber<WindowDwell>, meter: DwellMeter) {
    super(destination);
    this.#meter = meter;
  }

  next(session: ClassifiedSession): void {
    if (this.stopped) return;
    try {
      this.#meter.push(session);
    } catch (error) {
      this.error(error);
    }
  }

  protected override finish(): void {
    this.#meter.flush();
  }
}
