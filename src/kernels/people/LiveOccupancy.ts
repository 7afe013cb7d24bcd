import { markResolved, resolvedBy } from "../../options/resolvedOptions.ts";
import { LocalCalendar, type LocalDay } from "../../time/LocalCalendar.ts";
import type { EngineAccumulator } from "../sessions/EventTimeEngine.ts";
import { dwellStats, type DwellStats } from "../visits/dwellStats.ts";
import type { RateModel } from "./rateModel.ts";
import { dayModel, type DayModel } from "./dayModel.ts";
import { intervalCount, occupancyIntervals } from "./occupancyIntervals.ts";
import { peopleOfDay } from "./peopleOfDay.ts";
import type { PeopleEstimate, OccupancyInterval } from "./PeopleEstimate.ts";
import { peopleEstimatorOptions, type PeopleEstimatorOptions, type ResolvedPeopleEstimatorOptions } from "./peopleEstimatorOptions.ts";
import type { Session } from "../sessions/Session.ts";
import type { SessionWindow } from "../visits/SessionWindows.ts";
import { checkSink, type Sink } from "../sessions/Sink.ts";
import {
  addPresence,
  bySessionOrder,
  classifiedSession,
  ShopRoles,
  visitClassifierOptions,
  type ClassifiedSession,
  type DevicePresence,
  type ResolvedVisitClassifierOptions,
  type VisitClassifierOptions,
} from "../visits/VisitClassifier.ts";

/**
 * Options of {@link LiveOccupancy} (and the `liveOccupancy` operator): the people estimator's
 * (`intervalMs`, `timeZone`, linking, `level`) and the classifier's, which decide who is a
 * shopper inside.
 *
 * @example
 * const options: LiveOccupancyOptions = { intervalMs: 15 * 60_000, timeZone: "Asia/Seoul", classify: { openingHours: [9, 21] } };
 */
export interface LiveOccupancyOptions extends PeopleEstimatorOptions {
  /** How sessions are classified (`VisitClassifierOptions` but the time zone, which is `timeZone`). @default {} */
  readonly classify?: Omit<VisitClassifierOptions, "timeZone">;
}

/**
 * A shop's day so far, as known when a live interval was emitted: the people estimate by the
 * day estimate's rules (`PeopleEstimate` without its occupancy, which is the live stream itself)
 * and the MAC-level counts of the same provisional classification.
 *
 * @example
 * const { liveOccupancy } = await analyze(records, { liveOccupancy: true });
 * const today: LiveDay = liveOccupancy.at(-1)!.today;
 * console.log(`${today.visitors.toFixed(0)} people so far [${today.visitorsLow}, ${today.visitorsHigh}], ${today.macVisitors} visitor MACs`);
 */
export interface LiveDay extends Omit<PeopleEstimate, "occupancy"> {
  /** Devices with a visitor session so far (MAC-level, as `VisitCounts.visitors`). */
  readonly macVisitors: number;
  /** Devices heard so far with passer-by sessions only (MAC-level). */
  readonly macPassersBy: number;
  /** Dwell statistics of the visitor sessions so far (MAC-level: each session's estimated dwell). */
  readonly macDwell: DwellStats;
}

/**
 * One interval of {@link LiveOccupancy}: the occupancy (as `PeopleEstimator` gives it for a whole
 * day) and the shop's day so far when it was emitted.
 *
 * @example
 * const { liveOccupancy } = await analyze(records, { liveOccupancy: true });
 * const o: LiveOccupancyInterval = liveOccupancy.at(-1)!;
 * console.log(o.inside.toFixed(1), "inside now;", o.today.visitors.toFixed(0), "people so far today");
 */
export interface LiveOccupancyInterval extends OccupancyInterval {
  /** The day so far, as known when this interval was emitted (intervals emitted together share it). */
  readonly today: LiveDay;
}


interface LiveShop {
  readonly shopId: number;
  /** The classifier's day rule with this shop's threshold and staff memory, committed as each day ends here. */
  readonly roles: ShopRoles;
  /** End of the next interval to emit (NaN before the shop's first signal). */
  next: number;
  /** Latest event time reached. */
  last: number;
  /** Closed sessions that can still matter: those ending on or after the start of the day being emitted. */
  closed: Session[];
  /** The burst-rate sample of the last day that ended here (its figures, not its sessions), which stands in early in the next day. */
  previous: RateModel | undefined;
}

/**
 * {@link LiveOccupancyOptions} resolved: the estimate's and the classification's.
 *
 * @example
 * const o: ResolvedLiveOccupancyOptions = liveOccupancyOptions({ timeZone: "Asia/Seoul" });
 */
export interface ResolvedLiveOccupancyOptions {
  readonly people: ResolvedPeopleEstimatorOptions;
  readonly classify: ResolvedVisitClassifierOptions;
}

/**
 * Validates {@link LiveOccupancyOptions} eagerly (TypeError/RangeError) and resolves them; an
 * operator resolves them once and builds a `LiveOccupancy` from the result at each subscription.
 *
 * @example
 * liveOccupancyOptions({ timeZone: "Asia/Seoul" }).people.intervalMs; // 900000
 */
export function liveOccupancyOptions(options: LiveOccupancyOptions | ResolvedLiveOccupancyOptions): ResolvedLiveOccupancyOptions {
  if (resolvedBy("liveOccupancyOptions", options)) return options as ResolvedLiveOccupancyOptions;
  if (typeof options !== "object" || options === null) throw new TypeError("live occupancy options must be an object");
  const { classify, ...estimate } = options as LiveOccupancyOptions;
  const people = peopleEstimatorOptions(estimate);
  // The shops' calibrations pin their thresholds for the classification as for the estimate.
  const classification = visitClassifierOptions({ ...classify, timeZone: people.timeZone, calibration: classify?.calibration ?? [...people.calibrations.values()] });
  return markResolved("liveOccupancyOptions", { people, classify: classification });
}

/**
 * Live occupancy: the estimated mean number of people inside and outside each shop per interval
 * (15 min by default), emitted as soon as the shop's event time passes the interval's end —
 * while the day goes on, where `PeopleEstimator` can only estimate a day once it is over. An
 * {@link EngineAccumulator} of the one `EventTimeEngine` (through its `reached` calls), so an
 * interval is emitted when the first signal after its end is applied, from exactly the sessions
 * known then: batch and stream, any chunking, any arrival order within the allowed lateness,
 * give the same figures.
 *
 * The figures are **provisional**: the same rules as the day's final estimate, applied to the
 * day so far. Sessions closed so far and those still open (as they are now) are classified with
 * the classifier's day rule (`ShopRoles`) on each device's presence so far; the identity-known
 * visits and the burst-rate sample are those of the day so far (`dayModel`), and the interval's
 * occupancy is `occupancyIntervals`, the estimator's one rule. What only the whole day shows is
 * not known yet:
 * 1. **Staff** are known once heard inside (at the visitor threshold) for `minDwellMs` while the
 *    shop was closed, once present for `staffShare` of the opening hours, or from the last
 *    `rememberStaffDays` days (a device that keeps its address); on a stream's first day a clerk
 *    who comes after opening counts as a shopper inside until present that long.
 * 2. **The learned threshold** (`visitorRssi: "auto"`) is refitted on the days so far plus the
 *    sessions of the day so far.
 * 3. **The burst rate** comes from the visits so far (open ones by their bursts and span so far):
 *    early in the day the sample is small and the band wide. Until the day has two sampled
 *    visits, the previous day's sample stands in; on a stream's first day `inside` is then `NaN`
 *    (unknown) while bursts were heard inside.
 * As each day ends here, its classification is committed (the threshold refitted with its
 * sessions, its staff remembered), as the classifier does when it decides the day.
 *
 * Intervals are aligned to the local day's start, from the interval of the shop's first signal
 * on, every one emitted once and in order (empty ones with 0); at the end of the input, up to the
 * interval of the last signal. Memory: one day's sessions per shop.
 *
 * @example
 * const live: OccupancyInterval[] = [];
 * const occupancy = new LiveOccupancy({ timeZone: "Asia/Seoul" }, { emit: (o) => live.push(o) });
 * const engine = new EventTimeEngine({ proximity: false }, { emit: () => {} }, [occupancy]);
 * for (const signal of signals) engine.push(signal);
 * engine.flush();
 * live.at(-1)?.inside; // people inside over the last interval (mean)
 */
export class LiveOccupancy implements EngineAccumulator {
  /** The resolved options of the estimate. */
  readonly options: ResolvedPeopleEstimatorOptions;
  /** The resolved options of the classification. */
  readonly classify: ResolvedVisitClassifierOptions;
  readonly #sink: Sink<LiveOccupancyInterval>;
  readonly #calendar: LocalCalendar;
  readonly #shops = new Map<number, LiveShop>();
  /** The latest classification of each session (closed ones are classified at every interval of their day). */
  readonly #classifiedCache = new WeakMap<Session, ClassifiedSession>();

  /**
   * @param options see {@link LiveOccupancyOptions}; validated here (TypeError/RangeError), unless resolved already (`liveOccupancyOptions`)
   * @param sink receives each interval once, in order per shop
   */
  constructor(options: LiveOccupancyOptions | ResolvedLiveOccupancyOptions, sink: Sink<LiveOccupancyInterval>) {
    const resolved = liveOccupancyOptions(options);
    this.options = resolved.people;
    this.classify = resolved.classify;
    this.#sink = checkSink("LiveOccupancy", sink);
    this.#calendar = new LocalCalendar(this.options.timeZone);
  }

  /** A closed session: kept until its day has been emitted. */
  session(session: Session): void {
    this.#shop(session.shopId).closed.push(session);
  }

  /** The shop's event time reached `time` (see `EngineAccumulator.reached`): emits every interval ending by then. */
  reached(shopId: number, time: number, open: () => readonly Session[]): number {
    const shop = this.#shop(shopId);
    if (time === Number.POSITIVE_INFINITY) {
      // The input ended: every interval up to the one holding the last signal.
      let last = shop.last;
      for (const s of open()) if (s.end > last) last = s.end;
      if (last > Number.NEGATIVE_INFINITY) this.#emitUntil(shop, this.#intervalEnd(last), open);
      return Number.POSITIVE_INFINITY;
    }
    shop.last = time;
    if (Number.isNaN(shop.next)) shop.next = this.#intervalEnd(time);
    else this.#emitUntil(shop, time, open);
    return shop.next;
  }

  #shop(shopId: number): LiveShop {
    let shop = this.#shops.get(shopId);
    if (shop === undefined) {
      shop = { shopId, roles: new ShopRoles(this.classify, this.#calendar, shopId), next: Number.NaN, last: Number.NEGATIVE_INFINITY, closed: [], previous: undefined };
      this.#shops.set(shopId, shop);
    }
    return shop;
  }

  // End of the interval holding t.
  #intervalEnd(t: number): number {
    const day = this.#calendar.day(t);
    const len = this.options.intervalMs;
    const end = day.start + (Math.floor((t - day.start) / len) + 1) * len;
    return end < day.end ? end : day.end;
  }

  // Emits every interval ending at or before `until`, a day's worth at a time from one model.
  #emitUntil(shop: LiveShop, until: number, open: () => readonly Session[]): void {
    const len = this.options.intervalMs;
    while (shop.next <= until) {
      const day = this.#calendar.day(shop.next - 1);
      const count = intervalCount(day, this.options);
      const first = Math.ceil((shop.next - day.start) / len) - 1;
      const dayOver = until >= day.end;
      const last = dayOver ? count : Math.floor((until - day.start) / len);
      const { sessions, stationary } = this.#classifyDay(shop, day, open(), dayOver);
      const w = { shopId: shop.shopId, window: "day" as const, label: day.date, start: day.start, end: day.end };
      let model = dayModel(sessions, w, this.options, stationary);
      const previous = shop.previous;
      // Until the day so far has two sampled visits (a mean stay and its spread), the last day's
      // sample stands for the visits; the yardstick is the day's own (prior or calibration).
      if (!(model.n >= 2) && previous !== undefined && previous.n >= 2) {
        const { rate, phi, m, rateRelVar } = model;
        model = { ...model, ...previous, rate, phi, m, rateRelVar };
      }
      // A shop's learned model gives the day so far's visitors from every interval so far.
      const from = model.people === null ? first : 0;
      const intervals = occupancyIntervals(model, w, from, last, this.options);
      const today = this.#today(model, w, sessions, intervals);
      for (const interval of intervals.slice(first - from)) this.#sink.emit({ ...interval, today });
      if (dayOver) {
        // Its rate model only, not its sessions.
        const { sessions: _sessions, stationary: _stationary, rest: _rest, burstShare: _burstShare, linked: _linked, known: _known, sample: _sample, yardstick: _yardstick, calibration: _calibration, people: _people, ...rates } = model;
        shop.previous = rates;
        // Sessions that end before the next day cannot matter to it (nor to its staff rule).
        shop.closed = shop.closed.filter((s) => s.end >= day.end);
        shop.next = this.#intervalEnd(day.end);
      } else {
        shop.next = day.start + (last + 1) * len;
        if (shop.next > day.end) shop.next = day.end;
      }
    }
  }

  #today(model: DayModel, w: SessionWindow, sessions: readonly ClassifiedSession[], occupancy: readonly OccupancyInterval[]): LiveDay {
    const visitors = new Set<string>();
    const dwells: number[] = [];
    for (const s of sessions) {
      if (s.kind !== "visitor") continue;
      visitors.add(s.device);
      dwells.push(s.estimatedDwellMs);
    }
    const passers = new Set<string>();
    for (const s of sessions) if (!visitors.has(s.device)) passers.add(s.device);
    return { ...peopleOfDay(model, w, this.options, occupancy), macVisitors: visitors.size, macPassersBy: passers.size, macDwell: dwellStats(dwells) };
  }

  // The day's sessions so far (closed, and open as they are now), classified by the classifier's
  // day rule on each device's presence so far; visitors and passers-by only (staff and equipment
  // are not people inside). With `commit` (the day is over here) the shop's roles learn from it.
  #classifyDay(shop: LiveShop, day: LocalDay, open: readonly Session[], commit: boolean): { sessions: ClassifiedSession[]; stationary: [number, number][] } {
    const hours = shop.roles.hours(day);
    const presence = new Map<string, DevicePresence>();
    const inDay: Session[] = [];
    const take = (s: Session): void => {
      if (s.end < day.start || s.start >= day.end) return;
      addPresence(presence, hours, s.device, s.start, s.end);
      if (s.start >= day.start) inDay.push(s);
    };
    for (const s of shop.closed) take(s);
    for (const s of open) take(s);
    // Deciding the day commits in the classifier's order (staff are remembered session by
    // session); the day so far is classified in any order (nothing is remembered, and the
    // estimate sorts its sessions itself).
    if (commit) inDay.sort(bySessionOrder);
    const { kinds, visitorRssi } = shop.roles.decide(day, inDay, presence, commit);
    const out: ClassifiedSession[] = [];
    const stationary: [number, number][] = [];
    const cache = this.#classifiedCache;
    for (let i = 0; i < inDay.length; i++) {
      const kind = kinds[i]!;
      if (kind === "stationary") stationary.push([inDay[i]!.start, inDay[i]!.end]);
      if (kind !== "visitor" && kind !== "passerby") continue;
      // A closed session is classified again at every interval, mostly as before: the same
      // object then, not a fresh copy of its twenty fields per interval.
      const s = inDay[i]!;
      let c = cache.get(s);
      if (c === undefined || c.kind !== kind || c.visitorRssi !== visitorRssi) {
        c = classifiedSession(s, kind, day.date, Number.NaN, false, visitorRssi);
        cache.set(s, c);
      }
      out.push(c);
    }
    return { sessions: out, stationary };
  }
}
