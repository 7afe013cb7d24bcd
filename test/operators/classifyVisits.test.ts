import { describe, expect, it } from "vitest";
import { map } from "rxjs";
import { TestScheduler } from "rxjs/testing";
import { classifyVisits } from "../../src/operators/classifyVisits.ts";
import type { Session } from "../../src/kernels/Session.ts";
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
