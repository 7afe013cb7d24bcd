import { analysisRecords, recordsAnalysis } from "../analysis/analysisRecords.ts";
import { rawDevice, type AnalysisRecord, type DeviceId } from "../analysis/AnalysisRecord.ts";
import { dateOfEpochDay } from "../time/calendarDate.ts";
import { localDayOf } from "../time/timeZone.ts";
import { Analyzer, type AnalyzeOptions } from "../analysis/analyze.ts";
import { MAX_READINGS, secondReading } from "../analysis/secondReading.ts";
import { defaultSignalDecoderOptions, SignalDecoder, type SignalDecoderOptions } from "../codec/decodeSignal.ts";
import type { RawSignal } from "../contract/rawSignal.ts";
import type { Client } from "../client/Client.ts";
import type { VisitHistoryStore } from "../kernels/visits/MemoryVisitHistory.ts";
import { signals } from "../source/signals.ts";
import type { FleetAnalyzeOptions } from "./fleetJobs.ts";
import type { RtsCodec } from "../codec/rts.ts";
import type { LiveOccupancyInterval } from "../kernels/people/LiveOccupancy.ts";
import type { Calibration } from "../kernels/calibration/Calibration.ts";
import { signalFeed } from "../file/ShareThreads.ts";

/** The furthest a day's records are read past its range, ms: a day (as `sessions.maxLeapMs`). */
const MAX_MARGIN_MS = 86_400_000;

/**
 * Options of {@link analyzeShopDay}.
 *
 * @example
 * const o: AnalyzeShopDayOptions = { shopId: 101, sinceMs: 1795186800000, untilMs: 1795273200000, timeZone: "Asia/Seoul" };
 */
export interface AnalyzeShopDayOptions {
  readonly shopId: number;
  /** Start, epoch ms (inclusive). */
  readonly sinceMs: number;
  /** End, epoch ms (exclusive). */
  readonly untilMs: number;
  /** IANA zone of the shop's local days. */
  readonly timeZone: string;
  /** Analysis settings. @default {} (the engine's defaults, as `footfall analyze`) */
  readonly analyze?: FleetAnalyzeOptions;
  /** `"backfill"` reads what is there; `"tail"` waits for the service until records pass `untilMs`. @default "backfill" */
  readonly mode?: "backfill" | "tail";
  /** Tail: wait between polls once caught up, ms. @default 5000 */
  readonly pollIntervalMs?: number;
  /** Aborting stops the read; the promise rejects with the reason. */
  readonly signal?: AbortSignal;
  /**
   * How devices are written in the stored lines and visits: `footfall worker` passes a keyed
   * pseudonym so no MAC reaches the database. @default rawDevice (the MAC: the caller's database)
   */
  readonly device?: DeviceId;
  /**
   * Whether `device` links a device across days. With daily pseudonyms it does not: the summary
   * line's new/repeat visitors are written as `null` (unavailable, not zero), and
   * `readFleetResults` keeps them so. @default true
   */
  readonly linkedAcrossDays?: boolean;
  /**
   * How the service turns a datetime into an RTS (the interface does not say): a property of the
   * service, so `footfall worker --rts-unit` sets it for every job. @default millisRts
   */
  readonly rtsCodec?: RtsCodec;
  /**
   * Receives occupancy as the day goes on (`LiveOccupancy`: each interval once the records pass
   * its end, with the day so far) while the range is read: a tail stores it for the day in
   * progress. Not called again when misaligned clocks make the range be read a second time (the
   * day is over then, and its final figures follow). @default undefined (not estimated)
   */
  readonly onLive?: (interval: LiveOccupancyInterval) => void;
  /**
   * The shop's people calibration (`shopCalibration`: a worker reads the stored one when the job
   * starts): the people estimates, occupancy and live occupancy use it and name it in their
   * lines (`calibration`); without one they use the prior from real phones and say `null`. A
   * calibration of another shop is a RangeError (it would silently not apply).
   * @default undefined (the prior)
   */
  readonly calibration?: Calibration;
  /**
   * Shares of the devices the analysis is split into, each on a thread of its own beside this one
   * (`footfall worker --shares`; `analyze --input --shares` splits a file the same way): results
   * byte-identical to one engine's. A tail with live occupancy is not split (its estimate reads
   * one engine's open sessions as the day goes on). @default 1
   */
  readonly shares?: number;
}

/**
 * What one shop-day's analysis gives the fleet to store: the NDJSON lines `footfall analyze
 * --format ndjson` prints for that range (from the same `Analyzer` and `analysisRecords`), the
 * universal-MAC visitors the visit counter recorded (for new vs repeat across days), and counts.
 *
 * @example
 * const { records, visits } = await analyzeShopDay(client, options);
 */
export interface ShopDayAnalysis {
  readonly records: readonly AnalysisRecord[];
  /** `[device, first visit start (epoch ms)]` of each universal-MAC visitor. */
  readonly visits: readonly (readonly [string, number])[];
  /** Records read from the service. */
  readonly signals: number;
  /** Records rejected (undecodable, unusable row_key, later than the allowed lateness, stamped by a clock that jumped). */
  readonly rejected: number;
  /** Of `signals`, those whose time is of another day: counted, not analysed. */
  readonly outside: number;
  /** Records of the day read past its range (stored after its end, or before its start): analysed, counted by the day whose range holds them. */
  readonly fromMargin: number;
}

/**
 * Reads one shop's records in [sinceMs, untilMs) from the service and analyses them exactly as
 * `footfall analyze --shop … --since … --until … --format ndjson` does: the same source, the same
 * `Analyzer`, the same line formatting; when the sensors' clocks disagree (`misalignedClocks`) it
 * reads the range again and analyses it with them aligned, as `analyze --input` does.
 *
 * A day is its records' **time**, read by RTS: where the RTS is the sensor's stamp (the spec's
 * "collected since") the two agree. Where it is when the service received a record, or a sensor's
 * clock runs hours off, the range holds records of another day and misses some of its own. So
 * every record of the range is counted (by the decoder: the day whose range holds a record's RTS
 * counts it, valid or not), only those whose time is of the day are analysed (`outside`: the
 * rest), and when records were stored after their time, the next range, as far as they came
 * late (up to a day), gives the day's records received after midnight (`fromMargin`, decoded
 * apart: counted by the day that holds them); when records were stored before their (aligned)
 * time — a sensor clock behind the one alignment keeps — the next read first reads the
 * previous range as far back as they came early. The visit history is a recorder that has seen
 * nothing, so the stored lines do not depend on other days; new vs repeat is derived later from
 * all stored days' visits.
 *
 * @example
 * const day = await analyzeShopDay(client, { shopId: 101, sinceMs, untilMs, timeZone: "Asia/Seoul" });
 * console.log(day.records.filter((r) => r.type === "summary"));
 */
export async function analyzeShopDay(client: Client, options: AnalyzeShopDayOptions): Promise<ShopDayAnalysis> {
  const { shopId, sinceMs, untilMs, timeZone } = options;
  if (!(untilMs > sinceMs)) throw new RangeError(`analyzeShopDay: untilMs must be after sinceMs`);
  const calibration = options.calibration;
  if (calibration !== undefined && calibration.shopId !== shopId) {
    throw new RangeError(`analyzeShopDay: the calibration ${calibration.id} is of shop ${calibration.shopId}, not ${shopId}`);
  }
  const analyze = options.analyze ?? {};
  const shares = options.shares ?? 1;
  const ofDay = (ms: number): boolean => ms >= sinceMs && ms < untilMs;
  // One read and analysis of the range; `settings` gives those of a read after it (secondReading).
  const readAndAnalyze = async (
    mode: "backfill" | "tail",
    settings: ((first: AnalyzeOptions) => AnalyzeOptions) | undefined,
    onLive?: (interval: LiveOccupancyInterval) => void,
    beforeMs = 0,
  ) => {
    const visits: [string, number][] = [];
    const history: VisitHistoryStore = {
      lastVisit: () => undefined,
      recordVisit: (_shop, device, startMs) => void visits.push([device, startMs]),
    };
    const base = {
      ...analyze,
      timeZone,
      history,
      ...recordsAnalysis,
      ...(options.rtsCodec === undefined ? {} : { decode: { rtsCodec: options.rtsCodec } }),
      ...(onLive === undefined ? {} : { liveOccupancy: onLive }),
      // In the base options, so every reading of the range (secondReading keeps the rest) uses it.
      ...(calibration === undefined ? {} : { calibration: [calibration] }),
    };
    const used = settings === undefined ? base : settings(base);
    const analyzer = new Analyzer(used);
    const decoder = analyzer.decoder;
    // Split by device over `shares` threads where the options allow (not a tail's live occupancy).
    const feed = signalFeed(analyzer, shares);
    const codec = used.decode?.rtsCodec ?? defaultSignalDecoderOptions.rtsCodec;
    const read = (since: number, until: number, next: (record: RawSignal) => void, onInvalid: () => void, as = mode): Promise<void> =>
      new Promise<void>((resolve, reject) => {
        signals(client, {
          shopId,
          since,
          until,
          mode: as,
          ...(options.rtsCodec === undefined ? {} : { rtsCodec: options.rtsCodec }),
          ...(options.pollIntervalMs === undefined ? {} : { pollIntervalMs: options.pollIntervalMs }),
          ...(options.signal === undefined ? {} : { signal: options.signal }),
          onInvalid,
        }).subscribe({ next, error: reject, complete: resolve });
      });
    // The day's records stored before their time (a sensor clock behind the others, aligned): the
    // previous range, read first (they are the day's earliest), decoded apart like the margin after.
    const apart = new SignalDecoder(used.decode ?? {});
    let fromMargin = 0;
    const fromApart = (record: RawSignal): void => {
      const s = apart.decode(record);
      if (s === undefined || !ofDay(s.time)) return;
      feed.push(s);
      fromMargin++;
    };
    try {
      if (beforeMs > 0) await read(sinceMs - beforeMs, sinceMs, fromApart, () => {});
      // The day's records by RTS, every one counted by the analyzer's decoder (the day whose range
      // holds a record's RTS counts it, valid or not); only those whose time is of the day analysed.
      let count = 0;
      let unusable = 0;
      let outside = 0;
      let receivedAfter = 0;
      // Per sensor, the earliest a record was stored relative to its time (RTS − time, ms).
      const storedBefore = new Map<string, number>();
      await read(
        sinceMs,
        untilMs,
        (record) => {
          count++;
          const s = decoder.decode(record);
          if (s === undefined) return;
          // How long after its (aligned) time the service stored it: NaN, skipped, for an RTS its codec cannot read.
          const after = codec.decode(s.rts) - s.time;
          if (after > receivedAfter) receivedAfter = after;
          const earliest = storedBefore.get(s.sensor);
          if (earliest === undefined ? after === after : after < earliest) storedBefore.set(s.sensor, after);
          if (ofDay(s.time)) feed.push(s);
          else outside++;
        },
        () => void unusable++,
      );
      // Records stored after their time (RTS = when received: the last upload before midnight is
      // in the next day's range): the next range, as far as they came late, gives those of the day,
      // decoded apart, since the day whose range holds them counts them.
      const marginMs = Math.min(Math.ceil(receivedAfter), MAX_MARGIN_MS);
      // As the job reads (a tail waits for the service to pass the margin too: a second read's
      // margin, found only once clocks are aligned, may reach past what it had at the first).
      if (marginMs > 0) await read(untilMs, untilMs + marginMs + 1, fromApart, () => {}, options.mode ?? "backfill");
      // The shares' last sessions, merged; a share thread's failure rejects here.
      await feed.finish();
      return { result: analyzer.finish(), visits, count, unusable, outside, fromMargin, storedBefore, used };
    } finally {
      await feed.close();
    }
  };
  let run = await readAndAnalyze(options.mode ?? "backfill", undefined, options.onLive);
  // What only the whole range shows — sensor clocks that disagree (they split the bursts two
  // sensors share: the people estimate about doubles at a few seconds) and records later than the
  // allowed lateness (a sensor uploading in batches, or records of the day read past its range)
  // — is put right by reading the range again, as `footfall analyze --input` does. Everything up
  // to untilMs is at the service by now, so every later read is a backfill. A lateness the caller
  // set is the caller's (not raised).
  // Clocks are looked at once a read kept every record, so both take a read each (MAX_READINGS).
  let settings: ((first: AnalyzeOptions) => AnalyzeOptions) | undefined;
  for (let reads = 1; reads < MAX_READINGS; reads++) {
    const again = secondReading(run.result, run.used, { keepLate: analyze.sessions?.allowedLatenessMs === undefined });
    // How far before their time the day's records may be stored once clocks are aligned: a record
    // stamped by a clock `offset` ahead has its time moved back by it, so it was stored that much
    // later. A whole millisecond at least (a µs RTS beside a ms time differs by a fraction); and
    // within the decoder's RTS/ts tolerance it is read back only by a read made anyway: an RTS in
    // whole seconds is up to a second before its time on every record, and reading every day
    // twice for that would double the service's load.
    let before = 0;
    for (const [sensor, earliest] of run.storedBefore) before = Math.max(before, -(earliest + (again?.clockOffsetsMs?.[sensor] ?? 0)));
    const beforeMs = before >= 1 ? Math.min(Math.ceil(before), MAX_MARGIN_MS) : 0;
    const decode: SignalDecoderOptions = run.used.decode ?? {};
    const tolerance = decode.tsToleranceMs ?? defaultSignalDecoderOptions.tsToleranceMs;
    if (again === undefined && !(before > tolerance)) break;
    // The changes so far, made afresh on the read's own base options.
    const previous = settings;
    if (again !== undefined) settings = previous === undefined ? again.apply : (first) => again.apply(previous(first));
    run = await readAndAnalyze("backfill", settings, undefined, beforeMs);
    if (again === undefined) break;
  }
  const { result, visits, count, unusable, outside, fromMargin } = run;
  const device = options.device ?? rawDevice;
  // A local day has a few hundred visitors: the date of each is cheap, and with daily rotation it picks the day's key.
  const written = device === rawDevice ? visits : visits.map(([mac, ms]): [string, number] => [device(mac, dateOfEpochDay(localDayOf(ms, timeZone))), ms]);
  const linkedAcrossDays = options.linkedAcrossDays ?? true;
  return { records: [...analysisRecords(result, { device, linkedAcrossDays })], visits: written, signals: count, rejected: unusable + result.decoder.invalid + result.late + result.ahead, outside, fromMargin };
}
