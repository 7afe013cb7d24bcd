import { describe, expect, it } from "vitest";
import { firstValueFrom, from, toArray } from "rxjs";
import type { Signal } from "../../src/codec/Signal.ts";
import { millisToRts } from "../../src/codec/rts.ts";
import { fitPathLoss } from "../../src/kernels/proximity/fitPathLoss.ts";
import { EventTimeEngine } from "../../src/kernels/sessions/EventTimeEngine.ts";
import type { Session } from "../../src/kernels/sessions/Session.ts";
import type { ProximitySlice } from "../../src/kernels/proximity/SessionProximity.ts";
import { estimateProximity } from "../../src/operators/estimateProximity.ts";
import { sessionize } from "../../src/operators/sessionize.ts";
import { createWorld } from "../../src/sim/createWorld.ts";
import type { World } from "../../src/sim/world/World.ts";

/** A shop's signals straight from the world's table (the decoder is tested elsewhere). */
function signalsOf(world: World, shopId: number): Signal[] {
  const t = world.signalTable(shopId)!;
  const out: Signal[] = [];
  for (let i = 0; i < t.count; i++) {
    const d = t.device[i]!;
    const local = t.deviceLocal[d] === 1;
    out.push({
      shopId,
      rts: millisToRts(t.time[i]!),
      time: t.time[i]!,
      device: t.devices[d]!,
      rssi: t.rssi[i]!,
      sensor: t.sensors[t.sensor[i]!]!,
      local,
      randomized: local,
      vendor: undefined,
    });
  }
  return out;
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

describe("proximity on a simulated shop", () => {
  // The simple world (one MAC per visit): each true presence is one device to follow.
  const world = createWorld({ seed: 3, shops: 1, rotation: "off", openingHours: [10, 14], visitorsPerDay: 120, passersByPerDay: 800 });
  const shop = world.shops[0]!;
  const layout = world.layout(shop.id)!;
  const signals = signalsOf(world, shop.id);
  // Calibrate as an installer would: a site survey at each sensor, one least-squares fit.
  const fit = fitPathLoss(shop.sensors.flatMap((m) => world.surveySamples(shop.id, m, [1, 2, 3, 5, 8, 12], 30)));
  const h = world.model.mountHeightM;

  // Geometry from the floor plan: anywhere inside, the nearest sensor is at most `insideMax`
  // away; anyone outside the street-side wall (y < 0) is at least `outsideMin` from every sensor.
  let insideMax = 0;
  for (let x = 0; x <= layout.widthM; x += 0.1) {
    for (let y = 0; y <= layout.depthM; y += 0.1) {
      let nearest = Infinity;
      for (const s of layout.sensors) nearest = Math.min(nearest, Math.hypot(x - s.xM, y - s.yM, h));
      insideMax = Math.max(insideMax, nearest);
    }
  }
  const outsideMin = Math.min(...layout.sensors.map((s) => Math.hypot(s.yM, h)));

  // One engine over the shop's signals: sessions with their proximity.
  const sessions: Session[] = [];
  const engine = new EventTimeEngine({ proximity: { calibration: { default: fit } } }, { emit: (s) => sessions.push(s) });
  for (const s of signals) engine.push(s);
  engine.flush();

  it("every true presence gets sessions inside its true interval whose proximity agrees with the floor plan", () => {
    const closest: Record<string, number[]> = { visitor: [], passerby: [] };
    const byDevice = new Map<string, Session[]>();
    for (const s of sessions) byDevice.set(s.device, [...(byDevice.get(s.device) ?? []), s]);
    let matched = 0;
    for (const v of world.truth(shop.id)) {
      const own = (byDevice.get(v.device) ?? []).filter((s) => s.end >= v.start && s.start <= v.end);
      expect(own.length, `${v.kind} ${v.device}`).toBeGreaterThan(0);
      matched += own.length;
      let nearest = Infinity;
      for (const s of own) {
        expect(s.start).toBeGreaterThanOrEqual(v.start);
        expect(s.end).toBeLessThanOrEqual(v.end);
        const p = s.proximity!;
        expect(p.zoneMs.immediate + p.zoneMs.near + p.zoneMs.far).toBe(s.dwellMs);
        expect(shop.sensors).toContain(p.closestSensor);
        nearest = Math.min(nearest, p.closestDistanceM);
      }
      closest[v.kind]?.push(nearest);
    }
    // Every session belongs to a true presence.
    expect(matched).toBe(sessions.length);
    expect(engine.stats).toMatchObject({ late: 0, openSessions: 0, buffered: 0 });
    const visitors = closest["visitor"]!;
    const passersBy = closest["passerby"]!;
    expect(visitors.length).toBeGreaterThan(50);
    expect(passersBy.length).toBeGreaterThan(200);
    // Estimates are noisy (σ 4 dB per reading, phones differ by ±2 dB), so allow 5 % outliers.
    expect(visitors.filter((d) => d <= insideMax).length / visitors.length).toBeGreaterThanOrEqual(0.95);
    expect(passersBy.filter((d) => d >= outsideMin).length / passersBy.length).toBeGreaterThanOrEqual(0.95);
    expect(median(visitors)).toBeLessThan(median(passersBy));
  });

  it("the operators give the kernel's sessions, and estimateProximity's slices are the ones folded into them", async () => {
    const proximity = { calibration: { default: fit } };
    const side: ProximitySlice[] = [];
    const viaSessionize = await firstValueFrom(from(signals).pipe(sessionize({ proximity, onSlice: (s) => side.push(s) }), toArray()));
    expect(viaSessionize).toEqual(sessions);
    const slices = await firstValueFrom(from(signals).pipe(estimateProximity(proximity), toArray()));
    expect(slices).toEqual(side);
    const key = (device: string, t: number) => `${device}@${t}`;
    const sliceCount = new Map<string, number>();
    const sliceMin = new Map<string, number>();
    // Each slice belongs to the session of its device that contains its start (or began in it).
    const sessionOf = new Map<string, Session[]>();
    for (const s of sessions) sessionOf.set(s.device, [...(sessionOf.get(s.device) ?? []), s]);
    for (const x of slices) {
      const s = sessionOf.get(x.device)!.find((c) => x.end > c.start && x.start <= c.end)!;
      const k = key(s.device, s.start);
      sliceCount.set(k, (sliceCount.get(k) ?? 0) + 1);
      sliceMin.set(k, Math.min(sliceMin.get(k) ?? Infinity, x.distanceM));
    }
    for (const s of sessions) {
      expect(sliceCount.get(key(s.device, s.start))).toBe(s.proximity!.slices);
      expect(sliceMin.get(key(s.device, s.start))).toBe(s.proximity!.closestDistanceM);
    }
  });
});
