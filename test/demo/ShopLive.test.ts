import { describe, expect, it } from "vitest";
import { analyze } from "../../src/analysis/analyze.ts";
import type { Signal } from "../../src/codec/Signal.ts";
import { ShopLive } from "../../src/demo/ShopLive.ts";
import { dwellStats } from "../../src/kernels/visits/dwellStats.ts";
import type { LiveDay, LiveOccupancyInterval } from "../../src/kernels/people/LiveOccupancy.ts";
import type { ProximitySlice, SessionProximity } from "../../src/kernels/proximity/SessionProximity.ts";
import { universalPersonWeight } from "../../src/kernels/phones/universalPersonWeight.ts";
import type { ClassifiedSession } from "../../src/kernels/visits/VisitClassifier.ts";
import { zoneTimeBySensor } from "../../src/kernels/visits/ZoneOccupancy.ts";
import { createWorld } from "../../src/sim/createWorld.ts";
import type { SignalPage } from "../../src/source/SignalPage.ts";
import { SMALL_WORLD } from "./smallWorld.ts";

describe("ShopLive", () => {
  const sig = (device: string, time: number, rssi = -60): Signal => ({
    shopId: 101,
    rts: "",
    time,
    device,
    rssi,
    sensor: "s1",
    local: false,
    randomized: false,
    vendor: undefined,
  });
  const slice = (device: string, start: number, sensor: string, zone: ProximitySlice["zone"]): ProximitySlice =>
    ({ type: "proximitySlice", shopId: 101, device, start, end: start + 10_000, sensor, zone }) as ProximitySlice;

  it("counts devices in range, and shows the latest live interval: people inside, the day so far, the dwell of the visits seen whole", () => {
    const live = new ShopLive({ id: 101, name: "Gangnam", sensors: ["s1", "s2"] }, 86_400_000);
    live.onSignal(sig("a", 1_000_000));
    live.onSignal(sig("b", 1_100_000));
    live.onSignal(sig("c", 1_000_000 + 200_000)); // newest: a is 200 s old, b 100 s
    expect(live.snapshot().people).toBeUndefined();
    expect(live.snapshot().inside).toBeUndefined();
    const mac = dwellStats([600_000, 900_000]);
    const today = { visitors: 14.2, visitorsLow: 11, visitorsHigh: 19, macVisitors: 9, macPassersBy: 120, macDwell: mac, dwell: dwellStats([1_200_000]) } as LiveDay;
    live.onOccupancy({ inside: 3.5, insideLow: 2.1, insideHigh: 5.2, today } as LiveOccupancyInterval);
    const s = live.snapshot();
    expect(s.signals).toBe(3);
    expect(s.inRange).toBe(2); // b and c within two minutes of the newest signal
    expect([s.visitors, s.passersBy]).toEqual([9, 120]);
    expect(s.people).toEqual({ visitors: 14.2, low: 11, high: 19 });
    expect(s.inside).toEqual({ inside: 3.5, low: 2.1, high: 5.2 });
    // The summary's rule (shopDayDwell): with a people estimate, the identity-known visits' dwell.
    expect(s.medianDwellMs).toBe(1_200_000);
    // Without a burst rate (people unknown): no people figure, and the MAC-level dwell.
    live.onOccupancy({ inside: Number.NaN, insideLow: 0, insideHigh: Number.POSITIVE_INFINITY, today: { ...today, visitors: Number.NaN } } as LiveOccupancyInterval);
    expect(live.snapshot().people).toBeUndefined();
    expect(live.snapshot().inside).toBeUndefined();
    expect(live.snapshot().medianDwellMs).toBe(mac.medianMs);
    expect(live.snapshot().done).toBe(false);
  });

  it("shows what the liveOccupancy operator says as the day goes on: without rotation, people so far close to the devices that visited, as persons", async () => {
    const world = createWorld({ ...SMALL_WORLD, seed: 3, shops: 1, openingHours: [10, 13], rotation: "off" });
    const shop = world.shops[0]!;
    const { liveOccupancy, days } = await analyze(world.rawSignals(shop.id), { timeZone: shop.timeZone, proximity: false, quality: false, liveOccupancy: true, classify: { openingHours: [10, 13] } });
    const live = new ShopLive({ id: shop.id, name: shop.name, sensors: shop.sensors }, world.endMs);
    const noon = liveOccupancy.find((o) => o.end > world.startMs + 3 * 3_600_000 && o.inside > 0)!;
    live.onOccupancy(noon);
    expect(live.snapshot().inside?.inside).toBe(noon.inside);
    for (const o of liveOccupancy) live.onOccupancy(o);
    live.onEnd();
    const snapshot = live.snapshot();
    const people = snapshot.people!;
    // An estimate always, with finite bounds around it (the yardstick from real phones).
    expect([people.visitors, people.low, people.high].every(Number.isFinite)).toBe(true);
    expect(people.low).toBeLessThanOrEqual(people.visitors);
    expect(people.visitors).toBeLessThanOrEqual(people.high);
    // The day so far at the end is the day's MAC-level count.
    expect(Math.abs(snapshot.visitors - days[0]!.visitors)).toBeLessThanOrEqual(Math.max(2, 0.05 * days[0]!.visitors));
    // One MAC per visit, but not every MAC is a person: a randomized MAC that held is a phone (one
    // person), a universal MAC one when a phone maker's on a shopper's stay, else the yardstick's
    // share of one (universalPersonWeight). The world says which devices visited with which MAC.
    const share = liveOccupancy.at(-1)!.today.yardstick.universalPersonShare;
    const devices = new Map<string, { universal: boolean; person: number }>();
    for (const v of world.visits(shop.id)) {
      if (v.kind !== "visitor" || v.records === 0) continue;
      const mac = v.macs.find((m) => m.records > 0)!.mac;
      const universal = v.macClass === "universal";
      devices.set(mac, { universal, person: universal ? universalPersonWeight(mac, v.end - v.start, share) : 1 });
    }
    const universalDevices = [...devices.values()].filter((d) => d.universal).length;
    // Both kinds visited: the check covers the stable randomized MACs and the universal ones.
    expect(universalDevices).toBeGreaterThan(0);
    expect(universalDevices).toBeLessThan(devices.size);
    // Persons per visiting device, from the world; the MAC-level count so far times it is the
    // people expected so far (all of them when every universal visitor is a phone on a short stay).
    let persons = 0;
    for (const d of devices.values()) persons += d.person;
    const expected = snapshot.visitors * (persons / devices.size);
    expect(Math.abs(people.visitors - expected)).toBeLessThanOrEqual(Math.max(3, 0.1 * expected));
  });

  it("is done with the day at the second caught-up page in a row delivered past its end", () => {
    const live = new ShopLive({ id: 101, name: "Gangnam", sensors: ["s1"] }, 1_000);
    const page = (caughtUp: boolean) => ({ caughtUp }) as SignalPage;
    live.onPage(page(true), 500); // caught up, but before the end
    live.onPage(page(true), 1_200); // its request may have been served before the end
    expect(live.done).toBe(false);
    live.onPage(page(false), 1_300); // a full page: the next one may have been requested ahead
    live.onPage(page(true), 1_400);
    expect(live.done).toBe(false);
    live.onPage(page(true), 1_500); // requested after a caught-up page delivered past the end
    expect(live.done).toBe(true);
  });

  it("shows the zones now from the latest slices (one device counts once, in its latest zone)", () => {
    const live = new ShopLive({ id: 101, name: "Gangnam", sensors: ["s1", "s2"] }, 86_400_000);
    live.onSlice(slice("a", 0, "s1", "near"));
    live.onSlice(slice("a", 40_000, "s2", "immediate"));
    live.onSlice(slice("b", 0, "s1", "far"));
    live.onSignal(sig("a", 70_000));
    expect(live.snapshot().zones).toEqual({ immediate: 1, near: 0, far: 1 });
    // More than three minutes (the occupancy's window) after a's latest slice ended: nobody is counted.
    live.onSignal(sig("c", 50_000 + 180_001));
    expect(live.snapshot().zones).toEqual({ immediate: 0, near: 0, far: 0 });
    live.onEnd();
    expect(live.snapshot().done).toBe(true);
  });

  it("takes the report's zone time from the visitors' own sessions (zoneTimeBySensor), not from other sessions of the same devices", () => {
    const prox = (zoneMsBySensor: SessionProximity["zoneMsBySensor"]) => ({ zoneMsBySensor }) as SessionProximity;
    const classified = (device: string, kind: ClassifiedSession["kind"], proximity: SessionProximity) => ({ shopId: 101, device, kind, proximity }) as ClassifiedSession;
    const sessions = [
      // a walked past the window first (a passer-by session), then came in twice.
      classified("a", "passerby", prox([{ sensor: "s1", immediate: 0, near: 0, far: 60_000 }])),
      classified("a", "visitor", prox([{ sensor: "s1", immediate: 0, near: 40_000, far: 0 }, { sensor: "s2", immediate: 25_000, near: 0, far: 0 }])),
      classified("b", "passerby", prox([{ sensor: "s1", immediate: 0, near: 0, far: 5_000 }])),
      classified("a", "visitor", prox([{ sensor: "s2", immediate: 5_000, near: 0, far: 0 }])),
    ];
    // What runDemo gives the report: the visitors' sessions, the shop's sensor order.
    expect(zoneTimeBySensor(sessions.filter((s) => s.kind === "visitor"), { sensors: ["s2", "s1"] })).toEqual([
      { sensor: "s2", zone: "immediate", ms: 30_000 },
      { sensor: "s1", zone: "near", ms: 40_000 },
    ]);
    expect(zoneTimeBySensor(sessions)).toContainEqual({ sensor: "s1", zone: "far", ms: 65_000 });
  });
});
