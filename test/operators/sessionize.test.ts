import { describe, expect, it } from "vitest";
import { map } from "rxjs";
import { TestScheduler } from "rxjs/testing";
import { sessionize } from "../../src/operators/sessionize.ts";
import type { Session } from "../../src/kernels/sessions/Session.ts";
import type { Signal } from "../../src/codec/Signal.ts";
import type { ProximitySlice } from "../../src/kernels/proximity/SessionProximity.ts";
import { EventTimeEngine } from "../../src/kernels/sessions/EventTimeEngine.ts";
import { MIN, sig } from "../kernels/fixtures.ts";

const scheduler = () => new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
// Compare sessions by what identifies them.
const brief = (s: Session) => ({ device: s.device, start: s.start, end: s.end, signals: s.signalCount });
const B = "bb:00:00:00:00:02";

describe("sessionize (marbles)", () => {
  it("emits a session when the watermark passes end + gap, and the rest on completion", () => {
    scheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold<Signal>("-a-b-c-|", { a: sig(0), b: sig(4 * MIN), c: sig(20 * MIN) });
      expectObservable(source.pipe(sessionize({ gapMs: 5 * MIN, allowedLatenessMs: 0 }), map(brief))).toBe("-----x-(y|)", {
        x: { device: "aa:00:00:00:00:01", start: 0, end: 4 * MIN, signals: 2 },
        y: { device: "aa:00:00:00:00:01", start: 20 * MIN, end: 20 * MIN, signals: 1 },
      });
      expectSubscriptions(source.subscriptions).toBe("^------!");
    });
  });

  it("merges two sessions when a late-arriving signal within the lateness bridges them", () => {
    scheduler().run(({ cold, expectObservable }) => {
      const source = cold<Signal>("-a-b-c-d-|", { a: sig(0), b: sig(8 * MIN), c: sig(4 * MIN), d: sig(30 * MIN, B) });
      expectObservable(source.pipe(sessionize({ gapMs: 5 * MIN, allowedLatenessMs: 10 * MIN }), map(brief))).toBe("-------x-(y|)", {
        x: { device: "aa:00:00:00:00:01", start: 0, end: 8 * MIN, signals: 3 },
        y: { device: B, start: 30 * MIN, end: 30 * MIN, signals: 1 },
      });
    });
  });

  it("sends signals beyond the allowed lateness to onLate, unchanged sessions", () => {
    const late: [number, number][] = [];
    scheduler().run(({ cold, expectObservable }) => {
      const source = cold<Signal>("-a-b-c|", { a: sig(0), b: sig(20 * MIN, B), c: sig(2 * MIN) });
      const out = source.pipe(
        sessionize({ gapMs: 5 * MIN, allowedLatenessMs: MIN, onLate: (s, w) => late.push([s.time, w]) }),
        map(brief),
      );
      expectObservable(out).toBe("---x--(y|)", {
        x: { device: "aa:00:00:00:00:01", start: 0, end: 0, signals: 1 },
        y: { device: B, start: 20 * MIN, end: 20 * MIN, signals: 1 },
      });
    });
    expect(late).toEqual([[2 * MIN, 19 * MIN]]);
  });

  it("unsubscribes from the source when unsubscribed, without flushing", () => {
    scheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold<Signal>("-a-b-c-d-|", { a: sig(0), b: sig(MIN), c: sig(2 * MIN), d: sig(3 * MIN) });
      expectObservable(source.pipe(sessionize()), "^---!").toBe("-----");
      expectSubscriptions(source.subscriptions).toBe("^---!");
    });
  });

  it("passes errors through without flushing", () => {
    scheduler().run(({ cold, expectObservable }) => {
      const source = cold<Signal>("-a-#", { a: sig(0) }, new Error("boom"));
      expectObservable(source.pipe(sessionize())).toBe("---#", undefined, new Error("boom"));
    });
  });

  it("emits sessions with their proximity, and finished slices to onSlice, exactly as the engine does", () => {
    const signals = [sig(0, undefined, -50), sig(12_000, undefined, -55), sig(25_000, B, -70, { sensor: "b8:27:eb:00:00:02" }), sig(20 * MIN, undefined, -60)];
    const expected: Session[] = [];
    const expectedSlices: ProximitySlice[] = [];
    const engine = new EventTimeEngine({ gapMs: 5 * MIN, allowedLatenessMs: 0 }, { emit: (s) => expected.push(s), slice: (s) => expectedSlices.push(s) });
    for (const s of signals) engine.push(s);
    engine.flush();
    expect(expected.every((s) => s.proximity !== undefined)).toBe(true);
    const slices: ProximitySlice[] = [];
    scheduler().run(({ cold, expectObservable }) => {
      const source = cold<Signal>("-a-b-c-d-----|", { a: signals[0]!, b: signals[1]!, c: signals[2]!, d: signals[3]! });
      // d moves the watermark past a's and c's sessions (end + gap); completion flushes d's.
      expectObservable(source.pipe(sessionize({ gapMs: 5 * MIN, allowedLatenessMs: 0, onSlice: (s) => slices.push(s) }))).toBe("-------(xy)--(z|)", {
        x: expected[0],
        y: expected[1],
        z: expected[2],
      });
    });
    expect(slices).toEqual(expectedSlices);
    expect(slices.map((s) => s.start)).toEqual([0, 10_000, 20_000, 20 * MIN]);
  });

  it("proximity: false gives sessions without proximity", () => {
    scheduler().run(({ cold, expectObservable }) => {
      const source = cold<Signal>("-a-|", { a: sig(0) });
      expectObservable(source.pipe(sessionize({ proximity: false }), map((s) => s.proximity))).toBe("---(x|)", { x: undefined });
    });
  });

  it("validates options when the operator is created", () => {
    expect(() => sessionize({ gapMs: -1 })).toThrow(RangeError);
    expect(() => sessionize({ proximity: { sliceMs: 0 } })).toThrow(RangeError);
    // @ts-expect-error wrong on purpose
    expect(() => sessionize({ onLate: 3 })).toThrow(TypeError);
    // @ts-expect-error wrong on purpose
    expect(() => sessionize({ onSlice: 3 })).toThrow(TypeError);
    expect(() => sessionize({ proximity: false, onSlice: () => {} })).toThrow(TypeError);
  });
});
