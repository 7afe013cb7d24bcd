import { describe, expect, it } from "vitest";
import { TestScheduler } from "rxjs/testing";
import { from, toArray, firstValueFrom, lastValueFrom } from "rxjs";
import type { Signal } from "../../src/codec/Signal.ts";
import { estimateProximity, type EstimateProximityOptions } from "../../src/operators/estimateProximity.ts";
import { sessionize } from "../../src/operators/sessionize.ts";
import { EventTimeEngine } from "../../src/kernels/sessions/EventTimeEngine.ts";
import type { Session } from "../../src/kernels/sessions/Session.ts";
import type { ProximitySlice } from "../../src/kernels/proximity/SessionProximity.ts";

const A = "b8:27:eb:00:00:0a";
const B = "b8:27:eb:00:00:0b";
const PHONE = "f0:18:98:12:34:56";
const T0 = 1_763_600_000_000;

function sig(time: number, rssi: number, device = PHONE, sensor = A): Signal {
  return { shopId: 101, rts: "0000000000000000", time, device, rssi, sensor, local: false, randomized: false, vendor: undefined };
}

function scheduler() {
  return new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
}

/** The same signals through the engine directly: the operator must be a thin wrapper over it. */
function viaKernel(signals: Signal[], gapMs: number, allowedLatenessMs = 0) {
  const slices: ProximitySlice[] = [];
  const sessions: Session[] = [];
  const engine = new EventTimeEngine({ gapMs, allowedLatenessMs }, { emit: (s) => sessions.push(s), slice: (s) => slices.push(s) });
  for (const s of signals) engine.push(s);
  engine.flush();
  return { slices, sessions };
}

describe("estimateProximity", () => {
  const gapMs = 60_000;
  const a = sig(T0, -50);
  const b = sig(T0 + 12_000, -55);
  const c = sig(T0 + 200_000, -70); // closes the first session (watermark past b + gap)
  const [s1, s2, s3] = viaKernel([a, b, c], gapMs).slices as [ProximitySlice, ProximitySlice, ProximitySlice];

  it("emits only slices: as the watermark passes their end, when their session closes, and on completion", () => {
    expect([s1, s2, s3].map((s) => [s.type, s.start - T0, s.end - T0, s.signals, s.sensor])).toEqual([
      ["proximitySlice", 0, 10_000, 1, A],
      ["proximitySlice", 10_000, 20_000, 1, A],
      ["proximitySlice", 200_000, 210_000, 1, A],
    ]);
    scheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold("a-b--c---|", { a, b, c });
      // b's watermark passes a's slice; c's closes b's session (and its slice); completion flushes c.
      expectObservable(source.pipe(estimateProximity({ gapMs, allowedLatenessMs: 0 }))).toBe("--x--y---(w|)", { x: s1, y: s2, w: s3 });
      expectSubscriptions(source.subscriptions).toBe("^--------!");
    });
  });

  it("gives the slices sessionize's onSlice gets, and they agree with each Session.proximity", async () => {
    const signals = [a, sig(T0 + 3_000, -80, PHONE, B), b, sig(T0 + 15_000, -45, PHONE, B), sig(T0 + 31_000, -60), c];
    const options: EstimateProximityOptions = { gapMs, allowedLatenessMs: 5_000, sliceMs: 5_000, sensorStaleMs: 20_000 };
    const slices = await lastValueFrom(from(signals).pipe(estimateProximity(options), toArray()));
    const side: ProximitySlice[] = [];
    const sessions = await lastValueFrom(
      from(signals).pipe(sessionize({ gapMs, allowedLatenessMs: 5_000, proximity: { sliceMs: 5_000, sensorStaleMs: 20_000 }, onSlice: (s) => side.push(s) }), toArray()),
    );
    expect(slices).toEqual(side);
    expect(slices.every((s) => s.end - s.start === 5_000)).toBe(true);
    for (const s of sessions) {
      const own = slices.filter((x) => x.device === s.device && x.end > s.start && x.start <= s.end);
      const p = s.proximity!;
      expect(own).toHaveLength(p.slices);
      expect(Math.min(...own.map((x) => x.distanceM))).toBe(p.closestDistanceM);
    }
  });

  it("tears down: unsubscribing stops the source and emits no flush", () => {
    scheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold("a-b--c---|", { a, b, c });
      expectObservable(source.pipe(estimateProximity({ gapMs, allowedLatenessMs: 0 })), "^---!").toBe("--x--", { x: s1 });
      expectSubscriptions(source.subscriptions).toBe("^---!");
    });
  });

  it("passes errors through and emits nothing more", () => {
    scheduler().run(({ cold, expectObservable }) => {
      const source = cold("a-b-#", { a, b }, new Error("boom"));
      expectObservable(source.pipe(estimateProximity({ gapMs, allowedLatenessMs: 0 }))).toBe("--x-#", { x: s1 }, new Error("boom"));
    });
  });

  it("keeps subscriptions independent (state per subscriber)", async () => {
    const op = estimateProximity({ gapMs, allowedLatenessMs: 0 });
    const source = from([a, b, c]);
    const [one, two] = await Promise.all([firstValueFrom(source.pipe(op, toArray())), firstValueFrom(source.pipe(op, toArray()))]);
    expect(one).toEqual([s1, s2, s3]);
    expect(two).toEqual(one);
  });

  describe("with allowed lateness", () => {
    const allowedLatenessMs = 30_000;
    const op = () => estimateProximity({ gapMs, allowedLatenessMs });

    it("uses a signal arriving out of order within the lateness exactly as if it came in order", () => {
      // e (T0 + 5 s) arrives after b (T0 + 12 s): the watermark is then T0 − 18 s, so e is on time.
      const e = sig(T0 + 5_000, -60);
      const [x, y, w] = viaKernel([a, e, b, c], gapMs).slices as [ProximitySlice, ProximitySlice, ProximitySlice];
      expect(x.signals).toBe(2); // e counts in the first slice
      scheduler().run(({ cold, expectObservable }) => {
        const source = cold("a-b-e-c-----|", { a, b, e, c });
        // Nothing is applied until c moves the watermark to T0 + 170 s: then a, e, b in time order
        // (b finishes the first slice) and the session closes (its last slice); completion flushes c.
        expectObservable(source.pipe(op())).toBe("------(xy)--(w|)", { x, y, w });
      });
    });

    it("drops a signal later than the lateness: the output is that of the input without it", () => {
      const b40 = sig(T0 + 40_000, -55);
      // g (T0 + 5 s) arrives after b40 moved the watermark to T0 + 10 s. Its strong RSSI would
      // change the first slice if it were used.
      const g = sig(T0 + 5_000, -40);
      const [x, y, w] = viaKernel([a, b40, c], gapMs).slices as [ProximitySlice, ProximitySlice, ProximitySlice];
      expect(x.signals).toBe(1);
      const late: [Signal, number][] = [];
      scheduler().run(({ cold, expectObservable }) => {
        const source = cold("a-b-g-c-----|", { a, b: b40, g, c });
        // b40's watermark (T0 + 10 s) applies a and passes its slice's end; g changes nothing.
        const withLate = estimateProximity({ gapMs, allowedLatenessMs, onLate: (s, wm) => late.push([s, wm]) });
        expectObservable(source.pipe(withLate)).toBe("--x---y-----(w|)", { x, y, w });
      });
      // g went to the late channel, with the watermark that made it late.
      expect(late).toEqual([[g, T0 + 10_000]]);
    });

    it("merges two sessions of a device when a signal in the gap arrives late, within the lateness", () => {
      // b (T0 + 12 s) and x (T0 + 85 s) are 73 s apart, more than gapMs: two sessions without m.
      const x85 = sig(T0 + 85_000, -52);
      // m (T0 + 60 s) is within gapMs of both; it arrives after x85, above its watermark (T0 + 55 s),
      // which has not yet passed b + gapMs (T0 + 72 s), so the first session is still open.
      const m = sig(T0 + 60_000, -58);
      expect(viaKernel([a, b, x85, c], gapMs).sessions.map((s) => [s.start - T0, s.end - T0])).toEqual([
        [0, 12_000],
        [85_000, 85_000],
        [200_000, 200_000],
      ]);
      const sorted = viaKernel([a, b, m, x85, c], gapMs);
      expect(sorted.sessions.map((s) => [s.start - T0, s.end - T0, s.signalCount, s.proximity?.slices])).toEqual([
        [0, 85_000, 4, 4],
        [200_000, 200_000, 1, 1],
      ]);
      const [p, q, r, s, v] = sorted.slices as [ProximitySlice, ProximitySlice, ProximitySlice, ProximitySlice, ProximitySlice];
      expect([p, q, r, s, v].map((x) => x.start - T0)).toEqual([0, 10_000, 60_000, 80_000, 200_000]);
      scheduler().run(({ cold, expectObservable }) => {
        const source = cold("a-b-x---m-c-----|", { a, b, x: x85, m, c });
        // x85's watermark (T0 + 55 s) applies a and b and passes both their slices; c's applies m
        // and x85 and closes the one merged session (x85's slice with it); completion flushes c.
        expectObservable(source.pipe(op())).toBe("----(pq)--(rs)--(v|)", { p, q, r, s, v });
      });
    });
  });

  it("validates options when created", () => {
    expect(() => estimateProximity({ sliceMs: -1 })).toThrow(RangeError);
    expect(() => estimateProximity({ sliceMs: 10_000, sensorStaleMs: 1_000 })).toThrow(RangeError);
    expect(() => estimateProximity({ gapMs: -1 })).toThrow(RangeError);
    expect(() => estimateProximity({ onLate: 5 as never })).toThrow(TypeError);
  });
});
