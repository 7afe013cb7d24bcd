import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { from, lastValueFrom, toArray, type Observable } from "rxjs";
import { analyze, Analyzer } from "../src/analyze.ts";
import { decodeSignals } from "../src/operators/decodeSignals.ts";
import { sessionize } from "../src/operators/sessionize.ts";
import { classifyVisits } from "../src/operators/classifyVisits.ts";
import { countVisits } from "../src/operators/countVisits.ts";
import { measureDwell } from "../src/operators/measureDwell.ts";
import type { RawSignal } from "../src/contract/rawSignal.ts";
import type { ClassifiedSession } from "../src/kernels/VisitClassifier.ts";

const MIN = 60_000;
const H = 3_600_000;
const D0 = Date.UTC(2026, 10, 16, 1); // 10:00 in Seoul

const raw = (ts: number, device: string, rssi: number, sensor: number): RawSignal => ({
  row_key: `101:${ts.toString(16).padStart(16, "0")}`,
  device_id: device,
  rssi,
  square_mac: `b8:27:eb:00:00:0${sensor}`,
  ts,
  local: device.startsWith("da"),
});

// Devices with a few bursts of presence over two days: visitors (strong), people outside (weak), staff (long).
const arbRecords = fc
  .array(
    fc.record({
      device: fc.constantFrom("f0:18:98:00:00:01", "f0:18:98:00:00:02", "da:a1:19:00:00:03", "f0:18:98:00:00:04", "da:a1:19:00:00:05"),
      day: fc.integer({ min: 0, max: 1 }),
      startMin: fc.integer({ min: 0, max: 11 * 60 }),
      minutes: fc.integer({ min: 0, max: 9 * 60 }),
      everyS: fc.integer({ min: 10, max: 200 }),
      rssi: fc.integer({ min: -92, max: -40 }),
    }),
    { minLength: 1, maxLength: 12 },
  )
  .map((visits) => {
    const records: RawSignal[] = [];
    for (const v of visits) {
      const start = D0 + v.day * 24 * H + v.startMin * MIN;
      const n = Math.min(400, Math.floor((v.minutes * 60) / v.everyS) + 1);
      for (let i = 0; i < n; i++) {
        const ts = start + i * v.everyS * 1000;
        records.push(raw(ts, v.device, v.rssi + ((i * 7) % 9) - 4, i % 2));
      }
    }
    return records.sort((a, b) => a.ts - b.ts);
  });

const withoutProximity = (s: ClassifiedSession & { proximity?: unknown }) => {
  const { proximity: _p, ...rest } = s;
  return rest;
};

async function stream(records: readonly RawSignal[], options: { allowedLatenessMs: number }) {
  const chain = (): Observable<ClassifiedSession> =>
    from(records).pipe(decodeSignals(), sessionize({ allowedLatenessMs: options.allowedLatenessMs }), classifyVisits({ timeZone: "Asia/Seoul" }));
  const sessions = await lastValueFrom(chain().pipe(toArray()));
  const counts = await lastValueFrom(chain().pipe(countVisits({ timeZone: "Asia/Seoul" }), toArray()));
  const dwell = await lastValueFrom(chain().pipe(measureDwell({ timeZone: "Asia/Seoul" }), toArray()));
  return { sessions, counts, dwell };
}

describe("analyze", () => {
  it("gives exactly what the streaming operator chain gives (property)", async () => {
    await fc.assert(
      fc.asyncProperty(arbRecords, async (records) => {
        const batch = await analyze(records, { timeZone: "Asia/Seoul", sessions: { allowedLatenessMs: 60_000 }, proximity: false, quality: false });
        const live = await stream(records, { allowedLatenessMs: 60_000 });
        expect(batch.sessions.map(withoutProximity)).toEqual(live.sessions);
        expect(batch.days.map(({ dwell: _d, visitorRssi: _v, ...counts }) => counts)).toEqual(live.counts);
        expect(batch.days.map((d) => d.dwell)).toEqual(live.dwell.map(({ count, meanMs, medianMs, p90Ms, buckets }) => ({ count, meanMs, medianMs, p90Ms, buckets })));
      }),
      { numRuns: 40 },
    );
  });

  it("changes nothing when records arrive shuffled within the allowed lateness (property)", async () => {
    const lateness = 2 * MIN;
    await fc.assert(
      fc.asyncProperty(arbRecords, fc.array(fc.integer({ min: 0, max: lateness }), { minLength: 50, maxLength: 50 }), async (records, delays) => {
        const shuffled = records
          .map((r, i) => ({ r, arrival: r.ts + delays[i % delays.length]! }))
          .sort((a, b) => a.arrival - b.arrival)
          .map((x) => x.r);
        const options = { timeZone: "Asia/Seoul", sessions: { allowedLatenessMs: lateness }, quality: false as const };
        const a = await analyze(records, options);
        const b = await analyze(shuffled, options);
        expect(b.late).toBe(0);
        // Progress fields (watermark, complete) describe arrival; everything else must match.
        const strip = (s: ClassifiedSession) => ({ ...withoutProximity(s), watermark: 0, complete: 0 });
        expect(b.sessions.map(strip)).toEqual(a.sessions.map(strip));
        expect(b.days).toEqual(a.days);
        expect(b.sessions.map((s) => s.proximity?.closestSensor)).toEqual(a.sessions.map((s) => s.proximity?.closestSensor));
      }),
      { numRuns: 40 },
    );
  });

  it("gives every session its proximity, also one followed by a quiet spell longer than the tracker's idle time", async () => {
    // The next record comes 20 minutes later, so one watermark step releases, closes and
    // (before the fix) aged the first session's summary past idleMs in the same sweep.
    const records = [raw(D0, "f0:18:98:00:00:01", -44, 0), raw(D0 + 20 * MIN, "f0:18:98:00:00:02", -60, 1)];
    const result = await analyze(records, { timeZone: "Asia/Seoul", quality: false });
    expect(result.sessions.map((s) => [s.device, s.proximity?.closestSensor])).toEqual([
      ["f0:18:98:00:00:01", "b8:27:eb:00:00:00"],
      ["f0:18:98:00:00:02", "b8:27:eb:00:00:01"],
    ]);
  });

  it("accepts decoded signals, iterables and async iterables, and counts invalid records", async () => {
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
    expect(fromArray.sessions[0]!.proximity?.type).toBe("proximitySummary");
    expect(fromArray.days[0]).toMatchObject({ label: "2026-11-16", visitors: 1, visits: 1 });
    // Already-decoded signals skip the decoder and give the same result.
    const signals = await lastValueFrom(from(records).pipe(decodeSignals(), toArray()));
    const analyzer = new Analyzer();
    for (const s of signals) analyzer.push(s);
    const fromSignals = analyzer.finish();
    expect(fromSignals.days).toEqual(fromArray.days);
    expect(fromSignals.decoder.decoded).toBe(0);
    expect(() => analyzer.push(records[0])).toThrow(Error);
    await expect(analyze(42 as never)).rejects.toThrow(TypeError);
  });
});
