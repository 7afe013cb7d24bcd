import { describe, expect, it } from "vitest";
import { timerMacs } from "../../../src/kernels/phones/timerMacs.ts";
import { ONE_BURST_RULES } from "../../../src/kernels/phones/oneBurstMacs.ts";
import { dayModel } from "../../../src/kernels/people/dayModel.ts";
import { peopleEstimatorOptions } from "../../../src/kernels/people/peopleEstimatorOptions.ts";
import type { ClassifiedSession } from "../../../src/kernels/visits/VisitClassifier.ts";

let n = 0;
/**
 * A randomized MAC heard from `start` for `bursts` bursts every `periodMs` (a strict timer when
 * `periodic`), at the sensors given with their peak readings, as a visitor (or `kind`).
 */
function mac(start: number, bursts: number, periodMs: number, readings: Record<string, number>, o: { periodic?: boolean; kind?: "visitor" | "passerby" } = {}): ClassifiedSession {
  n++;
  const end = start + (bursts - 1) * periodMs;
  const sensors = Object.entries(readings).map(([sensor, rssi]) => ({ sensor, signalCount: bursts, first: start, last: end, peakRssi: rssi + 3, peakSmoothedRssi: rssi }));
  const peak = Math.max(...Object.values(readings));
  return {
    shopId: 101,
    device: `da:00:00:00:${(n >> 8).toString(16).padStart(2, "0")}:${(n & 255).toString(16).padStart(2, "0")}`,
    start,
    end,
    dwellMs: end - start,
    estimatedDwellMs: bursts > 1 ? (end - start) * (bursts / (bursts - 1)) : 0,
    probeCount: bursts,
    periodicGaps: o.periodic === false ? 0 : Math.max(0, bursts - 2),
    signalCount: bursts * sensors.length,
    randomized: true,
    local: true,
    sensors,
    peakSmoothedRssi: peak,
    peakRssi: peak + 3,
    nearestSensor: sensors[0]!.sensor,
    kind: o.kind ?? "visitor",
    visitorRssi: -75,
    date: "2026-11-16",
    late: false,
  } as unknown as ClassifiedSession;
}

const T = Date.UTC(2026, 10, 16, 2);
const MIN = 60_000;

describe("timerMacs", () => {
  it("takes a phone whose MAC holds for many bursts on a fast timer, and its next MAC a period later, for one phone", () => {
    // Phone X: every 3.1 s, a MAC that holds for 20 minutes, then the next.
    const a = mac(T, 388, 3_100, { s1: -60, s2: -68 });
    const b = mac(a.end + 3_100, 194, 3_100, { s1: -61, s2: -67 });
    const chains = timerMacs([b, a], new Set(), ONE_BURST_RULES);
    expect(chains).toHaveLength(1);
    expect(chains[0]!.sessions).toEqual([a, b]);
    expect(chains[0]!.start).toBe(a.start);
    expect(chains[0]!.end).toBe(b.end);
    expect(chains[0]!.periodMs).toBeCloseTo(3_100, 6);
  });

  it("links across one missed burst, and not across a longer silence", () => {
    const a = mac(T, 100, 5_000, { s1: -60 });
    const missedOne = mac(a.end + 10_000, 50, 5_000, { s1: -60 });
    expect(timerMacs([a, missedOne], new Set(), ONE_BURST_RULES)).toHaveLength(1);
    const c = mac(T + 10 * MIN, 100, 5_000, { s1: -60 });
    const later = mac(c.end + 40_000, 50, 5_000, { s1: -60 });
    expect(timerMacs([c, later], new Set(), ONE_BURST_RULES)).toHaveLength(2);
  });

  it("does not take two phones side by side on one timer, in step, for one: the chain ends where two MACs could follow", () => {
    const a = mac(T, 100, 5_000, { s1: -60 });
    const next1 = mac(a.end + 5_000, 50, 5_000, { s1: -61 });
    const next2 = mac(a.end + 5_050, 50, 5_000, { s1: -59 });
    const chains = timerMacs([a, next1, next2], new Set(), ONE_BURST_RULES);
    expect(chains.map((c) => c.sessions.length)).toEqual([1, 1, 1]);
  });

  it("keeps MACs that read far apart, or run on another period, apart", () => {
    const a = mac(T, 100, 5_000, { s1: -55 });
    const far = mac(a.end + 5_000, 50, 5_000, { s1: -75 });
    expect(timerMacs([a, far], new Set(), ONE_BURST_RULES)).toHaveLength(2);
    const other = mac(a.end + 7_000, 50, 7_000, { s1: -55 });
    expect(timerMacs([a, other], new Set(), ONE_BURST_RULES)).toHaveLength(2);
  });

  it("passes over MACs not on a timer, on a slow one, with few bursts, heard outside, universal or taken", () => {
    const notTimer = mac(T, 100, 5_000, { s1: -60 }, { periodic: false });
    const slow = mac(T, 30, 60_000, { s1: -60 });
    const few = mac(T, 5, 5_000, { s1: -60 });
    const outside = mac(T, 100, 5_000, { s1: -90 }, { kind: "passerby" });
    const universal = { ...mac(T, 100, 5_000, { s1: -60 }), randomized: false } as ClassifiedSession;
    const taken = mac(T, 100, 5_000, { s1: -60 });
    expect(timerMacs([notTimer, slow, few, outside, universal, taken], new Set([taken]), ONE_BURST_RULES)).toEqual([]);
  });

  it("makes the phone one identity-known visit of the day, none of its MACs counted by bursts", () => {
    // Three MACs of one phone over an hour; the short last one is a passer-by by dwell.
    const a = mac(T, 388, 3_100, { s1: -60 });
    const b = mac(a.end + 3_100, 388, 3_100, { s1: -60 });
    const c = mac(b.end + 3_100, 60, 3_100, { s1: -61 }, { kind: "passerby" });
    const day = { shopId: 101, start: Date.UTC(2026, 10, 15, 15) };
    const model = dayModel([a, b, c], day, peopleEstimatorOptions({ timeZone: "Asia/Seoul" }));
    expect(model.known).toHaveLength(1);
    expect(model.known[0]!.weight).toBe(1);
    expect(model.known[0]!.start).toBe(a.start);
    expect(model.known[0]!.end).toBe(c.end);
    expect(model.rest).toEqual([]);
  });
});
