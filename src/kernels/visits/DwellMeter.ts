import { markResolved, resolvedBy } from "../../options/resolvedOptions.ts";
import { dwellStats, type DwellStats } from "./dwellStats.ts";
import { DEFAULT_TIME_ZONE, assertTimeZone } from "../../time/timeZone.ts";
import type { WindowUnit } from "../../time/LocalCalendar.ts";
import { checkSink, type Sink } from "../sessions/Sink.ts";
import { SessionWindows, type SessionWindow } from "./SessionWindows.ts";
import type { ClassifiedSession, VisitKind } from "./VisitClassifier.ts";

/**
 * Options of {@link DwellMeter} (and the `measureDwell` operator).
 *
 * @example
 * const options: DwellMeterOptions = { window: "hour", timeZone: "Asia/Seoul" };
 */
export interface DwellMeterOptions {
  /** Window unit, local to `timeZone`. @default "day" */
  readonly window?: WindowUnit;
  /** IANA time zone of the shop. @default "Asia/Seoul" */
  readonly timeZone?: string;
  /** Kinds of session measured. @default ["visitor"] */
  readonly kinds?: readonly VisitKind[];
  /**
   * `"estimated"`: `estimatedDwellMs` (last − first plus the mean gap its edges fall into, `estimatedDwell`);
   * `"observed"`: `dwellMs` (last − first signal).
   * @default "estimated"
   */
  readonly dwell?: "estimated" | "observed";
}

/**
 * Defaults of {@link DwellMeterOptions}.
 *
 * @example
 * defaultDwellMeter.window; // "day"
 */
export const defaultDwellMeter = Object.freeze({
  window: "day" as WindowUnit,
  timeZone: DEFAULT_TIME_ZONE,
  kinds: Object.freeze(["visitor"] as VisitKind[]) as readonly VisitKind[],
  dwell: "estimated" as "estimated" | "observed",
});

/**
 * Dwell statistics of one shop and window: {@link DwellStats} plus where and when.
 *
 * @example
 * const d: WindowDwell = { ...window, ...dwellStats([600_000]) };
 */
export interface WindowDwell extends SessionWindow, DwellStats {}

const KINDS: ReadonlySet<string> = new Set(["visitor", "passerby", "staff", "stationary"]);

/**
 * Validates {@link DwellMeterOptions} eagerly and fills in defaults (TypeError/RangeError).
 *
 * @example
 * dwellMeterOptions({ window: "hour" }).kinds; // ["visitor"]
 */
export function dwellMeterOptions(options: DwellMeterOptions = {}): Required<DwellMeterOptions> {
  if (resolvedBy("dwellMeterOptions", options)) return options as unknown as ReturnType<typeof dwellMeterOptions>;
  if (typeof options !== "object" || options === null) throw new TypeError("DwellMeter options must be an object");
  const d = defaultDwellMeter;
  const window = options.window ?? d.window;
  if (window !== "hour" && window !== "day") throw new RangeError(`window must be "hour" or "day", got ${String(window)}`);
  const timeZone = options.timeZone ?? d.timeZone;
  assertTimeZone(timeZone);
  const kinds = options.kinds ?? d.kinds;
  if (!Array.isArray(kinds) || kinds.some((k) => !KINDS.has(k))) {
    throw new RangeError(`kinds must be a list of visitor, passerby, staff, stationary`);
  }
  const dwell = options.dwell ?? d.dwell;
  if (dwell !== "estimated" && dwell !== "observed") throw new RangeError(`dwell must be "estimated" or "observed", got ${String(dwell)}`);
  return markResolved("dwellMeterOptions", { window, timeZone, kinds: Object.freeze([...kinds]), dwell });
}

interface DwellAcc {
  readonly values: number[];
}

/**
 * Per shop and local window (of session start), dwell count, mean, median, p90 and buckets of the
 * sessions of the chosen kinds (visitors by default). Windows close in event time (see
 * `SessionWindows`); a window with sessions but none of the chosen kinds reports count 0.
 * Memory: the dwell values of the open windows.
 *
 * @example
 * const out: WindowDwell[] = [];
 * const meter = new DwellMeter({ window: "day" }, { emit: (d) => out.push(d) });
 * for (const s of classified) meter.push(s);
 * meter.flush();
 */
export class DwellMeter extends SessionWindows<DwellAcc, WindowDwell> {
  /** The resolved options. */
  readonly options: Required<DwellMeterOptions>;

  /**
   * @param options see {@link DwellMeterOptions}
   * @param sink `emit`: each closed window; `late`: sessions that arrived after their window closed (not used), with the end of the windows closed then (epoch ms)
   */
  constructor(options: DwellMeterOptions, sink: Sink<WindowDwell, ClassifiedSession>) {
    const o = dwellMeterOptions(options);
    const kinds = new Set<string>(o.kinds);
    const estimated = o.dwell === "estimated";
    super(
      o.window,
      o.timeZone,
      {
        create: () => ({ values: [] }),
        add: (acc, s) => {
          if (kinds.has(s.kind)) acc.values.push(estimated ? s.estimatedDwellMs : s.dwellMs);
        },
        finish: (acc, w) => ({ ...w, ...dwellStats(acc.values) }),
      },
      checkSink("DwellMeter", sink),
    );
    this.options = o;
  }
}
