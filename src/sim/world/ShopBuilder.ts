import { freshMac } from "../phones/freshMac.ts";
import type { MacBehaviour } from "../phones/MacBehaviour.ts";
import { createRng, hashSeed, type Rng } from "../random/prng.ts";
import { logUniformRate, medianGapMs, type ExtraDevice, type RealPhones } from "../phones/RealPhones.ts";
import { TYPICAL_GAP_JITTER, type PhoneProfile } from "../phones/PhoneProfile.ts";
import { firstGapMs } from "../phones/firstGapMs.ts";
import { ProfilePool } from "../phones/ProfilePool.ts";
import { poisson } from "../random/poisson.ts";
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
/** Most frames one channel carries in a burst: the options allow 64, and the busiest real phone sends ~45 a channel. */
const MAX_FRAMES = 128;
/**
 * Frames more than this apart are two bursts, as the real captures were cut into bursts (ms): a
 * replayed phone's next burst starts at least this long after its last frame, so the captures'
 * gaps between bursts stay gaps between bursts.
 */
const BURST_RULE_MS = 1000;

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
  /**
   * The real phone's capture it replays (`phones: "real"`), or `undefined`: the burst model's
   * parameters above decide. A replayed phone takes its gaps, MACs, frames and channels from it.
   */
  readonly profile: PhoneProfile | undefined;
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
  /**
   * The real phones' draws (which capture a phone replays, universal devices' rates), from a
   * stream of their own: only a world with `phones` on draws from it, so a world without is the
   * world it always was.
   */
  private readonly realRng: Rng | undefined;
  /** The captures this shop's phones replay (`RealPhones.profiles`); undefined without real phones. */
  private readonly profiles: ProfilePool | undefined;
  /** Which MAC each frame of the burst being sent uses (scratch, by channel × MAX_FRAMES + frame). */
  private readonly frameUse: (MacUse | undefined)[] = new Array<MacUse | undefined>(CHANNELS * MAX_FRAMES).fill(undefined);
  /** The MACs of the burst being sent, when a replayed phone takes several (scratch). */
  private readonly burstUses: MacUse[] = [];

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
    this.profiles = real === undefined ? undefined : new ProfilePool(real.profiles);
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
   * With real phones (`RealPhones`) a universal device that replays no capture (a laptop mostly)
   * bursts at a rate of its own from `universalBurstsPerMinute`, whatever its screen; equipment
   * keeps `equipmentGapMs`. Phones that replay a capture come from {@link ShopBuilder.realPhone}.
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
      return { macClass, fixedDevice, offsetDb, gapOnMs: equipmentGapMs, gapOffMs: equipmentGapMs, gapAssociatedMs: equipmentGapMs, jitter: 0.15, rotateOn, rotateOff, profile: undefined };
    }
    const real = this.real;
    const realRng = this.realRng;
    if (real !== undefined && realRng !== undefined && macClass === "universal") {
      // Not a phone the captures describe: a rate of its own, lower than phones', one for every screen state.
      const gap = medianGapMs(logUniformRate(realRng, real.universalBurstsPerMinute), TYPICAL_GAP_JITTER);
      return { macClass, fixedDevice, offsetDb, gapOnMs: gap, gapOffMs: gap, gapAssociatedMs: associated, jitter: TYPICAL_GAP_JITTER, rotateOn, rotateOff, profile: undefined };
    }
    return { macClass, fixedDevice, offsetDb, gapOnMs: on, gapOffMs: off, gapAssociatedMs: associated, jitter: m.burstGapJitter, rotateOn, rotateOff, profile: undefined };
  }

  /**
   * A phone that replays one real phone's capture (`phones: "real"`): a profile of the class
   * asked for (`universal` or randomized), drawn from the shop's selection (`RealPhones.profiles`,
   * a phone then one of its modes) on the real phones' stream, then {@link ShopBuilder.replayPhone}.
   * `fixedMac`: the MAC it keeps (a universal phone's vendor MAC, a staff phone's private one).
   * A selection without that class lends the other's (a staff phone or an extra device only:
   * `RealPhones.universalShare` keeps shoppers' phones to classes the selection has): it then keeps
   * its one MAC, or takes one private MAC a visit.
   */
  realPhone(rng: Rng, universal: boolean, fixedMac: string | undefined): Phone {
    const pool = this.profiles!;
    return this.replayPhone(rng, pool.draw(this.realRng!, pool.has(universal) ? universal : !universal), fixedMac);
  }

  /**
   * A phone replaying `profile` on every visit it makes: its gaps, how many MACs it takes in a
   * burst and how long one lasts, its frames and channels per burst (see `burstVisit`). With
   * `fixedMac` (a universal phone's vendor MAC, a staff phone's private one) every burst uses that
   * MAC; otherwise its class follows the profile: `"stable"` when one randomized MAC holds,
   * `"rotating"` when it takes new ones. While associated to the shop's Wi-Fi it keeps one MAC and
   * probes at `macs.burstGapS.associated` (the captures say nothing of the shop's network).
   */
  replayPhone(rng: Rng, profile: PhoneProfile, fixedMac: string | undefined): Phone {
    const m = this.macs!;
    const offsetDb = this.o.deviceSpreadDb * rng.normal();
    const fixedDevice = fixedMac === undefined ? -1 : (this.deviceIndex.get(fixedMac) ?? this.register(fixedMac, offsetDb));
    const [lo, hi] = m.burstGapS.associated;
    const associated = 1000 * lo * Math.pow(hi / lo, rng.next());
    const holds = profile.burstsPerMac === Number.POSITIVE_INFINITY && profile.macsPerBurst === 1;
    const macClass: MacClass = fixedMac !== undefined ? (isLocalMac(fixedMac) ? "stable" : "universal") : holds ? "stable" : "rotating";
    const rotate = profile.burstsPerMac === Number.POSITIVE_INFINITY ? 0 : 1 / profile.burstsPerMac;
    const gap = profile.gapMedianMs;
    return { macClass, fixedDevice, offsetDb, gapOnMs: gap, gapOffMs: gap, gapAssociatedMs: associated, jitter: profile.gapJitter, rotateOn: rotate, rotateOff: rotate, profile };
  }

  /**
   * Emits the probe bursts of one presence of a burst-model phone along a track and records
   * the truth (every MAC it used, heard or not). A burst reaches each sensor's channel at a
   * random point of `burstSpreadMs` and puts a few frames on it a few ms apart. A phone that
   * replays a capture (`Phone.profile`) follows it; otherwise the gap to the next burst follows
   * the phone's state (screen periods, or associated for the visit).
   * `extra` names a device the person carries besides their own phone (`RealPhones`): the truth
   * keeps it as that person's device, not as a person. Returns the number of records.
   */
  burstVisit(rng: Rng, person: number, phone: Phone, kind: VisitKind, track: number[], start: number, end: number, associated: boolean, extra?: ExtraDevice): number {
    const uses: MacUse[] = [];
    const count = phone.profile === undefined ? this.modelBursts(rng, phone, track, start, end, associated, uses) : this.replayBursts(rng, phone, phone.profile, track, start, end, associated, uses);
    // A MAC drawn for a visit but never sent with (the visit ended first) was not used.
    this.record(person, kind, start, end, phone.macClass, associated, uses.filter((x) => x.first >= 0), extra, phone.profile?.id);
    return count;
  }

  // The burst model's bursts (`MacBehaviour`): screen periods decide the gap and how often a
  // rotating phone draws a new MAC, frames per channel are uniform in `framesPerBurst`.
  private modelBursts(rng: Rng, phone: Phone, track: number[], start: number, end: number, associated: boolean, uses: MacUse[]): number {
    const m = this.macs!;
    const nChannels = Math.min(CHANNELS, this.sx.length);
    const frameTime = this.frameTime;
    const frameCount = this.frameCount;
    const frameUse = this.frameUse;
    const [fLo, fHi] = m.framesPerBurst;
    const spread = m.burstSpreadMs;
    const periodMs = 1000 * m.screenPeriodS;
    const rotating = phone.macClass === "rotating" && !associated;
    const stop = end - SENSOR_LAG_MS;
    let use: MacUse | undefined;
    if (phone.fixedDevice >= 0) uses.push((use = { device: phone.fixedDevice, first: -1, last: -1, records: 0 }));
    else if (!rotating) uses.push((use = { device: this.fresh(rng, phone), first: -1, last: -1, records: 0 }));
    let count = 0;
    let seg = 0;
    let screenOn = rng.chance(m.screenOnShare);
    let screenUntil = start + rng.exponential(periodMs);
    this.shade.start();
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
      seg = this.aim(track, seg, t, phone.offsetDb);
      for (let c = 0; c < nChannels; c++) {
        const n = rng.int(fLo, fHi);
        let ft = t + Math.floor(rng.next() * spread);
        let k = 0;
        for (; k < n && ft <= stop; k++) {
          frameTime[c * MAX_FRAMES + k] = ft;
          frameUse[c * MAX_FRAMES + k] = u;
          ft += rng.int(FRAME_SPACING_MS[0], FRAME_SPACING_MS[1]);
        }
        frameCount[c] = k;
      }
      count += this.hear(rng, nChannels);
      const gap = gapNow() * Math.exp(phone.jitter * rng.normal());
      // Never let the next burst start before this one has ended.
      t += Math.max(spread + FRAME_SPACING_MS[1] * fHi, Math.round(gap));
    }
    return count;
  }

  // A replayed capture's bursts (`PhoneProfile`): log-normal gaps around the profile's median
  // (a timer's barely spread), frames 1 + Poisson around its mean over the channels it reaches,
  // and its MACs — several new ones within one burst, or one lasting some bursts, or one for the
  // visit (a MAC of its own, the shop's Wi-Fi, a MAC that holds).
  private replayBursts(rng: Rng, phone: Phone, p: PhoneProfile, track: number[], start: number, end: number, associated: boolean, uses: MacUse[]): number {
    const m = this.macs!;
    const frameTime = this.frameTime;
    const frameCount = this.frameCount;
    const frameUse = this.frameUse;
    const burstUses = this.burstUses;
    const spread = m.burstSpreadMs;
    const stop = end - SENSOR_LAG_MS;
    let use: MacUse | undefined;
    if (phone.fixedDevice >= 0) uses.push((use = { device: phone.fixedDevice, first: -1, last: -1, records: 0 }));
    else if (associated || phone.rotateOn === 0) uses.push((use = { device: this.fresh(rng, phone), first: -1, last: -1, records: 0 }));
    const oneMac = use !== undefined;
    const gapMedian = associated ? phone.gapAssociatedMs : phone.gapOnMs;
    const jitter = associated ? m.burstGapJitter : phone.jitter;
    // The channels its bursts reach this visit: a first one, then a second, then the third
    // (a phone that scans two of the three does so on the same two, visit long).
    const first = rng.int(0, CHANNELS - 1);
    const second = (first + rng.int(1, CHANNELS - 1)) % CHANNELS;
    const channels = [first, second, CHANNELS - first - second];
    const order = [0, 0, 0];
    const offsets = [0, 0, 0];
    const wholeChannels = Math.floor(p.channelsPerBurst);
    const halfChannel = p.channelsPerBurst - wholeChannels;
    let count = 0;
    let seg = 0;
    this.shade.start();
    // The visit begins somewhere in the phone's probing, not at a burst.
    let t = start + firstGapMs(rng, gapMedian, jitter);
    while (t <= stop) {
      let reach = Math.min(CHANNELS, wholeChannels + (halfChannel > 0 && rng.chance(halfChannel) ? 1 : 0));
      const n = 1 + poisson(rng, Math.max(0, p.framesPerBurst - 1));
      if (n < reach) reach = n;
      for (let i = 0; i < reach; i++) order[i] = channels[i]!;
      // Which MACs: one kept, or `macsPerBurst` new ones (a share of a MAC: one more that often),
      // or one that lasts `burstsPerMac` bursts.
      burstUses.length = 0;
      if (oneMac) burstUses.push(use!);
      else if (p.macsPerBurst > 1) {
        const whole = Math.floor(p.macsPerBurst);
        const k = Math.min(n, whole + (rng.chance(p.macsPerBurst - whole) ? 1 : 0));
        for (let i = 0; i < k; i++) {
          const fresh: MacUse = { device: this.fresh(rng, phone), first: -1, last: -1, records: 0 };
          uses.push(fresh);
          burstUses.push(fresh);
        }
      } else {
        if (use === undefined || rng.next() < phone.rotateOn) uses.push((use = { device: this.fresh(rng, phone), first: -1, last: -1, records: 0 }));
        burstUses.push(use);
      }
      seg = this.aim(track, seg, t, phone.offsetDb);
      // The channels reached, in an order drawn per burst: the first on the phone's tick (a timer's
      // gaps stay as tight as the captures show), each other one at a random point of the spread,
      // sorted by it. Drawn per burst, so no channel's sensors hear the phone systematically
      // later than another's (that would read as their clocks disagreeing).
      for (let c = 0; c < CHANNELS; c++) frameCount[c] = 0;
      for (let i = 0; i < reach; i++) {
        const r = i + Math.floor(rng.next() * (reach - i));
        const c = order[r]!;
        order[r] = order[i]!;
        order[i] = c;
        offsets[i] = i === 0 ? 0 : Math.floor(rng.next() * spread);
        for (let at = i; at > 1 && offsets[at - 1]! > offsets[at]!; at--) {
          [offsets[at - 1], offsets[at]] = [offsets[at]!, offsets[at - 1]!];
          [order[at - 1], order[at]] = [order[at]!, order[at - 1]!];
        }
      }
      const perChannel = Math.floor(n / reach);
      let extraFrames = n - perChannel * reach;
      let j = 0;
      let lastFrame = t;
      for (let i = 0; i < reach; i++) {
        const c = order[i]!;
        const frames = Math.min(MAX_FRAMES, perChannel + (extraFrames-- > 0 ? 1 : 0));
        let ft = t + offsets[i]!;
        let k = 0;
        for (; k < frames && ft <= stop; k++, j++) {
          frameTime[c * MAX_FRAMES + k] = ft;
          // The burst's frames in the order sent share its MACs out in runs: a new MAC every few frames.
          frameUse[c * MAX_FRAMES + k] = burstUses[Math.floor((j * burstUses.length) / n)]!;
          if (ft > lastFrame) lastFrame = ft;
          ft += rng.int(FRAME_SPACING_MS[0], FRAME_SPACING_MS[1]);
        }
        frameCount[c] = k;
      }
      count += this.hear(rng, CHANNELS);
      const gap = gapMedian * Math.exp(jitter * rng.normal());
      // More than the burst rule after the last frame, as the sensors stamp them (up to SENSOR_LAG_MS late).
      t += Math.max(Math.round(gap), lastFrame - t + BURST_RULE_MS + SENSOR_LAG_MS);
    }
    return count;
  }

  // Where the phone is at `t` along `track` (from segment `seg`, returned for the next call), its
  // shadowing there, and each sensor's mean level of a frame sent with transmit offset `offsetDb`.
  // A burst lasts about a second: the phone is taken to stand still meanwhile, and its frames
  // share one shadowing.
  private aim(track: number[], seg: number, t: number, offsetDb: number): number {
    const o = this.o;
    const sx = this.sx;
    const sy = this.sy;
    const meanLevel = this.meanLevel;
    const next = positionAt(track, seg, t);
    const x = POSITION.x;
    const y = POSITION.y;
    this.shade.advance(t, x, y);
    const level = (y < 0 ? o.rssiAt1m - o.wallLossDb : o.rssiAt1m) + offsetDb;
    for (let s = 0; s < sx.length; s++) {
      const dx = x - sx[s]!;
      const dy = y - sy[s]!;
      meanLevel[s] = level - this.pathFactor * Math.log10(dx * dx + dy * dy + this.h2);
    }
    return next;
  }

  // Each sensor hears the frames of the burst on its channel (`frameTime`, `frameCount`, the MAC
  // each uses in `frameUse`), and each MAC's first and last frame sent (heard or not) is kept, over
  // the first `nChannels` channels. Returns the records.
  private hear(rng: Rng, nChannels: number): number {
    const frameTime = this.frameTime;
    const frameCount = this.frameCount;
    const frameUse = this.frameUse;
    const meanLevel = this.meanLevel;
    const shade = this.shade;
    let count = 0;
    for (let s = 0; s < this.sx.length; s++) {
      const c = s % CHANNELS;
      const n = frameCount[c]!;
      const mean = meanLevel[s]!;
      const shadeDb = shade.at(s);
      for (let k = 0; k < n; k++) {
        const u = frameUse[c * MAX_FRAMES + k]!;
        if (!this.frame(rng, frameTime[c * MAX_FRAMES + k]!, u.device, s, mean, shadeDb)) continue;
        u.records++;
        count++;
      }
    }
    for (let c = 0; c < nChannels; c++) {
      for (let k = 0; k < frameCount[c]!; k++) {
        const u = frameUse[c * MAX_FRAMES + k]!;
        const ft = frameTime[c * MAX_FRAMES + k]!;
        if (u.first < 0 || ft < u.first) u.first = ft;
        if (ft > u.last) u.last = ft;
      }
    }
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

  private record(person: number, kind: VisitKind, start: number, end: number, macClass: MacClass, associated: boolean, uses: readonly MacUse[], extra?: ExtraDevice, profile?: string): void {
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
    // Only the fields that apply, so the truth of a world without extra devices or replayed phones is unchanged.
    const v: TruthPersonVisit = { shop: this.shopId, person, visit, kind, inside, start, end, macClass, associated, records, macs, ...(extra === undefined ? {} : { extraDevice: extra }), ...(profile === undefined ? {} : { profile }) };
    this.visits.push(v);
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
