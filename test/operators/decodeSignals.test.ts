import { describe, expect, it } from "vitest";
import { map } from "rxjs";
import { TestScheduler } from "rxjs/testing";
import { decodeSignals } from "../../src/operators/decodeSignals.ts";
import { SignalDecoder, type InvalidRecord } from "../../src/codec/decodeSignal.ts";
import type { RawSignal } from "../../src/contract/rawSignal.ts";

const scheduler = () => new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
const raw = (ts: number, device = "f0:18:98:12:34:56"): RawSignal => ({
  row_key: `101:${ts.toString(16).padStart(16, "0")}`,
  device_id: device,
  rssi: -60,
  square_mac: "b8:27:eb:00:00:01",
  ts,
  local: false,
});

describe("decodeSignals (marbles)", () => {
  it("decodes valid records and sends invalid ones to onInvalid with their reason", () => {
    const invalid: InvalidRecord[] = [];
    scheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold<unknown>("-a-b-c-|", { a: raw(1_763_600_000_000), b: { row_key: "nope" }, c: raw(1_763_600_001_000, "DA:A1:19:00:00:01") });
      const out = source.pipe(decodeSignals({ shopId: 101, onInvalid: (x) => invalid.push(x) }), map((s) => [s.time, s.device, s.randomized]));
      expectObservable(out).toBe("-a---c-|", {
        a: [1_763_600_000_000, "f0:18:98:12:34:56", false],
        c: [1_763_600_001_000, "da:a1:19:00:00:01", true],
      });
      expectSubscriptions(source.subscriptions).toBe("^------!");
    });
    expect(invalid.map((x) => x.reason)).toEqual(["bad-row-key"]);
  });

  it("counts into a decoder the caller passes in", () => {
    const decoder = new SignalDecoder();
    scheduler().run(({ cold, expectObservable }) => {
      expectObservable(cold("-a-b|", { a: raw(1_763_600_000_000), b: 42 }).pipe(decodeSignals({ decoder }), map(() => "s"))).toBe("-s--|", { s: "s" });
    });
    expect(decoder.stats).toMatchObject({ decoded: 1, invalid: 1 });
    expect(() => decodeSignals({ decoder, shopId: 1 })).toThrow(TypeError);
  });

  it("errors the stream if onInvalid throws, and tears down on unsubscribe", () => {
    scheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const boom = new Error("stop");
      const source = cold<unknown>("-a-b-c|", { a: raw(1_763_600_000_000), b: null, c: raw(1_763_600_000_001) });
      const out = source.pipe(decodeSignals({ onInvalid: () => { throw boom; } }), map(() => "s"));
      expectObservable(out).toBe("-s-#", { s: "s" }, boom);
      expectSubscriptions(source.subscriptions).toBe("^--!");
    });
  });

  it("validates options when the operator is created", () => {
    expect(() => decodeSignals({ shopId: -1 })).toThrow(RangeError);
  });
});
