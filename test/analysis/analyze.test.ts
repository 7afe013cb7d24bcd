import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { concatMap, connect, from, lastValueFrom, map, merge, toArray, type Observable } from "rxjs";
import { analyze, Analyzer, type AnalyzeResult } from "../../src/analysis/analyze.ts";
import { SignalDecoder, decodeSignal, type InvalidRecord } from "../../src/codec/decodeSignal.ts";
import { decodeSignals } from "../../src/operators/decodeSignals.ts";
import { sessionize } from "../../src/operators/sessionize.ts";
import { classifyVisits } from "../../src/operators/classifyVisits.ts";
import { countVisits } from "../../src/operators/countVisits.ts";
import { measureDwell } from "../../src/operators/measureDwell.ts";
import { assessQuality } from "../../src/operators/assessQuality.ts";
import { estimateOccupancy } from "../../src/operators/estimateOccupancy.ts";
import { estimatePeople } from "../../src/operators/estimatePeople.ts";
import type { OccupancyInterval, PeopleEstimate } from "../../src/kernels/people/PeopleEstimate.ts";
import type { RawSignal } from "../../src/contract/rawSignal.ts";
import type { Signal } from "../../src/codec/Signal.ts";
import { DataQuality, type DataQualityReport } from "../../src/kernels/quality/dataQuality.ts";
import { EventTimeEngine } from "../../src/kernels/sessions/EventTimeEngine.ts";
import { createWorld } from "../../src/sim/createWorld.ts";
import type { WindowDwell } from "../../src/kernels/visits/DwellMeter.ts";
import type { EngineAccumulator } from "../../src/kernels/sessions/EventTimeEngine.ts";
import type { ClassifiedSession } from "../../src/kernels/visits/VisitClassifier.ts";
import type { VisitCounts } from "../../src/kernels/visits/VisitCounter.ts";

const MIN = 60_000;
const H = 3_600_000;
const D0 = Date.UTC(2026, 10, 16, 1); // 10:00 in Seoul
const TZ = "Asia/Seoul";

const raw = (ts: number, device: string, rssi: number, sensor: number, shopId = 101): RawSignal => ({
  row_key: `${shopId}:${ts.toString(16).padStart(16, "0")}`,
  device_id: device,
  rssi,
  square_mac: `b8:27:eb:00:00:0${sensor}`,
  ts,
  local: device.startsWith("da"),
});

// Devices with a few bursts of presence over two days at two shops: visitors (strong), people
// outside (weak), staff (long); heard by up to three sensors, so proximity has choices to make.
const arbRecords = fc
  .array(
    fc.record({
      shop: fc.constantFrom(101, 102),
      device: fc.constantFrom("f0:18:98:00:00:01", "f0:18:98:00:00:02", "da:a1:19:00:00:03", "f0:18:98:00:00:04", "da:a1:19:00:00:05"),
      day: fc.integer({ min: 0, max: 1 }),
      startMin: fc.integer({ min: 0, max: 11 * 60 }),
      minutes: fc.integer({ min: 0, max: 9 * 60 }),
      everyS: fc.integer({ min: 10, max: 200 }),
      rssi: fc.integer({ min: -92, max: -40 }),
    }),
    { minLength: 1, maxLength: 10 },
  )
  .map((visits) => {
    const records: RawSignal[] = [];
    for (const v of visits) {
      const start = D0 + v.day * 24 * H + v.startMin * MIN;
      const n = Math.min(300, Math.floor((v.minutes * 60) / v.everyS) + 1);
      for (let i = 0; i < n; i++) {
        const ts = start + i * v.everyS * 1000;
        records.push(raw(ts, v.device, v.rssi + ((i * 7) % 9) - 4, i % 3, v.shop));
      }
    }
    return records.sort((a, b) => a.ts - b.ts);
  });

/** Arrival order: each record delayed by at most `lateness` (stable for equal arrivals). */
function arrive(records: readonly RawSignal[], delays: readonly number[]): RawSignal[] {
  return records
    .map((r, i) => ({ r, i, arrival: r.ts + delays[i % delays.length]! }))
    .sort((a, b) => a.arrival - b.arrival || a.i - b.i)
    .map((x) => x.r);
}

/** Splits records into chunks at the given cut points (as pages would deliver them). */
function chunk(records: readonly RawSignal[], cuts: readonly number[]): RawSignal[][] {
  const at = [...new Set(cuts.map((c) => c % (records.length + 1)))].sort((a, b) => a - b);
  const out: RawSignal[][] = [];
  let from = 0;
  for (const c of [...at, records.length]) {
    out.push(records.slice(from, c));
    from = c;
  }
  return out;
}

async function* asyncChunks<T>(chunks: readonly T[][]): AsyncGenerator<T[]> {
  for (const c of chunks) {
    await Promise.resolve();
    yield c;
  }
}

type Part =
  | { sessions: ClassifiedSession[] }
  | { days: VisitCounts[] }
  | { hours: VisitCounts[] }
  | { dwell: WindowDwell[] }
  | { quality: DataQualityReport[] }
  | { people: PeopleEstimate[] }
  | { occupancy: OccupancyInterval[] };

/** The operator chain, one subscription, chunks arriving asynchronously. */
async function stream(chunks: readonly RawSignal[][], allowedLatenessMs: number) {
  const decoder = new SignalDecoder();
  const source: Observable<unknown> = from(asyncChunks(chunks)).pipe(concatMap((c) => from(c)));
  const parts = await lastValueFrom(
    source.pipe(
      decodeSignals({ decoder }),
      connect((signals$) =>
        merge(
          signals$.pipe(
            assessQuality({ allowedLatenessMs, counts: () => decoder.stats }),
            toArray(),
            map((quality): Part => ({ quality })),
          ),
          signals$.pipe(
            sessionize({ allowedLatenessMs }),
            classifyVisits({ timeZone: TZ }),
            connect((classified$) =>
              merge(
                classified$.pipe(toArray(), map((sessions): Part => ({ sessions }))),
                classified$.pipe(countVisits({ timeZone: TZ }), toArray(), map((days): Part => ({ days }))),
                classified$.pipe(countVisits({ window: "hour", timeZone: TZ }), toArray(), map((hours): Part => ({ hours }))),
                classified$.pipe(measureDwell({ timeZone: TZ }), toArray(), map((dwell): Part => ({ dwell }))),
                classified$.pipe(estimatePeople({ timeZone: TZ }), toArray(), map((people): Part => ({ people }))),
                classified$.pipe(estimateOccupancy({ timeZone: TZ }), toArray(), map((occupancy): Part => ({ occupancy }))),
              ),
            ),
          ),
        ),
      ),
      toArray(),
    ),
  );
  const all = Object.assign({}, ...parts) as {
    sessions: ClassifiedSession[];
    days: VisitCounts[];
    hours: VisitCounts[];
    dwell: WindowDwell[];
    quality: DataQualityReport[];
    people: PeopleEstimate[];
    occupancy: OccupancyInterval[];
  };
  return all;
}

/** The batch result's day summaries as the stream gives them: counts, dwell, threshold. */
function expectSameAsStream(batch: AnalyzeResult, live: Awaited<ReturnType<typeof stream>>) {
  // Sessions WITH their proximity, progress fields and all.
  expect(batch.sessions).toEqual(live.sessions);
  expect(batch.sessions.every((s) => s.proximity !== undefined && s.proximity.zoneMs.immediate + s.proximity.zoneMs.near + s.proximity.zoneMs.far === s.dwellMs)).toBe(true);
  expect(batch.days.map(({ dwell: _d, visitorRssi: _v, people: _p, ...counts }) => counts)).toEqual(live.days);
  // People, not MACs: the same estimates, days and intervals, as the operators give.
  expect(batch.people).toEqual(live.people);
  expect(batch.days.map((d) => d.people)).toEqual(live.people);
  expect(batch.occupancy).toEqual(live.occupancy);
  expect(batch.days.map((d) => d.dwell)).toEqual(live.dwell.map(({ count, meanMs, medianMs, p90Ms, buckets }) => ({ count, meanMs, medianMs, p90Ms, buckets })));
  // The day's threshold is the one its (on-time) sessions were classified with.
  for (const d of batch.days) {
    const own = live.sessions.filter((s) => s.shopId === d.shopId && s.date === d.label && !s.late);
    if (own.length > 0) expect(d.visitorRssi).toBe(own[0]!.visitorRssi);
  }
  expect(batch.hours).toEqual(live.hours);
  expect(live.quality).toHaveLength(1);
  expect(batch.quality).toEqual(live.quality[0]);
}

/** Stable: each shop's items in their own order, shops in id order. */
const byShop = <T extends { shopId: number }>(items: readonly T[]): T[] => [...items].sort((a, b) => a.shopId - b.shopId);

// Progress fields (watermark, complete) describe arrival; everything else must not depend on it.
const content = (s: ClassifiedSession) => ({ ...s, watermark: 0, complete: 0 });

describe("analyze", () => {
  it("gives exactly what the streaming operator chain gives, proximity included, for any chunking and arrival order within the lateness (property)", async () => {
    const lateness = 2 * MIN;
    await fc.assert(
      fc.asyncProperty(
        arbRecords,
        fc.array(fc.integer({ min: 0, max: lateness }), { minLength: 40, maxLength: 40 }),
        fc.array(fc.nat(), { maxLength: 8 }),
        async (records, delays, cuts) => {
          const arrival = arrive(records, delays);
          const chunks = chunk(arrival, cuts);
          const batch = await analyze(asyncChunksFlat(chunks), { timeZone: TZ, sessions: { allowedLatenessMs: lateness } });
          expect(batch.late).toBe(0);
          const live = await stream(chunks, lateness);
          expectSameAsStream(batch, live);
          // And the same content as in event-time order. Shops interleave in output as their
          // watermarks allow (arrival decides that); each shop's own sequence must not change.
          const ordered = await analyze(records, { timeZone: TZ, sessions: { allowedLatenessMs: lateness } });
          expect(byShop(batch.sessions).map(content)).toEqual(byShop(ordered.sessions).map(content));
          expect(byShop(batch.days)).toEqual(byShop(ordered.days));
          expect(byShop(batch.hours)).toEqual(byShop(ordered.hours));
          expect(batch.quality).toEqual(ordered.quality);
        },
      ),
      { numRuns: 25 },
    );
  });

  it("gives each shop of a merged input exactly what it gives that shop alone (property)", async () => {
    await fc.assert(
      fc.asyncProperty(arbRecords, async (records) => {
        const options = { timeZone: TZ, quality: false } as const;
        const merged = await analyze(records, options);
        for (const shopId of [101, 102]) {
          const alone = await analyze(
            records.filter((r) => r.row_key.startsWith(`${shopId}:`)),
            options,
          );
          expect(merged.sessions.filter((s) => s.shopId === shopId)).toEqual(alone.sessions);
          expect(merged.days.filter((d) => d.shopId === shopId)).toEqual(alone.days);
          expect(merged.hours.filter((d) => d.shopId === shopId)).toEqual(alone.hours);
        }
      }),
      { numRuns: 15 },
    );
  });

  it("gives every session its proximity, also one followed by a quiet spell", async () => {
    // The next record comes 20 minutes later: one watermark step applies, closes and emits the first session.
    const records = [raw(D0, "f0:18:98:00:00:01", -44, 0), raw(D0 + 20 * MIN, "f0:18:98:00:00:02", -60, 1)];
    const result = await analyze(records, { timeZone: TZ, quality: false });
    expect(result.sessions.map((s) => [s.device, s.proximity?.closestSensor, s.proximity?.slices])).toEqual([
      ["f0:18:98:00:00:01", "b8:27:eb:00:00:00", 1],
      ["f0:18:98:00:00:02", "b8:27:eb:00:00:01", 1],
    ]);
    const off = await analyze(records, { timeZone: TZ, quality: false, proximity: false });
    expect(off.sessions.map((s) => s.proximity)).toEqual([undefined, undefined]);
    expect(off.sessions).toEqual(result.sessions.map((s) => ({ ...s, proximity: undefined })));
    expect(off.days).toEqual(result.days);
  });


  it("keeps the evening's last sessions in their day when a quiet night moves the watermark past maxDayWaitMs, whatever the lateness", async () => {
    // 22:00–22:50 and 22:40–22:58 in Seoul, then nothing until 09:00: one watermark step of ten
    // hours closes both evening sessions, one after the other, and passes the 6-hour wait.
    const every = (device: string, from: number, to: number) => {
      const out: RawSignal[] = [];
      for (let t = from; t <= to; t += 30_000) out.push(raw(t, device, -50, 1));
      return out;
    };
    const records = [...every("f0:18:98:00:00:01", D0 + 12 * H, D0 + 12 * H + 50 * MIN), ...every("f0:18:98:00:00:02", D0 + 12 * H + 40 * MIN, D0 + 12 * H + 58 * MIN)]
      .sort((a, b) => a.ts - b.ts)
      .concat(every("f0:18:98:00:00:03", D0 + 23 * H, D0 + 23 * H + 10 * MIN));
    const runs = await Promise.all([60_000, 300_000].map((allowedLatenessMs) => analyze(records, { timeZone: TZ, quality: false, sessions: { allowedLatenessMs } })));
    for (const result of runs) {
      expect(result.sessions.map((s) => [s.device, s.date, s.late])).toEqual([
        ["f0:18:98:00:00:01", "2026-11-16", false],
        ["f0:18:98:00:00:02", "2026-11-16", false],
        ["f0:18:98:00:00:03", "2026-11-17", false],
      ]);
      expect(result.days.map((d) => [d.label, d.visitors])).toEqual([
        ["2026-11-16", 2],
        ["2026-11-17", 1],
      ]);
    }
  });
  it("uses the proximity options given (calibration, zones, slices)", async () => {
    const records = [raw(D0, "f0:18:98:00:00:01", -60, 0), raw(D0 + 25_000, "f0:18:98:00:00:01", -60, 0)];
    const coarse = await analyze(records, { timeZone: TZ, quality: false, proximity: { sliceMs: 30_000 } });
    const fine = await analyze(records, { timeZone: TZ, quality: false, proximity: { sliceMs: 5_000, zones: { immediateM: 50, nearM: 60 } } });
    expect([coarse.sessions[0]!.proximity!.slices, fine.sessions[0]!.proximity!.slices]).toEqual([1, 2]);
    expect(fine.sessions[0]!.proximity!.closestZone).toBe("immediate");
    expect(coarse.sessions[0]!.proximity!.closestZone).not.toBe("immediate");
    // A sensor whose phones are louder at 1 m puts the same RSSI farther away.
    const loud = await analyze(records, { timeZone: TZ, quality: false, proximity: { calibration: { sensors: { "b8:27:eb:00:00:00": { rssiAt1m: -30 } } } } });
    expect(loud.sessions[0]!.proximity!.closestDistanceM).toBeGreaterThan(coarse.sessions[0]!.proximity!.closestDistanceM * 2);
    await expect(analyze(records, { proximity: { sliceMs: 0 } })).rejects.toThrow(RangeError);
  });

  it("plugs accumulators into the engine: they see every applied signal and the watermarks", async () => {
    const records = [raw(D0, "f0:18:98:00:00:01", -50, 1), raw(D0 + 4 * MIN, "f0:18:98:00:00:01", -52, 1), raw(D0 + MIN, "f0:18:98:00:00:02", -70, 0, 102)];
    const seen: number[] = [];
    const advances: [number, number][] = [];
    const sessions: string[] = [];
    const acc: EngineAccumulator = {
      signal: (s) => void seen.push(s.time),
      session: (s) => void sessions.push(s.device),
      advance: (shopId, w) => void advances.push([shopId, w]),
    };
    const result = await analyze(records, { timeZone: TZ, accumulators: [acc] });
    expect(seen.sort((a, b) => a - b)).toEqual([D0, D0 + MIN, D0 + 4 * MIN]);
    expect(sessions.sort()).toEqual(result.sessions.map((s) => s.device).sort());
    expect(advances.filter(([, w]) => w === Infinity).map(([shopId]) => shopId).sort()).toEqual([101, 102]);
    // The quality report counts the applied signals too, beside the accumulators given.
    expect(result.quality?.signals).toBe(3);
  });

  it("tells a tap each classified session as it is emitted, in the result's order", () => {
    const world = createWorld({ seed: 8, shops: 1, days: 2, rotation: "realistic", visitorsPerDay: 60, passersByPerDay: 200, openingHours: [10, 16] });
    const analyzer = new Analyzer({ timeZone: TZ });
    const heard: ClassifiedSession[] = [];
    analyzer.tapSessions((s) => void heard.push(s));
    for (const r of world.rawSignals(101)) analyzer.push(r);
    const result = analyzer.finish();
    expect(heard.length).toBeGreaterThan(100);
    expect(heard).toEqual(result.sessions);
    expect(heard.every((s, i) => s === result.sessions[i])).toBe(true);
    // Set once, before any record.
    expect(() => analyzer.tapSessions(() => {})).toThrow(/before any record, once/);
    const fresh = new Analyzer();
    fresh.tapSessions(() => {});
    expect(() => fresh.tapSessions(() => {})).toThrow(/once/);
    expect(() => new Analyzer().tapSessions(undefined as never)).toThrow(TypeError);
  });

  it("gives data quality every closed session as it is handed on: the clock pairs an engine accumulator counts from built sessions", () => {
    // Sensor clocks up to half an hour apart split one burst of a rotated MAC into two sessions,
    // which data quality pairs across sessions it keeps meanwhile (the engine reuses its own
    // records of the first session's sensors long before the second closes).
    const world = createWorld({ seed: 7, shops: 1, days: 1, rotation: "realistic", phones: "real", visitorsPerDay: 150, passersByPerDay: 600, openingHours: [10, 16], sensorClockSkewMs: 1_800_000 });
    const signals = [...world.rawSignals(101)].map((r) => decodeSignal(r) as Signal).sort((a, b) => a.time - b.time);
    const analyzer = new Analyzer({ timeZone: TZ });
    for (const s of signals) analyzer.push(s);
    const handedOn = analyzer.finish().quality!;
    const quality = new DataQuality();
    const engine = new EventTimeEngine({}, { emit: () => {} }, [quality]);
    for (const s of signals) engine.push(s);
    engine.flush();
    const built = quality.report();
    const clocks = (r: DataQualityReport) => r.sensors.map((s) => [s.sensor, s.clockPairs, s.clockOffsetMs]);
    expect(clocks(handedOn)).toEqual(clocks(built));
    // The sensors are shifted by up to 30 min: an offset beyond the session gap is measured.
    expect(Math.max(...built.sensors.map((s) => Math.abs(s.clockOffsetMs)).filter((ms) => ms === ms))).toBeGreaterThan(5 * MIN);
  });


  it("hands out the engine's proximity slices (onSlice), the ones sessionize hands out", async () => {
    const records: RawSignal[] = [];
    for (let d = 0; d < 4; d++) for (let m = 0; m <= 6; m++) records.push(raw(D0 + d * 10 * MIN + m * MIN, `f0:18:98:00:00:0${d}`, -50 - 5 * d, 1));
    records.sort((a, b) => a.ts - b.ts);
    const slices: unknown[] = [];
    const analyzer = new Analyzer({ timeZone: TZ, onSlice: (slice) => void slices.push(slice) });
    for (const r of records) analyzer.push(r);
    analyzer.finish();
    const streamed: unknown[] = [];
    await lastValueFrom(from(records).pipe(decodeSignals(), sessionize({ onSlice: (slice) => void streamed.push(slice) }), toArray()));
    expect(slices.length).toBeGreaterThan(0);
    expect(slices).toEqual(streamed);
    expect(() => new Analyzer({ onSlice: "yes" as never })).toThrow(TypeError);
    expect(() => new Analyzer({ onSlice: () => {}, proximity: false })).toThrow(/onSlice needs proximity on/);
  });

  it("hands each live interval to a liveOccupancy function while records are still pushed", async () => {
    // A device every 10 min from 10:00 to 12:00, each heard for 6 min.
    const records: RawSignal[] = [];
    for (let d = 0; d < 12; d++) for (let m = 0; m <= 6; m++) records.push(raw(D0 + d * 10 * MIN + m * MIN, `f0:18:98:00:00:${String(d).padStart(2, "0")}`, -50, 1));
    records.sort((a, b) => a.ts - b.ts);
    const pushedAt: number[] = [];
    const got: unknown[] = [];
    let pushed = 0;
    const analyzer = new Analyzer({ timeZone: TZ, liveOccupancy: (o) => void (got.push(o), pushedAt.push(pushed)) });
    for (const r of records) {
      analyzer.push(r);
      pushed++;
    }
    const result = analyzer.finish();
    expect(result.liveOccupancy).toEqual([]);
    expect(got).toEqual((await analyze(records, { timeZone: TZ, liveOccupancy: true })).liveOccupancy);
    // The morning's intervals came out before the last record went in.
    expect(pushedAt.filter((n) => n < records.length).length).toBeGreaterThan(4);
    expect(() => new Analyzer({ liveOccupancy: "yes" as never })).toThrow(TypeError);
    expect(() => new Analyzer({ poolDays: "yes" as never })).toThrow(TypeError);
  });
  it("counts rejections found outside the decoder (reject) and the counters of a decoder that ran elsewhere (finish)", async () => {
    const records = [raw(D0, "f0:18:98:00:00:01", -50, 1), raw(D0 + 4 * MIN, "da:a1:19:00:00:03", -52, 1), { row_key: "bad" }];
    const reference = await analyze([...records, { row_key: "101:nope" }]);
    // Decoded elsewhere (e.g. a worker), rejections reported by the reader.
    const elsewhere = new SignalDecoder();
    const seen: InvalidRecord[] = [];
    const analyzer = new Analyzer({ decode: { onInvalid: (x) => seen.push(x) } });
    for (const r of records) {
      const s = elsewhere.decode(r);
      if (s !== undefined) analyzer.pushSignal(s);
    }
    const notJson = decodeSignal({ row_key: "101:nope" }) as InvalidRecord;
    analyzer.reject(notJson);
    expect(seen).toEqual([notJson]);
    expect(() => analyzer.reject({ reason: "nonsense" } as never)).toThrow(TypeError);
    const result = analyzer.finish(elsewhere.stats);
    expect(result.decoder).toEqual(reference.decoder);
    expect(result.decoder).toMatchObject({ decoded: 2, invalid: 2, randomized: 1 });
    expect(result.quality).toEqual(reference.quality);
    expect(result.sessions).toEqual(reference.sessions);
    expect(result.days).toEqual(reference.days);
  });

  it("accepts decoded signals, iterables and async iterables, and counts invalid and late records", async () => {
    const records = [raw(D0, "f0:18:98:00:00:01", -50, 1), raw(D0 + 4 * MIN, "f0:18:98:00:00:01", -52, 1), { row_key: "bad" }];
    async function* gen() {
      yield* records;
    }
    const fromAsync = await analyze(gen());
    const fromArray = await analyze(records);
    expect(fromAsync.days).toEqual(fromArray.days);
    expect(fromArray.decoder.invalid).toBe(1);
    expect(fromArray.quality?.invalid).toBe(1);
    expect(fromArray.sessions).toHaveLength(1);
    const p = fromArray.sessions[0]!.proximity!;
    expect(p.zoneMs.immediate + p.zoneMs.near + p.zoneMs.far).toBe(4 * MIN);
    expect(p.closestSensor).toBe("b8:27:eb:00:00:01");
    expect(fromArray.days[0]).toMatchObject({ label: "2026-11-16", visitors: 1, visits: 1 });
    // Already-decoded signals skip the decoder and give the same result.
    const signals = await lastValueFrom(from(records).pipe(decodeSignals(), toArray()));
    const analyzer = new Analyzer();
    for (const s of signals) analyzer.push(s);
    const fromSignals = analyzer.finish();
    expect(fromSignals.days).toEqual(fromArray.days);
    expect(fromSignals.sessions).toEqual(fromArray.sessions);
    expect(fromSignals.decoder.decoded).toBe(0);
    expect(analyzer.finish()).toBe(fromSignals);
    expect(() => analyzer.push(records[0])).toThrow(Error);
    await expect(analyze(42 as never)).rejects.toThrow(TypeError);
    // A record later than the allowed lateness goes to onLate and is counted, not used.
    const late: number[] = [];
    const withLate = await analyze([...records, raw(D0 - 10 * MIN, "f0:18:98:00:00:09", -50, 1)], { sessions: { allowedLatenessMs: MIN }, onLate: (s) => late.push(s.time) });
    expect(late).toEqual([D0 - 10 * MIN]);
    expect([withLate.late, withLate.quality?.late]).toEqual([1, 1]);
    expect(withLate.sessions).toEqual(fromArray.sessions);
  });
});

async function* asyncChunksFlat<T>(chunks: readonly T[][]): AsyncGenerator<T> {
  for await (const c of asyncChunks(chunks)) yield* c;
}
