import { markResolved, resolvedBy } from "../../options/resolvedOptions.ts";
import { calibrationsByShop, type Calibration, type CalibrationFile } from "../calibration/Calibration.ts";
import { isPeriodicProber } from "./isPeriodicProber.ts";
import { checkNumberOption } from "../../options/checkNumberOption.ts";
import { DEFAULT_TIME_ZONE, assertTimeZone } from "../../time/timeZone.ts";
import { LocalCalendar, type LocalDay } from "../../time/LocalCalendar.ts";
import type { OpenSession } from "../sessions/OpenSession.ts";
import type { Session } from "../sessions/Session.ts";
import { SessionColumns, type DayRuleSession, type HeldSession } from "../sessions/SessionColumns.ts";
import { checkSink, type Kernel, type Sink } from "../sessions/Sink.ts";
import { PeakRssiHistogram } from "./suggestRssiThreshold.ts";

const MS_PER_HOUR = 3_600_000;
const SHORTEST_DAY_MS = 20 * MS_PER_HOUR;

/**
 * What a session was: a shopper inside (`visitor`), someone outside or walking past (`passerby`),
 * a member of staff (`staff`, present most of the opening hours that day), or equipment that never
 * leaves (`stationary`). Only visitors count as visits.
 *
 * @example
 * const kind: VisitKind = "visitor";
 */
export type VisitKind = "visitor" | "passerby" | "staff" | "stationary";

/**
 * A {@link Session} with its {@link VisitKind} and local day.
 *
 * `complete` is re-stated for this stage: every classified session of the shop starting before it
 * has been emitted (except `late` ones), which is what window counts close on.
 *
 * @example
 * const c: ClassifiedSession = { ...session, kind: "visitor", date: "2026-11-16", late: false, visitorRssi: -65 };
 */
export interface ClassifiedSession extends Session {
  readonly kind: VisitKind;
  /** Local date (`YYYY-MM-DD`, shop time zone) of `start`: the day the session counts on. */
  readonly date: string;
  /**
   * True when the session reached the classifier after its day had been closed (only sessions
   * still open `maxDayWaitMs` after their day ended, such as equipment that never leaves): it was
   * classified on its own, and per-day counts that were already emitted do not include it.
   */
  readonly late: boolean;
  /** The `visitorRssi` threshold (dBm) the session was classified with (learned per shop when `"auto"`). */
  readonly visitorRssi: number;
}

/**
 * Options of {@link VisitClassifier} (and the `classifyVisits` operator).
 *
 * @example
 * const options: VisitClassifierOptions = { visitorRssi: -67, timeZone: "Asia/Seoul" };
 */
export interface VisitClassifierOptions {
  /**
   * Shortest dwell of a visit, ms. Walking past a 15 m shop front at 1.2 m/s, in radio range
   * ~15 m either side, takes under a minute, while even a quick errand inside takes longer.
   * Dwell alone cannot tell a visitor from someone lingering at the window — RSSI does that.
   * @default 60_000
   */
  readonly minDwellMs?: number;
  /**
   * Smoothed RSSI (dBm) a session must reach at least once to be a visit, or `"auto"`: learn it per
   * shop from the data with {@link suggestRssiThreshold} — the valley between the two modes of the
   * session-peak RSSI (people inside vs people lingering outside), refitted as each local day is
   * decided over all of the shop's sessions so far — and use `fallbackVisitorRssi` while the data do
   * not show two clear modes. A fixed threshold cannot know where the sensors hang relative to the
   * street wall; the valley moves with them.
   * @default "auto"
   */
  readonly visitorRssi?: number | "auto";
  /**
   * The physical threshold (dBm), used when `visitorRssi` is `"auto"` and the shop's data are not
   * (yet) clearly bimodal. From the indoor log-distance model with typical phone constants (−45 dBm
   * at 1 m, exponent ≈ 2.8), −75 dBm is ~12 m from a sensor (−45 − 28·log10 12 ≈ −75.2 dBm): a
   * person anywhere in a room whose far corner is that close to some sensor. Chosen on the one real
   * room with counted people (the Brno lab's counted days before 2023-07): on its days without a
   * boundary −65, −70, −75 and −80 dBm read MAE 5.23, 4.47, 4.15 and 4.67 persons; −65 (within
   * ~5 m) called people at their desks passers-by. Someone outside behind a ≥ 10 dB wall 3–4 m
   * away peaks near −70 dBm and counts only if they stay a minute; where passers-by are many, the
   * peaks are bimodal and the learned boundary holds instead.
   * @default -75
   */
  readonly fallbackVisitorRssi?: number;
  /**
   * People calibrations (`calibrate`): a shop whose calibration was fitted at a fixed threshold
   * (`settings.visitorRssi`) is classified at it when `visitorRssi` is `"auto"` — the calibrated
   * yardstick counts the bursts that threshold lets inside, so learning another one day by day
   * would count others. A fixed `visitorRssi` given here wins (the estimate then warns).
   * @default none
   */
  readonly calibration?: CalibrationFile | readonly Calibration[];
  /**
   * IANA time zone of the shop (local days, opening hours). The service does not say; its only
   * currency is KRW, so shops are assumed to be in Korea.
   * @default "Asia/Seoul"
   */
  readonly timeZone?: string;
  /**
   * Opening hours `[open, close]` in local hours (fractions allowed, close ≤ 24), used to measure
   * staff presence. Typical Korean high-street retail hours.
   * @default [10, 22]
   */
  readonly openingHours?: readonly [number, number];
  /**
   * A device present (summed over its sessions) for at least this share of the opening hours of a
   * local day is staff that day. Shifts are 6–8 h; the longest shopping trips are 2–4 h, under 40 %
   * of a 12 h day, and a shift with a break still covers more than half.
   * @default 0.4
   */
  readonly staffShare?: number;
  /**
   * A device present for at least this share of a whole local day (24 h) — or one session covering
   * that share of any day — is stationary equipment: no person stays 18 h, a printer does.
   * @default 0.75
   */
  readonly stationaryShare?: number;
  /**
   * A device flagged staff (or stationary) on a day keeps that flag on its sessions of the next
   * this-many local days, even on a short shift: staff come back on most days, customers rarely
   * stay for a shift. 0 turns it off. Randomized MACs change per visit, so only devices that
   * keep their address are remembered.
   * @default 7
   */
  readonly rememberStaffDays?: number;
  /**
   * How long after a local day ends (ms of event time) its sessions wait for sessions still open
   * across midnight before the day is decided anyway. Only devices that never leave keep a day
   * open that long; they are classified on their own when they finally close (`late`).
   * @default 21_600_000 (6 h)
   */
  readonly maxDayWaitMs?: number;
}

/** {@link VisitClassifierOptions} with every field present. */
export interface ResolvedVisitClassifierOptions {
  readonly minDwellMs: number;
  readonly visitorRssi: number | "auto";
  readonly fallbackVisitorRssi: number;
  /** Fixed thresholds of calibrated shops, dBm by SHOP ID (from `calibration`; empty when `visitorRssi` is a number). */
  readonly shopVisitorRssi: ReadonlyMap<number, number>;
  readonly timeZone: string;
  readonly openingHours: readonly [number, number];
  readonly staffShare: number;
  readonly stationaryShare: number;
  readonly rememberStaffDays: number;
  readonly maxDayWaitMs: number;
}

/**
 * Defaults of {@link VisitClassifierOptions}.
 *
 * @example
 * defaultVisitClassifier.fallbackVisitorRssi; // -75
 */
export const defaultVisitClassifier: ResolvedVisitClassifierOptions = Object.freeze({
  minDwellMs: 60_000,
  visitorRssi: "auto",
  fallbackVisitorRssi: -75,
  timeZone: DEFAULT_TIME_ZONE,
  openingHours: Object.freeze([10, 22] as const),
  staffShare: 0.4,
  stationaryShare: 0.75,
  rememberStaffDays: 7,
  shopVisitorRssi: new Map(),
  maxDayWaitMs: 6 * MS_PER_HOUR,
});

/**
 * Validates {@link VisitClassifierOptions} eagerly and fills in defaults (TypeError/RangeError).
 *
 * @example
 * visitClassifierOptions({ visitorRssi: -70 }).minDwellMs; // 60000
 * visitClassifierOptions({ visitorRssi: "loud" as never });  // TypeError
 */
export function visitClassifierOptions(options: VisitClassifierOptions = {}): ResolvedVisitClassifierOptions {
  if (resolvedBy("visitClassifierOptions", options)) return options as unknown as ReturnType<typeof visitClassifierOptions>;
  if (typeof options !== "object" || options === null) throw new TypeError("VisitClassifier options must be an object");
  const d = defaultVisitClassifier;
  const timeZone = options.timeZone ?? d.timeZone;
  assertTimeZone(timeZone);
  const visitorRssi = options.visitorRssi ?? d.visitorRssi;
  const hours = options.openingHours ?? d.openingHours;
  if (!Array.isArray(hours) || hours.length !== 2) throw new TypeError("openingHours must be a [open, close] pair of local hours");
  const open = checkNumberOption("openingHours[0]", hours[0], { min: 0, max: 24, unit: "h" });
  const close = checkNumberOption("openingHours[1]", hours[1], { min: 0, max: 24, unit: "h" });
  if (!(close > open)) throw new RangeError(`openingHours must close after it opens, got [${open}, ${close}]`);
  return markResolved("visitClassifierOptions", {
    minDwellMs: checkNumberOption("minDwellMs", options.minDwellMs ?? d.minDwellMs, { min: 0, unit: "ms" }),
    visitorRssi: visitorRssi === "auto" ? "auto" : checkNumberOption("visitorRssi", visitorRssi, { min: -127, max: 0, unit: "dBm" }),
    fallbackVisitorRssi: checkNumberOption("fallbackVisitorRssi", options.fallbackVisitorRssi ?? d.fallbackVisitorRssi, {
      min: -127,
      max: 0,
      unit: "dBm",
    }),
    shopVisitorRssi: visitorRssi === "auto" ? pinnedThresholds(options.calibration) : new Map<number, number>(),
    timeZone,
    openingHours: Object.freeze([open, close] as const),
    staffShare: checkNumberOption("staffShare", options.staffShare ?? d.staffShare, { min: 0, max: 1 }),
    stationaryShare: checkNumberOption("stationaryShare", options.stationaryShare ?? d.stationaryShare, { min: 0, max: 1 }),
    rememberStaffDays: checkNumberOption("rememberStaffDays", options.rememberStaffDays ?? d.rememberStaffDays, {
      min: 0,
      max: 366,
      integer: true,
      unit: "days",
    }),
    maxDayWaitMs: checkNumberOption("maxDayWaitMs", options.maxDayWaitMs ?? d.maxDayWaitMs, { min: 0, unit: "ms" }),
  });
}

/**
 * The per-session rule, without the staff/stationary day context: `visitor` when the dwell is at
 * least `minDwellMs` and the smoothed RSSI reached `visitorRssi` (a number, dBm; default the
 * fallback −65) at least once, else `passerby`.
 *
 * @example
 * visitOrPass({ dwellMs: 240_000, peakSmoothedRssi: -58 });                    // "visitor"
 * visitOrPass({ dwellMs: 600_000, peakSmoothedRssi: -76 });                    // "passerby" (at the window)
 * visitOrPass({ dwellMs: 20_000, peakSmoothedRssi: -50 }, { minDwellMs: 60_000 }); // "passerby" (walked past the door)
 */
export function visitOrPass(
  session: Pick<Session, "dwellMs" | "peakSmoothedRssi">,
  options: { readonly minDwellMs?: number; readonly visitorRssi?: number } = {},
): "visitor" | "passerby" {
  const minDwell = options.minDwellMs ?? defaultVisitClassifier.minDwellMs;
  const rssi = options.visitorRssi ?? defaultVisitClassifier.fallbackVisitorRssi;
  return session.dwellMs >= minDwell && session.peakSmoothedRssi >= rssi ? "visitor" : "passerby";
}

/**
 * The staff rule's presence threshold, ms: a device present at least this long during one
 * local day's opening hours (summed over its sessions) is staff that day — `staffShare` of the
 * opening hours. The classifier's day rule (`ShopRoles`) decides with it, when a day is over and
 * for the day so far (`LiveOccupancy`).
 *
 * @example
 * staffPresenceMs(); // 17280000 (0.4 × 12 h)
 * staffPresenceMs({ openingHours: [9, 21], staffShare: 0.5 }); // 21600000
 */
export function staffPresenceMs(options: Pick<VisitClassifierOptions, "openingHours" | "staffShare"> = {}): number {
  const o = visitClassifierOptions(options);
  // Hours to ms first: 0.4 × 12 h × 3.6e6 is 17280000.000000004 the other way round, and a
  // device present exactly that long must count.
  return o.staffShare * ((o.openingHours[1] - o.openingHours[0]) * MS_PER_HOUR);
}

/**
 * Presence of one device on one local day, ms: in all (`total`) and within the opening hours.
 *
 * @example
 * const p: DevicePresence = { total: 7_200_000, opening: 3_600_000 };
 */
export interface DevicePresence {
  total: number;
  opening: number;
}

interface OpenDay {
  readonly day: LocalDay;
  readonly hours: DayHours;
  /** Built sessions as pushed, or held in `columns` (handed over unbuilt by the engine). */
  readonly sessions: (Session | HeldSession)[];
  columns: SessionColumns | undefined;
  readonly presence: Map<string, DevicePresence>;
}

interface ShopDays {
  /** Open days, oldest first. */
  readonly days: OpenDay[];
  /** End of the last closed day: sessions starting before it are late. */
  closedUntil: number;
  /** Latest `complete` handed downstream. */
  complete: number;
  /** Watermark of the latest session received. */
  watermark: number;
  /**
   * The latest watermark every session of which has been received: the engine emits the sessions
   * one watermark closes one after another, so they are all in once a session of a later one comes.
   */
  settled: number;
  /** The day rule with what it carries from day to day (threshold, staff memory). */
  readonly roles: ShopRoles;
}

/**
 * A local day and its opening hours, epoch ms. Internal (`ShopRoles.hours`).
 *
 * @example
 * const hours: DayHours = { start: 0, end: 86_400_000, openFrom: 36_000_000, openTo: 79_200_000 };
 */
export interface DayHours {
  readonly start: number;
  readonly end: number;
  readonly openFrom: number;
  readonly openTo: number;
}

/**
 * Adds a device's presence over `[start, end]` to a local day's presence map: its overlap with
 * the whole day and with the day's opening hours (`openFrom`–`openTo`), ms. Internal: the
 * classifier and `LiveOccupancy` measure presence with it.
 *
 * @example
 * const presence = new Map<string, DevicePresence>();
 * addPresence(presence, { start: 0, end: 86_400_000, openFrom: 36_000_000, openTo: 79_200_000 }, "f0:18:98:12:34:56", 35_000_000, 37_000_000);
 * presence.get("f0:18:98:12:34:56"); // { total: 2000000, opening: 1000000 }
 */
export function addPresence(presence: Map<string, DevicePresence>, day: DayHours, device: string, start: number, end: number): void {
  let p = presence.get(device);
  if (p === undefined) {
    p = { total: 0, opening: 0 };
    presence.set(device, p);
  }
  p.total += overlap(start, end, day.start, day.end);
  p.opening += overlap(start, end, day.openFrom, day.openTo);
}

// The fixed thresholds the shops' calibrations were fitted at.
function pinnedThresholds(calibration: CalibrationFile | readonly Calibration[] | undefined): ReadonlyMap<number, number> {
  const out = new Map<number, number>();
  for (const [shopId, c] of calibrationsByShop(calibration)) if (c.settings.visitorRssi !== "auto") out.set(shopId, c.settings.visitorRssi);
  return out;
}

/**
 * The classifier's day rule for one shop, with what it carries from day to day: the session
 * peaks the `"auto"` threshold is learned from, the threshold in use, and the devices flagged
 * staff or stationary recently. Internal: {@link VisitClassifier} decides each day with it once
 * the day is over; `LiveOccupancy` classifies the day so far with its own instance, without
 * committing anything until its day is over too — one rule, whoever applies it.
 *
 * @example
 * const roles = new ShopRoles(visitClassifierOptions(), new LocalCalendar("Asia/Seoul"));
 * roles.visitorRssi; // -75 (the fallback, until a day has been learned from)
 */
export class ShopRoles {
  /** Threshold in use, dBm. */
  visitorRssi: number;
  readonly #o: ResolvedVisitClassifierOptions;
  readonly #calendar: LocalCalendar;
  readonly #staffMs: number;
  /** Session peaks of the decided days, for the learned threshold. */
  readonly #peaks: PeakRssiHistogram;
  /** Devices flagged staff or stationary on a recent day: the kind, and until when (epoch ms) it holds. */
  readonly #remembered = new Map<string, { kind: "staff" | "stationary"; until: number }>();

  /** @param shopId the shop: a calibrated one is classified at its calibration's threshold (`shopVisitorRssi`) */
  constructor(options: ResolvedVisitClassifierOptions, calendar: LocalCalendar, shopId?: number) {
    const pinned = shopId === undefined ? undefined : options.shopVisitorRssi.get(shopId);
    this.#o = pinned === undefined ? options : { ...options, visitorRssi: pinned };
    this.#calendar = calendar;
    this.#staffMs = staffPresenceMs(options);
    this.#peaks = new PeakRssiHistogram(options.minDwellMs);
    this.visitorRssi = this.#o.visitorRssi === "auto" ? options.fallbackVisitorRssi : this.#o.visitorRssi;
  }

  /**
   * The kinds of one local day's sessions (`sessions` in canonical order), given each device's
   * presence that day, and the threshold they were classified with. With `commit` the day is
   * decided: its peaks refit the threshold and its staff are remembered. Without, the day is
   * not over and nothing changes: the threshold is refitted on a copy (the days so far plus these
   * sessions), and a device heard at the threshold for at least `minDwellMs` of the day while the
   * shop was closed is staff (or equipment) already — no shopper is inside then, and waiting for
   * `staffShare` of the opening hours would count the morning's staff and equipment as shoppers.
   */
  decide(day: LocalDay, sessions: readonly DayRuleSession[], presence: ReadonlyMap<string, DevicePresence>, commit: boolean): { kinds: VisitKind[]; visitorRssi: number } {
    const o = this.#o;
    let visitorRssi = this.visitorRssi;
    if (o.visitorRssi === "auto") {
      const peaks = commit ? this.#peaks : this.#peaks.copy();
      for (let i = 0; i < sessions.length; i++) peaks.add(sessions[i]!);
      visitorRssi = peaks.suggest().threshold ?? o.fallbackVisitorRssi;
      if (commit) this.visitorRssi = visitorRssi;
    }
    const rule = { minDwellMs: o.minDwellMs, visitorRssi };
    const remember = o.rememberStaffDays * 24 * MS_PER_HOUR;
    const remembered = this.#remembered;
    if (commit) for (const [device, r] of remembered) if (r.until <= day.start) remembered.delete(device);
    const stationaryMs = o.stationaryShare * (day.end - day.start);
    const closedInside = commit ? undefined : this.#closedInside(day, sessions, visitorRssi);
    const kinds: VisitKind[] = new Array(sessions.length);
    // A device that probed on a timer in one session is equipment in all of the day's (a PC's
    // session split by a silence is no shopper's).
    const machines = new Set<string>();
    for (const s of sessions) if (isPeriodicProber(s)) machines.add(s.device);
    for (let i = 0; i < sessions.length; i++) {
      const s = sessions[i]!;
      const p = presence.get(s.device)!;
      let kind: VisitKind;
      // Fixed equipment: present most of the day, or probing on a timer (PCs, tills, printers).
      if (p.total >= stationaryMs || this.coversADay(s) || machines.has(s.device)) kind = "stationary";
      else if (p.opening >= this.#staffMs || (closedInside?.get(s.device) ?? 0) >= o.minDwellMs) kind = "staff";
      else {
        const r = remembered.get(s.device);
        kind = r !== undefined && r.until > s.start ? r.kind : visitOrPass(s, rule);
      }
      if (commit && (kind === "staff" || kind === "stationary") && remember > 0 && !s.randomized) {
        remembered.set(s.device, { kind, until: day.end + remember });
      }
      kinds[i] = kind;
    }
    return { kinds, visitorRssi };
  }

  /** The local day with its opening hours. */
  hours(day: LocalDay): DayHours {
    const [open, close] = this.#o.openingHours;
    return { start: day.start, end: day.end, openFrom: day.start + open * MS_PER_HOUR, openTo: day.start + close * MS_PER_HOUR };
  }

  // Per device, how long it was heard at the visitor threshold while the shop was closed that day, ms.
  #closedInside(day: LocalDay, sessions: readonly DayRuleSession[], visitorRssi: number): Map<string, number> {
    const { openFrom, openTo } = this.hours(day);
    const out = new Map<string, number>();
    for (const s of sessions) {
      if (!(s.peakSmoothedRssi >= visitorRssi)) continue;
      const closed = overlap(s.start, s.end, day.start, openFrom) + overlap(s.start, s.end, openTo, day.end);
      if (closed > 0) out.set(s.device, (out.get(s.device) ?? 0) + closed);
    }
    return out;
  }

  /** The kind of a session whose day was already decided: classified on its own. */
  lateKind(s: DayRuleSession): VisitKind {
    if (this.coversADay(s)) return "stationary";
    const { openFrom, openTo } = this.hours(this.#calendar.day(s.start));
    const opening = overlap(s.start, s.end, openFrom, openTo);
    return opening >= this.#staffMs ? "staff" : visitOrPass(s, { minDwellMs: this.#o.minDwellMs, visitorRssi: this.visitorRssi });
  }

  /** Whether one session alone covers `stationaryShare` of some local day. */
  coversADay(s: Pick<Session, "start" | "end">): boolean {
    const share = this.#o.stationaryShare;
    // A local day is 23 h on a spring-forward day, 22 h where clocks jump two hours (Antarctica/Troll):
    // sessions shorter than the share of 20 h cannot cover one, and most are out at once.
    if (s.end - s.start < share * SHORTEST_DAY_MS) return false;
    for (let t = s.start; t <= s.end; ) {
      const day = this.#calendar.day(t);
      if (overlap(s.start, s.end, day.start, day.end) >= share * (day.end - day.start)) return true;
      t = day.end;
    }
    return false;
  }
}

/**
 * Classifies sessions as visitor, passer-by, staff or stationary (docs/analytics.md).
 *
 * - `visitor`: dwell ≥ `minDwellMs` and smoothed RSSI reached `visitorRssi` (see {@link visitOrPass});
 *   otherwise `passerby`.
 * - `staff`: the device's presence during the opening hours of the session's local day, summed over
 *   all its sessions of that day, is at least `staffShare` of the opening hours.
 * - `stationary`: its presence that day is at least `stationaryShare` of the day, or the session
 *   alone covers that share of some day.
 * - A device (with a stable address) flagged staff or stationary keeps the flag for
 *   `rememberStaffDays` further days, so a short shift does not turn staff into visitors.
 *
 * Staff presence is a property of a whole day, so in a stream it can only be known when the day is
 * over. The classifier therefore holds each shop's sessions per local day and decides a day when
 * every session starting in it has arrived — `Session.complete` passes the day's end — or, for
 * equipment whose session never ends, once a watermark whose sessions have all arrived (a later
 * one has been seen) is `maxDayWaitMs` past the day's end.
 * Then it emits that day's sessions sorted by start. A session arriving after its day was decided
 * is classified on its own and flagged `late`. Memory is one day's sessions per shop.
 *
 * Batch and streaming drive this same class with the same sessions in the same order, so they
 * agree exactly.
 *
 * @example
 * const out: ClassifiedSession[] = [];
 * const classifier = new VisitClassifier({ timeZone: "Asia/Seoul" }, { emit: (s) => out.push(s) });
 * for (const s of sessions) classifier.push(s);
 * classifier.flush();
 */
export class VisitClassifier implements Kernel<Session> {
  /** The resolved options. */
  readonly options: ResolvedVisitClassifierOptions;
  readonly #sink: Sink<ClassifiedSession>;
  readonly #calendar: LocalCalendar;
  readonly #shops = new Map<number, ShopDays>();
  /** Where a late session handed over unbuilt is built (cleared after each). */
  #lateColumns: SessionColumns | undefined;

  constructor(options: VisitClassifierOptions, sink: Sink<ClassifiedSession>) {
    this.options = visitClassifierOptions(options);
    this.#sink = checkSink("VisitClassifier", sink);
    this.#calendar = new LocalCalendar(this.options.timeZone);
  }

  /** Sessions held, waiting for their day to be decided. */
  get pending(): number {
    let n = 0;
    for (const shop of this.#shops.values()) for (const d of shop.days) n += d.sessions.length;
    return n;
  }

  /** Feeds one session (in the order `EventTimeEngine` emits them). May emit whole days. */
  push(session: Session): void {
    const shop = this.#arrive(session.shopId, session.watermark);
    if (session.start < shop.closedUntil) this.#emitLate(shop, session);
    else this.#hold(shop, this.#openDay(shop, session.start), session);
    this.#decide(shop, session.complete);
  }

  /**
   * Feeds one session the engine closed, unbuilt (`EngineSink.closed`): the same as `push` of the
   * session it is, which is kept in its day's columns and built only when the day is emitted.
   * Internal: the engine's hand-off when the classifier takes its sessions directly.
   */
  pushClosed(open: OpenSession, shopId: number, watermark: number, complete: number): void {
    const shop = this.#arrive(shopId, watermark);
    const withProximity = open.proximity !== undefined;
    if (open.start < shop.closedUntil) {
      this.#emitLate(shop, (this.#lateColumns ??= new SessionColumns()).build(open, shopId, watermark, complete, withProximity));
    } else {
      const day = this.#openDay(shop, open.start);
      const columns = (day.columns ??= SessionColumns.take());
      this.#hold(shop, day, columns.add(open, shopId, watermark, complete, withProximity));
    }
    this.#decide(shop, complete);
  }

  /**
   * Feeds one session held in columns already (a device split's, made by another engine): the
   * same as {@link pushClosed} of the session it is. Internal.
   * @internal
   */
  pushHeld(held: HeldSession): void {
    const shop = this.#arrive(held.shopId, held.watermark);
    if (held.start < shop.closedUntil) this.#emitLate(shop, held);
    else this.#hold(shop, this.#openDay(shop, held.start), held);
    this.#decide(shop, held.complete);
  }

  // The shop a session of `shopId` arrives at, with the days a later watermark settles decided.
  #arrive(shopId: number, watermark: number): ShopDays {
    let shop = this.#shops.get(shopId);
    if (shop === undefined) {
      shop = {
        days: [],
        closedUntil: Number.NEGATIVE_INFINITY,
        complete: Number.NEGATIVE_INFINITY,
        watermark: Number.NEGATIVE_INFINITY,
        settled: Number.NEGATIVE_INFINITY,
        roles: new ShopRoles(this.options, this.#calendar, shopId),
      };
      this.#shops.set(shopId, shop);
    }
    if (watermark > shop.watermark) {
      // A later watermark: every session the previous one closed has come (the engine emits
      // them one after another), so days its wait has passed are decided before this session.
      shop.settled = shop.watermark;
      shop.watermark = watermark;
      this.#decide(shop, Number.NEGATIVE_INFINITY);
    }
    return shop;
  }

  // Holds a session in the day it starts in until the day is decided.
  #hold(shop: ShopDays, day: OpenDay, session: Session | HeldSession): void {
    day.sessions.push(session);
    // Presence counts on every open day the session overlaps (visits across midnight).
    for (let t = session.start; t <= session.end; ) {
      const d = this.#openDay(shop, t);
      addPresence(d.presence, d.hours, session.device, session.start, session.end);
      t = d.day.end;
    }
  }

  /**
   * Decides the days nothing can change any more: every session starting in them has come
   * (`complete` passed their end), or the settled watermark is `maxDayWaitMs` past their end.
   * Not this session's watermark: one that leaps past the wait (a quiet night) also closes the
   * evening's last sessions, emitted right after this one, and they belong to their day.
   */
  #decide(shop: ShopDays, complete: number): void {
    const days = shop.days;
    while (days.length > 0) {
      const day = days[0]!;
      const end = day.day.end;
      if (!(complete >= end || shop.settled - this.options.maxDayWaitMs >= end)) break;
      days.shift();
      this.#closeDay(shop, day);
    }
  }

  /** Decides and emits every held day (call when the source completes). */
  flush(): void {
    for (const shop of this.#shops.values()) {
      while (shop.days.length > 0) this.#closeDay(shop, shop.days.shift()!);
    }
  }

  #openDay(shop: ShopDays, t: number): OpenDay {
    const day = this.#calendar.day(t);
    const days = shop.days;
    // Days are few (usually one or two) and kept in order.
    let i = days.length - 1;
    while (i >= 0 && days[i]!.day.start > day.start) i--;
    if (i >= 0 && days[i]!.day === day) return days[i]!;
    const open: OpenDay = {
      day,
      hours: shop.roles.hours(day),
      sessions: [],
      columns: undefined,
      presence: new Map(),
    };
    days.splice(i + 1, 0, open);
    return open;
  }

  #closeDay(shop: ShopDays, day: OpenDay): void {
    const sessions = day.sessions;
    sessions.sort(bySessionOrder);
    const { kinds, visitorRssi } = shop.roles.decide(day.day, sessions, day.presence, true);
    for (let i = 0; i < sessions.length; i++) {
      const s = sessions[i]!;
      const complete = i + 1 < sessions.length ? s.start : day.day.end;
      if (complete > shop.complete) shop.complete = complete;
      // A held session is copied from its row straight into the classified one.
      this.#sink.emit(classifiedSession(s, kinds[i]!, day.day.date, shop.complete, false, visitorRssi));
    }
    // Its sessions are built and emitted: the next day (of this or any classifier) may hold its own there.
    day.columns?.give();
    if (day.day.end > shop.closedUntil) shop.closedUntil = day.day.end;
    if (day.day.end > shop.complete) shop.complete = day.day.end;
  }

  #emitLate(shop: ShopDays, s: Session): void {
    const roles = shop.roles;
    this.#sink.emit(classifiedSession(s, roles.lateKind(s), this.#calendar.dateOf(s.start), shop.complete, true, roles.visitorRssi));
  }
}

function overlap(a0: number, a1: number, b0: number, b1: number): number {
  const lo = a0 > b0 ? a0 : b0;
  const hi = a1 < b1 ? a1 : b1;
  return hi > lo ? hi - lo : 0;
}

/**
 * The order the classifier emits a day's sessions in: by start, device, end. Internal.
 *
 * @example
 * const ordered = [...sessions].sort(bySessionOrder);
 * ordered[0]!.start <= ordered.at(-1)!.start; // true
 */
export function bySessionOrder(a: Pick<Session, "start" | "device" | "end">, b: Pick<Session, "start" | "device" | "end">): number {
  return a.start - b.start || (a.device < b.device ? -1 : a.device > b.device ? 1 : 0) || a.end - b.end;
}

/**
 * A session with its classification: the one way a {@link ClassifiedSession} is built. Internal.
 *
 * @example
 * classifiedSession(session, "visitor", "2026-11-16", session.complete, false, -65).kind; // "visitor"
 */
export function classifiedSession(
  s: Session,
  kind: VisitKind,
  date: string,
  complete: number,
  late: boolean,
  visitorRssi: number,
): ClassifiedSession {
  return {
    shopId: s.shopId,
    device: s.device,
    start: s.start,
    end: s.end,
    dwellMs: s.dwellMs,
    estimatedDwellMs: s.estimatedDwellMs,
    signalCount: s.signalCount,
    probeCount: s.probeCount,
    periodicGaps: s.periodicGaps,
    squaredGapsMs2: s.squaredGapsMs2,
    randomized: s.randomized,
    local: s.local,
    vendor: s.vendor,
    peakRssi: s.peakRssi,
    peakSmoothedRssi: s.peakSmoothedRssi,
    nearestSensor: s.nearestSensor,
    sensors: s.sensors,
    watermark: s.watermark,
    complete,
    kind,
    date,
    late,
    visitorRssi,
    proximity: s.proximity,
  };
}
