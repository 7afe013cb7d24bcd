import { describe, expect, it } from "vitest";
import { burstGroups } from "../../../src/kernels/phones/burstGroups.ts";
import type { ClassifiedSession } from "../../../src/kernels/visits/VisitClassifier.ts";

const RULES = { burstMs: 1_000, burstRssiDb: 6 };
let n = 0;
/** A one-burst randomized MAC heard at `start` by the sensors given, with their readings. */
function mac(start: number, readings: Record<string, number>): ClassifiedSession {
  n++;
  const sensors = Object.entries(readings).map(([sensor, rssi]) => ({ sensor, signalCount: 3, first: start, last: start, peakRssi: rssi, peakSmoothedRssi: rssi }));
  return { device: `da:00:00:00:${(n >> 8).toString(16).padStart(2, "0")}:${(n & 255).toString(16).padStart(2, "0")}`, start, end: start, probeCount: 1, randomized: true, sensors } as unknown as ClassifiedSession;
}

describe("burstGroups", () => {
  it("takes MACs a phone sends within one burst — one per channel, heard by different sensors — for one burst", () => {
    const t = 1_000_000;
    const perChannel = [mac(t, { s1: -60 }), mac(t + 200, { s2: -66 }), mac(t + 450, { s3: -71 })];
    const next = mac(t + 15_000, { s1: -61, s2: -65, s3: -70 });
    const bursts = burstGroups([next, ...perChannel], RULES);
    expect(bursts.map((b) => b.sessions.length)).toEqual([3, 1]);
    expect(bursts[0]!.start).toBe(t);
    expect(bursts[0]!.rssi).toEqual(new Map([["s1", -60], ["s2", -66], ["s3", -71]]));
  });

  it("takes MACs of one frame each on one channel, read alike, for one burst", () => {
    const t = 2_000_000;
    const bursts = burstGroups([0, 30, 60, 90].map((d) => mac(t + d, { s1: -58 + (d % 2) })), RULES);
    expect(bursts).toHaveLength(1);
  });

  it("keeps two phones apart when a sensor that heard both reads them far apart, or when they are more than a burst apart", () => {
    const t = 3_000_000;
    expect(burstGroups([mac(t, { s1: -55, s2: -70 }), mac(t + 300, { s1: -75, s2: -52 })], RULES)).toHaveLength(2);
    expect(burstGroups([mac(t, { s1: -60 }), mac(t + 1_500, { s1: -60 })], RULES)).toHaveLength(2);
  });

  it("tells two phones' bursts under way in the same second apart, each MAC with the burst it reads like", () => {
    const t = 5_000_000;
    const a = [0, 100, 250].map((d) => mac(t + d, { s1: -55 }));
    const b = [50, 150, 300].map((d) => mac(t + d, { s1: -75 }));
    const bursts = burstGroups([...a, ...b], RULES);
    expect(bursts.map((x) => x.sessions.length)).toEqual([3, 3]);
    expect(new Set(bursts[0]!.sessions)).toEqual(new Set(a));
  });

  it("holds a MAC against the burst's mean reading: a phone's noisy readings, up to 8 dB apart, stay one burst", () => {
    const t = 6_000_000;
    const bursts = burstGroups([-60, -64, -57, -63, -58, -65, -61, -59].map((rssi, i) => mac(t + i * 50, { s1: rssi })), RULES);
    expect(bursts).toHaveLength(1);
  });

  it("puts each MAC in one burst, whatever the order given", () => {
    const t = 4_000_000;
    const macs = Array.from({ length: 40 }, (_, i) => mac(t + i * 400, { s1: -60 - (i % 3) * 5 }));
    const a = burstGroups(macs, RULES);
    const b = burstGroups([...macs].reverse(), RULES);
    expect(a.map((x) => x.sessions.map((s) => s.device))).toEqual(b.map((x) => x.sessions.map((s) => s.device)));
    expect(a.reduce((sum, x) => sum + x.sessions.length, 0)).toBe(40);
  });
});
