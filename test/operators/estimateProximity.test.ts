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

  it("validates options when created", () => {
    expect(() => estimateProximity({ sliceMs: -1 })).toThrow(RangeError);
    expect(() => estimateProximity({ emit: "all" as never })).toThrow(RangeError);
  });
});
