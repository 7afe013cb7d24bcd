import { describe, expect, it } from "vitest";
import { firstValueFrom, from, toArray } from "rxjs";
import type { Signal } from "../../src/codec/Signal.ts";
import { millisToRts } from "../../src/codec/rts.ts";
import { fitPathLoss } from "../../src/kernels/fitPathLoss.ts";
import { ProximityTracker, type ProximitySummary } from "../../src/kernels/ProximityTracker.ts";
import { estimateProximity } from "../../src/operators/estimateProximity.ts";
import { createWorld } from "../../src/sim/createWorld.ts";
import type { World } from "../../src/sim/World.ts";

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
  const world = createWorld({ seed: 3, shops: 1, openingHours: [10, 14], visitorsPerDay: 120, passersByPerDay: 800 });
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

  it("pull mode: every true presence gets a summary inside its true interval, agreeing with the floor plan", () => {
    const tracker = new ProximityTracker({ calibration: { default: fit }, idleMs: 7 * 86_400_000 });
    for (const s of signals) tracker.add(s);
    tracker.flush();
    const closest: Record<string, number[]> = { visitor: [], passerby: [] };
    for (const v of world.truth(shop.id)) {
      const p = tracker.takeSummary(shop.id, v.device, v.start, v.end) as ProximitySummary;
      expect(p, `${v.kind} ${v.device}`).toBeDefined();
      expect(p.start).toBeGreaterThanOrEqual(v.start);
      expect(p.end).toBeLessThanOrEqual(v.end);
      expect(p.zoneMs.immediate + p.zoneMs.near + p.zoneMs.far).toBeCloseTo(p.end - p.start, 6);
      expect(shop.sensors).toContain(p.closestSensor);
      closest[v.kind]?.push(p.closestDistanceM);
    }
    expect(tracker.stats.devices).toBe(0);
    const visitors = closest["visitor"]!;
    const passersBy = closest["passerby"]!;
    expect(visitors.length).toBeGreaterThan(50);
    expect(passersBy.length).toBeGreaterThan(200);
    // Estimates are noisy (σ 4 dB per reading, phones differ by ±2 dB), so allow 5 % outliers.
    expect(visitors.filter((d) => d <= insideMax).length / visitors.length).toBeGreaterThanOrEqual(0.95);
    expect(passersBy.filter((d) => d >= outsideMin).length / passersBy.length).toBeGreaterThanOrEqual(0.95);
    expect(median(visitors)).toBeLessThan(median(passersBy));
  });

  it("the operator and the pull API give the same summaries", async () => {
    const options = { calibration: { default: fit }, idleMs: 7 * 86_400_000 };
    const events = await firstValueFrom(from(signals).pipe(estimateProximity({ ...options, emit: "summaries" }), toArray()));
    const pushed = events.filter((e): e is ProximitySummary => e.type === "proximitySummary");
    expect(pushed).toHaveLength(events.length);
    const tracker = new ProximityTracker(options);
    for (const s of signals) tracker.add(s);
    tracker.flush();
    const key = (s: ProximitySummary) => `${s.device}@${s.start}`;
    const pulled = tracker.takeAllSummaries();
    expect(new Map(pushed.map((s) => [key(s), s]))).toEqual(new Map(pulled.map((s) => [key(s), s])));
  });
});
