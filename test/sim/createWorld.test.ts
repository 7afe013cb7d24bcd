import { describe, expect, it } from "vitest";
import { createWorld } from "../../src/sim/createWorld.ts";
import { epochDayOfDate } from "../../src/time/calendarDate.ts";
import { localMidnight } from "../../src/time/timeZone.ts";
import { PHONE_VENDORS, SENSOR_VENDORS, STATIONARY_VENDORS } from "../../src/sim/vendorOuis.ts";
import type { TruthVisit, World } from "../../src/sim/World.ts";
import { smallWorld, smallWorldOptions } from "./fixtures.ts";

const HOUR = 3_600_000;
const firstOctet = (mac: string) => Number.parseInt(mac.slice(0, 2), 16);
const isLocal = (mac: string) => (firstOctet(mac) & 0x02) !== 0;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** The served bytes of every shop (all pages concatenated), as one string per shop. */
function tableSnapshot(world: World): string[] {
  return world.shops.map((s) => {
    let out = "";
    for (const r of world.rawSignals(s.id)) out += `${r.row_key},${r.device_id},${r.rssi},${r.square_mac},${r.ts}\n`;
    return out;
  });
}

describe("createWorld: shape", () => {
  const world = smallWorld();

  it("has the configured brands and shops, each shop with a key, name, zone and 2–4 distinct sensors", () => {
    expect(world.brands.map((b) => b.id)).toEqual([1, 2]);
    expect(world.shops).toHaveLength(2);
    const keys = new Set<string>();
    const sensors = new Set<string>();
    for (const shop of world.shops) {
      expect(world.brands.some((b) => b.id === shop.brandId)).toBe(true);
      expect(shop.name).not.toBe("");
      expect(keys.has(`${shop.brandId}/${shop.externalKey}`)).toBe(false);
      keys.add(`${shop.brandId}/${shop.externalKey}`);
      expect(shop.timeZone).toBe("Asia/Seoul");
      expect(shop.sensors.length).toBeGreaterThanOrEqual(2);
      expect(shop.sensors.length).toBeLessThanOrEqual(4);
      for (const mac of shop.sensors) {
        expect(sensors.has(mac)).toBe(false);
        sensors.add(mac);
        expect(SENSOR_VENDORS.some((v) => v.prefixes.includes(mac.slice(0, 8)))).toBe(true);
      }
      const layout = world.layout(shop.id)!;
      expect(layout.sensors.map((s) => s.mac)).toEqual(shop.sensors);
      for (const s of layout.sensors) {
        expect(s.xM).toBeGreaterThan(0);
        expect(s.xM).toBeLessThan(layout.widthM);
        expect(s.yM).toBeGreaterThan(0);
        expect(s.yM).toBeLessThan(layout.depthM);
      }
    }
  });

  it("spans local midnight to midnight of the start date by default", () => {
    expect(world.startMs).toBe(localMidnight(epochDayOfDate("2026-11-16")!, "Asia/Seoul"));
    expect(world.startMs).toBe(Date.parse("2026-11-16T00:00:00+09:00"));
    expect(world.endMs - world.startMs).toBe(24 * HOUR);
  });

  it("takes shop count, brands, sensors, zone and start from options", () => {
    const w = createWorld({ seed: 3, brands: 3, shops: 7, sensorsPerShop: 3, visitorsPerDay: 0, passersByPerDay: 0, staffPerShop: 0, timeZone: "Europe/Berlin", start: "2026-07-01", days: 2 });
    expect(w.brands).toHaveLength(3);
    expect(w.shops).toHaveLength(7);
    expect(new Set(w.shops.map((s) => s.id)).size).toBe(7);
    expect(w.shops.every((s) => s.sensors.length === 3 && s.timeZone === "Europe/Berlin")).toBe(true);
    expect(w.startMs).toBe(Date.parse("2026-07-01T00:00:00+02:00"));
    expect(w.endMs).toBe(Date.parse("2026-07-03T00:00:00+02:00"));
    const at = createWorld({ seed: 3, shops: 1, start: 1_800_000_000_000, days: 1, visitorsPerDay: 0, passersByPerDay: 0 });
    expect([at.startMs, at.endMs]).toEqual([1_800_000_000_000, 1_800_000_000_000 + 24 * HOUR]);
  });

  it("rejects invalid options with TypeError or RangeError", () => {
    expect(() => createWorld({ shops: 0 })).toThrow(RangeError);
    expect(() => createWorld({ sensorsPerShop: 9 })).toThrow(RangeError);
    expect(() => createWorld({ randomizedShare: 1.2 })).toThrow(RangeError);
    expect(() => createWorld({ probeIntervalS: [60, 10] })).toThrow(RangeError);
    expect(() => createWorld({ start: "2026-02-30" })).toThrow(RangeError);
    expect(() => createWorld({ timeZone: "Mars/Olympus" })).toThrow(RangeError);
    expect(() => createWorld({ days: 1.5 })).toThrow(RangeError);
    expect(() => createWorld({ wallLossDb: Number.NaN })).toThrow(TypeError);
    expect(() => createWorld({ shopSizeM: [10] as never })).toThrow(TypeError);
  });
});

describe("createWorld: determinism", () => {
  it("the same seed gives an identical world, another seed a different one", () => {
    const a = createWorld(smallWorldOptions);
    const b = createWorld(smallWorldOptions);
    const c = createWorld({ ...smallWorldOptions, seed: 8 });
    expect(tableSnapshot(a)).toEqual(tableSnapshot(b));
    expect(a.truth()).toEqual(b.truth());
    expect(a.transactions()).toEqual(b.transactions());
    expect(a.shops).toEqual(b.shops);
    expect(tableSnapshot(a)).not.toEqual(tableSnapshot(c));
    expect(a.truth()).not.toEqual(c.truth());
  });

  it("a shop does not change when more shops are added", () => {
    const one = createWorld({ ...smallWorldOptions, shops: 1 });
    const two = smallWorld();
    expect(one.shops[0]).toEqual(two.shops[0]);
    expect(one.truth(101)).toEqual(two.truth(101));
    expect(one.signalCount(101)).toBe(two.signalCount(101));
  });
});

describe("createWorld: signals and ground truth", () => {
  const world = smallWorld();

  it("every signal belongs to a truth visit (same shop, device, time inside), every visit produced signals", () => {
    for (const shop of world.shops) {
      const visits = world.truth(shop.id);
      expect(visits.every((v) => v.shop === shop.id)).toBe(true);
      const byDevice = new Map<string, TruthVisit[]>();
      for (const v of visits) byDevice.set(v.device, [...(byDevice.get(v.device) ?? []), v]);
      const heard = new Map<TruthVisit, number>();
      const orphans: string[] = [];
      let n = 0;
      for (const s of world.rawSignals(shop.id)) {
        n++;
        const owner = byDevice.get(s.device_id)?.find((v) => v.start <= s.ts && s.ts <= v.end);
        if (owner === undefined) orphans.push(`${s.device_id} at ${s.ts}`);
        else heard.set(owner, (heard.get(owner) ?? 0) + 1);
      }
      expect(orphans).toEqual([]);
      expect(n).toBe(world.signalCount(shop.id));
      expect(n).toBeGreaterThan(0);
      expect(visits.filter((v) => !heard.has(v))).toEqual([]);
    }
  });

  it("records are in ascending time, inside the span, with integer RSSI between the floor and −1", () => {
    for (const shop of world.shops) {
      const t = world.signalTable(shop.id)!;
      const bad: number[] = [];
      for (let i = 0; i < t.count; i++) {
        const r = t.rssi[i]!;
        const ms = t.time[i]!;
        if ((i > 0 && ms < t.time[i - 1]!) || r < world.model.sensitivityDbm || r > -1 || ms < world.startMs || ms >= world.endMs || !Number.isInteger(ms)) bad.push(i);
      }
      expect(bad).toEqual([]);
    }
  });

  it("rawSignals(shop, from, to) is the [from, to) slice of the served order", () => {
    const all = [...world.rawSignals(101)];
    const from = world.startMs + 11 * HOUR;
    const to = from + HOUR;
    expect([...world.rawSignals(101, from, to)]).toEqual(all.filter((s) => s.ts >= from && s.ts < to));
    expect([...world.rawSignals(999)]).toEqual([]);
  });

  it("has all four kinds; the local bit marks random MACs (unicast), universal ones use real vendor prefixes", () => {
    const visits = world.truth();
    expect(new Set(visits.map((v) => v.kind))).toEqual(new Set(["visitor", "passerby", "staff", "stationary"]));
    const phone = PHONE_VENDORS.flatMap((v) => v.prefixes);
    const fixed = STATIONARY_VENDORS.flatMap((v) => v.prefixes);
    for (const v of visits) {
      expect(firstOctet(v.device) & 0x01).toBe(0);
      if (isLocal(v.device)) expect(v.kind === "stationary").toBe(false);
      else expect((v.kind === "stationary" ? fixed : phone).includes(v.device.slice(0, 8))).toBe(true);
    }
    expect([...world.rawSignals(101)].filter((s) => s.local !== isLocal(s.device_id))).toEqual([]);
  });

  it("randomized MACs make up about randomizedShare of shoppers and are new on every visit", () => {
    const shoppers = world.truth().filter((v) => v.kind === "visitor" || v.kind === "passerby");
    const local = shoppers.filter((v) => isLocal(v.device));
    expect(local.length / shoppers.length).toBeGreaterThan(0.35);
    expect(local.length / shoppers.length).toBeLessThan(0.55);
    expect(new Set(local.map((v) => v.device)).size).toBe(local.length);
    const w = createWorld({ ...smallWorldOptions, shops: 1, randomizedShare: 0.1 });
    const s2 = w.truth().filter((v) => v.kind === "visitor" || v.kind === "passerby");
    expect(s2.filter((v) => isLocal(v.device)).length / s2.length).toBeLessThan(0.2);
  });

  it("visitors come in opening hours and mostly stay minutes; passers-by mostly pass within a minute and read weaker", () => {
    const open = world.startMs + 10 * HOUR;
    const close = world.startMs + 13 * HOUR;
    const visitors = world.truth().filter((v) => v.kind === "visitor");
    const passers = world.truth().filter((v) => v.kind === "passerby");
    expect(visitors.every((v) => v.start >= open && v.start <= close)).toBe(true);
    const stay = visitors.map((v) => v.end - v.start);
    expect(Math.min(...stay)).toBeGreaterThanOrEqual(60_000);
    expect(median(stay)).toBeGreaterThan(5 * 60_000);
    expect(median(stay)).toBeLessThan(40 * 60_000);
    const pass = passers.map((v) => v.end - v.start);
    expect(median(pass)).toBeLessThan(60_000);
    expect(pass.some((d) => d > 3 * 60_000)).toBe(true); // some linger at the window
    const kind = new Map(world.truth(101).map((v) => [v.device, v.kind]));
    const rssiOf = (k: string) => [...world.rawSignals(101)].filter((s) => kind.get(s.device_id) === k).map((s) => s.rssi);
    expect(median(rssiOf("passerby"))).toBeLessThan(median(rssiOf("visitor")) - 5);
  });

  it("staff keep the same device every day; stationary devices cover the whole span", () => {
    const w = createWorld({ ...smallWorldOptions, shops: 1, days: 3, visitorsPerDay: 5, passersByPerDay: 10 });
    const staff = w.truth().filter((v) => v.kind === "staff");
    const devices = new Set(staff.map((v) => v.device));
    expect(devices.size).toBeLessThanOrEqual(smallWorldOptions.staffPerShop!);
    const days = (d: string) => new Set(staff.filter((v) => v.device === d).map((v) => Math.floor((v.start - w.startMs) / (24 * HOUR))));
    expect([...devices].some((d) => days(d).size >= 2)).toBe(true);
    for (const v of w.truth().filter((x) => x.kind === "stationary")) expect([v.start, v.end]).toEqual([w.startMs, w.endMs]);
  });

  it("surveys follow the path-loss model and are reproducible", () => {
    const shop = world.shops[0]!;
    const m = world.model;
    const samples = world.surveySamples(shop.id, shop.sensors[0]!, [1, 2, 4], 400);
    expect(world.surveySamples(shop.id, shop.sensors[0]!, [1, 2, 4], 400)).toEqual(samples);
    for (const d of [1, 2, 4]) {
      const at = samples.filter((s) => s.distanceM === d).map((s) => s.rssi);
      expect(at).toHaveLength(400);
      const mean = at.reduce((a, b) => a + b, 0) / at.length;
      expect(Math.abs(mean - (m.rssiAt1m - 10 * m.pathLossExponent * Math.log10(d)))).toBeLessThan(1);
    }
    const far = world.surveySamples(shop.id, shop.sensors[0]!, [300], 50);
    expect(far.every((s) => s.rssi >= m.sensitivityDbm)).toBe(true);
    expect(() => world.surveySamples(999, shop.sensors[0]!, [1], 1)).toThrow(RangeError);
    expect(() => world.surveySamples(shop.id, "00:00:00:00:00:00", [1], 1)).toThrow(RangeError);
  });
});

describe("createWorld: transactions", () => {
  const w = createWorld({ seed: 11, shops: 1, openingHours: [10, 22], visitorsPerDay: 600, passersByPerDay: 0, staffPerShop: 0, stationaryPerShop: 0, conversion: 0.9 });
  const shop = w.shops[0]!;
  const brand = w.brands.find((b) => b.id === shop.brandId)!;
  const txns = w.transactions(shop.id);

  it("come from true visitors: KRW multiples of 100, local ISO timestamps, a few refunds", () => {
    const visitors = w.truth(shop.id).filter((v) => v.kind === "visitor");
    expect(txns.length).toBeGreaterThan(visitors.length * 0.8);
    const refunds = txns.filter((t) => t.amount < 0);
    expect(refunds.length).toBeGreaterThan(0);
    expect(refunds.length).toBeLessThan(txns.length * 0.1);
    let last = -Infinity;
    for (const t of txns) {
      expect(t.brand).toBe(brand.name);
      expect(t.external_key).toBe(shop.externalKey);
      expect(t.timestamp).toMatch(/^2026-11-16T\d{2}:\d{2}:\d{2}\+09:00$/);
      expect(Number.isInteger(t.amount / 100)).toBe(true);
      expect(Number.isInteger(t.quantity) && t.quantity !== 0).toBe(true);
      expect(Math.sign(t.amount)).toBe(Math.sign(t.quantity));
      const ms = Date.parse(t.timestamp);
      expect(ms).toBeGreaterThanOrEqual(last);
      last = ms;
      if (t.amount > 0) {
        // Seconds precision: the sale happened while some visitor was inside.
        expect(visitors.some((v) => v.start - 1000 <= ms && ms <= v.end)).toBe(true);
      }
    }
  });

  it("are listed for all shops without an id and are empty for an unknown shop", () => {
    expect(w.transactions()).toEqual(txns);
    expect(w.transactions(999)).toEqual([]);
  });
});

describe("createWorld: default world", () => {
  it("has ≥ 2 brands, 5 shops and hundreds of thousands of signals per shop-day", () => {
    const w = createWorld();
    expect(w.brands.length).toBeGreaterThanOrEqual(2);
    expect(w.shops).toHaveLength(5);
    for (const shop of w.shops) expect(w.signalCount(shop.id)).toBeGreaterThan(100_000);
    expect(w.signalCount()).toBeGreaterThan(800_000);
  });
});
