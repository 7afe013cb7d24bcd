import {
  EMPTY,
  catchError,
  connect,
  ignoreElements,
  lastValueFrom,
  map,
  merge,
  mergeMap,
  reduce,
  takeUntil,
  takeWhile,
  tap,
  toArray,
  type Observable,
} from "rxjs";
import type { Client } from "../client/Client.ts";
import type { Signal } from "../codec/Signal.ts";
import type { ProximitySlice } from "../kernels/SessionProximity.ts";
import type { Session } from "../kernels/Session.ts";
import type { VisitCounts } from "../kernels/VisitCounter.ts";
import { defaultPeopleEstimator, PeopleEstimator, type PeopleEstimate } from "../kernels/PeopleEstimator.ts";
import { defaultVisitClassifier, staffPresenceMs, visitOrPass, type ClassifiedSession, type VisitClassifierOptions } from "../kernels/VisitClassifier.ts";
import type { WindowDwell } from "../kernels/DwellMeter.ts";
import { dwellStats } from "../kernels/dwellStats.ts";
import { hasPeopleEstimate } from "../kernels/hasPeopleEstimate.ts";
import { shopDayDwell } from "../kernels/shopDayDwell.ts";
import { ZoneOccupancy, type ZoneCounts } from "../kernels/ZoneOccupancy.ts";
import { classifyVisits } from "../operators/classifyVisits.ts";
import { countVisits } from "../operators/countVisits.ts";
import { decodeSignals } from "../operators/decodeSignals.ts";
import { estimatePeople } from "../operators/estimatePeople.ts";
import { measureDwell } from "../operators/measureDwell.ts";
import { sessionize } from "../operators/sessionize.ts";
import type { SignalPage } from "../source/SignalPage.ts";
import { signalPagesObservable } from "../source/signalPagesObservable.ts";
import { LocalCalendar } from "../time/LocalCalendar.ts";

/** A device counts as "in range now" when heard within this much event time of the shop's newest signal. */
const IN_RANGE_MS = 120_000;

/**
 * The live people estimate is worked out again once the shop's event time has moved on this far
 * (and at the end): the estimator is per-day work over every session so far (30–70 ms for a
 * busy shop by evening), so once per frame, or even per 5 % more sessions, cost the demo a
 * quarter of its CPU with five shops; half an hour of shop time is about 2 s of the demo at its
 * default speed.
 */
const LIVE_PEOPLE_EVERY_MS = 30 * 60_000;

/**
 * The provisional people estimate of one shop so far (see {@link ShopLive}).
 *
 * @example
 * const p: LivePeople = { visitors: 518, low: 362, high: 675 };
 */
export interface LivePeople {
  /** Estimated people who came in so far. */
  readonly visitors: number;
  /** The 90 % interval. */
  readonly low: number;
  readonly high: number;
}

/**
 * What the dashboard shows of one shop at one moment.
 *
 * @example
 * const s: ShopLiveSnapshot = { shopId: 101, name: "Cafe Mori Gangnam", signals: 51_000, invalid: 0, lastEventMs: 0, inRange: 37, visitors: 112, passersBy: 1203, medianDwellMs: 852_000, zones: { immediate: 3, near: 12, far: 22 }, done: false };
 */
export interface ShopLiveSnapshot {
  readonly shopId: number;
  readonly name: string;
  /** Signal records decoded so far. */
  readonly signals: number;
  /** Records the decoder rejected so far. */
  readonly invalid: number;
  /** Newest event time seen, epoch ms (−Infinity before the first signal). */
  readonly lastEventMs: number;
  /** Devices heard in the last two minutes of event time. */
  readonly inRange: number;
  /** Unique devices whose finished session looks like a visit (provisional: the day's rules apply at the end). MAC-level. */
  readonly visitors: number;
  /**
   * People, not MACs: the people estimate (`PeopleEstimator`) over the same provisional sessions,
   * with its 90 % interval; absent before it can be worked out (no finished visit yet).
   */
  readonly people?: LivePeople;
  /** Unique devices whose finished sessions only passed by (provisional). */
  readonly passersBy: number;
  /**
   * Median dwell so far, ms (`NaN` before the first visit), by the summary's rule
   * (`shopDayDwell`): of the identity-known visits once there is a people estimate, else of the
   * provisional visitor sessions.
   */
  readonly medianDwellMs: number;
  /** Devices by the zone of their nearest sensor now (`ZoneOccupancy.current` at the newest signal). */
  readonly zones: ZoneCounts;
  /** True once the shop's whole day has been read (or reading stopped). */
  readonly done: boolean;
  /** Why reading stopped early, if it failed. */
  readonly error?: string;
}

/**
 * Live state of one shop in `footfall demo`, fed by taps on the real pipeline: the dashboard's
 * figures (devices in range, provisional visitors and dwell, zone occupancy now from the
 * `ZoneOccupancy` kernel). Visitors are provisional — `visitOrPass` with the classifier's
 * fallback threshold on each finished session shorter than `staffPresenceMs` — because staff and the learned
 * per-shop threshold can only be decided once the day is over; the summary uses the real
 * classifier's output. The people estimate runs the one `PeopleEstimator` (the kernel behind
 * `estimatePeople`, which the pipeline's final figures use) over those provisional sessions.
 *
 * @example
 * const live = new ShopLive({ id: 101, name: "Cafe Mori Gangnam", sensors: ["b8:27:eb:00:00:01"] }, 86_400_000);
 * live.snapshot().signals; // 0
 */
export class ShopLive {
  readonly shopId: number;
  readonly name: string;
  readonly sensors: readonly string[];
  readonly #endMs: number;
  readonly #staffMs: number;
  #signals = 0;
  #invalid = 0;
  #lastEventMs = Number.NEGATIVE_INFINITY;
  #lastSeen = new Map<string, number>();
  readonly #occupancy: ZoneOccupancy;
  #visitors = new Set<string>();
  #passers = new Set<string>();
  #dwells: number[] = [];
  readonly #calendar: LocalCalendar;
  readonly #provisional: ClassifiedSession[] = [];
  #people: LivePeople | undefined;
  /** The latest people estimate that stands (`hasPeopleEstimate`), for its dwell. */
  #estimate: PeopleEstimate | undefined;
  #peopleAtMs = Number.NEGATIVE_INFINITY;
  #peopleSessions = 0;
  #previousCaughtUpSim = Number.NEGATIVE_INFINITY;
  #done = false;
  #error: string | undefined;

  /**
   * @param shop the shop and its sensors
   * @param endMs end of the day (epoch ms): reading is done once a caught-up page was requested after the clock passed it
   * @param openingHours the shops' opening hours, to leave staff-length sessions out of provisional visitors
   * @param timeZone IANA time zone of the shop (its local day, for the people estimate)
   */
  constructor(
    shop: { readonly id: number; readonly name: string; readonly sensors: readonly string[] },
    endMs: number,
    openingHours: readonly [number, number] = defaultVisitClassifier.openingHours,
    timeZone: string = defaultPeopleEstimator.timeZone,
  ) {
    this.shopId = shop.id;
    this.name = shop.name;
    this.sensors = [...shop.sensors];
    this.#endMs = endMs;
    this.#staffMs = staffPresenceMs({ openingHours });
    this.#occupancy = new ZoneOccupancy();
    this.#calendar = new LocalCalendar(timeZone);
  }

  /** True once the whole day has been read, or reading stopped. */
  get done(): boolean {
    return this.#done;
  }

  /**
   * A page was delivered at simulated time `simNow`. The day is complete when a caught-up page
   * answers a request sent after the clock passed the end of the day. After a caught-up (short)
   * page the source requests nothing until its poll wait is over (it reads ahead only behind
   * full pages), so the page that follows a caught-up page delivered past the end was asked for
   * past the end.
   */
  onPage(page: SignalPage, simNow: number): void {
    if (page.caughtUp && this.#previousCaughtUpSim >= this.#endMs) this.#done = true;
    this.#previousCaughtUpSim = page.caughtUp ? simNow : Number.NEGATIVE_INFINITY;
  }

  /** Counts a rejected record. */
  onInvalid(): void {
    this.#invalid++;
  }

  /** Reading stopped with an error (kept for the summary). */
  onError(message: string): void {
    this.#error = message;
    this.#done = true;
  }

  /** Reading finished (completed, stopped or failed). */
  onEnd(): void {
    this.#done = true;
  }

  /** A decoded signal (counts, newest event time, devices in range). */
  onSignal(s: Signal): void {
    this.#signals++;
    if (s.time > this.#lastEventMs) this.#lastEventMs = s.time;
    this.#lastSeen.set(s.device, s.time);
  }

  /** A finished proximity slice (for the zones now). */
  onSlice(slice: ProximitySlice): void {
    this.#occupancy.addSlice(slice);
  }

  /** A finished session (provisional visitors, passers-by and dwell). */
  onSession(s: Session): void {
    const staff = s.dwellMs >= this.#staffMs;
    const kind = staff ? "staff" : visitOrPass(s);
    this.#provisional.push({ ...s, kind, date: this.#calendar.dateOf(s.start), late: false, visitorRssi: defaultVisitClassifier.fallbackVisitorRssi });
    if (staff) return;
    if (kind === "visitor") {
      this.#visitors.add(s.device);
      this.#passers.delete(s.device);
      this.#dwells.push(s.estimatedDwellMs);
    } else if (!this.#visitors.has(s.device)) {
      this.#passers.add(s.device);
    }
  }

  // The people estimate over the provisional sessions, worked out again only when event time has
  // moved on enough since the last one (or once reading is done) and there are new sessions.
  #livePeople(): { people: LivePeople } | undefined {
    const n = this.#provisional.length;
    const due = this.#done || this.#lastEventMs >= this.#peopleAtMs + LIVE_PEOPLE_EVERY_MS;
    if (n > this.#peopleSessions && due) {
      this.#peopleSessions = n;
      this.#peopleAtMs = this.#lastEventMs;
      let latest: PeopleEstimate | undefined;
      const estimator = new PeopleEstimator({ timeZone: this.#calendar.timeZone }, { emit: (p) => (latest = p) });
      for (const s of this.#provisional) estimator.push(s);
      estimator.flush();
      const p: PeopleEstimate | undefined = latest;
      if (hasPeopleEstimate(p)) {
        this.#people = { visitors: p.visitors, low: p.visitorsLow, high: p.visitorsHigh };
        this.#estimate = p;
      }
    }
    return this.#people === undefined ? undefined : { people: this.#people };
  }

  /** The dashboard's figures now; also forgets devices not heard for a while (bounded memory). */
  snapshot(): ShopLiveSnapshot {
    const now = this.#lastEventMs;
    let inRange = 0;
    for (const [device, t] of this.#lastSeen) {
      if (t >= now - IN_RANGE_MS) inRange++;
      else this.#lastSeen.delete(device);
    }
    const people = this.#livePeople();
    return {
      shopId: this.shopId,
      name: this.name,
      signals: this.#signals,
      invalid: this.#invalid,
      lastEventMs: now,
      inRange,
      visitors: this.#visitors.size,
      passersBy: this.#passers.size,
      medianDwellMs: shopDayDwell(dwellStats(this.#dwells), this.#estimate).medianMs,
      zones: this.#occupancy.current(now),
      ...(people ?? {}),
      done: this.#done,
      ...(this.#error === undefined ? {} : { error: this.#error }),
    };
  }
}

/**
 * Options of {@link runShopPipeline}.
 *
 * @example
 * const options: ShopPipelineOptions = { client, live, since: day.startMs, simNow: () => sim.handler.simNow()!, stop$, timeZone: "Asia/Seoul" };
 */
export interface ShopPipelineOptions {
  readonly client: Client;
  readonly live: ShopLive;
  /** First time read, epoch ms (the start of the day). */
  readonly since: number;
  /** The simulated clock now, epoch ms. */
  readonly simNow: () => number;
  /** Emits to stop reading; what was read is still analysed to the end. */
  readonly stop$: Observable<unknown>;
  /** IANA time zone of the shop. */
  readonly timeZone: string;
  /** Options of the visit classifier (opening hours, thresholds). @default {} */
  readonly classify?: VisitClassifierOptions;
  /** Wait between polls once caught up, real ms. @default 200 */
  readonly pollIntervalMs?: number;
}

/**
 * The day's analytics of one shop, from the real operators.
 *
 * @example
 * const r: ShopPipelineResult = await runShopPipeline(options);
 * r.day[0]?.visitors;
 */
export interface ShopPipelineResult {
  /** Every classified session, in the classifier's order. */
  readonly sessions: readonly ClassifiedSession[];
  /** `countVisits({ window: "day" })`. */
  readonly day: readonly VisitCounts[];
  /** `countVisits({ window: "hour" })`. */
  readonly hours: readonly VisitCounts[];
  /** `measureDwell({ window: "day" })` of visitors. */
  readonly dwell: readonly WindowDwell[];
  /** `estimatePeople()`: people, not MACs, per local day (visitors with their interval, occupancy). */
  readonly people: readonly PeopleEstimate[];
}

/**
 * Tails one shop's signals through the real source and operators until the day is read (see
 * {@link ShopLive.onPage}) or `stop$` emits: `signalPagesObservable` (tail) → `decodeSignals` →
 * `sessionize` (sessions with proximity; its slices feed the zones now) → `classifyVisits` →
 * `countVisits` (day, hour), `measureDwell`, `estimatePeople` (people, not MACs), with taps feeding `live`. Stopping completes the source, so every
 * operator flushes what it holds and the result covers the day up to then. A failing source
 * (the service gave up) also ends the reading; the error is kept in `live`.
 *
 * @example
 * const result = await runShopPipeline({ client, live, since: world.startMs, simNow, stop$, timeZone: "Asia/Seoul" });
 */
export function runShopPipeline(options: ShopPipelineOptions): Promise<ShopPipelineResult> {
  const { client, live, simNow, timeZone } = options;
  const classify: VisitClassifierOptions = { timeZone, ...options.classify };
  const pages$ = signalPagesObservable(client, {
    shopId: live.shopId,
    mode: "tail",
    since: options.since,
    pollIntervalMs: options.pollIntervalMs ?? 200,
  }).pipe(
    takeUntil(options.stop$),
    tap((page) => live.onPage(page, simNow())),
    takeWhile(() => !live.done, true),
    catchError((error: unknown) => {
      live.onError(error instanceof Error ? error.message : String(error));
      return EMPTY;
    }),
  );
  const empty: ShopPipelineResult = { sessions: [], day: [], hours: [], dwell: [], people: [] };
  const result$ = pages$.pipe(
    mergeMap((page) => page.records),
    decodeSignals({ shopId: live.shopId, onInvalid: () => live.onInvalid() }),
    connect((signals$) =>
      merge(
        signals$.pipe(
          tap((s) => live.onSignal(s)),
          ignoreElements(),
        ),
        signals$.pipe(
          // One engine: sessions carry their proximity, and its slices feed the zones now.
          sessionize({ onSlice: (slice) => live.onSlice(slice) }),
          tap((s) => live.onSession(s)),
          classifyVisits(classify),
          connect((classified$) =>
            merge(
              classified$.pipe(toArray(), map((sessions): Partial<ShopPipelineResult> => ({ sessions }))),
              classified$.pipe(countVisits({ window: "day", timeZone }), toArray(), map((day): Partial<ShopPipelineResult> => ({ day }))),
              classified$.pipe(countVisits({ window: "hour", timeZone }), toArray(), map((hours): Partial<ShopPipelineResult> => ({ hours }))),
              classified$.pipe(measureDwell({ window: "day", timeZone }), toArray(), map((dwell): Partial<ShopPipelineResult> => ({ dwell }))),
              // People, not MACs: the estimator analyze() uses, as its operator.
              classified$.pipe(estimatePeople({ timeZone }), toArray(), map((people): Partial<ShopPipelineResult> => ({ people }))),
            ),
          ),
        ),
      ),
    ),
    reduce((acc: ShopPipelineResult, part: Partial<ShopPipelineResult>) => ({ ...acc, ...part }), empty),
    tap({ finalize: () => live.onEnd() }),
  );
  return lastValueFrom(result$, { defaultValue: empty });
}
