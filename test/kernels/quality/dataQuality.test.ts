import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { SignalDecoder } from "../../../src/codec/decodeSignal.ts";
import { SIGNAL_LOCAL_FLAG_MISMATCH, SIGNAL_TS_RTS_MISMATCH, type Signal } from "../../../src/codec/Signal.ts";
import { millisRts, secondsRts } from "../../../src/codec/rts.ts";
import type { RawSignal } from "../../../src/contract/rawSignal.ts";
import { DataQuality, dataQuality, dataQualityOptions, defaultDataQuality, type DataQualityCounts, type DataQualityReport, type SensorQuality } from "../../../src/kernels/quality/dataQuality.ts";
import { EventTimeEngine } from "../../../src/kernels/sessions/EventTimeEngine.ts";
import { misalignedClocks } from "../../../src/kernels/quality/misalignedClocks.ts";
import { arrivalOrder } from "../fixtures.ts";

const A = "b8:27:eb:00:00:0a";
const B = "b8:27:eb:00:00:0b";
const UNIVERSAL = "f0:18:98:12:34:56";
const RANDOM = "da:a1:19:00:00:01"; // 0xda: bit 0x02 set, unicast
const T0 = 1_763_600_000_000;
const MIN = 60_000;
const HOUR = 3_600_000;
const W0 = Date.UTC(2026, 10, 16); // a whole hour (and day)

/** A signal as the decoder gives it: local flag agreeing with the MAC, no findings. */
function sig(time: number, sensor = A, device = UNIVERSAL, extra: Partial<Signal> = {}): Signal {
  const randomized = (parseInt(device.slice(0, 2), 16) & 3) === 2;
  return { shopId: 101, rts: millisRts.encode(time), time, device, rssi: -60, sensor, local: randomized, randomized, vendor: undefined, flags: 0, ...extra };
}

function raw(ts: number, device: string, local: boolean, rts = millisRts.encode(ts), sensor = A): RawSignal {
  return { row_key: `101:${rts}`, device_id: device, rssi: -60, square_mac: sensor, ts, local };
}

function sensor(report: { sensors: readonly SensorQuality[] }, mac: string): SensorQuality {
  const s = report.sensors.find((x) => x.sensor === mac);
  if (s === undefined) throw new Error(`no sensor ${mac}`);
  return s;
}

/** Windowed reports from a DataQuality inside an engine. */
function windowed(signals: readonly Signal[], windowMs: number, options: { allowedLatenessMs?: number; gapThresholdMs?: number; counts?: () => DataQualityCounts } = {}) {
  const reports: DataQualityReport[] = [];
  const quality = new DataQuality({ windowMs, ...(options.gapThresholdMs === undefined ? {} : { gapThresholdMs: options.gapThresholdMs }) }, { emit: (r) => reports.push(r) }, options.counts);
  const engine = new EventTimeEngine({ proximity: false, allowedLatenessMs: options.allowedLatenessMs ?? 0 }, { emit: () => {} }, [quality]);
  return { reports, quality, engine, feed: () => signals.forEach((s) => engine.push(s)) };
}

describe("dataQuality", () => {
  it("finds interior gaps longer than the threshold, per sensor", () => {
    const r = dataQuality([sig(T0), sig(T0 + 10 * MIN), sig(T0 + 50 * MIN), sig(T0 + 55 * MIN), sig(T0 + 30 * MIN, B)], {
      gapThresholdMs: 30 * MIN,
    });
    const a = sensor(r, A);
    expect(a.gaps).toEqual([{ from: T0 + 10 * MIN, to: T0 + 50 * MIN, durationMs: 40 * MIN, edge: "none" }]);
    expect([a.gapCount, a.gapMs, a.signals, a.first, a.last]).toEqual([1, 40 * MIN, 4, T0, T0 + 55 * MIN]);
    // B heard once in the middle: silent for 30 min at the start (not > threshold) and 25 min at the end.
    expect(sensor(r, B).gapCount).toBe(0);
    expect([r.from, r.to, r.signals]).toEqual([T0, T0 + 55 * MIN, 5]);
  });

  it("puts a device split's shares together: one counts every signal's time, each its own devices (absorb)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 5 * HOUR }), fc.constantFrom(A, B), fc.constantFrom(UNIVERSAL, RANDOM, "da:a1:19:00:00:02", "f0:18:98:00:00:07"), fc.integer({ min: 0, max: 3 })), { maxLength: 200 }),
        (rows) => {
          const signals = rows.map(([t, sensor, device, flags]) => ({ ...sig(T0 + t, sensor, device), flags }));
          const one = new DataQuality({ gapThresholdMs: 20 * MIN });
          for (const s of signals) one.signal(s);
          // Share 0 counts its devices and every other signal's time (in any order); share 1 its devices.
          const mine = (s: Signal): boolean => s.device.endsWith("1") || s.device.endsWith("6");
          const share0 = new DataQuality({ gapThresholdMs: 20 * MIN });
          const share1 = new DataQuality({ gapThresholdMs: 20 * MIN });
          for (const s of [...signals].reverse()) {
            if (mine(s)) share0.signal(s);
            else {
              share0.signalTime(s.shopId, s.sensor, s.time);
              share1.signalDevice(s);
            }
          }
          share0.absorb(structuredClone(share1.part));
          expect(share0.report()).toEqual(one.report());
        },
      ),
      { numRuns: 50 },
    );
  });

  it("computes randomized shares by device and by signal", () => {
    const r = dataQuality([sig(T0), sig(T0 + 1, A, RANDOM), sig(T0 + 2, A, RANDOM), sig(T0 + 3, B, RANDOM)]);
    expect([r.devices, r.randomizedDevices, r.randomizedDeviceShare]).toEqual([2, 1, 0.5]);
    expect([r.signals, r.randomizedSignals, r.randomizedSignalShare]).toEqual([4, 3, 0.75]);
    expect(sensor(r, A).randomizedShare).toBeCloseTo(2 / 3, 12);
    expect(sensor(r, A).randomizedSignals).toBe(2);
  });

  it("counts the decoder's findings (local flag vs MAC bit, ts vs RTS) from Signal.flags, as the decoder counted them", () => {
    const decoder = new SignalDecoder({ tsToleranceMs: 1000 });
    const records = [
      raw(T0, UNIVERSAL, true), // local flag but a universal MAC
      raw(T0 + 1, RANDOM, false), // randomized MAC, flag says universal
      raw(T0 + 2, "02:00:00:00:00:01", true, undefined, B), // agrees
      raw(T0 + 3, UNIVERSAL, false, millisRts.encode(T0 + 5_000), B), // RTS 5 s off
      raw(T0 + 4, UNIVERSAL, false, millisRts.encode(T0 + 4 + 999), B), // within 1 s
      raw(T0 + 5, RANDOM, false, millisRts.encode(0), B), // both
    ];
    const signals = records.map((r) => decoder.decode(r)!);
    expect(signals.map((s) => s.flags)).toEqual([
      SIGNAL_LOCAL_FLAG_MISMATCH,
      SIGNAL_LOCAL_FLAG_MISMATCH,
      0,
      SIGNAL_TS_RTS_MISMATCH,
      0,
      SIGNAL_LOCAL_FLAG_MISMATCH | SIGNAL_TS_RTS_MISMATCH,
    ]);
    const r = dataQuality(signals, {}, decoder.stats);
    expect([r.localFlagMismatch, sensor(r, A).localFlagMismatch, sensor(r, B).localFlagMismatch]).toEqual([3, 2, 1]);
    expect([r.tsRtsMismatch, sensor(r, A).tsRtsMismatch, sensor(r, B).tsRtsMismatch]).toEqual([2, 0, 2]);
    // The report's own counts agree with the decoder's counters, which it carries for cross-checking.
    expect([r.counts.localFlagMismatch, r.counts.tsRtsMismatch]).toEqual([r.localFlagMismatch, r.tsRtsMismatch]);
    // The RTS rule is the decoder's: a seconds codec there, or the check turned off, means no finding here.
    const seconds = new SignalDecoder({ rtsCodec: secondsRts });
    expect(dataQuality([seconds.decode(raw(T0, UNIVERSAL, false, secondsRts.encode(T0)))!]).tsRtsMismatch).toBe(0);
    const off = new SignalDecoder({ tsToleranceMs: Infinity });
    expect(dataQuality([off.decode(raw(T0, UNIVERSAL, false, millisRts.encode(0)))!]).tsRtsMismatch).toBe(0);
  });

  it("reads the flags instead of checking again: fields that disagree without a flag are no finding, a flag is", () => {
    const r = dataQuality([
      sig(T0, A, UNIVERSAL, { local: true, rts: millisRts.encode(0), flags: 0 }),
      sig(T0 + 1, A, UNIVERSAL, { flags: SIGNAL_TS_RTS_MISMATCH }),
      sig(T0 + 2, A, UNIVERSAL, { flags: SIGNAL_LOCAL_FLAG_MISMATCH }),
    ]);
    expect([r.localFlagMismatch, r.tsRtsMismatch]).toEqual([1, 1]);
    // Signals built without `flags` (absent) have no findings.
    const { flags: _f, ...bare } = sig(T0, A, UNIVERSAL, { local: true });
    expect(dataQuality([bare]).localFlagMismatch).toBe(0);
  });

  it("merges external counters (decoder stats, late count)", () => {
    const decoderStats = { decoded: 5, invalid: 2, invalidByReason: { "bad-mac": 2, "bad-ts": 0 }, localFlagMismatch: 1, tsRtsMismatch: 0, randomized: 0 };
    const r = dataQuality([sig(T0)], {}, { ...decoderStats, late: 3 });
    expect([r.invalid, r.invalidByReason["bad-mac"], r.late, r.counts.decoded]).toEqual([2, 2, 3, 5]);
  });

  it("is empty-safe", () => {
    const r = new DataQuality().report();
    expect([r.type, r.signals, r.devices, r.sensors.length, r.invalid, r.late]).toEqual(["dataQuality", 0, 0, 0, 0, 0]);
    expect(r.from).toBeNaN();
    expect(r.to).toBeNaN();
    expect(r.randomizedDeviceShare).toBeNaN();
    expect(dataQuality([])).toEqual(r);
  });

  it("validates options", () => {
    expect(() => dataQualityOptions({ gapThresholdMs: 0 })).toThrow(RangeError);
    expect(() => dataQualityOptions({ maxGapsPerSensor: -1 })).toThrow(RangeError);
    expect(() => dataQualityOptions({ windowMs: 0 })).toThrow(RangeError);
    expect(() => dataQualityOptions({ windowMs: 1.5 })).toThrow(RangeError);
    expect(() => dataQualityOptions(null as never)).toThrow(TypeError);
    expect(() => new DataQuality({ gapThresholdMs: -1 })).toThrow(RangeError);
    expect(() => new DataQuality({ windowMs: HOUR })).toThrow(TypeError); // a window needs a sink
    expect(() => new DataQuality({}, {} as never)).toThrow(TypeError);
    expect(() => new DataQuality({}, { emit: () => {} }, 5 as never)).toThrow(TypeError);
    expect(dataQualityOptions()).toEqual(defaultDataQuality);
  });

  it("lists at most maxGapsPerSensor gaps (the latest) but counts all", () => {
    const signals = [0, 1, 2, 3, 4].map((i) => sig(T0 + i * 60 * MIN));
    const s = sensor(dataQuality(signals, { maxGapsPerSensor: 2 }), A);
    expect([s.gapCount, s.gaps.length, s.gaps[1]?.to, s.gapMs]).toEqual([4, 2, T0 + 240 * MIN, 240 * MIN]);
  });

  it("property: gaps equal those of the sorted times, whatever the order given", () => {
    const threshold = 10 * MIN;
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 600 }), { minLength: 1, maxLength: 40 }), fc.integer(), (minutes, seed) => {
        const times = minutes.map((m) => T0 + m * MIN);
        const shuffled = fc.sample(fc.shuffledSubarray(times, { minLength: times.length, maxLength: times.length }), { numRuns: 1, seed })[0] as number[];
        const sorted = [...times].sort((a, b) => a - b);
        const want: Array<[number, number]> = [];
        for (let i = 1; i < sorted.length; i++) {
          const a = sorted[i - 1] as number;
          const b = sorted[i] as number;
          if (b - a > threshold) want.push([a, b]);
        }
        const got = sensor(dataQuality(shuffled.map((t) => sig(t)), { gapThresholdMs: threshold, maxGapsPerSensor: 1000 }), A);
        expect(got.gaps.map((g) => [g.from, g.to])).toEqual(want);
      }),
      { numRuns: 60 },
    );
  });
});

describe("DataQuality in the engine", () => {
  it("counts the signals the engine applies; late ones come in through counts.late", () => {
    const quality = new DataQuality();
    const engine = new EventTimeEngine({ allowedLatenessMs: 0, proximity: false }, { emit: () => {} }, [quality]);
    for (const s of [sig(T0), sig(T0 + MIN, B), sig(T0 + 30_000), sig(T0 + 2 * MIN)]) engine.push(s);
    engine.flush();
    const r = quality.report({ late: engine.stats.late });
    expect([r.signals, r.late, sensor(r, A).signals, sensor(r, B).signals]).toEqual([3, 1, 2, 1]);
    expect(r).toEqual(dataQuality([sig(T0), sig(T0 + MIN, B), sig(T0 + 2 * MIN)], {}, { late: 1 }));
  });

  it("counts the same devices from the engine's closed sessions as from its signals (countBySession)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 5 * HOUR }), fc.constantFrom(A, B), fc.constantFrom(UNIVERSAL, RANDOM, "da:a1:19:00:00:02", "f0:18:98:00:00:07")), { maxLength: 200 }),
        fc.integer({ min: 0, max: 2 * MIN }),
        (rows, allowedLatenessMs) => {
          const signals = rows.map(([t, sensor, device]) => sig(T0 + t, sensor, device));
          const bySignal = new DataQuality();
          const bySession = new DataQuality();
          bySession.countBySession({ signals: false });
          // Some signals arrive late and are not applied: neither counts their devices.
          const engine = new EventTimeEngine({ allowedLatenessMs, proximity: false }, { emit: (session) => bySession.session(session) }, [bySignal, { signal: (x) => bySession.signal(x) }]);
          for (const x of signals) engine.push(x);
          engine.flush();
          const a = bySignal.report({ late: engine.stats.late });
          expect(bySession.report({ late: engine.stats.late })).toEqual(a);
          if (engine.stats.late === 0) expect(a.devices).toBe(new Set(signals.map((x) => x.device)).size);
        },
      ),
      { numRuns: 100 },
    );
    expect(() => new DataQuality({ windowMs: HOUR }, { emit: () => {} }).countBySession({ signals: false })).toThrow(/windowMs/);
    const started = new DataQuality();
    started.signal(sig(T0));
    expect(() => started.countBySession({ signals: true })).toThrow(/before any signal/);
  });

  it("counts the same signals, times and gaps from the engine's closed sessions as from its signals (countBySession with signals)", () => {
    const FLAGS = [0, 0, 0, SIGNAL_LOCAL_FLAG_MISMATCH, SIGNAL_TS_RTS_MISMATCH, SIGNAL_LOCAL_FLAG_MISMATCH | SIGNAL_TS_RTS_MISMATCH];
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(
            fc.integer({ min: 0, max: 6 * HOUR }),
            fc.constantFrom(A, B, "b8:27:eb:00:00:0c"),
            fc.constantFrom(UNIVERSAL, RANDOM, "da:a1:19:00:00:02", "f0:18:98:00:00:07"),
            fc.constantFrom(...FLAGS),
            fc.constantFrom(101, 101, 102),
          ),
          { maxLength: 250 },
        ),
        fc.integer({ min: 0, max: 5 * MIN }),
        fc.constantFrom(1, 2 * MIN, 10 * MIN, 30 * MIN),
        fc.constantFrom(5 * MIN, 20 * MIN, 60 * MIN),
        (rows, allowedLatenessMs, gapThresholdMs, gapMs) => {
          const signals = rows.map(([t, sensor, device, flags, shopId]) => sig(T0 + t, sensor, device, { flags, shopId }));
          const bySignal = new DataQuality({ gapThresholdMs });
          const bySession = new DataQuality({ gapThresholdMs });
          bySession.countBySession({ signals: true });
          // The analyzer's hand-off: each session closed unbuilt, its sensors' counts and silences
          // (a sensor may be silent longer than the threshold while another keeps the session open).
          const engine = new EventTimeEngine(
            { allowedLatenessMs, gapMs, proximity: false },
            {
              emit: () => {},
              closed: (open, shopId) => bySession.session({ shopId, device: open.device, randomized: open.randomized, sensors: open.sensors }),
              sensorHolesOverMs: gapThresholdMs,
            },
            [bySignal, { signal: (x) => bySession.signalFlags(x) }],
          );
          for (const x of signals) engine.push(x);
          engine.flush();
          expect(bySession.report({ late: engine.stats.late })).toEqual(bySignal.report({ late: engine.stats.late }));
        },
      ),
      { numRuns: 300 },
    );
    // A sensor's count is what it needs of a session here.
    const counting = new DataQuality();
    counting.countBySession({ signals: true });
    expect(() => counting.session({ shopId: 101, device: RANDOM, randomized: true, sensors: [{ sensor: A, first: T0, last: T0 }] })).toThrow(/count/);
  });

  it("finds a sensor's gaps from its times in any order, one by one or in runs", () => {
    // Three runs of A (none of whose steps is over 10 min) and a lone time, in every order.
    const threshold = 10 * MIN;
    const runs: [number, number][] = [
      [T0, T0 + 15 * MIN],
      [T0 + 40 * MIN, T0 + 45 * MIN],
      [T0 + 50 * MIN, T0 + 90 * MIN],
      [T0 + 120 * MIN, T0 + 120 * MIN],
    ];
    const expected = [
      { from: T0 + 15 * MIN, to: T0 + 40 * MIN },
      { from: T0 + 90 * MIN, to: T0 + 120 * MIN },
    ];
    for (const order of [[0, 1, 2, 3], [3, 2, 1, 0], [2, 0, 3, 1], [1, 3, 0, 2]]) {
      const q = new DataQuality({ gapThresholdMs: threshold });
      q.countBySession({ signals: true });
      for (const i of order) {
        const [first, last] = runs[i]!;
        q.session({ shopId: 101, device: UNIVERSAL, randomized: false, sensors: [{ sensor: A, first, last, count: 2, holes: null }] });
      }
      const a = sensor(q.report(), A);
      expect(a.gaps.map(({ from, to }) => ({ from, to }))).toEqual(expected);
      expect([a.first, a.last, a.signals]).toEqual([T0, T0 + 120 * MIN, 8]);
    }
  });

  it("windowed: reports per shop once that shop's watermark passes the window's end, edge gaps against the window", () => {
    const shop2 = (time: number) => sig(time, A, UNIVERSAL, { shopId: 102 });
    const { reports, engine, feed } = windowed(
      [sig(W0 + 20 * MIN, A), sig(W0 + 20 * MIN, B), sig(W0 + 25 * MIN, A), shop2(W0 + 30 * MIN), sig(W0 + 59 * MIN, B), shop2(W0 + 2 * HOUR)],
      HOUR,
      { gapThresholdMs: 10 * MIN },
    );
    feed();
    // Shop 102's watermark passed its first window; shop 101's has not (its newest is 59 min).
    expect(reports.map((r) => [r.sensors[0]?.shopId, r.from, r.to, r.signals])).toEqual([[102, W0, W0 + HOUR, 1]]);
    engine.push(sig(W0 + HOUR, A)); // the watermark reaches the window's end
    expect(reports).toHaveLength(2);
    const r = reports[1]!;
    expect([r.from, r.to, r.signals, r.devices]).toEqual([W0, W0 + HOUR, 4, 1]);
    expect(sensor(r, A).gaps.map((g) => [g.edge, g.from - W0, g.durationMs])).toEqual([
      ["start", 0, 20 * MIN],
      ["end", 25 * MIN, 35 * MIN],
    ]);
    expect(sensor(r, B).gaps.map((g) => [g.edge, g.from - W0, g.durationMs])).toEqual([
      ["start", 0, 20 * MIN],
      ["none", 20 * MIN, 39 * MIN],
    ]);
    // Flush reports the last, partial windows of every shop (each starts afresh).
    engine.flush();
    expect(reports.slice(2).map((x) => [x.sensors[0]?.shopId, x.from - W0, x.signals])).toEqual([
      [101, HOUR, 1],
      [102, 2 * HOUR, 1],
    ]);
  });

  it("windowed: skips windows without signals and gives each report the change of the outside counts", () => {
    const readings: DataQualityCounts[] = [
      { invalid: 1, invalidByReason: { "bad-mac": 1 } },
      { invalid: 4, invalidByReason: { "bad-mac": 3, "bad-ts": 1 } },
    ];
    let call = 0;
    const { reports, engine, feed } = windowed([sig(W0 + MIN), sig(W0 + 3 * HOUR + MIN)], HOUR, { counts: () => readings[call++]! });
    feed();
    engine.flush();
    expect(reports.map((r) => [r.from - W0, r.signals, r.invalid, r.invalidByReason])).toEqual([
      [0, 1, 1, { "bad-mac": 1 }],
      [3 * HOUR, 1, 3, { "bad-mac": 2, "bad-ts": 1 }],
    ]);
    expect(call).toBe(2);
  });

  it("windowed: the same reports for any arrival order within the allowed lateness (property)", () => {
    const lateness = 10 * MIN;
    fc.assert(
      fc.property(
        fc.array(fc.record({ m: fc.integer({ min: 0, max: 300 }), s: fc.constantFrom(A, B), d: fc.constantFrom(UNIVERSAL, RANDOM), shop: fc.constantFrom(101, 102) }), { minLength: 1, maxLength: 60 }),
        fc.array(fc.integer({ min: 0, max: lateness }), { minLength: 60, maxLength: 60 }),
        (specs, delays) => {
          const signals = specs.map((x) => sig(W0 + x.m * MIN, x.s, x.d, { shopId: x.shop })).sort((a, b) => a.time - b.time);
          const arrival = arrivalOrder(signals, delays);
          const reportsOf = (input: readonly Signal[]) => {
            const w = windowed(input, HOUR, { allowedLatenessMs: lateness, gapThresholdMs: 20 * MIN });
            w.feed();
            w.engine.flush();
            expect(w.engine.stats.late).toBe(0);
            // Emission order follows the watermarks; the reports themselves must not change.
            return [...w.reports].sort((a, b) => a.from - b.from || (a.sensors[0]?.shopId ?? 0) - (b.sensors[0]?.shopId ?? 0));
          };
          const inOrder = reportsOf(signals);
          expect(reportsOf(arrival)).toEqual(inOrder);
          expect(inOrder.reduce((n, r) => n + r.signals, 0)).toBe(signals.length);
        },
      ),
      { numRuns: 40 },
    );
  });
});

describe("DataQuality: sensor clocks", () => {
  // MACs heard in one burst by sensors A and B (a rotated MAC), B stamping `aheadMs` later, the
  // burst's channels up to a second apart; and a phone that keeps its MAC, which says nothing.
  function run(aheadMs: number, macs: number): DataQualityReport {
    const quality = new DataQuality();
    const engine = new EventTimeEngine({}, { emit: () => {} }, [quality]);
    const signals: Signal[] = [];
    for (let i = 0; i < macs; i++) {
      const device = `0a:00:00:00:${(i >> 8).toString(16).padStart(2, "0")}:${(i & 255).toString(16).padStart(2, "0")}`;
      const t = T0 + i * 20_000;
      const jitter = ((i * 7919) % 900) - 450;
      signals.push(sig(t, A, device), sig(t + 40, A, device), sig(t + aheadMs + jitter, B, device));
    }
    for (let k = 0; k < 50; k++) signals.push(sig(T0 + k * 30_000, A), sig(T0 + k * 30_000 + 10_000, B));
    signals.sort((x, y) => x.time - y.time);
    for (const s of signals) engine.push(s);
    engine.flush();
    return quality.report();
  }

  it("measures how much later a sensor stamps the bursts it shares with the reference sensor", () => {
    for (const ahead of [0, 3_000, -7_500]) {
      const report = run(ahead, 200);
      const a = report.sensors.find((s) => s.sensor === A)!;
      const b = report.sensors.find((s) => s.sensor === B)!;
      // A heard more signals: it is the reference.
      expect(a.clockOffsetMs).toBe(0);
      expect(b.clockPairs).toBe(200);
      expect(Math.abs(b.clockOffsetMs - ahead)).toBeLessThanOrEqual(60);
      expect(misalignedClocks(report)).toEqual(Math.abs(ahead) >= 1000 ? { [B]: b.clockOffsetMs } : {});
    }
  });

  it("says nothing from too few shared bursts, or from the batch report (no sessions)", () => {
    expect(run(3_000, 10).sensors.find((s) => s.sensor === B)!.clockOffsetMs).toBeNaN();
    expect(dataQuality([sig(T0, A), sig(T0 + 5, B)]).sensors.every((s) => Number.isNaN(s.clockOffsetMs))).toBe(true);
  });
});
