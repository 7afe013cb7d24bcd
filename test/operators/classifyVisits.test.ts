import { describe, expect, it } from "vitest";
import { from, map, type Observable } from "rxjs";
import { TestScheduler } from "rxjs/testing";
import { classifyVisits } from "../../src/operators/classifyVisits.ts";
import { decodeSignals } from "../../src/operators/decodeSignals.ts";
import { sessionize, type SessionizeOptions } from "../../src/operators/sessionize.ts";
import type { Session } from "../../src/kernels/sessions/Session.ts";
import type { ClassifiedSession } from "../../src/kernels/visits/VisitClassifier.ts";
import { createWorld } from "../../src/sim/createWorld.ts";
import { session } from "../kernels/sessionFixtures.ts";

const scheduler = () => new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
const MIN = 60_000;
const H = 3_600_000;
const D0 = Date.UTC(2026, 10, 16);

describe("classifyVisits (marbles)", () => {
  it("holds a day's sessions until the day is complete, then emits them sorted by start", () => {
    scheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const a = session(D0 + 12 * H, D0 + 12 * H + 20 * MIN, { device: "aa:00:00:00:00:02", complete: D0 + 11 * H });
      const b = session(D0 + 11 * H, D0 + 13 * H, { complete: D0 + 20 * H });
      const p = session(D0 + 14 * H, D0 + 14 * H + 4 * MIN, { device: "aa:00:00:00:00:03", peakSmoothedRssi: -80, complete: D0 + 14 * H });
      const next = session(D0 + 24 * H + 10 * H, D0 + 24 * H + 11 * H, { complete: D0 + 24 * H + 10 * H });
      const source = cold<Session>("-a-b-p-n------|", { a, b, p, n: next });
      const out = source.pipe(classifyVisits({ timeZone: "UTC", visitorRssi: -65 }), map((s) => `${s.date} ${s.device.slice(-1)} ${s.kind}`));
      expectObservable(out).toBe("-------(xyz)--(w|)", {
        x: "2026-11-16 1 visitor",
        y: "2026-11-16 2 visitor",
        z: "2026-11-16 3 passerby",
        w: "2026-11-17 1 visitor",
      });
      expectSubscriptions(source.subscriptions).toBe("^-------------!");
    });
  });

  it("decides a day after maxDayWaitMs and emits a session arriving afterwards at once, on its own, flagged late", () => {
    scheduler().run(({ cold, expectObservable }) => {
      const DAY = 24 * H;
      // A device that never leaves, seen from 08:00 until 20:00 the next day: while its session is
      // open, `complete` stays at its start (08:00) and cannot decide the first day.
      const printer = "aa:00:00:00:00:09";
      const a = session(D0 + 12 * H, D0 + 12 * H + 20 * MIN, { complete: D0 + 8 * H });
      // Its watermark (11:00 next day) is more than maxDayWaitMs (6 h) past the first day's end;
      // once a session of a later watermark shows that all those it closed have come, the first
      // day is decided, without the printer.
      const n = session(D0 + DAY + 10 * H, D0 + DAY + 11 * H, { device: "aa:00:00:00:00:02", complete: D0 + 8 * H });
      const s = session(D0 + 8 * H, D0 + DAY + 20 * H, { device: printer, complete: D0 + DAY + 10 * H });
      const source = cold<Session>("-a-n-s---|", { a, n, s });
      const out = source.pipe(
        classifyVisits({ timeZone: "UTC", visitorRssi: -65 }),
        map((c) => `${c.date} ${c.device.slice(-1)} ${c.kind} ${c.late ? "late" : "on time"} complete${(c.complete - D0) / H}h`),
      );
      // The printer's session starts on the decided day: it is not held for the second day or for
      // completion but classified alone at once — it covers 20 of the second day's 24 h (≥ 75 %),
      // so stationary — and dated by its start. The first day's `complete` (its end, 24 h) stands.
      expectObservable(out).toBe("-----(xy)(z|)", {
        x: "2026-11-16 1 visitor on time complete24h",
        y: "2026-11-16 9 stationary late complete24h",
        z: "2026-11-17 2 visitor on time complete48h",
      });
    });
  });

  it("drops held sessions on unsubscribe and passes errors through", () => {
    scheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold<Session>("-a---|", { a: session(D0 + 12 * H, D0 + 13 * H) });
      expectObservable(source.pipe(classifyVisits({ timeZone: "UTC" })), "^--!").toBe("----");
      expectSubscriptions(source.subscriptions).toBe("^--!");
      const failing = cold<Session>("-a-#", { a: session(D0 + 12 * H, D0 + 13 * H) });
      expectObservable(failing.pipe(classifyVisits({ timeZone: "UTC" }))).toBe("---#");
    });
  });

  it("keeps each session's proximity on the classified session", () => {
    const proximity = {
      slices: 2,
      closestSensor: "b8:27:eb:00:00:01",
      closestDistanceM: 0.8,
      closestRssi: -47,
      closestTime: D0 + 12 * H,
      closestZone: "immediate",
      zoneMs: { immediate: 20 * MIN, near: 0, far: 0 },
      zoneMsBySensor: [{ sensor: "b8:27:eb:00:00:01", immediate: 20 * MIN, near: 0, far: 0 }],
      timeline: [{ time: D0 + 12 * H, sensor: "b8:27:eb:00:00:01", zone: "immediate", distanceM: 0.8 }],
      timelineTruncated: false,
    } as const;
    scheduler().run(({ cold, expectObservable }) => {
      const a = session(D0 + 12 * H, D0 + 12 * H + 20 * MIN, { proximity });
      const b = session(D0 + 13 * H, D0 + 13 * H + 20 * MIN, { device: "aa:00:00:00:00:02" });
      const source = cold<Session>("-a-b-|", { a, b });
      const out = source.pipe(classifyVisits({ timeZone: "UTC", visitorRssi: -65 }), map((c) => c.proximity));
      expectObservable(out).toBe("-----(xy|)", { x: proximity, y: undefined });
    });
  });

  it("validates options when the operator is created", () => {
    expect(() => classifyVisits({ minDwellMs: -5 })).toThrow(RangeError);
  });
});

describe("classifyVisits fused after sessionize (the engine hands sessions over unbuilt)", () => {
  const world = createWorld({ seed: 11, shops: 2, days: 2, visitorsPerDay: 40, passersByPerDay: 150 });
  const records = world.shops.flatMap((shop) => [...world.rawSignals(shop.id)]);
  /** Each session as JSON when it is emitted (key order included), and the sessions themselves. */
  const emitted = (chain: Observable<ClassifiedSession>) => {
    const atEmit: string[] = [];
    const sessions: ClassifiedSession[] = [];
    chain.subscribe((s) => {
      atEmit.push(JSON.stringify(s));
      sessions.push(s);
    });
    return { atEmit, sessions };
  };

  it("gives what the stages kept apart give, byte for byte, whatever the smoothing and proximity", () => {
    const settings: SessionizeOptions[] = [{}, { smoothing: { method: "trimmedMean", size: 5 } }, { proximity: false }, { proximity: { timelineLimit: 2 } }];
    for (const options of settings) {
      const fused = emitted(from(records).pipe(decodeSignals(), sessionize(options), classifyVisits({ timeZone: "UTC" })));
      const apart = emitted(from(records).pipe(decodeSignals(), sessionize(options), map((s) => s), classifyVisits({ timeZone: "UTC" })));
      expect(fused.atEmit.length).toBeGreaterThan(100);
      expect(fused.atEmit).toEqual(apart.atEmit);
    }
  });

  it("emits late sessions (their day already decided) as the stages kept apart do", () => {
    // A short day wait decides days while equipment's sessions are still open: they come late.
    const classify = { timeZone: "UTC", maxDayWaitMs: 0 };
    const fused = emitted(from(records).pipe(decodeSignals(), sessionize(), classifyVisits(classify)));
    const apart = emitted(from(records).pipe(decodeSignals(), sessionize(), map((s) => s), classifyVisits(classify)));
    expect(fused.sessions.some((s) => s.late)).toBe(true);
    expect(fused.atEmit).toEqual(apart.atEmit);
  });

  it("never changes a session after emitting it, while the engine reuses closed sessions' state", () => {
    const { atEmit, sessions } = emitted(from(records).pipe(decodeSignals(), sessionize(), classifyVisits({ timeZone: "UTC" })));
    expect(sessions.map((s) => JSON.stringify(s))).toEqual(atEmit);
    // Distinct objects: nothing emitted is shared between sessions.
    expect(new Set(sessions.map((s) => s.sensors)).size).toBe(sessions.length);
  });
});
