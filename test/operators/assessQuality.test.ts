import { describe, expect, it } from "vitest";
import { TestScheduler } from "rxjs/testing";
import type { Signal } from "../../src/codec/Signal.ts";
import { millisRts } from "../../src/codec/rts.ts";
import {
  createDataQuality,
  dataQuality,
  dataQualityReport,
  updateDataQuality,
  type DataQualityCounts,
} from "../../src/kernels/dataQuality.ts";
import { assessQuality } from "../../src/operators/assessQuality.ts";

const A = "b8:27:eb:00:00:0a";
const HOUR = 3_600_000;
const T0 = 1_763_596_800_000; // a whole hour

function sig(time: number, device = "f0:18:98:12:34:56"): Signal {
  return { shopId: 101, rts: millisRts.encode(time), time, device, rssi: -60, sensor: A, local: false, randomized: false, vendor: undefined };
}

function scheduler() {
  return new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
}

describe("assessQuality", () => {
  const a = sig(T0 + 1_000);
  const b = sig(T0 + 2_000, "da:a1:19:00:00:01");
  const c = sig(T0 + HOUR + 5); // next hour window

  it("emits one report at completion by default (same as the batch kernel)", () => {
    scheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold("a-b-c-|", { a, b, c });
      expectObservable(source.pipe(assessQuality())).toBe("------(r|)", { r: dataQuality([a, b, c]) });
      expectSubscriptions(source.subscriptions).toBe("^-----!");
    });
  });

  it("emits per event-time window, with counter increases and stragglers as late", () => {
    const readings: DataQualityCounts[] = [
      { invalid: 1, late: 0, invalidByReason: { "bad-mac": 1 } },
      { invalid: 3, late: 1, invalidByReason: { "bad-mac": 3 } },
    ];
    let call = 0;
    const straggler = sig(T0 + 500); // belongs to the first window, whose report is already out
    const expected = (signals: Signal[], counts: DataQualityCounts, from: number) => {
      const state = createDataQuality();
      for (const x of signals) updateDataQuality(state, x);
      return dataQualityReport(state, counts, { from, to: from + HOUR });
    };
    scheduler().run(({ cold, expectObservable }) => {
      const source = cold("a-b-c-s-|", { a, b, c, s: straggler });
      const out = source.pipe(assessQuality({ windowMs: HOUR, counts: () => readings[call++] as DataQualityCounts }));
      expectObservable(out).toBe("----x---(y|)", {
        x: expected([a, b], { invalid: 1, late: 0, invalidByReason: { "bad-mac": 1 } }, T0),
        y: expected([c], { invalid: 2, late: 2, invalidByReason: { "bad-mac": 2 } }, T0 + HOUR),
      });
    });
    expect(call).toBe(2);
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
    expect(() => assessQuality({ counts: 5 as never })).toThrow(TypeError);
  });
});
