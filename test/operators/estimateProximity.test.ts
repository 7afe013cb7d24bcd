import { describe, expect, it } from "vitest";
import { TestScheduler } from "rxjs/testing";
import { from, toArray, firstValueFrom } from "rxjs";
import type { Signal } from "../../src/codec/Signal.ts";
import { estimateProximity, type ProximityEvent } from "../../src/operators/estimateProximity.ts";
import { ProximityTracker, type ProximitySlice, type ProximitySummary } from "../../src/kernels/ProximityTracker.ts";

const A = "b8:27:eb:00:00:0a";
const PHONE = "f0:18:98:12:34:56";
const T0 = 1_763_600_000_000;

function sig(time: number, rssi: number, device = PHONE): Signal {
  return { shopId: 101, rts: "0000000000000000", time, device, rssi, sensor: A, local: false, randomized: false, vendor: undefined };
}

function scheduler() {
  return new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
}

/** The same signals through the kernel directly: the operator must be a thin wrapper over it. */
function viaKernel(signals: Signal[], gapMs: number): ProximityEvent[] {
  const out: ProximityEvent[] = [];
  const tracker = new ProximityTracker({ gapMs, idleMs: gapMs * 2, allowedLatenessMs: 0, onSlice: (s) => out.push(s), onSummary: (s) => out.push(s) });
  for (const s of signals) tracker.add(s);
  tracker.flush();
  return out;
}

describe("estimateProximity", () => {
  const gapMs = 60_000;
  const a = sig(T0, -50);
  const b = sig(T0 + 12_000, -55);
  const c = sig(T0 + 200_000, -70); // closes the first session (watermark past b + gap)
  const [s1, s2, sum1, s3, sum2] = viaKernel([a, b, c], gapMs) as [ProximitySlice, ProximitySlice, ProximitySummary, ProximitySlice, ProximitySummary];

  it("emits slices as they finish, summaries at session close, flushes on complete", () => {
    expect([s1.type, s2.type, sum1.type, s3.type, sum2.type]).toEqual([
      "proximitySlice",
      "proximitySlice",
      "proximitySummary",
      "proximitySlice",
      "proximitySummary",
    ]);
    scheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold("a-b--c---|", { a, b, c });
      // b finishes a's slice; c closes the session (b's slice + summary); completion flushes c's slice and session.
      expectObservable(source.pipe(estimateProximity({ gapMs, idleMs: 2 * gapMs, allowedLatenessMs: 0 }))).toBe("--x--(yz)(wv|)", {
        x: s1,
        y: s2,
        z: sum1,
        w: s3,
        v: sum2,
      });
      expectSubscriptions(source.subscriptions).toBe("^--------!");
    });
  });

  it("emits only what `emit` asks for", () => {
    scheduler().run(({ cold, expectObservable }) => {
      const source = cold("a-b--c---|", { a, b, c });
      expectObservable(source.pipe(estimateProximity({ gapMs, idleMs: 2 * gapMs, allowedLatenessMs: 0, emit: "summaries" }))).toBe("-----z---(v|)", {
        z: sum1,
        v: sum2,
      });
      expectObservable(source.pipe(estimateProximity({ gapMs, idleMs: 2 * gapMs, allowedLatenessMs: 0, emit: "slices" }))).toBe("--x--y---(w|)", {
        x: s1,
        y: s2,
        w: s3,
      });
    });
  });

  it("tears down: unsubscribing stops the source and emits no flush", () => {
    scheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold("a-b--c---|", { a, b, c });
      expectObservable(source.pipe(estimateProximity({ gapMs, idleMs: 2 * gapMs, allowedLatenessMs: 0 })), "^---!").toBe("--x--", { x: s1 });
      expectSubscriptions(source.subscriptions).toBe("^---!");
    });
  });

  it("passes errors through and emits nothing more", () => {
    scheduler().run(({ cold, expectObservable }) => {
      const source = cold("a-b-#", { a, b }, new Error("boom"));
      expectObservable(source.pipe(estimateProximity({ gapMs, idleMs: 2 * gapMs, allowedLatenessMs: 0 }))).toBe("--x-#", { x: s1 }, new Error("boom"));
    });
  });

  it("keeps subscriptions independent (state per subscriber)", async () => {
    const op = estimateProximity({ gapMs, idleMs: 2 * gapMs, allowedLatenessMs: 0, emit: "summaries" });
    const source = from([a, b, c]);
    const [one, two] = await Promise.all([firstValueFrom(source.pipe(op, toArray())), firstValueFrom(source.pipe(op, toArray()))]);
    expect(one).toEqual([sum1, sum2]);
    expect(two).toEqual(one);
  });

  describe("with allowed lateness", () => {
    const allowedLatenessMs = 30_000;
    const op = () => estimateProximity({ gapMs, idleMs: 2 * gapMs, allowedLatenessMs });
    const summaries = (events: ProximityEvent[]) => events.filter((e): e is ProximitySummary => e.type === "proximitySummary");

    it("uses a signal arriving out of order within the lateness exactly as if it came in order", () => {
      // e (T0 + 5 s) arrives after b (T0 + 12 s): the watermark is then T0 − 18 s, so e is on time.
      const e = sig(T0 + 5_000, -60);
      const sorted = viaKernel([a, e, b, c], gapMs);
      const [x, y, z, w, v] = sorted as [ProximitySlice, ProximitySlice, ProximitySummary, ProximitySlice, ProximitySummary];
      expect([x.signals, z.signals]).toEqual([2, 3]); // e counts in the first slice and the first session
      scheduler().run(({ cold, expectObservable }) => {
        const source = cold("a-b-e-c-----|", { a, b, e, c });
        // Nothing is processed until c moves the watermark to T0 + 170 s: then a, e, b in time order
        // (b finishes the first slice) and the sweep closes the session; completion flushes c.
        expectObservable(source.pipe(op())).toBe("------(xyz)-(wv|)", { x, y, z, w, v });
      });
    });

    it("drops a signal later than the lateness: the output is that of the input without it", () => {
      const b40 = sig(T0 + 40_000, -55);
      // g (T0 + 5 s) arrives after b40 moved the watermark to T0 + 10 s. Its strong RSSI would
      // change the first slice and the closest approach if it were used.
      const g = sig(T0 + 5_000, -40);
      const [x, y, z, w, v] = viaKernel([a, b40, c], gapMs) as [ProximitySlice, ProximitySlice, ProximitySummary, ProximitySlice, ProximitySummary];
      expect([x.signals, z.signals]).toEqual([1, 2]);
      const late: [Signal, number][] = [];
      scheduler().run(({ cold, expectObservable }) => {
        const source = cold("a-b-g-c-----|", { a, b: b40, g, c });
        // b40's watermark (T0 + 10 s) releases a and ends its slice; g changes nothing.
        const withLate = estimateProximity({ gapMs, idleMs: 2 * gapMs, allowedLatenessMs, onLate: (s, wm) => late.push([s, wm]) });
        expectObservable(source.pipe(withLate)).toBe("--x---(yz)--(wv|)", { x, y, z, w, v });
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
      expect(summaries(viaKernel([a, b, x85, c], gapMs)).map((s) => [s.start, s.end])).toEqual([
        [T0, T0 + 12_000],
        [T0 + 85_000, T0 + 85_000],
        [T0 + 200_000, T0 + 200_000],
      ]);
      const sorted = viaKernel([a, b, m, x85, c], gapMs);
      expect(summaries(sorted).map((s) => [s.start, s.end, s.signals])).toEqual([
        [T0, T0 + 85_000, 4],
        [T0 + 200_000, T0 + 200_000, 1],
      ]);
      const [p, q, r, s, u, v, w] = sorted as [
        ProximitySlice,
        ProximitySlice,
        ProximitySlice,
        ProximitySlice,
        ProximitySummary,
        ProximitySlice,
        ProximitySummary,
      ];
      scheduler().run(({ cold, expectObservable }) => {
        const source = cold("a-b-x---m-c-----|", { a, b, x: x85, m, c });
        // x85 releases a and b and finishes both their slices; c releases m and x85 and closes the
        // one merged session; completion flushes c.
        expectObservable(source.pipe(op())).toBe("----(pq)--(rsu)-(vw|)", { p, q, r, s, u, v, w });
      });
    });
  });

  it("validates options when created", () => {
    expect(() => estimateProximity({ sliceMs: -1 })).toThrow(RangeError);
    expect(() => estimateProximity({ emit: "all" as never })).toThrow(RangeError);
  });
});
