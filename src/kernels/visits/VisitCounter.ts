import { markResolved, resolvedBy } from "../../options/resolvedOptions.ts";
import { DEFAULT_TIME_ZONE, assertTimeZone } from "../../time/timeZone.ts";
import type { WindowUnit } from "../../time/LocalCalendar.ts";
import { MemoryVisitHistory, type VisitHistoryStore } from "./MemoryVisitHistory.ts";
import { checkSink, type Sink } from "../sessions/Sink.ts";
import { SessionWindows, type SessionWindow } from "./SessionWindows.ts";
import type { ClassifiedSession } from "./VisitClassifier.ts";

/**
 * Options of {@link VisitCounter} (and the `countVisits` operator).
 *
 * @example
 * const options: VisitCounterOptions = { window: "hour", timeZone: "Asia/Seoul", history: new MemoryVisitHistory() };
 */
export interface VisitCounterOptions {
  /** Window unit, local to `timeZone`. @default "day" */
  readonly window?: WindowUnit;
  /** IANA time zone of the shop. @default "Asia/Seoul" */
  readonly timeZone?: string;
  /**
   * Visit history that tells new from repeat visitors; pass one store to several runs (or persist
   * it) to recognise returning devices across them.
   * @default a fresh MemoryVisitHistory per counter
   */
  readonly history?: VisitHistoryStore;
}

/**
 * Defaults of {@link VisitCounterOptions} (`history`: a new `MemoryVisitHistory` per counter).
 *
 * @example
 * defaultVisitCounter.window; // "day"
 */
export const defaultVisitCounter = Object.freeze({ window: "day" as WindowUnit, timeZone: DEFAULT_TIME_ZONE });

/**
 * Visit counts of one population of devices (all, universal MACs, or randomized MACs).
 *
 * @example
 * const s: VisitSeries = { visitors: 40, visits: 42, passersBy: 600, uniqueDevices: 640, captureRate: 0.0625 };
 */
export interface VisitSeries {
  /** Unique devices with at least one visitor session. */
  readonly visitors: number;
  /** Visitor sessions. */
  readonly visits: number;
  /** Unique devices seen only passing by (no visitor session in the window). */
  readonly passersBy: number;
  /** Unique visitor and passer-by devices (staff and equipment excluded). */
  readonly uniqueDevices: number;
  /** visitors ÷ uniqueDevices (`NaN`, JSON `null`, when there are no devices). */
  readonly captureRate: number;
}

/**
 * Counts of one shop and local window; the top-level series covers all devices, `universal` and
 * `randomized` split it by MAC kind (randomized MACs change per visit, so they inflate unique
 * counts over long windows and cannot be recognised on return: read them separately).
 *
 * @example
 * counts.visitors === counts.universal.visitors + counts.randomized.visitors; // true
 */
export interface VisitCounts extends SessionWindow, VisitSeries {
  /** Universal-MAC visitors not seen visiting this shop before this window (per the history store). */
  readonly newVisitors: number;
  /** Universal-MAC visitors who visited this shop before this window. */
  readonly repeatVisitors: number;
  /** Unique staff devices. */
  readonly staff: number;
  /** Unique stationary devices. */
  readonly stationary: number;
  /** Universal (globally unique) MACs only. */
  readonly universal: VisitSeries;
  /** Randomized (locally administered) MACs only. */
  readonly randomized: VisitSeries;
}

/**
 * Validates {@link VisitCounterOptions} eagerly and fills in defaults (TypeError/RangeError).
 *
 * @example
 * visitCounterOptions({ window: "hour" }).timeZone; // "Asia/Seoul"
 */
export function visitCounterOptions(options: VisitCounterOptions = {}): Required<VisitCounterOptions> {
  if (resolvedBy("visitCounterOptions", options)) return options as unknown as ReturnType<typeof visitCounterOptions>;
  if (typeof options !== "object" || options === null) throw new TypeError("VisitCounter options must be an object");
  const window = options.window ?? defaultVisitCounter.window;
  if (window !== "hour" && window !== "day") throw new RangeError(`window must be "hour" or "day", got ${String(window)}`);
  const timeZone = options.timeZone ?? defaultVisitCounter.timeZone;
  assertTimeZone(timeZone);
  const history = options.history ?? new MemoryVisitHistory();
  if (typeof history.lastVisit !== "function" || typeof history.recordVisit !== "function") {
    throw new TypeError("history must implement lastVisit() and recordVisit()");
  }
  return markResolved("visitCounterOptions", { window, timeZone, history });
}

interface CountAcc {
  /** Visitor device → [randomized, first visit start]. */
  readonly visitors: Map<string, { readonly randomized: boolean; readonly first: number }>;
  /** Passer-by device → randomized. */
  readonly passers: Map<string, boolean>;
  visitsUniversal: number;
  visitsRandomized: number;
  readonly staff: Set<string>;
  readonly stationary: Set<string>;
}

/**
 * Per shop and local window (hour or day of session start, in the shop's time zone): visitors
 * (unique devices), visits (sessions), passers-by, unique devices, capture rate, new vs repeat
 * visitors, staff and equipment — all devices, and universal and randomized MACs separately.
 * Windows close in event time (see `SessionWindows`). Memory: the device sets of the open windows
 * plus the history store.
 *
 * @example
 * const out: VisitCounts[] = [];
 * const counter = new VisitCounter({ window: "day" }, { emit: (c) => out.push(c) });
 * for (const s of classified) counter.push(s);
 * counter.flush();
 */
export class VisitCounter extends SessionWindows<CountAcc, VisitCounts> {
  /** The resolved options. */
  readonly options: Required<VisitCounterOptions>;

  /**
   * @param options see {@link VisitCounterOptions}
   * @param sink `emit`: each closed window; `late`: sessions that arrived after their window closed (not used), with the end of the windows closed then (epoch ms)
   */
  constructor(options: VisitCounterOptions, sink: Sink<VisitCounts, ClassifiedSession>) {
    const o = visitCounterOptions(options);
    const history = o.history;
    super(
      o.window,
      o.timeZone,
      {
        create: () => ({
          visitors: new Map(),
          passers: new Map(),
          visitsUniversal: 0,
          visitsRandomized: 0,
          staff: new Set(),
          stationary: new Set(),
        }),
        add: addSession,
        finish: (acc, w) => finishCounts(acc, w, history),
      },
      checkSink("VisitCounter", sink),
    );
    this.options = o;
  }
}

function addSession(acc: CountAcc, s: ClassifiedSession): void {
  switch (s.kind) {
    case "visitor": {
      const seen = acc.visitors.get(s.device);
      if (seen === undefined || s.start < seen.first) acc.visitors.set(s.device, { randomized: s.randomized, first: s.start });
      if (s.randomized) acc.visitsRandomized++;
      else acc.visitsUniversal++;
      break;
    }
    case "passerby":
      acc.passers.set(s.device, s.randomized);
      break;
    case "staff":
      acc.staff.add(s.device);
      break;
    case "stationary":
      acc.stationary.add(s.device);
      break;
  }
}

function series(visitors: number, visits: number, passersBy: number): VisitSeries {
  const uniqueDevices = visitors + passersBy;
  return { visitors, visits, passersBy, uniqueDevices, captureRate: uniqueDevices === 0 ? Number.NaN : visitors / uniqueDevices };
}

function finishCounts(acc: CountAcc, w: SessionWindow, history: VisitHistoryStore): VisitCounts {
  let visitorsU = 0;
  let visitorsR = 0;
  let newVisitors = 0;
  let repeatVisitors = 0;
  // Sorted so the history store sees the same sequence whatever the arrival order.
  const devices = [...acc.visitors.keys()].sort();
  for (const device of devices) {
    const v = acc.visitors.get(device)!;
    if (v.randomized) {
      visitorsR++;
      continue;
    }
    visitorsU++;
    const last = history.lastVisit(w.shopId, device);
    if (last !== undefined && last < w.start) repeatVisitors++;
    else newVisitors++;
    history.recordVisit(w.shopId, device, v.first);
  }
  let passersU = 0;
  let passersR = 0;
  for (const [device, randomized] of acc.passers) {
    if (acc.visitors.has(device)) continue;
    if (randomized) passersR++;
    else passersU++;
  }
  const universal = series(visitorsU, acc.visitsUniversal, passersU);
  const randomized = series(visitorsR, acc.visitsRandomized, passersR);
  return {
    ...w,
    ...series(visitorsU + visitorsR, acc.visitsUniversal + acc.visitsRandomized, passersU + passersR),
    newVisitors,
    repeatVisitors,
    staff: acc.staff.size,
    stationary: acc.stationary.size,
    universal,
    randomized,
  };
}
