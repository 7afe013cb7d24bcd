import { freshMac } from "../phones/freshMac.ts";
import type { MacBehaviour } from "../phones/MacBehaviour.ts";
import { createRng, hashSeed, type Rng } from "../random/prng.ts";
import { drawFromQuantiles, logUniformRate, medianGapMs, type ExtraDevice, type RealPhones } from "../phones/RealPhones.ts";
import { Shadowing } from "./Shadowing.ts";
import { SignalColumns } from "./signalTable.ts";
import { nextUpload } from "./nextUpload.ts";
import type { VendorOuis } from "../phones/vendorOuis.ts";
import type { MacClass, OccupancyEvent, ShopLayout, TruthMac, TruthPersonVisit, TruthVisit, VisitKind } from "./World.ts";

/**
 * Sensors hang at the ceiling, phones are carried: the vertical gap the model adds to floor
 * distance, m.
 *
 * @example
 * const floorDistanceM = 3;
 * const d = Math.hypot(floorDistanceM, MOUNT_HEIGHT_M); // true phone–sensor distance, m
 * d.toFixed(2); // "3.27"
 */
export const MOUNT_HEIGHT_M = 1.3;
/**
 * A sensor timestamps a probe 0–2 ms after it was sent; probes stop this long (ms) before
 * departure, so every reception lies inside the visit.
 *
 * @example
 * const visitEndMs = Date.parse("2026-11-16T10:15:00+09:00");
 * const lastSendMs = visitEndMs - SENSOR_LAG_MS;
 * visitEndMs - lastSendMs; // 3
 */
export const SENSOR_LAG_MS = 3;
/** Channels the sensors of a shop listen on (sensor k on channel k mod 3, like 1 / 6 / 11). */
const CHANNELS = 3;
/** Spacing of the frames of one burst on one channel, ms: a phone repeats its probe a few ms apart. */
const FRAME_SPACING_MS: readonly [number, number] = [2, 8];
/** Most frames one channel can carry in a burst (the options' validated maximum). */
const MAX_FRAMES = 64;

/**
 * One device of one person, as the burst model needs it across visits: its MAC class, its
 * fixed MAC (universal phones, staff, equipment), its transmit offset and its own medians.
 *
 * @example
 * const b = new ShopBuilder(101, defaultWorldOptions, world.layout(101)!, new Set(), 1 << 16, realisticMacBehaviour);
 * const phone = b.phone(createRng(7), "rotating", undefined);
 * phone.fixedDevice; // -1 (a fresh MAC per rotation)
 */
export interface Phone {
  readonly macClass: MacClass;
  /** Device index of the MAC kept across visits, or −1 (a fresh MAC per visit or per rotation). */
  readonly fixedDevice: number;
  /** Fixed transmit offset, dB (the same radio whatever MAC it uses). */
  readonly offsetDb: number;
  /** Median gap between bursts per state, ms. */
  readonly gapOnMs: number;
  readonly gapOffMs: number;
  readonly gapAssociatedMs: number;
  /** Log-space spread of each gap. */
  readonly jitter: number;
  /** Chance that a rotating phone draws a new MAC before a burst (1 ÷ mean bursts per MAC), screen on / off. */
  readonly rotateOn: number;
  readonly rotateOff: number;
  /** A rotating phone that draws a new MAC on every channel of a burst (`RealPhones.macPerChannelShare`); false otherwise. */
  readonly macPerChannel: boolean;
}

interface MacUse {
  device: number;
  first: number;
  last: number;
  records: number;
}

/**
 * Mutable state of one shop while it is generated: the signal columns, the device (MAC)
 * table and the truth. The probe loops are methods over plain numbers and typed arrays: no
 * per-record objects or closures.
 *
 * @example
 * const b = new ShopBuilder(101, defaultWorldOptions, world.layout(101)!, new Set(), 1 << 16, undefined);
 * const person = b.newPerson(); // 0
 * b.newPerson(); // 1
 */
export class ShopBuilder {
  readonly cols: SignalColumns;
  readonly devices: string[] = [];
  readonly deviceIndex = new Map<string, number>();
  readonly deviceOffset: number[] = [];
  readonly truth: TruthVisit[] = [];
  readonly visits: TruthPersonVisit[] = [];
  readonly sx: Float64Array;
  readonly sy: Float64Array;
  private readonly pathFactor: number;
  private readonly h2 = MOUNT_HEIGHT_M * MOUNT_HEIGHT_M;
  private persons = 0;
  /** Per sensor index, its outages as flat [from, to) pairs (epoch ms); none when empty. */
  private readonly down: number[][] = [];
  /** Per sensor index, how far ahead of the true time its clock runs, ms (0 when not set). */
  private readonly ahead: number[] = [];
  /** Per sensor index, its upload period and phase, ms (none: the service has each record at once). */
  private readonly uploads: { everyMs: number; phaseMs: number }[] = [];
  // Scratch of one burst, reused so the burst loop allocates nothing.
  private readonly frameTime = new Float64Array(CHANNELS * MAX_FRAMES);
  private readonly frameCount = new Int32Array(CHANNELS);
  private readonly meanLevel: Float64Array;
  /** Slow fading of the presence being emitted (one at a time), from a stream of its own. */
  private readonly shade: Shadowing;
  /** Per-channel first and last frame of one burst (scratch). */
  private readonly chanFirst = new Float64Array(CHANNELS);
  private readonly chanLast = new Float64Array(CHANNELS);
  /**
   * The real phones' draws (rates, MAC per channel), from a stream of their own: only a world
   * with `phones` on draws from it, so a world without is the world it always was.
   */
  private readonly realRng: Rng | undefined;

  constructor(
    readonly shopId: number,
    readonly o: {
      readonly rssiAt1m: number;
      readonly sensitivityDbm: number;
      readonly rssiNoiseDb: number;
      readonly wallLossDb: number;
      readonly pathLossExponent: number;
      readonly deviceSpreadDb: number;
      readonly shadowingDb: number;
      readonly probeIntervalS: readonly [number, number];
      readonly seed: number | string;
    },
    readonly layout: ShopLayout,
    readonly usedMacs: Set<string>,
    capacity: number,
    readonly macs: MacBehaviour | undefined,
    readonly real: RealPhones | undefined = undefined,
  ) {
    this.realRng = real === undefined ? undefined : createRng(hashSeed(o.seed, "phones", shopId));
    this.cols = new SignalColumns(capacity);
    this.sx = Float64Array.from(layout.sensors, (s) => s.xM);
    this.sy = Float64Array.from(layout.sensors, (s) => s.yM);
    this.meanLevel = new Float64Array(layout.sensors.length);
    this.shade = new Shadowing(layout.sensors.length, o.shadowingDb, createRng(hashSeed(o.seed, "shadowing", shopId)));
    // 10·n·log10(√d²) = 5·n·log10(d²): skips a square root per reading.
    this.pathFactor = 5 * o.pathLossExponent;
  }

  /** Sensor `sensor` (index) stamps its receptions `ms` ahead of the true time: call before any presence is emitted. */
  clockAhead(sensor: number, ms: number): void {
    this.ahead[sensor] = ms;
  }

  /**
   * Sensor `sensor` (index) uploads what it heard at `phaseMs + k · everyMs` (true time), and the
   * service has each record from then on (its RTS): call before any presence is emitted.
   */
  uploadEvery(sensor: number, everyMs: number, phaseMs: number): void {
    this.uploads[sensor] = { everyMs, phaseMs };
  }

  /** Sensor `sensor` (index) hears nothing in [from, to) (epoch ms): call before any presence is emitted. */
  loseDuring(sensor: number, from: number, to: number): void {
    (this.down[sensor] ??= []).push(from, to);
  }

  // A reading sensor `s` took at true time `at`: stamped by its clock, had by the service at once
  // or at the sensor's next upload.
  private heard(at: number, device: number, s: number, rssi: number): void {
    const stamp = at + (this.ahead[s] ?? 0);
    const upload = this.uploads[s];
    if (upload === undefined) this.cols.push(stamp, device, s, rssi);
    else this.cols.push(nextUpload(at, upload.phaseMs, upload.everyMs), device, s, rssi, stamp);
  }

  // Whether sensor `s` is down at `t`: the reading is lost, after its random draws were made, so
  // everything else in the world stays as it would be without outages.
  private lost(s: number, t: number): boolean {
    const d = this.down[s];
    if (d === undefined) return false;
    for (let i = 0; i < d.length; i += 2) if (t >= d[i]! && t < d[i + 1]!) return true;
    return false;
  }

  /** A new person (or piece of equipment) of this shop: numbers count up from 0. */
  newPerson(): number {
    return this.persons++;
  }

  /** Index of a device, registering it (with its fixed transmit offset) on first sight. */
  device(mac: string, rng: Rng): number {
    let i = this.deviceIndex.get(mac);
    if (i === undefined) i = this.register(mac, this.o.deviceSpreadDb * rng.normal());
    return i;
  }

  private register(mac: string, offsetDb: number): number {
    const i = this.devices.length;
    this.devices.push(mac);
    this.deviceIndex.set(mac, i);
    this.deviceOffset.push(offsetDb);
    return i;
  }

  /** A fresh MAC nobody in the world has used: universal from `vendors`, or random local. */
  newMac(rng: Rng, vendors: readonly VendorOuis[] | "local"): string {
    return freshMac(rng, vendors, this.usedMacs);
  }

  /**
   * Emits the probes of one presence along a track with one MAC and single probes (rotation
   * off: the model the default world keeps) and records it as truth. `track` is flat
   * [t0, t1, x0, y0, x1, y1, …] segments covering [start, end]; y < 0 is outside the
   * street-side wall. Returns the number of records.
   */
  visit(rng: Rng, person: number, device: number, kind: VisitKind, track: number[], start: number, end: number, meanGapMs: number, jitter: number): number {
    const o = this.o;
    const sx = this.sx;
    const sy = this.sy;
    const nSensors = sx.length;
    const base = o.rssiAt1m + this.deviceOffset[device]!;
    const h2 = this.h2;
    const pf = this.pathFactor;
    let count = 0;
    let seg = 0;
    let first = -1;
    let last = -1;
    const shade = this.shade;
    shade.start();
    let t = start + Math.floor(rng.next() * Math.min(meanGapMs, end - start));
    while (t <= end - SENSOR_LAG_MS) {
      seg = positionAt(track, seg, t);
      const x = POSITION.x;
      const y = POSITION.y;
      shade.advance(t, x, y);
      const level = y < 0 ? base - o.wallLossDb : base;
      if (first < 0) first = t;
      last = t;
      for (let s = 0; s < nSensors; s++) {
        const dx = x - sx[s]!;
        const dy = y - sy[s]!;
        if (this.frame(rng, t, device, s, level - pf * Math.log10(dx * dx + dy * dy + h2), shade.at(s))) count++;
      }
      // Phones probe irregularly: jittered gaps around the device's own mean, and short bursts.
      const gap = rng.next() < 0.12 ? 40 + rng.next() * 600 : meanGapMs * Math.exp(jitter * rng.normal());
      t += Math.max(20, Math.round(gap));
    }
    const macClass: MacClass = isLocalMac(this.devices[device]!) ? "stable" : "universal";
    const uses: MacUse[] = first < 0 ? [] : [{ device, first, last, records: count }];
    this.record(person, kind, start, end, macClass, false, uses);
    return count;
  }

  /** Mean probe gap of a phone in the single-probe model, ms: log-uniform over the configured range. */
  phoneGap(rng: Rng): number {
    const [lo, hi] = this.o.probeIntervalS;
    return 1000 * lo * Math.pow(hi / lo, rng.next());
  }

  /**
   * A phone of the burst model: its class, its medians drawn from the MAC behaviour, and the
   * MAC it keeps across visits when `fixedMac` is given (universal phones, staff, equipment).
   * With real phones (`RealPhones`) a phone's unassociated gaps come from its own burst rate
   * instead, whatever its screen: a universal-MAC device's from the universal rates, a
   * randomizing phone's from the heavy-tailed phone rates; equipment keeps `equipmentGapMs`.
   */
  phone(rng: Rng, macClass: MacClass, fixedMac: string | undefined, equipmentGapMs?: number): Phone {
    const m = this.macs!;
    const offsetDb = this.o.deviceSpreadDb * rng.normal();
    const fixedDevice = fixedMac === undefined ? -1 : (this.deviceIndex.get(fixedMac) ?? this.register(fixedMac, offsetDb));
    const median = (r: readonly [number, number]): number => 1000 * r[0] * Math.pow(r[1] / r[0], rng.next());
    const on = median(m.burstGapS.screenOn);
    const off = median(m.burstGapS.screenOff);
    const associated = median(m.burstGapS.associated);
    const rotateOn = 1 / m.burstsPerMac.screenOn;
    const rotateOff = 1 / m.burstsPerMac.screenOff;
    if (equipmentGapMs !== undefined) {
      // Equipment has no screen and probes on a timer: one regular gap in every state.
      return { macClass, fixedDevice, offsetDb, gapOnMs: equipmentGapMs, gapOffMs: equipmentGapMs, gapAssociatedMs: equipmentGapMs, jitter: 0.15, rotateOn, rotateOff, macPerChannel: false };
    }
    const real = this.real;
    const realRng = this.realRng;
    if (real !== undefined && realRng !== undefined) {
      // The captures measured each phone's rate over all its screen states, so one rate serves them all.
      const rate = macClass === "universal" ? logUniformRate(realRng, real.universalBurstsPerMinute) : drawFromQuantiles(realRng, real.burstsPerMinute);
      const gap = medianGapMs(rate, real.burstGapJitter);
      const perChannel = macClass === "rotating" && realRng.chance(real.macPerChannelShare);
      return { macClass, fixedDevice, offsetDb, gapOnMs: gap, gapOffMs: gap, gapAssociatedMs: associated, jitter: real.burstGapJitter, rotateOn, rotateOff, macPerChannel: perChannel };
    }
    return { macClass, fixedDevice, offsetDb, gapOnMs: on, gapOffMs: off, gapAssociatedMs: associated, jitter: m.burstGapJitter, rotateOn, rotateOff, macPerChannel: false };
  }

  /**
   * Emits the probe bursts of one presence of a burst-model phone along a track and records
   * the truth (every MAC it used, heard or not). A burst reaches each sensor's channel at a
   * random point of `burstSpreadMs` and puts a few frames on it a few ms apart; the gap to
   * the next burst follows the phone's state (screen periods, or associated for the visit).
   * `extra` names a device the person carries besides their own phone (`RealPhones`): the truth
   * keeps it as that person's device, not as a person. Returns the number of records.
   */
  burstVisit(rng: Rng, person: number, phone: Phone, kind: VisitKind, track: number[], start: number, end: number, associated: boolean, extra?: ExtraDevice): number {
    const m = this.macs!;
    const o = this.o;
    const sx = this.sx;
    const sy = this.sy;
    const nSensors = sx.length;
    const nChannels = Math.min(CHANNELS, nSensors);
    const h2 = this.h2;
    const pf = this.pathFactor;
    const frameTime = this.frameTime;
    const frameCount = this.frameCount;
    const meanLevel = this.meanLevel;
    const [fLo, fHi] = m.framesPerBurst;
    const spread = m.burstSpreadMs;
    const periodMs = 1000 * m.screenPeriodS;
    const rotating = phone.macClass === "rotating" && !associated;
    const perChannel = rotating && phone.macPerChannel;
    const chanFirst = this.chanFirst;
    const chanLast = this.chanLast;
    // This burst's MAC on channels 1 and 2 when the phone draws one per channel (else `use`'s).
    const chanUse: (MacUse | undefined)[] = [undefined, undefined, undefined];
    const stop = end - SENSOR_LAG_MS;
    const uses: MacUse[] = [];
    let use: MacUse | undefined;
    if (phone.fixedDevice >= 0) uses.push((use = { device: phone.fixedDevice, first: -1, last: -1, records: 0 }));
    else if (!rotating) uses.push((use = { device: this.fresh(rng, phone), first: -1, last: -1, records: 0 }));
    let count = 0;
    let seg = 0;
    let screenOn = rng.chance(m.screenOnShare);
    let screenUntil = start + rng.exponential(periodMs);
    const shade = this.shade;
    shade.start();
    const gapNow = (): number => (associated ? phone.gapAssociatedMs : screenOn ? phone.gapOnMs : phone.gapOffMs);
    let t = start + Math.floor(rng.next() * Math.min(gapNow(), end - start));
    while (t <= stop) {
      while (screenUntil <= t) {
        screenOn = rng.chance(m.screenOnShare);
        screenUntil += rng.exponential(periodMs);
      }
      if (rotating && (use === undefined || rng.next() < (screenOn ? phone.rotateOn : phone.rotateOff))) {
        uses.push((use = { device: this.fresh(rng, phone), first: -1, last: -1, records: 0 }));
      }
      const u = use!;
      if (perChannel) {
        for (let c = 1; c < nChannels; c++) uses.push((chanUse[c] = { device: this.fresh(rng, phone), first: -1, last: -1, records: 0 }));
      }
      seg = positionAt(track, seg, t);
      const x = POSITION.x;
      const y = POSITION.y;
      // A burst lasts about a second: the phone is taken to stand still meanwhile, and its
      // frames share one shadowing.
      shade.advance(t, x, y);
      const level = (y < 0 ? o.rssiAt1m - o.wallLossDb : o.rssiAt1m) + phone.offsetDb;
      for (let s = 0; s < nSensors; s++) {
        const dx = x - sx[s]!;
        const dy = y - sy[s]!;
        meanLevel[s] = level - pf * Math.log10(dx * dx + dy * dy + h2);
      }
      for (let c = 0; c < nChannels; c++) {
        const n = rng.int(fLo, fHi);
        let ft = t + Math.floor(rng.next() * spread);
        let k = 0;
        chanFirst[c] = Infinity;
        chanLast[c] = -Infinity;
        for (; k < n && ft <= stop; k++) {
          frameTime[c * MAX_FRAMES + k] = ft;
          if (ft < chanFirst[c]!) chanFirst[c] = ft;
          if (ft > chanLast[c]!) chanLast[c] = ft;
          ft += rng.int(FRAME_SPACING_MS[0], FRAME_SPACING_MS[1]);
        }
        frameCount[c] = k;
      }
      for (let s = 0; s < nSensors; s++) {
        const c = s % CHANNELS;
        const n = frameCount[c]!;
        const mean = meanLevel[s]!;
        const shadeDb = shade.at(s);
        const cu = (perChannel ? chanUse[c] : undefined) ?? u;
        for (let k = 0; k < n; k++) {
          if (!this.frame(rng, frameTime[c * MAX_FRAMES + k]!, cu.device, s, mean, shadeDb)) continue;
          cu.records++;
          count++;
        }
      }
      for (let c = 0; c < nChannels; c++) {
        if (chanFirst[c] === Infinity) continue;
        const cu = (perChannel ? chanUse[c] : undefined) ?? u;
        if (cu.first < 0 || chanFirst[c]! < cu.first) cu.first = chanFirst[c]!;
        if (chanLast[c]! > cu.last) cu.last = chanLast[c]!;
      }
      const gap = gapNow() * Math.exp(phone.jitter * rng.normal());
      // Never let the next burst start before this one has ended.
      t += Math.max(spread + FRAME_SPACING_MS[1] * fHi, Math.round(gap));
    }
    // A MAC drawn for a visit but never sent with (the visit ended first) was not used.
    this.record(person, kind, start, end, phone.macClass, associated, uses.filter((x) => x.first >= 0), extra);
    return count;
  }

  /**
   * One frame `device` sent at `t` toward sensor `s`, whose mean RSSI there is `meanDb` and
   * shadowing `shadeDb`: per-reading noise, dropped below the sensitivity, clamped to −127…−1,
   * stamped 0–2 ms later, lost in an outage, else recorded. Returns whether it was recorded.
   * The world's own stream draws exactly what it drew without shadowing (a lag for every frame
   * heard without it), so shadowing changes RSSI and which frames are heard, never the people,
   * their tracks or their MACs; a frame only shadowing lets through takes its lag from the
   * shadowing's stream.
   */
  private frame(rng: Rng, t: number, device: number, s: number, meanDb: number, shadeDb: number): boolean {
    const floor = this.o.sensitivityDbm;
    const z = this.o.rssiNoiseDb * rng.normal();
    const r0 = Math.round(meanDb + z);
    let r = this.shade.on ? Math.round(meanDb + shadeDb + z) : r0;
    let lag = r0 >= floor ? rng.uint32() % SENSOR_LAG_MS : -1;
    if (r < floor) return false;
    if (lag < 0) lag = this.shade.rng.uint32() % SENSOR_LAG_MS;
    if (r > -1) r = -1;
    else if (r < -127) r = -127;
    const at = t + lag;
    if (this.lost(s, at)) return false;
    this.heard(at, device, s, r);
    return true;
  }

  private fresh(rng: Rng, phone: Phone): number {
    return this.register(this.newMac(rng, "local"), phone.offsetDb);
  }

  private record(person: number, kind: VisitKind, start: number, end: number, macClass: MacClass, associated: boolean, uses: readonly MacUse[], extra?: ExtraDevice): void {
    const visit = this.visits.length;
    const inside = kind !== "passerby";
    const macs: TruthMac[] = [];
    let records = 0;
    for (const u of uses) {
      const mac = this.devices[u.device]!;
      macs.push({ mac, first: u.first, last: u.last, records: u.records });
      records += u.records;
      if (u.records > 0) {
        const row: TruthVisit = { shop: this.shopId, device: mac, start, end, kind, person, visit, inside, macClass, first: u.first, last: u.last, records: u.records };
        // Only an extra device's rows carry the field, so the truth of a world without them is unchanged.
        this.truth.push(extra === undefined ? row : { ...row, extraDevice: extra });
      }
    }
    const v: TruthPersonVisit = { shop: this.shopId, person, visit, kind, inside, start, end, macClass, associated, records, macs };
    this.visits.push(extra === undefined ? v : { ...v, extraDevice: extra });
  }

  /**
   * Enter/leave events of the people inside (visitors and staff), leaves before enters at equal
   * times. A device carried besides a person's phone is not a person: its visits add no event.
   */
  occupancy(): OccupancyEvent[] {
    const out: OccupancyEvent[] = [];
    for (const v of this.visits) {
      if (v.kind !== "visitor" && v.kind !== "staff") continue;
      if (v.extraDevice !== undefined) continue;
      out.push({ shop: this.shopId, ms: v.start, delta: 1, kind: v.kind, person: v.person });
      out.push({ shop: this.shopId, ms: v.end, delta: -1, kind: v.kind, person: v.person });
    }
    out.sort((p, q) => p.ms - q.ms || p.delta - q.delta || p.person - q.person);
    return out;
  }
}

function isLocalMac(mac: string): boolean {
  return (Number.parseInt(mac.slice(0, 2), 16) & 0x02) !== 0;
}

/** Where {@link positionAt} puts the position it finds (m): one object, no allocation per frame. */
const POSITION = { x: 0, y: 0 };

/**
 * The position on `track` (segments of six numbers: t0, t1, x0, y0, x1, y1; times in epoch ms,
 * coordinates in m) at time `t`, interpolated within its segment, into {@link POSITION}; the
 * search starts at segment `seg` (times only grow along one visit) and the segment found is
 * returned for the next call. The one rule both the per-visit and the per-burst emitters use.
 */
function positionAt(track: readonly number[], seg: number, t: number): number {
  const lastSeg = track.length - 6;
  while (seg < lastSeg && t > track[seg + 1]!) seg += 6;
  const t0 = track[seg]!;
  const t1 = track[seg + 1]!;
  const f = t1 > t0 ? Math.min(1, Math.max(0, (t - t0) / (t1 - t0))) : 0;
  POSITION.x = track[seg + 2]! + f * (track[seg + 4]! - track[seg + 2]!);
  POSITION.y = track[seg + 3]! + f * (track[seg + 5]! - track[seg + 3]!);
  return seg;
}
