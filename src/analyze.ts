import { SignalDecoder, type SignalDecoderOptions, type SignalDecoderStats } from "./codec/decodeSignal.ts";
import type { Signal } from "./codec/Signal.ts";
import {
  createDataQuality,
  dataQualityReport,
  updateDataQuality,
  type DataQualityOptions,
  type DataQualityReport,
  type DataQualityState,
} from "./kernels/dataQuality.ts";
import { DwellMeter, type DwellMeterOptions, type WindowDwell } from "./kernels/DwellMeter.ts";
import type { DwellStats } from "./kernels/dwellStats.ts";
import type { VisitHistoryStore } from "./kernels/MemoryVisitHistory.ts";
import { ProximityTracker, type ProximitySummary, type ProximityTrackerOptions } from "./kernels/ProximityTracker.ts";
import type { Session } from "./kernels/Session.ts";
import { SessionTracker, sessionTrackerOptions, type SessionTrackerOptions } from "./kernels/SessionTracker.ts";
import {
  VisitClassifier,
  defaultVisitClassifier,
  visitClassifierOptions,
  type ClassifiedSession,
  type VisitClassifierOptions,
} from "./kernels/VisitClassifier.ts";
import { VisitCounter, type VisitCounts } from "./kernels/VisitCounter.ts";

/**
 * Options of {@link analyze} and {@link Analyzer}, grouped by stage. Every stage's own defaults
 * apply (see `SignalDecoder`, `SessionTracker`, `VisitClassifier`, `DwellMeter`, `ProximityTracker`,
 * `createDataQuality`).
 *
 * @example
 * const options: AnalyzeOptions = {
 *   timeZone: "Asia/Seoul",
 *   decode: { shopId: 101 },
 *   sessions: { gapMs: 300_000 },
 *   classify: { visitorRssi: "auto" },
 * };
 */
export interface AnalyzeOptions {
  /** IANA time zone of the shops: local days and hours of every window. @default "Asia/Seoul" */
  readonly timeZone?: string;
  /** Decoding of raw records (ignored for records that are already `Signal`s). @default {} */
  readonly decode?: SignalDecoderOptions;
  /** Sessions: `gapMs`, `allowedLatenessMs`, `smoothing`. The proximity tracker uses the same gap and lateness. @default {} */
  readonly sessions?: SessionTrackerOptions;
  /** Visit classification (its `timeZone` is the top-level one). @default {} */
  readonly classify?: Omit<VisitClassifierOptions, "timeZone">;
  /** Dwell statistics: `kinds`, `dwell` (estimated/observed). @default {} */
  readonly dwell?: Omit<DwellMeterOptions, "timeZone" | "window">;
  /** Visit history for new vs repeat visitors. @default a fresh MemoryVisitHistory */
  readonly history?: VisitHistoryStore;
  /** Also count per local hour (`hours` in the result). @default true */
  readonly hourly?: boolean;
  /**
   * Proximity per session (`ProximityTracker` options without callbacks, gap or lateness), or
   * `false` to skip it.
   * @default {}
   */
  readonly proximity?: Omit<ProximityTrackerOptions, "onSlice" | "onSummary" | "gapMs" | "allowedLatenessMs"> | false;
  /** Data-quality report options, or `false` to skip it. @default {} */
  readonly quality?: DataQualityOptions | false;
  /** Receives each signal that came later than the allowed lateness (not used). @default undefined */
  readonly onLate?: (signal: Signal, watermark: number) => void;
}

/**
 * A classified session with its proximity summary (closest approach, time per zone, nearest sensor
 * over time), when proximity is on.
 *
 * @example
 * const s: AnalyzedSession = result.sessions[0]!;
 * s.kind; s.proximity?.closestZone;
 */
export interface AnalyzedSession extends ClassifiedSession {
  readonly proximity: ProximitySummary | undefined;
}

/**
 * One shop and local day: the day's {@link VisitCounts} plus visitor dwell statistics and the RSSI
 * threshold the day was classified with.
 *
 * @example
 * const d: ShopDaySummary = result.days[0]!;
 * console.log(d.label, d.visitors, d.captureRate, d.dwell.medianMs);
 */
export interface ShopDaySummary extends VisitCounts {
  /** Dwell statistics of the day's visitor sessions (see `DwellMeter`). */
  readonly dwell: DwellStats;
  /** `visitorRssi` used for the day's sessions, dBm (learned per shop when `"auto"`). */
  readonly visitorRssi: number;
}

/**
 * Everything {@link analyze} computes.
 *
 * @example
 * const { sessions, days, quality } = await analyze(records);
 */
export interface AnalyzeResult {
  /** Classified sessions, per shop in the order their days were decided, by start within a day. */
  readonly sessions: readonly AnalyzedSession[];
  /** Per shop and local day, in order. */
  readonly days: readonly ShopDaySummary[];
  /** Per shop and local hour, in order (empty when `hourly` is false). */
  readonly hours: readonly VisitCounts[];
  /** Data-quality report (undefined when `quality` is false). */
  readonly quality: DataQualityReport | undefined;
  /** Decoder counters (records that were already `Signal`s are not counted). */
  readonly decoder: SignalDecoderStats;
  /** Signals later than the allowed lateness (not used). */
  readonly late: number;
  /** Sessions that reached the day counts after their day was emitted (equipment that never leaves). */
  readonly lateSessions: number;
}

/**
 * The batch engine: drives the same kernels as the operator chain (`decodeSignals` →
 * `sessionize` → `classifyVisits` → `countVisits` / `measureDwell`, and `estimateProximity`,
 * data quality), record by record, collecting the results. {@link analyze} is this over an array
 * or async iterable; use it directly to feed records from anywhere, then call {@link Analyzer.finish}.
 *
 * @example
 * const analyzer = new Analyzer({ timeZone: "Asia/Seoul" });
 * for (const record of records) analyzer.push(record);
 * const result = analyzer.finish();
 */
export class Analyzer {
  readonly #decoder: SignalDecoder;
  readonly #tracker: SessionTracker;
  readonly #classifier: VisitClassifier;
  readonly #days: VisitCounter;
  readonly #hours: VisitCounter | undefined;
  readonly #dwell: DwellMeter;
  readonly #proximity: ProximityTracker | undefined;
  readonly #quality: DataQualityState | undefined;
  /** Proximity of sessions on their way through the classifier, keyed by the tracker's Session object. */
  readonly #pendingProximity = new Map<Session, ProximitySummary>();
  readonly #sessions: AnalyzedSession[] = [];
  readonly #dayCounts: VisitCounts[] = [];
  readonly #dayDwell = new Map<string, WindowDwell>();
  readonly #dayRssi = new Map<string, number>();
  readonly #hourCounts: VisitCounts[] = [];
  #lateSessions = 0;
  #finished: AnalyzeResult | undefined;

  /** @param options see {@link AnalyzeOptions}; validated here (TypeError/RangeError). */
  constructor(options: AnalyzeOptions = {}) {
    if (typeof options !== "object" || options === null) throw new TypeError("analyze options must be an object");
    const timeZone = options.timeZone ?? defaultVisitClassifier.timeZone;
    const sessionOptions = sessionTrackerOptions(options.sessions ?? {});
    const classifyOptions = visitClassifierOptions({ ...options.classify, timeZone });
    this.#decoder = new SignalDecoder(options.decode);
    if (options.proximity !== false) {
      this.#proximity = new ProximityTracker({
        ...options.proximity,
        gapMs: sessionOptions.gapMs,
        allowedLatenessMs: sessionOptions.allowedLatenessMs,
      });
    }
    if (options.quality !== false) this.#quality = createDataQuality(options.quality ?? {});
    const lateSession = () => void this.#lateSessions++;
    this.#days = new VisitCounter(
      { window: "day", timeZone, ...(options.history === undefined ? {} : { history: options.history }) },
      (c) => this.#dayCounts.push(c),
      lateSession,
    );
    if (options.hourly !== false) {
      // Its own history: hourly "repeat" means seen before that hour, which must not consume the daily one.
      this.#hours = new VisitCounter({ window: "hour", timeZone }, (c) => this.#hourCounts.push(c));
    }
    this.#dwell = new DwellMeter({ ...options.dwell, window: "day", timeZone }, (d) => this.#dayDwell.set(`${d.shopId} ${d.start}`, d));
    this.#classifier = new VisitClassifier(classifyOptions, {
      session: (s, source) => {
        const proximity = this.#pendingProximity.get(source);
        if (proximity !== undefined) this.#pendingProximity.delete(source);
        this.#sessions.push(analyzedSession(s, proximity));
        if (!s.late) this.#dayRssi.set(`${s.shopId} ${s.date}`, s.visitorRssi);
        this.#days.push(s);
        this.#hours?.push(s);
        this.#dwell.push(s);
      },
    });
    const proximity = this.#proximity;
    this.#tracker = new SessionTracker(sessionOptions, {
      session: (s) => this.#onSession(s),
      ...(options.onLate === undefined ? {} : { late: options.onLate }),
      // The proximity tracker follows the session tracker's event-time order (same lateness)
      // instead of buffering every signal a second time; it sees each batch before the sessions
      // it belongs to close, so takeSummary finds their proximity complete.
      ...(proximity === undefined
        ? {}
        : {
            released: (shopId: number, signals: readonly Signal[], count: number, watermark: number) =>
              proximity.addReleased(shopId, signals, count, watermark),
          }),
    });
  }

  /** Feeds one record: a raw service record (decoded here; invalid ones are counted) or a `Signal`. */
  push(record: unknown): void {
    if (this.#finished !== undefined) throw new Error("Analyzer: push after finish");
    let signal: Signal | undefined;
    if (isSignal(record)) signal = record;
    else {
      signal = this.#decoder.decode(record);
      if (signal === undefined) return;
    }
    this.pushSignal(signal);
  }

  /**
   * Feeds one raw service record, always through the decoder: fields other than the service's six
   * (e.g. the decoded ones `footfall signals` adds to each line) are ignored.
   */
  pushRaw(record: unknown): void {
    if (this.#finished !== undefined) throw new Error("Analyzer: push after finish");
    const signal = this.#decoder.decode(record);
    if (signal !== undefined) this.pushSignal(signal);
  }

  /** Feeds one decoded signal (skips the raw/decoded check of {@link Analyzer.push}). */
  pushSignal(signal: Signal): void {
    if (this.#finished !== undefined) throw new Error("Analyzer: push after finish");
    if (this.#quality !== undefined) updateDataQuality(this.#quality, signal);
    this.#tracker.push(signal);
  }

  /** Flushes every stage and returns the result (once; later calls return the same result). */
  finish(): AnalyzeResult {
    if (this.#finished !== undefined) return this.#finished;
    // Also ends the proximity tracker's input, shop by shop, before the last sessions close.
    this.#tracker.flush();
    this.#classifier.flush();
    this.#days.flush();
    this.#hours?.flush();
    this.#dwell.flush();
    const days: ShopDaySummary[] = this.#dayCounts.map((c) => {
      const dwell = this.#dayDwell.get(`${c.shopId} ${c.start}`);
      return {
        ...c,
        dwell:
          dwell === undefined
            ? emptyDwell()
            : { count: dwell.count, meanMs: dwell.meanMs, medianMs: dwell.medianMs, p90Ms: dwell.p90Ms, buckets: dwell.buckets },
        visitorRssi: this.#dayRssi.get(`${c.shopId} ${c.label}`) ?? Number.NaN,
      };
    });
    const trackerStats = this.#tracker.stats;
    const decoder = this.#decoder.stats;
    this.#finished = {
      sessions: this.#sessions,
      days,
      hours: this.#hourCounts,
      quality: this.#quality === undefined ? undefined : dataQualityReport(this.#quality, { ...decoder, late: trackerStats.late }),
      decoder,
      late: trackerStats.late,
      lateSessions: this.#lateSessions,
    };
    return this.#finished;
  }

  #onSession(s: Session): void {
    const p = this.#proximity?.takeSummary(s.shopId, s.device, s.start, s.end);
    if (p !== undefined) this.#pendingProximity.set(s, p);
    this.#classifier.push(s);
  }
}

/**
 * Batch analysis: raw service records (e.g. parsed NDJSON lines) or decoded `Signal`s, from an
 * array, iterable or async iterable → classified sessions with proximity, per shop-day summaries
 * (visitors, visits, passers-by, unique devices, capture rate, new/repeat, dwell statistics and
 * buckets), hourly counts and a data-quality report.
 *
 * It drives exactly the kernels the RxJS operators wrap, in the same order, so a batch run and a
 * streaming run over the same records give identical results (a property test checks it). Records
 * may arrive out of order within `sessions.allowedLatenessMs` without changing anything.
 *
 * @example
 * const result = await analyze(world.rawSignals(101), { timeZone: "Asia/Seoul" });
 * for (const d of result.days) console.log(d.label, d.visitors, d.visits, d.dwell.medianMs / 60_000);
 */
export async function analyze(
  records: Iterable<unknown> | AsyncIterable<unknown>,
  options: AnalyzeOptions = {},
): Promise<AnalyzeResult> {
  const analyzer = new Analyzer(options);
  if (Array.isArray(records)) {
    for (let i = 0; i < records.length; i++) analyzer.push(records[i]);
  } else if (typeof (records as Iterable<unknown>)?.[Symbol.iterator] === "function") {
    for (const record of records as Iterable<unknown>) analyzer.push(record);
  } else if (typeof (records as AsyncIterable<unknown>)?.[Symbol.asyncIterator] === "function") {
    for await (const record of records as AsyncIterable<unknown>) analyzer.push(record);
  } else {
    throw new TypeError("analyze: records must be an array, an iterable or an async iterable");
  }
  return analyzer.finish();
}

// Field by field rather than `{ ...s, proximity }`: V8 copies a spread that adds a property
// generically, ~1 µs per session; the literal is one allocation of a fixed shape.
function analyzedSession(s: ClassifiedSession, proximity: ProximitySummary | undefined): AnalyzedSession {
  return {
    shopId: s.shopId,
    device: s.device,
    start: s.start,
    end: s.end,
    dwellMs: s.dwellMs,
    estimatedDwellMs: s.estimatedDwellMs,
    signalCount: s.signalCount,
    probeCount: s.probeCount,
    randomized: s.randomized,
    local: s.local,
    vendor: s.vendor,
    peakRssi: s.peakRssi,
    peakSmoothedRssi: s.peakSmoothedRssi,
    nearestSensor: s.nearestSensor,
    sensors: s.sensors,
    watermark: s.watermark,
    complete: s.complete,
    kind: s.kind,
    date: s.date,
    late: s.late,
    visitorRssi: s.visitorRssi,
    proximity,
  };
}

function isSignal(record: unknown): record is Signal {
  return (
    typeof record === "object" &&
    record !== null &&
    typeof (record as Signal).time === "number" &&
    typeof (record as Signal).device === "string" &&
    typeof (record as Signal).sensor === "string"
  );
}

function emptyDwell(): DwellStats {
  const buckets = { lt5m: 0, m5to20: 0, m20to60: 0, h1to6: 0, ge6h: 0 };
  return { count: 0, meanMs: Number.NaN, medianMs: Number.NaN, p90Ms: Number.NaN, buckets };
}
