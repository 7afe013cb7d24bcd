import { describe, expect, it } from "vitest";
import { createWorld, type WorldOptions } from "../../../src/sim/createWorld.ts";
import { peopleTruth } from "../../../src/sim/truth/peopleTruth.ts";
import { meanOccupancy } from "../../../src/sim/truth/meanOccupancy.ts";
import { phoneProfiles } from "../../../src/sim/phones/PhoneProfile.ts";
import { realPhoneCaptures, type RealPhoneCapture } from "../../../src/sim/phones/realPhoneCaptures.ts";
import { realPhones, resolveRealPhones } from "../../../src/sim/phones/RealPhones.ts";
import type { TruthPersonVisit, World } from "../../../src/sim/world/World.ts";

/**
 * `phones: "real"` replays the 107 captures of 22 real phones (`realPhoneCaptures`). Each
 * visitor's own phone in a world is treated as a capture over its first 10–20 minutes inside —
 * bursts cut as the captures were (frames at most 1 s apart), heard by three sensors on
 * channels 1, 6 and 11 — and the world's captures are compared with the table's, each capture of
 * the table weighted as the world draws it (a phone, then one of its modes: 1 ÷ the phone's
 * captures), within a stated tolerance: a world is a sample too, and the table has 107 rows.
 */

const quantile = (xs: readonly number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  const h = (s.length - 1) * p;
  const lo = Math.floor(h);
  return s[lo]! + (s[Math.min(lo + 1, s.length - 1)]! - s[lo]!) * (h - lo);
};
const mean = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;
/** `actual` within ±`relative` (a share) of `target`. */
const near = (actual: number, target: number, relative: number): void => {
  expect(actual, `${actual} vs target ${target} ±${relative * 100} %`).toBeGreaterThanOrEqual(target * (1 - relative));
  expect(actual, `${actual} vs target ${target} ±${relative * 100} %`).toBeLessThanOrEqual(target * (1 + relative));
};
/** `actual` within ±`points` of `target` (shares 0…1). */
const within = (actual: number, target: number, points: number): void => {
  expect(Math.abs(actual - target), `${actual} vs target ${target} ±${points}`).toBeLessThanOrEqual(points);
};

// The table as the world draws from it: each capture weighs 1 ÷ (phones × its phone's captures).
const modes = new Map<string, number>();
for (const c of realPhoneCaptures) modes.set(c.device, (modes.get(c.device) ?? 0) + 1);
const weightOf = (c: RealPhoneCapture): number => 1 / (modes.size * modes.get(c.device)!);
/** The weighted `p`-quantile of `f` over the captures that have it. */
const tableQuantile = (f: (c: RealPhoneCapture) => number | null, p: number): number => {
  const xs = realPhoneCaptures.flatMap((c) => {
    const v = f(c);
    return v === null ? [] : [{ v, w: weightOf(c) }];
  });
  xs.sort((a, b) => a.v - b.v);
  const total = xs.reduce((a, x) => a + x.w, 0);
  let acc = 0;
  for (const x of xs) if ((acc += x.w) >= p * total) return x.v;
  return xs[xs.length - 1]!.v;
};
/** The weighted mean of `f`. */
const tableMean = (f: (c: RealPhoneCapture) => number): number => realPhoneCaptures.reduce((a, c) => a + weightOf(c) * f(c), 0);
/** A capture that probes on a timer by the captures' own figures: three bursts or more, p90 within 10 % of the median gap. */
const looksTimed = (bursts: number, median: number | null, p90: number | null): boolean => bursts >= 3 && median !== null && p90 !== null && p90 <= 1.1 * median;

/** One small room heard by three sensors (one per channel), many shoppers: thousands of "captures". */
const captureWorld: WorldOptions = {
  seed: 97,
  shops: 1,
  sensorsPerShop: 3,
  shopSizeM: [10, 8],
  visitorsPerDay: 5000,
  passersByPerDay: 0,
  staffPerShop: 2,
  stationaryPerShop: 4,
  phones: "real",
};

interface Capture {
  readonly visit: TruthPersonVisit;
  readonly universal: boolean;
  readonly bursts: number;
  readonly perMinute: number;
  readonly gapMedianS: number | null;
  readonly gapP90S: number | null;
  /** Per burst: its distinct MACs, its frames (all sensors), the sensors (channels) that heard it. */
  readonly macsPerBurst: readonly number[];
  readonly framesPerBurst: readonly number[];
  readonly channelsPerBurst: readonly number[];
  /** Distinct MACs ÷ bursts. */
  readonly macsOverBursts: number;
}

/** Each visitor's own phone (not associated, not an extra device) over its first 10–20 minutes inside. */
function captures(world: World, shopId: number): Capture[] {
  const table = world.signalTable(shopId)!;
  const heard = new Map<string, number[]>();
  for (let i = 0; i < table.count; i++) {
    const mac = table.devices[table.device[i]!]!;
    let rows = heard.get(mac);
    if (rows === undefined) heard.set(mac, (rows = []));
    rows.push(i);
  }
  const out: Capture[] = [];
  for (const v of world.visits(shopId)) {
    if (v.kind !== "visitor" || v.associated || v.extraDevice !== undefined) continue;
    const span = Math.min(v.end - v.start, 20 * 60_000);
    if (span < 10 * 60_000) continue;
    const to = v.start + span;
    const rows: number[] = [];
    for (const m of v.macs) for (const i of heard.get(m.mac) ?? []) if (table.ts[i]! >= v.start && table.ts[i]! < to) rows.push(i);
    rows.sort((a, b) => table.ts[a]! - table.ts[b]!);
    const bursts: number[][] = [];
    for (let r = 0; r < rows.length; r++) {
      if (r === 0 || table.ts[rows[r]!]! - table.ts[rows[r - 1]!]! > 1000) bursts.push([]);
      bursts[bursts.length - 1]!.push(rows[r]!);
    }
    const starts = bursts.map((b) => table.ts[b[0]!]!);
    const gaps = starts.slice(1).map((t, i) => (t - starts[i]!) / 1000);
    out.push({
      visit: v,
      universal: v.macClass === "universal",
      bursts: bursts.length,
      perMinute: bursts.length / (span / 60_000),
      gapMedianS: gaps.length > 0 ? quantile(gaps, 0.5) : null,
      gapP90S: gaps.length > 0 ? quantile(gaps, 0.9) : null,
      macsPerBurst: bursts.map((b) => new Set(b.map((i) => table.device[i]!)).size),
      framesPerBurst: bursts.map((b) => b.length),
      channelsPerBurst: bursts.map((b) => new Set(b.map((i) => table.sensor[i]!)).size),
      macsOverBursts: bursts.length === 0 ? 0 : new Set(rows.map((i) => table.device[i]!)).size / bursts.length,
    });
  }
  return out;
}

describe('phones: "real" replays the 22 real phones', () => {
  const world = createWorld(captureWorld);
  const shopId = world.shops[0]!.id;
  const all = captures(world, shopId);
  const heardAll = all.filter((c) => c.bursts > 0);
  const rates = all.map((c) => c.perMinute);

  it("has thousands of captures to measure on", () => {
    expect(all.length).toBeGreaterThan(2000);
    if (process.env.SIM_REPORT !== undefined) {
      const gaps = all.flatMap((c) => (c.gapMedianS === null ? [] : [c.gapMedianS]));
      console.log(JSON.stringify({
        captures: all.length,
        rates: [0.1, 0.25, 0.5, 0.75, 0.9].map((p) => [quantile(rates, p), tableQuantile((c) => c.burstsPerMinute, p)]),
        max: Math.max(...rates), mean: [mean(rates), tableMean((c) => c.burstsPerMinute)],
        over3: [rates.filter((r) => r > 3).length / rates.length, tableMean((c) => (c.burstsPerMinute > 3 ? 1 : 0))],
        timers: [all.filter((c) => looksTimed(c.bursts, c.gapMedianS, c.gapP90S)).length / all.length, tableMean((c) => (looksTimed(c.bursts, c.gapMedianS, c.gapP90S) ? 1 : 0))],
        gaps: [0.1, 0.5, 0.9].map((p) => [quantile(gaps, p), tableQuantile((c) => c.gapMedianS, p)]),
        multiMac: [heardAll.filter((c) => quantile(c.macsPerBurst, 0.5) >= 2).length / heardAll.length, tableMean((c) => (c.macsPerBurst >= 2 ? 1 : 0))],
        macsOverBursts: [0.5, 0.9].map((p) => [quantile(heardAll.map((c) => c.macsOverBursts), p), tableQuantile((c) => c.macs / c.bursts, p)]),
        frames: [quantile(heardAll.map((c) => quantile(c.framesPerBurst, 0.5)), 0.5), tableQuantile((c) => c.framesPerBurst, 0.5)],
        channels: [mean(heardAll.map((c) => quantile(c.channelsPerBurst, 0.5))), tableMean((c) => c.channelsPerBurst)],
        universal: [all.filter((c) => c.universal).length / all.length, tableMean((c) => (c.universal ? 1 : 0))],
      }));
    }
  });

  it("bursts a minute per capture: median and p75 (±15 %, ±20 %), mean (±15 %), the captures' share above 3 a minute (±4 points), the fastest near 18.5", () => {
    near(quantile(rates, 0.5), tableQuantile((c) => c.burstsPerMinute, 0.5), 0.15);
    near(quantile(rates, 0.75), tableQuantile((c) => c.burstsPerMinute, 0.75), 0.2);
    near(mean(rates), tableMean((c) => c.burstsPerMinute), 0.15);
    within(rates.filter((r) => r > 3).length / rates.length, tableMean((c) => (c.burstsPerMinute > 3 ? 1 : 0)), 0.04);
    // X every 3.1 s: 18.5 a minute; a capture of it counts one burst more or less.
    const fastest = Math.max(...realPhoneCaptures.map((c) => c.burstsPerMinute));
    expect(Math.max(...rates)).toBeGreaterThan(fastest * 0.9);
    expect(Math.max(...rates)).toBeLessThan(fastest * 1.15);
  });

  it("timers and irregular probers as often as the captures (±6 points), median gaps per capture p10 / median / p90 (±20 %)", () => {
    within(all.filter((c) => looksTimed(c.bursts, c.gapMedianS, c.gapP90S)).length / all.length, tableMean((c) => (looksTimed(c.bursts, c.gapMedianS, c.gapP90S) ? 1 : 0)), 0.06);
    const gaps = all.flatMap((c) => (c.gapMedianS === null ? [] : [c.gapMedianS]));
    for (const p of [0.1, 0.5, 0.9]) near(quantile(gaps, p), tableQuantile((c) => c.gapMedianS, p), 0.2);
  });

  it("several MACs within one burst as often as the captures (±4 points); MACs over bursts median and p90 (±15 %)", () => {
    within(heardAll.filter((c) => quantile(c.macsPerBurst, 0.5) >= 2).length / heardAll.length, tableMean((c) => (c.macsPerBurst >= 2 ? 1 : 0)), 0.04);
    for (const p of [0.5, 0.9]) near(quantile(heardAll.map((c) => c.macsOverBursts), p), tableQuantile((c) => c.macs / c.bursts, p), 0.15);
  });

  it("frames per burst (median of the captures' medians, ±3) and channels per burst (mean, ±0.15) as the captures", () => {
    expect(Math.abs(quantile(heardAll.map((c) => quantile(c.framesPerBurst, 0.5)), 0.5) - tableQuantile((c) => c.framesPerBurst, 0.5))).toBeLessThanOrEqual(3);
    within(mean(heardAll.map((c) => quantile(c.channelsPerBurst, 0.5))), tableMean((c) => c.channelsPerBurst), 0.15);
  });

  it("a universal MAC as often as the captures (±5 points)", () => {
    within(all.filter((c) => c.universal).length / all.length, tableMean((c) => (c.universal ? 1 : 0)), 0.05);
    expect(realPhones.universalShare).toBeCloseTo(tableMean((c) => (c.universal ? 1 : 0)), 12);
  });

  it("each person's phone keeps one profile for the visit: its bursts keep that capture's timer and MACs a burst all visit long", () => {
    const profiles = new Map(phoneProfiles(realPhoneCaptures).map((p) => [p.id, p]));
    let timers = 0;
    let multi = 0;
    for (const c of heardAll) {
      const p = profiles.get(c.visit.profile!)!;
      expect(p).toBeDefined();
      // MACs a burst: several for the profiles that take several, one for the others.
      if (c.bursts >= 4) {
        if (p.macsPerBurst >= 2) {
          multi++;
          expect(quantile(c.macsPerBurst, 0.5), p.id).toBeGreaterThanOrEqual(2);
        } else if (p.macsPerBurst === 1) expect(Math.max(...c.macsPerBurst), p.id).toBe(1);
      }
      // A timer keeps its period through the visit (the median of a few gaps moves with its spread).
      if (p.timer && c.bursts >= 8) {
        timers++;
        expect(Math.abs(c.gapMedianS! / (p.gapMedianMs / 1000) - 1), p.id).toBeLessThan(0.02 + 2 * p.gapJitter);
      }
    }
    expect(timers).toBeGreaterThan(50);
    expect(multi).toBeGreaterThan(50);
  });

  it("some people carry a second or third device: devices, not people, in the truth", () => {
    const visits = world.visits(shopId).filter((v) => v.kind === "visitor");
    const own = visits.filter((v) => v.extraDevice === undefined);
    const extra = visits.filter((v) => v.extraDevice !== undefined);
    // 20 % carry a second device, 5 % of them a third: 0.25 extra devices per person.
    near(extra.length / own.length, realPhones.secondDeviceShare + realPhones.thirdDeviceShare, 0.15);
    const ownByPerson = new Map(own.map((v) => [v.person, v]));
    for (const v of extra) {
      const phone = ownByPerson.get(v.person)!;
      expect(phone).toBeDefined();
      expect([v.start, v.end]).toEqual([phone.start, phone.end]);
      expect(["laptop", "watch", "tablet"]).toContain(v.extraDevice);
    }
    expect(new Set(extra.map((v) => v.macClass)).size).toBeGreaterThan(1); // universal and randomized
    for (const row of world.truth(shopId)) if (row.extraDevice !== undefined) expect(ownByPerson.has(row.person)).toBe(true);
    // The truth counts people: occupancy events and visitors from the person's own phone only.
    const events = world.occupancy(shopId);
    expect(events.filter((e) => e.kind === "visitor" && e.delta === 1)).toHaveLength(own.length);
    const truth = peopleTruth(world);
    expect(truth.visitors(shopId, world.startMs, world.endMs)).toBe(new Set(own.map((v) => v.person)).size);
    expect(truth.dwells(shopId, world.startMs, world.endMs)).toHaveLength(own.length);
    const noon = world.startMs + 12 * 3_600_000;
    const byHand = own.reduce((a, v) => a + Math.max(0, Math.min(v.end, noon + 3_600_000) - Math.max(v.start, noon)), 0) / 3_600_000;
    expect(meanOccupancy(events, noon, noon + 3_600_000, { kinds: ["visitor"] })).toBeCloseTo(byHand, 9);
  });

  it("fixed equipment keeps a universal MAC, probes at its own rate, some of it only while the shop is open, and is nobody", () => {
    const equipment = world.visits(shopId).filter((v) => v.kind === "stationary");
    const people = new Set(world.occupancy(shopId).map((e) => e.person));
    const byDevice = new Map<number, typeof equipment>();
    for (const v of equipment) {
      expect(v.macClass).toBe("universal");
      expect(v.macs).toHaveLength(1);
      expect(people.has(v.person)).toBe(false);
      byDevice.set(v.person, [...(byDevice.get(v.person) ?? []), v]);
    }
    expect(byDevice.size).toBe(4);
    const open = world.startMs + 10 * 3_600_000;
    const close = world.startMs + 22 * 3_600_000;
    let switched = 0;
    for (const visits of byDevice.values()) {
      const v = visits[0]!;
      if (v.start === world.startMs && v.end === world.endMs) continue;
      switched++;
      // On 15–45 min before opening, off 10–30 min after closing.
      expect(v.start).toBeGreaterThanOrEqual(open - 45 * 60_000);
      expect(v.start).toBeLessThanOrEqual(open - 15 * 60_000);
      expect(v.end).toBeGreaterThanOrEqual(close + 10 * 60_000);
      expect(v.end).toBeLessThanOrEqual(close + 30 * 60_000);
    }
    expect(switched).toBeGreaterThan(0);
    const table = world.signalTable(shopId)!;
    for (const visits of byDevice.values()) {
      const mac = visits[0]!.macs[0]!.mac;
      const d = table.devices.indexOf(mac);
      let last = -Infinity;
      let bursts = 0;
      for (let i = 0; i < table.count; i++) {
        if (table.device[i] !== d) continue;
        if (table.ts[i]! - last > 1500) bursts++;
        last = table.ts[i]!;
      }
      const minutes = visits.reduce((a, v) => a + (v.end - v.start), 0) / 60_000;
      const [lo, hi] = realPhones.equipmentBurstsPerMinute;
      expect(bursts / minutes).toBeGreaterThan(lo * 0.9);
      expect(bursts / minutes).toBeLessThan(hi * 1.1);
    }
    expect(peopleTruth(world).visitors(shopId, world.startMs, world.endMs)).toBe(new Set(world.visits(shopId).filter((v) => v.kind === "visitor").map((v) => v.person)).size);
  });
});

describe("phones option", () => {
  const small: WorldOptions = { seed: 11, shops: 1, openingHours: [10, 12], visitorsPerDay: 60, passersByPerDay: 200, staffPerShop: 1, stationaryPerShop: 1 };
  const digest = (w: World): string => JSON.stringify([[...w.rawSignals(101)], w.visits(), w.truth(), w.occupancy(), w.transactions()]);

  it('"real" is the default; "off" (and rotation "off" alone) gives a world with no extra devices, no replayed phones and no phones parameters', () => {
    expect(digest(createWorld(small))).toBe(digest(createWorld({ ...small, phones: "real" })));
    expect(createWorld(small).phones).toBe(realPhones);
    // Every person's own phone replays a capture (universal extra devices, laptops mostly, do not).
    expect(createWorld(small).visits().filter((v) => v.kind === "visitor" && v.extraDevice === undefined).every((v) => v.profile !== undefined)).toBe(true);
    for (const world of [createWorld({ ...small, rotation: "off" }), createWorld({ ...small, rotation: "realistic", groupShare: 0.3, phones: "off" })]) {
      expect(world.phones).toBeUndefined();
      expect(world.visits().some((v) => "extraDevice" in v || "profile" in v)).toBe(false);
    }
    expect(digest(createWorld({ ...small, rotation: "off" }))).toBe(digest(createWorld({ ...small, rotation: "off", phones: "off" })));
  });

  it("given alone it switches the burst model on; an object overrides the defaults", () => {
    const w = createWorld({ ...small, phones: { secondDeviceShare: 0.5 } });
    expect(w.macBehaviour).toBeDefined();
    expect(w.phones!.secondDeviceShare).toBe(0.5);
    expect(w.phones!.thirdDeviceShare).toBe(realPhones.thirdDeviceShare);
    expect(createWorld({ ...small, phones: "real" }).phones).toBe(realPhones);
    expect(createWorld({ ...small, phones: "real", rotation: 0.5 }).macBehaviour!.rotatingShare).toBe(0.5);
  });

  it("profiles restricts the phones replayed, by phone or by capture; the universal share follows the selection unless given", () => {
    const w = createWorld({ ...small, visitorsPerDay: 150, phones: { profiles: ["B", "X-PA"], secondDeviceShare: 0, thirdDeviceShare: 0 } });
    const replayed = new Set(w.visits().flatMap((v) => (v.profile === undefined || v.kind === "stationary" ? [] : [v.profile])));
    expect([...replayed].every((id) => id.startsWith("B-") || id === "X-PA")).toBe(true);
    expect(replayed.has("X-PA")).toBe(true);
    expect(w.phones!.universalShare).toBe(0); // neither B nor X used a universal MAC
    expect(w.visits().some((v) => v.kind === "visitor" && v.macClass === "universal")).toBe(false);
    expect(resolveRealPhones({ profiles: ["C", "X"] })!.universalShare).toBeCloseTo(0.5, 12);
    expect(resolveRealPhones({ profiles: ["C", "X"], universalShare: 0.2 })!.universalShare).toBe(0.2);
  });

  it("is seeded: the same options give the same world, another seed another", () => {
    expect(digest(createWorld({ ...small, phones: "real" }))).toBe(digest(createWorld({ ...small, phones: "real" })));
    expect(digest(createWorld({ ...small, phones: "real" }))).not.toBe(digest(createWorld({ ...small, seed: 12, phones: "real" })));
  });

  it("rejects unknown keys, bad values, the rate model's keys it replaced, and combinations that would be ignored", () => {
    expect(() => createWorld({ ...small, phones: { secondDevices: 0.2 } as never })).toThrow(TypeError);
    expect(() => createWorld({ ...small, phones: "realistic" as never })).toThrow(TypeError);
    expect(() => createWorld({ ...small, phones: "real", rotation: "off" })).toThrow(RangeError);
    expect(() => createWorld({ ...small, phones: "real", macs: { universalShare: 0.1 } })).toThrow(RangeError);
    expect(() => resolveRealPhones({ secondDeviceShare: 0.1, thirdDeviceShare: 0.2 })).toThrow(RangeError);
    expect(() => resolveRealPhones({ universalShare: 1.5 })).toThrow(RangeError);
    expect(() => resolveRealPhones({ equipmentBurstsPerMinute: [4, 1] })).toThrow(RangeError);
    for (const gone of ["burstsPerMinute", "burstGapJitter", "macPerChannelShare"]) {
      expect(() => resolveRealPhones({ [gone]: 1 } as never)).toThrow(/phones.profiles/);
    }
    expect(() => resolveRealPhones({ profiles: ["Z"] })).toThrow(RangeError);
    expect(() => resolveRealPhones({ profiles: [] })).toThrow(RangeError);
    expect(() => resolveRealPhones({ profiles: "B" as never })).toThrow(TypeError);
    expect(() => resolveRealPhones({ profiles: ["B"], universalShare: 0.3 })).toThrow(RangeError); // B never used a universal MAC
    expect(() => resolveRealPhones({ profiles: ["C"], universalShare: 0.5 })).toThrow(RangeError); // C always did
    expect(resolveRealPhones({ profiles: ["C"] })!.universalShare).toBe(1);
    // A selection of one class still builds: staff phones and extra devices borrow its timing.
    const onlyC = createWorld({ ...small, phones: { profiles: ["C"], secondDeviceShare: 0.5 } });
    expect(onlyC.visits().filter((v) => v.kind === "visitor" && v.extraDevice === undefined).every((v) => v.macClass === "universal" && v.profile!.startsWith("C-"))).toBe(true);
  });
});
