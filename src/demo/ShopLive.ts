import type { Signal } from "../codec/Signal.ts";
import { hasPeopleEstimate } from "../kernels/people/hasPeopleEstimate.ts";
import type { LiveOccupancyInterval } from "../kernels/people/LiveOccupancy.ts";
import type { ProximitySlice } from "../kernels/proximity/SessionProximity.ts";
import { shopDayDwell } from "../kernels/people/shopDayDwell.ts";
import { ZoneOccupancy, type ZoneCounts } from "../kernels/visits/ZoneOccupancy.ts";
import type { SignalPage } from "../source/SignalPage.ts";

/** A device counts as "in range now" when heard within this much event time of the shop's newest signal. */
const IN_RANGE_MS = 120_000;

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
 * People inside one shop over the latest live interval (see {@link ShopLive}).
 *
 * @example
 * const i: LiveInside = { inside: 7.4, low: 5.9, high: 9.3 };
 */
export interface LiveInside {
  /** Estimated mean number of people inside. */
  readonly inside: number;
  /** The 90 % interval (`NaN` for a sum over shops). */
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
  /** Devices with a visitor session so far (MAC-level; provisional: the day's rules apply at the end). */
  readonly visitors: number;
  /**
   * People, not MACs: people who came in so far, with the 90 % interval (`LiveDay`); absent
   * before it can be worked out (no burst rate yet).
   */
  readonly people?: LivePeople;
  /** People inside over the latest live interval, with the 90 % interval; absent before it is known. */
  readonly inside?: LiveInside;
  /** Devices heard so far with passer-by sessions only (MAC-level, provisional). */
  readonly passersBy: number;
  /**
   * Median dwell so far, ms (`NaN` before the first visit), by the summary's rule
   * (`shopDayDwell`): of the identity-known visits once there is a people estimate, else of the
   * visitor sessions.
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
 * Live state of one shop in `footfall demo`, fed by taps on the real pipeline: the decoded
 * signals (counts, devices in range), the proximity slices (zones now, from the `ZoneOccupancy`
 * kernel) and the `liveOccupancy` operator's intervals — people inside over the latest interval
 * and the day so far (people who came in with their interval, the MAC-level visitors and
 * passers-by, dwell), all by the library's provisional rules (`LiveOccupancy`). The summary uses
 * the day's final figures.
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
  #signals = 0;
  #invalid = 0;
  #lastEventMs = Number.NEGATIVE_INFINITY;
  #lastSeen = new Map<string, number>();
  readonly #occupancy = new ZoneOccupancy();
  /** The latest live interval (and with it the day so far). */
  #latest: LiveOccupancyInterval | undefined;
  #previousCaughtUpSim = Number.NEGATIVE_INFINITY;
  #done = false;
  #error: string | undefined;

  /**
   * @param shop the shop and its sensors
   * @param endMs end of the day (epoch ms): reading is done once a caught-up page was requested after the clock passed it
   */
  constructor(shop: { readonly id: number; readonly name: string; readonly sensors: readonly string[] }, endMs: number) {
    this.shopId = shop.id;
    this.name = shop.name;
    this.sensors = [...shop.sensors];
    this.#endMs = endMs;
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

  /** A live occupancy interval (`liveOccupancy`): people inside then, and the day so far. */
  onOccupancy(interval: LiveOccupancyInterval): void {
    this.#latest = interval;
  }

  /** The dashboard's figures now; also forgets devices not heard for a while (bounded memory). */
  snapshot(): ShopLiveSnapshot {
    const now = this.#lastEventMs;
    let inRange = 0;
    for (const [device, t] of this.#lastSeen) {
      if (t >= now - IN_RANGE_MS) inRange++;
      else this.#lastSeen.delete(device);
    }
    const latest = this.#latest;
    const today = latest?.today;
    return {
      shopId: this.shopId,
      name: this.name,
      signals: this.#signals,
      invalid: this.#invalid,
      lastEventMs: now,
      inRange,
      visitors: today?.macVisitors ?? 0,
      passersBy: today?.macPassersBy ?? 0,
      medianDwellMs: today === undefined ? Number.NaN : shopDayDwell(today.macDwell, today).medianMs,
      zones: this.#occupancy.current(now),
      ...(hasPeopleEstimate(today) ? { people: { visitors: today.visitors, low: today.visitorsLow, high: today.visitorsHigh } } : {}),
      ...(latest !== undefined && Number.isFinite(latest.inside) ? { inside: { inside: latest.inside, low: latest.insideLow, high: latest.insideHigh } } : {}),
      done: this.#done,
      ...(this.#error === undefined ? {} : { error: this.#error }),
    };
  }
}
