import { describe, expect, it } from "vitest";
import { VisitCounter, visitCounterOptions, type VisitCounts } from "../../../src/kernels/visits/VisitCounter.ts";
import { MemoryVisitHistory } from "../../../src/kernels/visits/MemoryVisitHistory.ts";
import type { ClassifiedSession } from "../../../src/kernels/visits/VisitClassifier.ts";
import { classifiedSession } from "../sessionFixtures.ts";

const MIN = 60_000;
const H = 3_600_000;
const DAY = 24 * H;
const D0 = Date.UTC(2026, 10, 16);

function count(sessions: readonly ClassifiedSession[], window: "hour" | "day" = "day", history = new MemoryVisitHistory()) {
  const out: VisitCounts[] = [];
  const late: ClassifiedSession[] = [];
  const counter = new VisitCounter({ window, timeZone: "UTC", history }, { emit: (c) => out.push(c), late: (s) => late.push(s) });
  for (const s of sessions) counter.push(s);
  counter.flush();
  return { out, late, counter };
}

describe("VisitCounter", () => {
  it("counts unique visitors, visits, passers-by, devices and capture rate, split by MAC kind", () => {
    const { out } = count([
      classifiedSession(D0 + 10 * H, D0 + 10 * H + 20 * MIN, "visitor", { device: "aa:00:00:00:00:01" }),
      classifiedSession(D0 + 15 * H, D0 + 15 * H + 20 * MIN, "visitor", { device: "aa:00:00:00:00:01" }),
      classifiedSession(D0 + 11 * H, D0 + 11 * H + 5 * MIN, "visitor", { device: "da:00:00:00:00:02", randomized: true }),
      classifiedSession(D0 + 9 * H, D0 + 9 * H + MIN, "passerby", { device: "aa:00:00:00:00:01" }), // later a visitor: not a passer-by
      classifiedSession(D0 + 12 * H, D0 + 12 * H + MIN, "passerby", { device: "aa:00:00:00:00:03" }),
      classifiedSession(D0 + 12 * H, D0 + 12 * H + MIN, "passerby", { device: "da:00:00:00:00:04", randomized: true }),
      classifiedSession(D0 + 8 * H, D0 + 20 * H, "staff", { device: "aa:00:00:00:00:05" }),
      classifiedSession(D0, D0 + DAY - 1, "stationary", { device: "aa:00:00:00:00:06" }),
    ]);
    expect(out).toHaveLength(1);
    const c = out[0]!;
    expect(c).toMatchObject({
      shopId: 1,
      window: "day",
      label: "2026-11-16",
      start: D0,
      end: D0 + DAY,
      visitors: 2,
      visits: 3,
      passersBy: 2,
      uniqueDevices: 4,
      captureRate: 0.5,
      newVisitors: 1,
      repeatVisitors: 0,
      staff: 1,
      stationary: 1,
    });
    expect(c.universal).toEqual({ visitors: 1, visits: 2, passersBy: 1, uniqueDevices: 2, captureRate: 0.5 });
    expect(c.randomized).toEqual({ visitors: 1, visits: 1, passersBy: 1, uniqueDevices: 2, captureRate: 0.5 });
  });

  it("tells repeat visitors from new ones through the history store, across windows and runs", () => {
    const history = new MemoryVisitHistory();
    const day = (d: number, device: string) => classifiedSession(D0 + d * DAY + 12 * H, D0 + d * DAY + 12 * H + 10 * MIN, "visitor", { device });
    const first = count([day(0, "aa:00:00:00:00:01"), day(1, "aa:00:00:00:00:01"), day(1, "aa:00:00:00:00:02")], "day", history);
    expect(first.out.map((c) => [c.label, c.newVisitors, c.repeatVisitors])).toEqual([
      ["2026-11-16", 1, 0],
      ["2026-11-17", 1, 1],
    ]);
    const second = count([day(2, "aa:00:00:00:00:02")], "day", history);
    expect(second.out[0]!.repeatVisitors).toBe(1);
  });

  it("closes windows when `complete` passes their end, and sends sessions for closed windows to sink.late with that end", () => {
    const out: VisitCounts[] = [];
    const late: [ClassifiedSession, number][] = [];
    const counter = new VisitCounter({ window: "hour", timeZone: "UTC" }, { emit: (c) => out.push(c), late: (s, closedUntil) => late.push([s, closedUntil]) });
    counter.push(classifiedSession(D0 + 10 * H + MIN, D0 + 10 * H + 9 * MIN, "visitor", { complete: D0 + 10 * H + MIN }));
    expect(out).toHaveLength(0);
    counter.push(classifiedSession(D0 + 11 * H + MIN, D0 + 11 * H + 9 * MIN, "visitor", { complete: D0 + 11 * H + MIN }));
    expect(out.map((c) => c.label)).toEqual(["2026-11-16T10:00+00:00"]);
    counter.push(classifiedSession(D0 + 10 * H + 30 * MIN, D0 + 10 * H + 40 * MIN, "visitor", { late: true, complete: D0 + 11 * H + MIN }));
    expect(late.map(([s, w]) => [s.start, w])).toEqual([[D0 + 10 * H + 30 * MIN, D0 + 11 * H]]);
    expect(counter.late).toBe(1);
    counter.flush();
    expect(out.map((c) => c.label)).toEqual(["2026-11-16T10:00+00:00", "2026-11-16T11:00+00:00"]);
  });

  it("validates options eagerly", () => {
    // @ts-expect-error wrong on purpose
    expect(() => visitCounterOptions({ window: "week" })).toThrow(RangeError);
    expect(() => visitCounterOptions({ timeZone: "Nowhere/City" })).toThrow(RangeError);
    // @ts-expect-error wrong on purpose
    expect(() => visitCounterOptions({ history: {} })).toThrow(TypeError);
    expect(() => new VisitCounter({}, {} as never)).toThrow(TypeError);
    expect(() => new VisitCounter({}, { emit: () => {}, late: 1 } as never)).toThrow(TypeError);
    // Without a late sink, late sessions are only counted.
    const counter = new VisitCounter({ window: "hour", timeZone: "UTC" }, { emit: () => {} });
    counter.push(classifiedSession(D0 + 11 * H, D0 + 11 * H + MIN, "visitor", { complete: D0 + 12 * H }));
    counter.push(classifiedSession(D0 + 11 * H + MIN, D0 + 11 * H + 2 * MIN, "visitor"));
    expect(counter.late).toBe(1);
  });
});
