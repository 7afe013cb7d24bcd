import { describe, expect, it } from "vitest";
import { createWorld as createDefaultWorld, type WorldOptions } from "../../src/sim/createWorld.ts";
import { realisticMacBehaviour } from "../../src/sim/phones/MacBehaviour.ts";
import { epochDayOfDate } from "../../src/time/calendarDate.ts";
import { localMidnight } from "../../src/time/timeZone.ts";
import { PHONE_VENDORS, SENSOR_VENDORS, STATIONARY_VENDORS } from "../../src/sim/phones/vendorOuis.ts";
import type { TruthVisit, World } from "../../src/sim/world/World.ts";
import { smallWorldOptions } from "./world/fixtures.ts";

// These tests check the world's mechanics on the worlds they were written for: one MAC per visit
// unless a test sets `rotation` or `macs`, and the burst model without real phones' second devices
// unless it sets `phones`; test/sim/realPhones.test.ts checks the real-phones default.
function createWorld(options: WorldOptions = {}) {
  const rotates = options.rotation !== undefined || options.macs !== undefined;
  return createDefaultWorld({ ...(rotates ? {} : { rotation: "off" as const }), phones: "off", ...options });
}

let small: World | undefined;
/** fixtures' small world, built as above. */
function smallWorld(): World {
  small ??= createWorld(smallWorldOptions);
  return small;
}

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
    // A misspelt option is named, not ignored (its default would be used without a word).
    expect(() => createWorld({ shadowingDB: 6 } as never)).toThrow(/Unknown world option key `shadowingDB` \(known: .*shadowingDb/);
    expect(() => createWorld({ rotation: "realistic", macs: { burstGap: 5 } as never })).toThrow(/Unknown macs key `burstGap`/);
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

describe("createWorld: MAC behaviour and person-level truth", () => {
  const rotating: WorldOptions = { ...smallWorldOptions, rotation: "realistic" };
  const world = createWorld(rotating);

  it("rotation off without phones is the simple world, byte for byte", () => {
    const off = createWorld({ ...smallWorldOptions, rotation: "off" });
    const base = smallWorld();
    expect(tableSnapshot(off)).toEqual(tableSnapshot(base));
    expect(off.truth()).toEqual(base.truth());
    expect(off.macBehaviour).toBeUndefined();
    expect(world.macBehaviour).toEqual(realisticMacBehaviour);
  });

  it("is deterministic per seed with rotation on", () => {
    // The columns themselves (a string per record would make this the slowest test here).
    const columns = (w: World) => w.shops.map((s) => {
      const t = w.signalTable(s.id)!;
      return [Buffer.from(t.time.buffer).toString("base64"), Buffer.from(t.device.buffer).toString("base64"), Buffer.from(t.rssi.buffer).toString("base64"), t.devices.join()];
    });
    const again = createWorld(rotating);
    expect(columns(again)).toEqual(columns(world));
    expect(again.visits()).toEqual(world.visits());
    expect(columns(createWorld({ ...rotating, seed: 8 }))).not.toEqual(columns(world));
  });

  it("every signal belongs to a per-MAC truth row (device, time in [start, end] and in the MAC's [first, last + lag]); rows count their records", () => {
    for (const shop of world.shops) {
      const rows = new Map<string, TruthVisit[]>();
      for (const v of world.truth(shop.id)) rows.set(v.device, [...(rows.get(v.device) ?? []), v]);
      const counted = new Map<string, number>();
      const orphans: string[] = [];
      for (const s of world.rawSignals(shop.id)) {
        const owner = rows.get(s.device_id)?.find((v) => v.start <= s.ts && s.ts <= v.end && v.first <= s.ts && s.ts <= v.last + 2);
        if (owner === undefined) orphans.push(`${s.device_id} at ${s.ts}`);
        counted.set(s.device_id, (counted.get(s.device_id) ?? 0) + 1);
      }
      expect(orphans).toEqual([]);
      // A rotating MAC is used in one visit only, so its row's records are all its signals.
      for (const v of world.truth(shop.id)) if (v.macClass === "rotating") expect(counted.get(v.device)).toBe(v.records);
    }
  });

  it("a visit lists every MAC its person used; the per-MAC view is exactly its heard MACs", () => {
    const fromVisits = world.visits().flatMap((v) => v.macs.filter((m) => m.records > 0).map((m) => `${v.shop} ${v.visit} ${v.person} ${m.mac} ${m.records}`));
    const fromRows = world.truth().map((r) => `${r.shop} ${r.visit} ${r.person} ${r.device} ${r.records}`);
    expect(fromRows.sort()).toEqual(fromVisits.sort());
    for (const v of world.visits()) {
      expect(v.records).toBe(v.macs.reduce((n, m) => n + m.records, 0));
      expect(v.inside).toBe(v.kind !== "passerby");
      for (const m of v.macs) {
        expect(m.first).toBeGreaterThanOrEqual(v.start);
        expect(m.last).toBeLessThanOrEqual(v.end);
        expect(m.first).toBeLessThanOrEqual(m.last);
      }
    }
  });

  it("phones follow their class: universal phones keep a vendor MAC, rotating ones draw fresh local unicast MACs, staff and equipment keep one MAC", () => {
    const phone = PHONE_VENDORS.flatMap((v) => v.prefixes);
    const visits = world.visits();
    const rotatingVisits = visits.filter((v) => v.macClass === "rotating" && !v.associated && v.kind === "visitor");
    expect(rotatingVisits.length).toBeGreaterThan(0);
    for (const v of visits) {
      if (v.macClass === "universal") expect(v.macs.every((m) => !isLocal(m.mac))).toBe(true);
      else expect(v.macs.every((m) => isLocal(m.mac) && (firstOctet(m.mac) & 0x01) === 0)).toBe(true);
      if (v.macClass !== "rotating" || v.associated) expect(v.macs.length).toBeLessThanOrEqual(1);
      if (v.macClass === "universal" && v.kind !== "stationary") expect(v.macs.every((m) => phone.includes(m.mac.slice(0, 8)))).toBe(true);
    }
    // Minutes of visiting with rotation on take many MACs.
    expect(median(rotatingVisits.map((v) => v.macs.length))).toBeGreaterThan(3);
    const everyMac = visits.filter((v) => v.macClass === "rotating").flatMap((v) => v.macs.map((m) => m.mac));
    expect(new Set(everyMac).size).toBe(everyMac.length);
    const staff = createWorld({ ...rotating, shops: 1, days: 2, visitorsPerDay: 5, passersByPerDay: 10 }).visits().filter((v) => v.kind === "staff");
    const macsOf = new Map<number, Set<string>>();
    for (const v of staff) for (const m of v.macs) macsOf.set(v.person, (macsOf.get(v.person) ?? new Set()).add(m.mac));
    expect([...macsOf.values()].every((s) => s.size === 1)).toBe(true);
  });

  it("with rotation on, returning visitors are universal-MAC people coming back with the same MAC", () => {
    const w = createWorld({ ...rotating, shops: 1, days: 3, macs: { universalShare: 0.5 } });
    const byPerson = new Map<number, { macs: Set<string>; visits: number; classes: Set<string> }>();
    for (const v of w.visits().filter((x) => x.kind === "visitor")) {
      const e = byPerson.get(v.person) ?? { macs: new Set(), visits: 0, classes: new Set() };
      e.visits++;
      e.classes.add(v.macClass);
      for (const m of v.macs) e.macs.add(m.mac);
      byPerson.set(v.person, e);
    }
    const returning = [...byPerson.values()].filter((e) => e.visits > 1);
    expect(returning.length).toBeGreaterThan(0);
    for (const e of returning) {
      expect([...e.classes]).toEqual(["universal"]);
      expect(e.macs.size).toBe(1);
    }
  });

  it("the rotation share sets the share of randomizing shoppers whose MACs rotate", () => {
    const share = (r: number) => {
      const shoppers = createWorld({ ...smallWorldOptions, shops: 1, rotation: r }).visits().filter((v) => (v.kind === "visitor" || v.kind === "passerby") && v.macClass !== "universal");
      return shoppers.filter((v) => v.macClass === "rotating").length / shoppers.length;
    };
    expect(share(0)).toBe(0);
    expect(Math.abs(share(0.3) - 0.3)).toBeLessThan(0.08);
    expect(Math.abs(share(0.9) - 0.9)).toBeLessThan(0.08);
  });

  it("burst gaps follow macs.burstGapS: slower phones make fewer bursts and MACs", () => {
    const macsPerMinute = (gap: number) => {
      const w = createWorld({ ...smallWorldOptions, shops: 1, rotation: 1, macs: { burstGapS: gap, burstsPerMac: 1, universalShare: 0, associatedShare: 0 } });
      const visitors = w.visits().filter((v) => v.kind === "visitor");
      return median(visitors.map((v) => (v.macs.length * 60_000) / (v.end - v.start)));
    };
    const fast = macsPerMinute(5);
    const slow = macsPerMinute(120);
    // One MAC per burst: MACs per minute ≈ 60 ÷ the median gap (jittered log-normally).
    expect(fast).toBeGreaterThan(8);
    expect(fast).toBeLessThan(14);
    expect(slow).toBeLessThan(0.7);
  });

  it("occupancy events are the visitors' and staff's arrivals and departures, balanced and in time order", () => {
    for (const w of [world, smallWorld()]) {
      for (const shop of w.shops) {
        const events = w.occupancy(shop.id);
        const inside = w.visits(shop.id).filter((v) => v.kind === "visitor" || v.kind === "staff");
        expect(events).toHaveLength(2 * inside.length);
        let n = 0;
        for (let i = 0; i < events.length; i++) {
          if (i > 0) expect(events[i]!.ms).toBeGreaterThanOrEqual(events[i - 1]!.ms);
          n += events[i]!.delta;
          expect(n).toBeGreaterThanOrEqual(0);
        }
        expect(n).toBe(0);
      }
    }
    expect(world.occupancy(999)).toEqual([]);
    expect(world.visits(999)).toEqual([]);
  });

  it("in the default world a person is one MAC: returning universal visitors keep their person number", () => {
    const w = createWorld({ ...smallWorldOptions, shops: 1, days: 3 });
    const personOf = new Map<string, number>();
    for (const v of w.truth()) {
      expect(v.first).toBeLessThanOrEqual(v.last);
      if (personOf.has(v.device)) expect(personOf.get(v.device)).toBe(v.person);
      personOf.set(v.device, v.person);
    }
    const visitsPerPerson = new Map<number, number>();
    for (const v of w.visits()) if (v.kind === "visitor") visitsPerPerson.set(v.person, (visitsPerPerson.get(v.person) ?? 0) + 1);
    expect([...visitsPerPerson.values()].some((n) => n > 1)).toBe(true);
  });
});

describe("createWorld: sensor outages", () => {
  for (const rotation of ["off", "realistic"] as const) {
    it(`a sensor that is down hears nothing, and nothing else changes (rotation ${rotation})`, () => {
      const options: WorldOptions = { ...smallWorldOptions, rotation, days: 2 };
      const outages = { perSensorDay: 0.5, minutes: [30, 120] as const };
      const base = createWorld(options);
      const down = createWorld({ ...options, sensorOutages: outages });
      expect(base.sensorOutages()).toEqual([]);
      const list = down.sensorOutages();
      expect(list.length).toBeGreaterThan(0);
      let lost = 0;
      for (const shop of down.shops) {
        const mine = list.filter((o) => o.shop === shop.id);
        for (const o of mine) {
          expect(shop.sensors).toContain(o.sensor);
          const minutes = (o.to - o.from) / 60_000;
          expect(minutes).toBeGreaterThanOrEqual(30 - 1e-9);
          expect(minutes).toBeLessThanOrEqual(120 + 1e-9);
        }
        const isDown = (sensor: string, ts: number) => mine.some((o) => o.sensor === sensor && ts >= o.from && ts < o.to);
        const before = [...base.rawSignals(shop.id)];
        const kept = before.filter((r) => !isDown(r.square_mac, r.ts));
        lost += before.length - kept.length;
        // Exactly the records the down sensors would have heard are gone; the rest is the same world.
        expect([...down.rawSignals(shop.id)]).toEqual(kept);
      }
      expect(lost).toBeGreaterThan(0);
      // People came and went as before: outages are the sensors', not the shoppers'.
      expect(down.visits().map((v) => [v.shop, v.person, v.start, v.end])).toEqual(base.visits().map((v) => [v.shop, v.person, v.start, v.end]));
      expect(down.sensorOutages(down.shops[0]!.id).every((o) => o.shop === down.shops[0]!.id)).toBe(true);
    });
  }

  it("rejects invalid outage options", () => {
    expect(() => createWorld({ ...smallWorldOptions, sensorOutages: { perSensorDay: 2, minutes: [10, 20] } })).toThrow(RangeError);
    expect(() => createWorld({ ...smallWorldOptions, sensorOutages: { perSensorDay: 0.1, minutes: [20, 10] } })).toThrow(RangeError);
  });
});

describe("createWorld: sensor clocks", () => {
  it("a sensor whose clock is ahead stamps every reception that much later; nothing else changes", () => {
    const options: WorldOptions = { ...smallWorldOptions, rotation: "realistic" };
    const base = createWorld(options);
    const skewed = createWorld({ ...options, sensorClockSkewMs: 5_000 });
    for (const shop of skewed.shops) {
      expect(base.sensorClockOffsets(shop.id)).toEqual({});
      const offsets = skewed.sensorClockOffsets(shop.id);
      expect(Object.keys(offsets).sort()).toEqual([...shop.sensors].sort());
      expect(Object.values(offsets).every((ms) => Number.isInteger(ms) && Math.abs(ms) <= 5_000)).toBe(true);
      expect(new Set(Object.values(offsets)).size).toBeGreaterThan(1);
      // The same receptions, each stamped by its sensor's clock.
      const key = (r: { device_id: string; square_mac: string; rssi: number; ts: number }) => `${r.device_id} ${r.square_mac} ${r.rssi} ${r.ts}`;
      const expected = [...base.rawSignals(shop.id)].map((r) => key({ ...r, ts: r.ts + offsets[r.square_mac]! })).sort();
      expect([...skewed.rawSignals(shop.id)].map(key).sort()).toEqual(expected);
    }
    expect(() => createWorld({ ...smallWorldOptions, sensorClockSkewMs: -1 })).toThrow(RangeError);
  });
});

describe("createWorld: sensors uploading in batches", () => {
  it("the service has each record from its sensor's next upload (its RTS), one ms apart per upload in stamp order; the records are the same", () => {
    const options: WorldOptions = { ...smallWorldOptions, rotation: "realistic", sensorClockSkewMs: 2_000 };
    const base = createWorld(options);
    const every = 180_000;
    const batched = createWorld({ ...options, sensorUploadEveryMs: every });
    for (const shop of batched.shops) {
      const table = batched.signalTable(shop.id)!;
      expect(table.ts).not.toBe(table.time);
      expect(base.signalTable(shop.id)!.ts).toBe(base.signalTable(shop.id)!.time);
      // The same readings with the same stamps: uploads change when the service has them, nothing else.
      const key = (r: { device_id: string; square_mac: string; rssi: number; ts: number }) => `${r.device_id} ${r.square_mac} ${r.rssi} ${r.ts}`;
      const records = [...batched.rawSignals(shop.id)];
      expect(records.map(key).sort()).toEqual([...base.rawSignals(shop.id)].map(key).sort());
      // Served in RTS order, which is not ts order.
      const rts = records.map((r) => Number.parseInt(r.row_key.split(":")[1]!, 16));
      expect(rts.every((t, i) => i === 0 || t >= rts[i - 1]!)).toBe(true);
      expect(records.some((r, i) => i > 0 && r.ts < records[i - 1]!.ts - 60_000)).toBe(true);
      // An RTS is the sensor's first upload at or after the reading was heard (on the service's
      // clock: the stamp less the sensor's clock offset), plus the record's place in that upload.
      const shopOffsets = batched.sensorClockOffsets(shop.id);
      const waits = records.map((r, i) => rts[i]! - (r.ts - shopOffsets[r.square_mac]!));
      expect(waits.reduce((a, b) => Math.min(a, b))).toBeGreaterThanOrEqual(0);
      expect(waits.reduce((a, b) => Math.max(a, b))).toBeLessThan(every + 1_000);
      expect(waits.filter((w) => w > every / 2).length).toBeGreaterThan(records.length / 4);
      // No RTS holds a group a page cannot get past.
      const groups = new Map<number, number>();
      for (const t of rts) groups.set(t, (groups.get(t) ?? 0) + 1);
      expect([...groups.values()].reduce((a, b) => Math.max(a, b))).toBeLessThan(10);
    }
    expect(() => createWorld({ ...smallWorldOptions, sensorUploadEveryMs: 1.5 })).toThrow(RangeError);
  });
});

describe("createWorld: shadowing", () => {
  /**
   * The RSSI spread of the equipment (fixed position, bursting all day) at each sensor that
   * hears it well: within a burst (frames a few ms apart) and between the means of its bursts.
   */
  function spreads(world: World): { within: number; between: number } {
    const equipment = new Set(world.truth().filter((t) => t.kind === "stationary").map((t) => t.device));
    const bursts = new Map<string, number[]>();
    for (const shop of world.shops) {
      for (const r of world.rawSignals(shop.id)) {
        if (!equipment.has(r.device_id)) continue;
        // A burst's frames at one sensor lie within about a second; bursts are ≥ 15 s apart.
        const key = `${r.device_id} ${r.square_mac} ${Math.floor(r.ts / 5_000)}`;
        let xs = bursts.get(key);
        if (xs === undefined) bursts.set(key, (xs = []));
        xs.push(r.rssi);
      }
    }
    const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const byPair = new Map<string, number[]>();
    let within = 0;
    let withinN = 0;
    for (const [key, xs] of bursts) {
      if (xs.length < 3) continue;
      const m = mean(xs);
      // Readings near the floor are cut off, which narrows the spread: strong pairs only.
      if (m < -80) continue;
      for (const x of xs) within += (x - m) ** 2;
      withinN += xs.length - 1;
      const pair = key.slice(0, key.lastIndexOf(" "));
      let ms = byPair.get(pair);
      if (ms === undefined) byPair.set(pair, (ms = []));
      ms.push(m);
    }
    let between = 0;
    let betweenN = 0;
    for (const ms of byPair.values()) {
      const m = mean(ms);
      for (const x of ms) between += (x - m) ** 2;
      betweenN += ms.length - 1;
    }
    return { within: Math.sqrt(within / withinN), between: Math.sqrt(between / betweenN) };
  }

  const options: WorldOptions = { ...smallWorldOptions, rotation: "realistic" };

  it("adds slow fading that a burst's frames share: bursts of a device that never moves differ by about shadowingDb", () => {
    const still = spreads(createWorld(options));
    const shaded = spreads(createWorld({ ...options, shadowingDb: 6 }));
    // Frames of one burst scatter by the per-reading noise (4 dB) either way.
    expect(still.within).toBeGreaterThan(3);
    expect(still.within).toBeLessThan(5);
    expect(Math.abs(shaded.within - still.within)).toBeLessThan(0.5);
    // Without shadowing a burst's mean moves only by the noise averaged over its frames;
    // with it, by about √(6² + that²).
    expect(still.between).toBeLessThan(2.5);
    expect(shaded.between).toBeGreaterThan(4.5);
    expect(shaded.between).toBeLessThan(8);
  });

  it("changes the RSSI and which frames are heard, never the people, their tracks or their MACs", () => {
    const base = createWorld(options);
    const shaded = createWorld({ ...options, shadowingDb: 6 });
    const people = (w: World) => w.visits().map((v) => ({ ...v, records: 0, macs: v.macs.map((m) => ({ ...m, records: 0 })) }));
    expect(people(shaded)).toEqual(people(base));
    expect(shaded.occupancy()).toEqual(base.occupancy());
    expect(tableSnapshot(shaded)).not.toEqual(tableSnapshot(base));
    expect(createWorld({ ...options, shadowingDb: 0 }).visits()).toEqual(base.visits());
    expect(() => createWorld({ shadowingDb: -1 })).toThrow(RangeError);
  });
});

describe("createWorld: day-to-day variation of dwell", () => {
  const options: WorldOptions = { seed: 11, shops: 2, days: 6, visitorsPerDay: 150, passersByPerDay: 100, staffPerShop: 0, stationaryPerShop: 0 };
  // Mean log dwell of the visitors arriving on each shop-day (a day's factor scales every stay).
  const dayMeans = (w: World): number[] => {
    const byDay = new Map<string, number[]>();
    for (const v of w.visits()) {
      if (v.kind !== "visitor") continue;
      const key = `${v.shop} ${Math.floor((v.start + 9 * 3_600_000) / 86_400_000)}`;
      const list = byDay.get(key) ?? [];
      list.push(Math.log(v.end - v.start));
      byDay.set(key, list);
    }
    return [...byDay.values()].map((l) => l.reduce((a, b) => a + b, 0) / l.length);
  };
  const sd = (x: readonly number[]): number => {
    const m = x.reduce((a, b) => a + b, 0) / x.length;
    return Math.sqrt(x.reduce((a, b) => a + (b - m) ** 2, 0) / (x.length - 1));
  };

  it("scales each shop-day's stays by its own factor, keeping who arrives when", () => {
    const base = createWorld(options);
    const varied = createWorld({ ...options, dwellDayVariation: 0.4 });
    const arrivals = (w: World) => w.visits().filter((v) => v.kind === "visitor").map((v) => [v.shop, v.start]);
    expect(arrivals(varied)).toEqual(arrivals(base));
    // Without it, day means of log dwell differ only by sampling (~0.7 / √150 ≈ 0.06); with it,
    // by about the factor's 0.4 on top.
    expect(sd(dayMeans(base))).toBeLessThan(0.12);
    expect(sd(dayMeans(varied))).toBeGreaterThan(0.2);
    expect(createWorld({ ...options, dwellDayVariation: 0 }).visits()).toEqual(base.visits());
    expect(() => createWorld({ dwellDayVariation: -0.1 })).toThrow(RangeError);
  });
});

describe("createWorld: visitors who come with company", () => {
  const options: WorldOptions = { seed: 12, shops: 1, visitorsPerDay: 200, passersByPerDay: 300, rotation: "realistic" };

  it("adds 1–3 companions to a share of visitors, arriving, staying and leaving with them; the others are as without", () => {
    const base = createWorld(options);
    const grouped = createWorld({ ...options, groupShare: 0.4 });
    const key = (v: { start: number; end: number; records: number; macs: readonly { mac: string }[] }) => `${v.start} ${v.end} ${v.records} ${v.macs.map((m) => m.mac).join(",")}`;
    const mine = new Set(grouped.visits().map(key));
    // Every visit of the world without groups is there, unchanged (no slow fading here).
    expect(base.visits().every((v) => mine.has(key(v)))).toBe(true);
    const visitors = (w: World) => w.visits().filter((v) => v.kind === "visitor");
    const leaders = visitors(base);
    const companions = visitors(grouped).filter((v) => !new Set(leaders.map(key)).has(key(v)));
    // About 0.4 × 2 companions per visitor.
    expect(companions.length / leaders.length).toBeGreaterThan(0.5);
    expect(companions.length / leaders.length).toBeLessThan(1.1);
    // Each companion arrived within 20 s and left within a minute of some visitor.
    for (const c of companions) expect(leaders.some((l) => Math.abs(l.start - c.start) <= 20_000 && Math.abs(l.end - c.end) <= 60_000)).toBe(true);
    // They are people of their own, with MACs of their own.
    const baseKeys = new Set(leaders.map(key));
    const persons = new Set(visitors(grouped).filter((v) => baseKeys.has(key(v))).map((v) => v.person));
    expect(companions.every((c) => !persons.has(c.person))).toBe(true);
    const macs = new Set(leaders.flatMap((v) => v.macs.map((m) => m.mac)));
    expect(companions.every((c) => c.macs.every((m) => !macs.has(m.mac)))).toBe(true);
    expect(() => createWorld({ groupShare: 1.5 })).toThrow(RangeError);
  });
});
