import { describe, expect, it } from "vitest";
import { phoneProfiles, type PhoneProfile } from "../../../src/sim/phones/PhoneProfile.ts";
import { realPhoneCaptures } from "../../../src/sim/phones/realPhoneCaptures.ts";
import { PHONE_VENDORS } from "../../../src/sim/phones/vendorOuis.ts";
import { createRng } from "../../../src/sim/random/prng.ts";
import { resolveWorldOptions } from "../../../src/sim/world/resolveWorldOptions.ts";
import { ShopBuilder } from "../../../src/sim/world/ShopBuilder.ts";
import type { ShopLayout, TruthPersonVisit } from "../../../src/sim/world/World.ts";

/**
 * A phone replaying a real phone's capture (`ShopBuilder.replayPhone`, `burstVisit`), heard by
 * three sensors on channels 1, 6 and 11 it stands next to (every frame heard), read back as the
 * captures were cut: bursts are frames at most 1 s apart.
 */

const PROFILES = new Map(phoneProfiles(realPhoneCaptures).map((p) => [p.id, p]));
const profile = (id: string): PhoneProfile => PROFILES.get(id)!;
const LAYOUT: ShopLayout = {
  widthM: 6,
  depthM: 5,
  doorXM: 3,
  sensors: [
    { mac: "b8:27:eb:00:00:01", xM: 2.5, yM: 2.5 },
    { mac: "b8:27:eb:00:00:02", xM: 3, yM: 2.5 },
    { mac: "b8:27:eb:00:00:03", xM: 3.5, yM: 2.5 },
  ],
};

interface Burst {
  readonly start: number;
  readonly macs: ReadonlySet<string>;
  readonly sensors: ReadonlySet<number>;
  readonly frames: number;
}

/** One visit of `minutes` of a phone replaying capture `id`, standing by the sensors, and its bursts. */
function replay(id: string, minutes: number, seed = 1, associated = false): { bursts: Burst[]; visit: TruthPersonVisit; b: ShopBuilder } {
  const o = resolveWorldOptions({ seed, phones: "real", start: 0, timeZone: "UTC" });
  const b = new ShopBuilder(101, o, LAYOUT, new Set(), 1 << 16, o.macBehaviour, o.realPhones);
  const rng = createRng(seed);
  const p = profile(id);
  const phone = b.replayPhone(rng, p, p.universal ? b.newMac(rng, PHONE_VENDORS) : undefined);
  const end = minutes * 60_000;
  b.burstVisit(rng, b.newPerson(), phone, "visitor", [0, end, 3, 2.2, 3, 2.2], 0, end, associated);
  const table = b.cols.finish(101, b.devices, LAYOUT.sensors.map((s) => s.mac));
  const bursts: { start: number; last: number; macs: Set<string>; sensors: Set<number>; frames: number }[] = [];
  for (let i = 0; i < table.count; i++) {
    const ts = table.ts[i]!;
    let cur = bursts[bursts.length - 1];
    if (cur === undefined || ts - cur.last > 1000) bursts.push((cur = { start: ts, last: ts, macs: new Set(), sensors: new Set(), frames: 0 }));
    cur.last = ts;
    cur.macs.add(table.devices[table.device[i]!]!);
    cur.sensors.add(table.sensor[i]!);
    cur.frames++;
  }
  return { bursts, visit: b.visits[0]!, b };
}

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 === 1 ? s[s.length >> 1]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const quantile = (xs: readonly number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(p * s.length) - 1)]!;
};
const gapsOf = (bursts: readonly Burst[]): number[] => bursts.slice(1).map((x, i) => x.start - bursts[i]!.start);

describe("a phone replaying a capture", () => {
  it("with a timer profile bursts at its period, as tightly as the capture (B every 15 s, C every 5 s, X every 3.1 s, U every 270 s)", () => {
    for (const [id, minutes] of [["B-A", 20], ["C-A", 20], ["X-PA", 20], ["U-A_new", 120]] as const) {
      const p = profile(id);
      expect(p.timer).toBe(true);
      const gaps = gapsOf(replay(id, minutes).bursts);
      expect(gaps.length, id).toBeGreaterThan(20);
      expect(Math.abs(median(gaps) / p.gapMedianMs - 1), id).toBeLessThan(0.01);
      expect(quantile(gaps, 0.9) / median(gaps), id).toBeLessThan(1.1);
    }
  });

  it("with an irregular profile bursts at the capture's rate, its gaps spread (N in power saving: median 13 s, p90 135 s)", () => {
    const p = profile("N-PS");
    expect(p.timer).toBe(false);
    const gaps = gapsOf(replay("N-PS", 600).bursts);
    const meanGap = gaps.reduce((a, g) => a + g, 0) / gaps.length;
    const capture = realPhoneCaptures.find((c) => c.device === "N" && c.mode === "PS")!;
    expect(Math.abs(meanGap / (60_000 / capture.burstsPerMinute) - 1)).toBeLessThan(0.2);
    expect(quantile(gaps, 0.9) / median(gaps)).toBeGreaterThan(3);
  });

  it("with a profile of several MACs a burst takes that many within one burst, every one of them new (E: ~10, J: 2–3)", () => {
    for (const id of ["E-S", "J-S", "W-S_new"]) {
      const p = profile(id);
      const { bursts } = replay(id, 60);
      const perBurst = bursts.map((x) => x.macs.size);
      expect(Math.abs(perBurst.reduce((a, n) => a + n, 0) / perBurst.length - p.macsPerBurst), id).toBeLessThan(0.15 * p.macsPerBurst);
      expect(Math.min(...perBurst), id).toBeGreaterThanOrEqual(Math.min(Math.floor(p.macsPerBurst), 2));
      const seen = new Set<string>();
      for (const x of bursts) for (const mac of x.macs) {
        expect(seen.has(mac), `${id}: ${mac} in two bursts`).toBe(false);
        seen.add(mac);
      }
    }
  });

  it("keeps its MACs as the capture did: a new one every burst (B), one held all visit (X), its vendor MAC (C)", () => {
    const b = replay("B-A", 20);
    expect(b.bursts.every((x) => x.macs.size === 1)).toBe(true);
    expect(new Set(b.bursts.flatMap((x) => [...x.macs])).size).toBe(b.bursts.length);
    expect(b.visit.macClass).toBe("rotating");
    const x = replay("X-PA", 20);
    expect(x.visit.macs).toHaveLength(1);
    expect(x.visit.macClass).toBe("stable");
    const c = replay("C-A", 20);
    expect(c.visit.macs).toHaveLength(1);
    expect(c.visit.macClass).toBe("universal");
    expect(Number.parseInt(c.visit.macs[0]!.mac.slice(0, 2), 16) & 0x02).toBe(0);
    for (const r of [b, x, c]) expect(r.visit.profile).toBe(r === b ? "B-A" : r === x ? "X-PA" : "C-A");
  });

  it("sends its frames on as many channels as the capture, the same ones all visit, as many frames a burst (T: one channel, R: two, B: ~130 frames on three)", () => {
    const t = replay("T-PS", 120);
    expect(t.bursts.every((x) => x.sensors.size === 1)).toBe(true);
    expect(new Set(t.bursts.flatMap((x) => [...x.sensors])).size).toBe(1);
    const r = replay("R-S", 60);
    expect(r.bursts.every((x) => x.sensors.size <= 2)).toBe(true);
    expect(new Set(r.bursts.flatMap((x) => [...x.sensors])).size).toBe(2);
    const b = replay("B-A", 20);
    expect(b.bursts.every((x) => x.sensors.size === 3)).toBe(true);
    const frames = b.bursts.map((x) => x.frames);
    expect(Math.abs(frames.reduce((a, n) => a + n, 0) / frames.length / profile("B-A").framesPerBurst - 1)).toBeLessThan(0.1);
  });

  it("on the shop's Wi-Fi keeps one MAC and probes rarely, whatever its profile", () => {
    const { bursts, visit } = replay("B-A", 120, 1, true);
    expect(visit.macs).toHaveLength(1);
    expect(visit.associated).toBe(true);
    const [lo, hi] = resolveWorldOptions({}).macBehaviour!.burstGapS.associated;
    const gap = median(gapsOf(bursts)) / 1000;
    expect(gap).toBeGreaterThan(lo * 0.5);
    expect(gap).toBeLessThan(hi * 2);
  });

  it("is seeded: the same seed gives the same bursts, another seed others", () => {
    const digest = (seed: number): string => JSON.stringify(replay("M-S", 30, seed).bursts.map((x) => [x.start, x.frames, [...x.macs]]));
    expect(digest(4)).toBe(digest(4));
    expect(digest(4)).not.toBe(digest(5));
  });
});
