import { DEFAULT_TIME_ZONE } from "../time/timeZone.ts";
import { SignalDecoder, type InvalidRecord, type InvalidReason, type SignalDecoderOptions, type SignalDecoderStats } from "../codec/decodeSignal.ts";
import type { Signal } from "../codec/Signal.ts";
import { DataQuality, type DataQualityOptions, type DataQualityPart, type DataQualityReport } from "../kernels/quality/dataQuality.ts";
import { mergeShardSessions, type ShardSessions } from "../kernels/sessions/mergeShardSessions.ts";
import { AnalyzerShard, type AnalyzerShardOptions } from "./AnalyzerShard.ts";
import type { DwellMeterOptions, WindowDwell } from "../kernels/visits/DwellMeter.ts";
import type { DwellStats } from "../kernels/visits/dwellStats.ts";
import {
  EventTimeEngine,
  defaultEventTimeEngine,
  type EngineAccumulator,
  type EventTimeEngineOptions,
} from "../kernels/sessions/EventTimeEngine.ts";
import type { ProximityOptions } from "../kernels/proximity/proximityOptions.ts";
import type { ProximitySlice } from "../kernels/proximity/SessionProximity.ts";
import type { Calibration, CalibrationFile } from "../kernels/calibration/Calibration.ts";
import { LiveOccupancy, type LiveOccupancyInterval } from "../kernels/people/LiveOccupancy.ts";
import type { VisitHistoryStore } from "../kernels/visits/MemoryVisitHistory.ts";
import { poolPeople } from "../kernels/people/poolPeople.ts";
import type { OccupancyInterval, PeopleEstimate } from "../kernels/people/PeopleEstimate.ts";
import type { PeopleEstimatorOptions } from "../kernels/people/peopleEstimatorOptions.ts";
import { VisitClassifier, visitClassifierOptions, type ClassifiedSession, type VisitClassifierOptions } from "../kernels/visits/VisitClassifier.ts";
import type { VisitCounts } from "../kernels/visits/VisitCounter.ts";
import { sessionStages } from "../kernels/sessionStages.ts";
import type { Kernel } from "../kernels/sessions/Sink.ts";

/**
 * Options of {@link analyze} and {@link Analyzer}, grouped by stage. Every stage's own defaults
 * apply (see `SignalDecoder`, `EventTimeEngine`, `VisitClassifier`, `DwellMeter`, `DataQuality`).
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
  /** The event-time engine: `gapMs`, `allowedLatenessMs`, `smoothing` (RSSI, once per device × sensor). @default {} */
  readonly sessions?: Omit<EventTimeEngineOptions, "proximity">;
  /** Visit classification (its `timeZone` is the top-level one). @default {} */
  readonly classify?: Omit<VisitClassifierOptions, "timeZone">;
  /** Dwell statistics: `kinds`, `dwell` (estimated/observed). @default {} */
  readonly dwell?: Omit<DwellMeterOptions, "timeZone" | "window">;
  /** Visit history for new vs repeat visitors. @default a fresh MemoryVisitHistory */
  readonly history?: VisitHistoryStore;
  /** Also count per local hour (`hours` in the result). @default true */
  readonly hourly?: boolean;
  /** Proximity per session (`Session.proximity`: calibration, zones, slices), or `false` to skip it. @default {} */
  readonly proximity?: ProximityOptions | false;
  /**
   * People, not MACs: the randomization-aware estimate of visitors per shop-day (with a 90 %
   * interval) and of people inside and outside per interval (`intervalMs`, 15 min), or `false`
   * to skip it (see `PeopleEstimator`; its `timeZone` is the top-level one). @default {}
   */
  readonly people?: Omit<PeopleEstimatorOptions, "timeZone" | "calibration"> | false;
  /**
   * People calibrations fitted on counted people (`calibrate`, `footfall calibrate`): each shop
   * listed is estimated with its own yardstick, the others with the prior from real phones. The
   * people estimates, occupancy and live occupancy all use it and name it (`calibration`).
   * @default none
   */
  readonly calibration?: CalibrationFile | readonly Calibration[];
  /**
   * Pool each shop's days in the input for the people estimates (`poolPeople`): every day's
   * mean stay borrows from the shop's other days by random effects (the burst yardstick stays
   * the day's own), which takes most of a day's sampling error out of its visitors (see the
   * README). A day's figures then
   * depend on which days the input holds, so analyse a fixed span (a week, a month). @default false
   */
  readonly poolDays?: boolean;
  /** Data-quality report options (not windowed), or `false` to skip it. @default {} */
  readonly quality?: Omit<DataQualityOptions, "windowMs"> | false;
  /**
   * Also estimate occupancy as the day goes on: each interval from the day so far, as the
   * `liveOccupancy` operator emits it when the watermark passes the interval's end (see
   * `LiveOccupancy`), with the `people` and `classify` options. `true` collects them in the
   * result's `liveOccupancy`; a function receives each one as it is emitted, while records are
   * still being pushed (a fleet tail stores them so), and the result's list stays empty.
   * @default false
   */
  readonly liveOccupancy?: boolean | ((interval: LiveOccupancyInterval) => void);
  /**
   * The extension point for per-signal and per-interval estimators: each sees every signal the
   * engine applies, every session as it closes and every watermark advance (see
   * `EngineAccumulator`), and delivers its own results. @default []
   */
  readonly accumulators?: readonly EngineAccumulator[];
  /** Receives each signal that came later than the allowed lateness (not used). @default undefined */
  readonly onLate?: (signal: Signal, watermark: number) => void;
  /**
   * Receives each finished proximity slice (nearest sensor, distance and zone of one device in one
   * `proximity.sliceMs`), from the engine that builds the sessions — e.g. for a live "who is near
   * which sensor now" view. Needs proximity on. @default undefined
   */
  readonly onSlice?: (slice: ProximitySlice) => void;
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
  /**
   * The day's people estimate (visitors with `visitorsLow`/`visitorsHigh`, passers-by, capture
   * rate, occupancy): the headline figures, beside the MAC-level counts of this summary.
   * `undefined` when `people` is false.
   */
  readonly people: PeopleEstimate | undefined;
}

/**
 * Everything {@link analyze} computes.
 *
 * @example
 * const { sessions, days, quality } = await analyze(records);
 */
export interface AnalyzeResult {
  /** Classified sessions with their proximity, per shop in the order their days were decided, by start within a day. */
  readonly sessions: readonly ClassifiedSession[];
  /** Per shop and local day, in order. */
  readonly days: readonly ShopDaySummary[];
  /** Per shop and local hour, in order (empty when `hourly` is false). */
  readonly hours: readonly VisitCounts[];
  /** Per shop and local day, the people estimates (empty when `people` is false); also on each `days` entry. */
  readonly people: readonly PeopleEstimate[];
  /** Occupancy per shop and interval (estimated people inside, with its interval, and outside), in order per shop. */
  readonly occupancy: readonly OccupancyInterval[];
  /**
   * Occupancy per shop and interval as it was known when the watermark passed each interval's end
   * (provisional: the day so far), in the order emitted; empty unless `liveOccupancy`.
   */
  readonly liveOccupancy: readonly LiveOccupancyInterval[];
  /** Data-quality report (undefined when `quality` is false). */
  readonly quality: DataQualityReport | undefined;
  /** Decoder counters (records that were already `Signal`s are not counted). */
  readonly decoder: SignalDecoderStats;
  /** Signals later than the allowed lateness (not used). */
  readonly late: number;
  /**
   * How far behind its shop's newest event time the latest of the `late` signals was, ms (0 when
   * none): `allowedLatenessMs` at least this takes them all (e.g. a sensor that uploads in batches).
   */
  readonly maxLateMs: number;
  /**
   * Signals stamped more than `sessions.maxLeapMs` (a day) ahead of their shop's other records,
   * with no other sensor as far ahead: a sensor clock that jumped (not used).
   */
  readonly ahead: number;
  /** Sessions that reached the day counts after their day was emitted (equipment that never leaves). */
  readonly lateSessions: number;
}

/**
 * The batch engine: drives exactly the kernels the operator chain wraps (`decodeSignals` →
 * `sessionize` → `classifyVisits` → the stages of `SESSION_STAGES`: `countVisits` per day and
 * hour, `measureDwell`, `estimatePeople`; data quality and live occupancy as accumulators of the
 * one engine), wired the same way, record by record, collecting the results. The CLI, the fleet
 * and the demo (one per shop) all run it.
 * {@link analyze} is this over an array or async iterable; use it directly to feed records from
 * anywhere, then call {@link Analyzer.finish}.
 *
 * @example
 * const analyzer = new Analyzer({ timeZone: "Asia/Seoul" });
 * for (const record of records) analyzer.push(record);
 * const result = analyzer.finish();
 */
export class Analyzer {
  readonly #decoder: SignalDecoder;
  readonly #engine: EventTimeEngine;
  readonly #classifier: VisitClassifier;
  readonly #stages: Kernel<ClassifiedSession>;
  readonly #dayCounts: VisitCounts[] = [];
  readonly #hourCounts: VisitCounts[] = [];
  readonly #dayDwell: WindowDwell[] = [];
  readonly #peopleDays: PeopleEstimate[] = [];
  #lateSessions = 0;
  readonly #options: AnalyzeOptions;
  readonly #quality: DataQuality | undefined;
  readonly #liveOccupancy: LiveOccupancyInterval[] = [];
  readonly #sessions: ClassifiedSession[] = [];
  /** Hears each classified session (`tapSessions`). */
  #tap: ((s: ClassifiedSession) => void) | undefined;
  readonly #dayRssi = new Map<string, number>();
  #finished: AnalyzeResult | undefined;
  /** Share 0, when the analysis is split by device (`splitByDevice`). */
  #split: AnalyzerShard | undefined;
  /** The counters of the split's other shares (`pushShares`). */
  #shareTotals: readonly ShareTotals[] = [];

  /** @param options see {@link AnalyzeOptions}; validated here (TypeError/RangeError). */
  constructor(options: AnalyzeOptions = {}) {
    if (typeof options !== "object" || options === null) throw new TypeError("analyze options must be an object");
    const timeZone = options.timeZone ?? DEFAULT_TIME_ZONE;
    // A calibrated shop is classified at its calibration's threshold.
    const classifyOptions: VisitClassifierOptions = { ...options.classify, timeZone, ...(options.calibration === undefined ? {} : { calibration: options.calibration }) };
    const classify = visitClassifierOptions(classifyOptions); // validated once, here, before the other stages
    if (options.poolDays !== undefined && typeof options.poolDays !== "boolean") throw new TypeError(`poolDays must be a boolean, got ${typeof options.poolDays}`);
    this.#options = options;
    this.#decoder = new SignalDecoder(options.decode);
    if (options.quality !== false) {
      this.#quality = new DataQuality(options.quality ?? {});
      // Every closed session is handed to it below, with its sensors' counts and silences: it counts
      // devices and signals from them (by `pushShares`, built sessions: devices only).
      this.#quality.countBySession({ signals: true });
    }
    // The stages after classification, from the one list (SESSION_STAGES), each result collected by its tag.
    const stages = sessionStages(
      { ...options, timeZone },
      {
        emit: (out) => {
          if (out.stage === "days") this.#dayCounts.push(out.value);
          else if (out.stage === "hours") this.#hourCounts.push(out.value);
          else if (out.stage === "dwell") this.#dayDwell.push(out.value);
          else this.#peopleDays.push(out.value);
        },
        late: () => void this.#lateSessions++,
      },
    );
    this.#stages = stages;
    this.#classifier = new VisitClassifier(classify, {
      emit: (s) => {
        this.#sessions.push(s);
        this.#tap?.(s);
        if (!s.late) this.#dayRssi.set(`${s.shopId} ${s.date}`, s.visitorRssi);
        stages.push(s);
      },
    });
    const quality = this.#quality;
    // Data quality hears each closed session from the hand-off below as it is (its sensors' counts,
    // first and last receptions, silences): as an engine accumulator of sessions it would have
    // every session built for it (~2 % of the big shop-day), and it is never windowed here, so it
    // has no watermark to hear of. Of each signal it hears only the decoder's findings.
    const accumulators: EngineAccumulator[] = [...(quality === undefined ? [] : [{ signal: (s: Signal) => quality.signalFlags(s) }]), ...(options.accumulators ?? [])];
    const live = options.liveOccupancy;
    if (!(live === undefined || typeof live === "boolean" || typeof live === "function")) {
      throw new TypeError(`Analyzer: liveOccupancy must be a boolean or a function, got ${typeof live}`);
    }
    if (live !== undefined && live !== false) {
      const people = options.people === false ? {} : options.people;
      const emit = live === true ? (o: LiveOccupancyInterval) => void this.#liveOccupancy.push(o) : live;
      accumulators.push(new LiveOccupancy({ ...people, timeZone, calibration: options.calibration, classify: options.classify ?? {} }, { emit }));
    }
    if (options.onSlice !== undefined && typeof options.onSlice !== "function") throw new TypeError("Analyzer: onSlice must be a function");
    if (options.onSlice !== undefined && options.proximity === false) throw new TypeError("Analyzer: onSlice needs proximity on");
    const classifier = this.#classifier;
    this.#engine = new EventTimeEngine(
      { ...options.sessions, proximity: options.proximity ?? {} },
      {
        emit: (s) => classifier.push(s),
        closed: (open, shopId, watermark, complete) => {
          quality?.session({ shopId, device: open.device, randomized: open.randomized, sensors: open.sensors });
          classifier.pushClosed(open, shopId, watermark, complete);
        },
        ...(quality === undefined ? {} : { sensorHolesOverMs: quality.options.gapThresholdMs }),
        ...(options.onLate === undefined ? {} : { late: options.onLate }),
        ...(options.onSlice === undefined ? {} : { slice: options.onSlice }),
      },
      accumulators,
    );
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
    this.#engine.push(signal);
  }

  /**
   * Feeds one raw service record, always through the decoder: fields other than the service's six
   * (e.g. the decoded ones `footfall signals` adds to each line) are ignored.
   */
  pushRaw(record: unknown): void {
    if (this.#finished !== undefined) throw new Error("Analyzer: push after finish");
    const signal = this.#decoder.decode(record);
    if (signal !== undefined) this.#engine.push(signal);
  }

  /**
   * The decoder that counts this analyzer's records (`decode` options): a reader that decodes
   * records itself (such as the CLI's NDJSON reader, which reads the common record shape straight
   * from its bytes) decodes with it and feeds {@link Analyzer.pushSignal}, so every record is
   * counted and rejected in one place.
   *
   * @example
   * const analyzer = new Analyzer();
   * analyzer.decoder.decode({ row_key: "x" }); // undefined
   * analyzer.finish().decoder.invalid;          // 1
   */
  get decoder(): SignalDecoder {
    return this.#decoder;
  }

  /** Feeds one decoded signal (skips the raw/decoded check of {@link Analyzer.push}). */
  pushSignal(signal: Signal): void {
    if (this.#finished !== undefined) throw new Error("Analyzer: push after finish");
    this.#engine.push(signal);
  }

  /**
   * Rejects a record found invalid outside the decoder (a line that is not JSON, a `row_key`
   * the source could not page by): counted in `decoder` with the decoder's own rejections and
   * handed to `decode.onInvalid` — one invalid-record channel.
   */
  reject(invalid: InvalidRecord): void {
    this.#decoder.reject(invalid);
  }

  /**
   * Internal (`readInputInThreads`): `listener` hears each classified session as it is emitted —
   * in the order of the result's `sessions`, before the stages after classification (the people
   * estimate) see it — so that other threads can write session lines while this one goes on. Set
   * before any record, once.
   * @internal
   * @example
   * const analyzer = new Analyzer();
   * const heard: ClassifiedSession[] = [];
   * analyzer.tapSessions((s) => heard.push(s));
   * for (const r of records) analyzer.push(r);
   * const { sessions } = analyzer.finish();
   * heard.length === sessions.length; // true
   */
  tapSessions(listener: (s: ClassifiedSession) => void): void {
    if (typeof listener !== "function") throw new TypeError("Analyzer: tapSessions takes a function");
    if (this.#tap !== undefined || this.#engine.stats.signals > 0) throw new Error("Analyzer: tapSessions before any record, once");
    this.#tap = listener;
  }

  /**
   * Internal (`readInputInThreads`): whether anything this analyzer runs is handed signals and so
   * may read their RTS (`onLate`, `accumulators`). The analysis itself never does: the engine's
   * canonical order puts everything it reads before the RTS. When false, decode threads do not
   * send it (`SignalBatchWriter`'s `rts`).
   * @internal
   */
  get readsRts(): boolean {
    const o = this.#options;
    return o.onLate !== undefined || (o.accumulators ?? []).length > 0;
  }

  /**
   * Internal: whether {@link splitByDevice} gives this analyzer's results, and the options its
   * other shares run with (plain data, for their threads); undefined when something sees the
   * engine's signals as one engine calls it: signals handed out ({@link readsRts}: `onLate`,
   * `accumulators`), `onSlice`, `liveOccupancy`.
   * @internal
   */
  get shareOptions(): AnalyzerShardOptions | undefined {
    const o = this.#options;
    if (this.readsRts || o.onSlice !== undefined) return undefined;
    if (o.liveOccupancy !== undefined && o.liveOccupancy !== false) return undefined;
    return {
      ...(o.sessions === undefined ? {} : { sessions: o.sessions }),
      ...(o.proximity === undefined ? {} : { proximity: o.proximity }),
      ...(o.quality === undefined ? {} : { quality: o.quality }),
    };
  }

  /**
   * Internal (`readInputInThreads`): splits the analysis by device into `shares` shares, before
   * any record is pushed. Returns share 0, which this analyzer's data quality counts with; the
   * caller runs the others (`AnalyzerShard`, on threads of their own), pushes every record to
   * every share, and hands each run's sessions of all shares to {@link pushShares}, the last run
   * (their flushes) with the other shares' counters. The results are those of one engine.
   *
   * @internal
   * @example
   * const records = [...world.rawSignals(101)].slice(0, 20_000).map((r) => decodeSignal(r)!);
   * const analyzer = new Analyzer();
   * const share0 = analyzer.splitByDevice(2);
   * const share1 = new AnalyzerShard({}, 1, 2);
   * for (const s of records) { share0.push(s); share1.push(s); }
   * analyzer.pushShares([share0.flush(), share1.flush()], [{ ...share1.stats, quality: share1.qualityPart }]);
   * const one = new Analyzer();
   * for (const s of records) one.pushSignal(s);
   * JSON.stringify(analyzer.finish()) === JSON.stringify(one.finish()); // true
   */
  splitByDevice(shares: number): AnalyzerShard {
    if (this.#split !== undefined || this.#engine.stats.signals > 0) throw new Error("Analyzer: splitByDevice before any record, once");
    if (this.shareOptions === undefined) throw new Error("Analyzer: these options cannot be split by device (see shareOptions)");
    // Share 0 counts every record's time, each share its devices' signals (`AnalyzerShard`); the
    // sessions all shares close, merged, give the devices.
    this.#quality?.countBySession({ signals: false });
    this.#split = new AnalyzerShard(this.#options, 0, shares, this.#quality);
    return this.#split;
  }

  /**
   * Internal (see {@link splitByDevice}): the sessions every share closed over the same records,
   * put in one engine's order and classified; `totals`, with the last run, the counters of the
   * shares other than share 0.
   * @internal
   */
  pushShares(runs: readonly ShardSessions[], totals?: readonly ShareTotals[]): void {
    if (totals !== undefined) this.#shareTotals = totals;
    const quality = this.#quality;
    const classifier = this.#classifier;
    mergeShardSessions(runs, (held) => {
      quality?.session(held);
      classifier.pushHeld(held);
    });
  }

  /**
   * Flushes every stage and returns the result (once; later calls return the same result).
   *
   * @param decoded the counters of the decoder that turned the records into signals, when that
   *   happened elsewhere (e.g. in a worker thread, feeding {@link Analyzer.pushSignal}); they
   *   are added to this analyzer's own.
   */
  finish(decoded?: SignalDecoderStats): AnalyzeResult {
    if (this.#finished !== undefined) return this.#finished;
    this.#engine.flush();
    this.#classifier.flush();
    this.#stages.flush();
    const options = this.#options;
    const peopleDays = options.poolDays === true && options.people !== false ? poolPeople(this.#peopleDays, options.people ?? {}) : this.#peopleDays;
    const peopleByDay = new Map<string, PeopleEstimate>();
    for (const p of peopleDays) peopleByDay.set(`${p.shopId} ${p.start}`, p);
    const dwellByDay = new Map<string, WindowDwell>();
    for (const d of this.#dayDwell) dwellByDay.set(`${d.shopId} ${d.start}`, d);
    const days: ShopDaySummary[] = this.#dayCounts.map((c) => {
      const dwell = dwellByDay.get(`${c.shopId} ${c.start}`);
      return {
        ...c,
        dwell:
          dwell === undefined
            ? emptyDwell()
            : { count: dwell.count, meanMs: dwell.meanMs, medianMs: dwell.medianMs, p90Ms: dwell.p90Ms, buckets: dwell.buckets },
        visitorRssi: this.#dayRssi.get(`${c.shopId} ${c.label}`) ?? Number.NaN,
        people: peopleByDay.get(`${c.shopId} ${c.start}`),
      };
    });
    let { late, maxLateMs, ahead } = this.#split?.stats ?? this.#engine.stats;
    for (const share of this.#shareTotals) {
      late += share.late;
      ahead += share.ahead;
      if (share.maxLateMs > maxLateMs) maxLateMs = share.maxLateMs;
      if (share.quality !== undefined) this.#quality?.absorb(share.quality);
    }
    const decoder = decoded === undefined ? this.#decoder.stats : addDecoderStats(this.#decoder.stats, decoded);
    this.#finished = {
      sessions: this.#sessions,
      days,
      hours: this.#hourCounts,
      people: peopleDays,
      occupancy: peopleDays.flatMap((p) => p.occupancy),
      liveOccupancy: this.#liveOccupancy,
      quality: this.#quality?.report({ ...decoder, late, maxLateMs, ahead }),
      decoder,
      late,
      maxLateMs,
      ahead,
      lateSessions: this.#lateSessions,
    };
    return this.#finished;
  }
}

/**
 * What a share of a device split counted besides its sessions (`AnalyzerShard`'s `stats` and
 * `qualityPart`), for {@link Analyzer.finish}. Internal.
 *
 * @internal
 * @example
 * const totals: ShareTotals = { late: 0, maxLateMs: 0, ahead: 0, quality: undefined };
 */
export interface ShareTotals {
  readonly late: number;
  readonly maxLateMs: number;
  readonly ahead: number;
  readonly quality: DataQualityPart | undefined;
}

/**
 * `options` for analysing the same records again with the sensors' clocks aligned: the decoder's
 * `clockOffsetsMs` set to `offsets` (from `misalignedClocks`), and the allowed lateness raised by
 * how far apart the clocks were (the largest offset − the smallest, a sensor without one at 0) —
 * records arrive in the order their sensor stamped them, so a clock that runs ahead delivers its
 * records that much later than their aligned time, and one that runs behind moves its records
 * that much ahead of the others read beside them.
 *
 * @example
 * const options: AnalyzeOptions = { timeZone: "Asia/Seoul" };
 * const first = await analyze(records, options);
 * const offsets = misalignedClocks(first.quality!);
 * const aligned = Object.keys(offsets).length > 0 ? await analyze(records, withAlignedClocks(options, offsets)) : first;
 */
export function withAlignedClocks(options: AnalyzeOptions, offsets: Readonly<Record<string, number>>): AnalyzeOptions {
  const spread = Math.max(0, ...Object.values(offsets)) - Math.min(0, ...Object.values(offsets));
  const lateness = options.sessions?.allowedLatenessMs ?? defaultEventTimeEngine.allowedLatenessMs;
  return {
    ...options,
    decode: { ...options.decode, clockOffsetsMs: offsets },
    sessions: { ...options.sessions, allowedLatenessMs: lateness + spread },
  };
}

/**
 * Batch analysis: raw service records (e.g. parsed NDJSON lines) or decoded `Signal`s, from an
 * array, iterable or async iterable → classified sessions with proximity, per shop-day summaries
 * (visitors, visits, passers-by, unique devices, capture rate, new/repeat, dwell statistics and
 * buckets — MAC-level — and `people`, the estimate of people with its interval), occupancy per
 * interval, hourly counts and a data-quality report.
 *
 * It drives exactly the kernels the RxJS operators wrap, wired the same way, so a batch run and a
 * streaming run over the same records give identical results, proximity included (a property test
 * checks it). Records may arrive out of order within `sessions.allowedLatenessMs` without changing
 * anything.
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

/**
 * The sum of two decoders' counters (e.g. of decode threads that each read part of an input).
 *
 * @example
 * addDecoderStats(new SignalDecoder().stats, new SignalDecoder().stats).decoded; // 0
 */
export function addDecoderStats(a: SignalDecoderStats, b: SignalDecoderStats): SignalDecoderStats {
  const invalidByReason = { ...a.invalidByReason };
  for (const reason of Object.keys(b.invalidByReason) as InvalidReason[]) invalidByReason[reason] = (invalidByReason[reason] ?? 0) + b.invalidByReason[reason];
  return {
    decoded: a.decoded + b.decoded,
    invalid: a.invalid + b.invalid,
    invalidByReason,
    localFlagMismatch: a.localFlagMismatch + b.localFlagMismatch,
    tsRtsMismatch: a.tsRtsMismatch + b.tsRtsMismatch,
    randomized: a.randomized + b.randomized,
    vendorless: a.vendorless + b.vendorless,
  };
}
