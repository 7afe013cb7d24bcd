import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { rawDevice, type DeviceId } from "../../src/analysis/AnalysisRecord.ts";
import { sessionRecord, type SessionRecordSource } from "../../src/analysis/sessionRecord.ts";
import { PROXIMITY_ZONES } from "../../src/kernels/proximity/proximityZone.ts";
import { SessionLineBatchReader, SessionLineBatchWriter } from "../../src/file/SessionLineBatch.ts";

// Every double a field may hold — fractions, -0, NaN, ±Infinity, integers past 2^31 — and the
// strings a day repeats, or not.
const number = fc.oneof(fc.double(), fc.integer({ min: -(2 ** 40), max: 2 ** 45 }), fc.constantFrom(-0, Number.NaN, Number.POSITIVE_INFINITY));
const text = fc.oneof(fc.constantFrom("2026-11-16", "2026-11-17", "b8:27:eb:00:00:01", "Apple, Inc."), fc.string({ maxLength: 12 }));
const sourceArb: fc.Arbitrary<SessionRecordSource> = fc.record({
  shopId: fc.integer({ min: 0, max: 2 ** 40 }),
  device: fc.oneof(fc.constantFrom("a4:5e:60:00:00:01", "da:a1:19:00:00:02"), fc.string({ maxLength: 17 })),
  start: number,
  end: number,
  date: text,
  dwellMs: number,
  estimatedDwellMs: number,
  signalCount: fc.nat(),
  kind: fc.constantFrom("visitor", "passerby", "staff", "stationary"),
  randomized: fc.boolean(),
  vendor: fc.option(text, { nil: undefined }),
  peakSmoothedRssi: number,
  nearestSensor: text,
  late: fc.boolean(),
  proximity: fc.option(fc.record({ closestZone: fc.constantFrom(...PROXIMITY_ZONES), closestDistanceM: number }), { nil: undefined }),
});

const lineOf = (s: SessionRecordSource, device: DeviceId): string => `${JSON.stringify(sessionRecord(s, device))}\n`;

describe("SessionLineBatch", () => {
  it("a session's line comes out of writer → reader exactly as sessionRecord writes the session, across batches of any size", () => {
    fc.assert(
      fc.property(fc.array(sourceArb, { maxLength: 300 }), fc.integer({ min: 1, max: 40 }), (sessions, size) => {
        const writer = new SessionLineBatchWriter(size);
        const reader = new SessionLineBatchReader();
        const device: DeviceId = (mac, date) => `${date}/${mac}`;
        let text = "";
        // Through structured clone, as postMessage does.
        const flush = (): void => void (text += reader.lines(structuredClone(writer.take()), device));
        for (const s of sessions) if (writer.add(s)) flush();
        flush();
        expect(text).toBe(sessions.map((s) => lineOf(s, device)).join(""));
      }),
      { numRuns: 200 },
    );
  });

  it("reads back what the line shows, each string crossing once", () => {
    const writer = new SessionLineBatchWriter();
    const s = fc.sample(sourceArb, { numRuns: 1, seed: 3 })[0]!;
    writer.add(s);
    writer.add(s);
    const batch = structuredClone(writer.take());
    expect(batch.count).toBe(2);
    expect(new Set(batch.newStrings).size).toBe(batch.newStrings.length);
    const read: SessionRecordSource[] = [];
    new SessionLineBatchReader().read(batch, (x) => read.push(x));
    expect(read.map((x) => lineOf(x, rawDevice))).toEqual([lineOf(s, rawDevice), lineOf(s, rawDevice)]);
    expect(writer.count).toBe(0);
  });

  it("refuses a batch size that is not a whole number from 1, and a session beyond a full batch", () => {
    for (const size of [0, -1, 1.5, Number.NaN]) expect(() => new SessionLineBatchWriter(size)).toThrow(RangeError);
    const writer = new SessionLineBatchWriter(2);
    const s = fc.sample(sourceArb, { numRuns: 1, seed: 4 })[0]!;
    expect([writer.add(s), writer.add(s)]).toEqual([false, true]);
    expect(() => writer.add(s)).toThrow(/full/);
    writer.take();
    expect(writer.add(s)).toBe(false);
  });
});
