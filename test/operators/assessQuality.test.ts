import { describe, expect, it } from "vitest";
import { map, tap } from "rxjs";
import { TestScheduler } from "rxjs/testing";
import { SIGNAL_LOCAL_FLAG_MISMATCH, type Signal } from "../../src/codec/Signal.ts";
import { millisRts } from "../../src/codec/rts.ts";
import { dataQuality, type DataQualityCounts, type DataQualityReport } from "../../src/kernels/quality/dataQuality.ts";
import { assessQuality } from "../../src/operators/assessQuality.ts";

const A = "b8:27:eb:00:00:0a";
const HOUR = 3_600_000;
const T0 = 1_763_596_800_000; // a whole hour

function sig(time: number, device = "f0:18:98:12:34:56", shopId = 101, flags = 0): Signal {
  const randomized = device.startsWith("da");
  return { shopId, rts: millisRts.encode(time), time, device, rssi: -60, sensor: A, local: randomized, randomized, vendor: undefined, flags };
}

function scheduler() {
  return new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
}

describe("assessQuality", () => {
  const a = sig(T0 + 1_000, undefined, 101, SIGNAL_LOCAL_FLAG_MISMATCH);
  const b = sig(T0 + 2_000, "da:a1:19:00:00:01");
  const c = sig(T0 + HOUR + 5); // next hour window

  it("emits one report at completion by default (the batch function's, with the engine's late count)", () => {
    scheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold("a-b-c-|", { a, b, c });
      expectObservable(source.pipe(assessQuality())).toBe("------(r|)", { r: dataQuality([a, b, c], {}, { late: 0, maxLateMs: 0, ahead: 0 }) });
      expectSubscriptions(source.subscriptions).toBe("^-----!");
    });
    expect(dataQuality([a, b, c]).localFlagMismatch).toBe(1);
  });

  it("counts signals behind the watermark as late, not assessed", () => {
    const straggler = sig(T0 - 10 * 60_000);
    scheduler().run(({ cold, expectObservable }) => {
      const source = cold("a-b-c-s-|", { a, b, c, s: straggler });
      const out = source.pipe(assessQuality({ allowedLatenessMs: 60_000, counts: () => ({ invalid: 2, late: 1 }) }));
      expectObservable(out).toBe("--------(r|)", { r: dataQuality([a, b, c], {}, { invalid: 2, late: 2, maxLateMs: c.time - straggler.time, ahead: 0 }) });
    });
  });

  it("emits per shop and event-time window as the shop's watermark passes it, with counter increases and stragglers as late", () => {
    const readings: DataQualityCounts[] = [
      { invalid: 1, late: 0, invalidByReason: { "bad-mac": 1 } },
      { invalid: 3, late: 1, invalidByReason: { "bad-mac": 3 } },
    ];
    let call = 0;
    const straggler = sig(T0 + 500); // belongs to the first window, whose report is already out
    const reports: DataQualityReport[] = [];
    scheduler().run(({ cold, expectObservable }) => {
      const source = cold("a-b-c-s-|", { a, b, c, s: straggler });
      const out = source.pipe(
        assessQuality({ windowMs: HOUR, allowedLatenessMs: 0, counts: () => readings[call++] as DataQualityCounts }),
        tap((r) => reports.push(r)),
      );
      // c's watermark passes the first window's end; the second, partial one comes at completion.
      expectObservable(out).toBe("----x---(y|)", {
        x: expect.objectContaining({ from: T0, to: T0 + HOUR, signals: 2, devices: 2, randomizedDevices: 1, localFlagMismatch: 1, invalid: 1, late: 0 }),
        y: expect.objectContaining({ from: T0 + HOUR, to: T0 + 2 * HOUR, signals: 1, devices: 1, invalid: 2, late: 2, invalidByReason: { "bad-mac": 2 } }),
      });
    });
    expect(call).toBe(2);
    // A windowed report is the batch report of its signals over the window's range (edge gaps against it).
    const first = reports[0]!;
    expect(first.sensors).toEqual(
      dataQuality([a, b]).sensors.map((s) => ({ ...s, gaps: [{ from: T0 + 2_000, to: T0 + HOUR, durationMs: HOUR - 2_000, edge: "end" }], gapCount: 1, gapMs: HOUR - 2_000 })),
    );
  });

  it("keeps each shop's windows on its own watermark", () => {
    const other = (t: number) => sig(t, undefined, 202);
    scheduler().run(({ cold, expectObservable }) => {
      // Shop 202 is a day behind shop 101: 101's progress must not close (or make late) 202's windows.
      const source = cold("a-o-c-p-|", { a, o: other(T0 - 24 * HOUR), c, p: other(T0 - 23 * HOUR + 1) });
      const out = source.pipe(assessQuality({ windowMs: HOUR, allowedLatenessMs: 0 }));
      const shopOf = (r: DataQualityReport) => `${r.sensors[0]!.shopId}@${(r.from - T0) / HOUR}h n${r.signals} late${r.late}`;
      expectObservable(out.pipe(map(shopOf))).toBe("----x-y-(zw|)", {
        x: "101@0h n1 late0",
        y: "202@-24h n1 late0",
        z: "101@1h n1 late0",
        w: "202@-23h n1 late0",
      });
    });
  });

  it("tears down without emitting when unsubscribed early", () => {
    scheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold("a-b-c-|", { a, b, c });
      expectObservable(source.pipe(assessQuality({ windowMs: HOUR })), "^--!").toBe("----");
      expectSubscriptions(source.subscriptions).toBe("^--!");
    });
  });

  it("passes errors through", () => {
    scheduler().run(({ cold, expectObservable }) => {
      const source = cold("a-#", { a }, new Error("boom"));
      expectObservable(source.pipe(assessQuality())).toBe("--#", undefined, new Error("boom"));
    });
  });

  it("validates options when created", () => {
    expect(() => assessQuality({ windowMs: 0 })).toThrow(RangeError);
    expect(() => assessQuality({ gapThresholdMs: -1 })).toThrow(RangeError);
    expect(() => assessQuality({ allowedLatenessMs: -1 })).toThrow(RangeError);
    expect(() => assessQuality({ counts: 5 as never })).toThrow(TypeError);
  });
});
