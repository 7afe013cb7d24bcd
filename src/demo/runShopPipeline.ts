import { EMPTY, catchError, lastValueFrom, takeUntil, takeWhile, tap, type Observable } from "rxjs";
import { Analyzer, type ShopDaySummary } from "../analysis/analyze.ts";
import type { Client } from "../client/Client.ts";
import type { PeopleEstimate } from "../kernels/people/PeopleEstimate.ts";
import type { ClassifiedSession, VisitClassifierOptions } from "../kernels/visits/VisitClassifier.ts";
import type { VisitCounts } from "../kernels/visits/VisitCounter.ts";
import { signalPagesObservable } from "../source/signalPagesObservable.ts";
import type { ShopLive } from "./ShopLive.ts";
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
  /** Options of the visit classifier (opening hours, thresholds; the time zone is `timeZone`). @default {} */
  readonly classify?: Omit<VisitClassifierOptions, "timeZone">;
  /** Wait between polls once caught up, real ms. @default 200 */
  readonly pollIntervalMs?: number;
}

/**
 * The day's analytics of one shop, from one `Analyzer` fed by the real source.
 *
 * @example
 * const r: ShopPipelineResult = await runShopPipeline({ client, live, since: world.startMs, simNow, stop$, timeZone: "Asia/Seoul" });
 * r.days[0]?.visitors;
 */
export interface ShopPipelineResult {
  /** Every classified session, in the classifier's order. */
  readonly sessions: readonly ClassifiedSession[];
  /** Per local day: visit counts, visitor dwell and the people estimate (`AnalyzeResult.days`). */
  readonly days: readonly ShopDaySummary[];
  /** Visit counts per local hour. */
  readonly hours: readonly VisitCounts[];
  /** People, not MACs, per local day (visitors with their interval, occupancy). */
  readonly people: readonly PeopleEstimate[];
}

/**
 * Tails one shop's signals through the real source into one `Analyzer` — the batch engine the
 * CLI and the fleet run, with its one event-time engine — until the day is read (see
 * {@link ShopLive.onPage}) or `stop$` emits: `signalPagesObservable` (tail) → the analyzer's
 * decoder, engine (sessions with proximity; its slices feed the zones now, its live occupancy the
 * people inside as the day goes on, every signal the counts and devices in range) and the stages
 * after classification (`SESSION_STAGES`: visits per day and hour, dwell, people). Stopping
 * completes the source, so the analyzer flushes what it holds and the result covers the day up
 * to then. A failing source (the service gave up) also ends the reading; the error is kept in
 * `live`.
 *
 * @example
 * const result = await runShopPipeline({ client, live, since: world.startMs, simNow, stop$, timeZone: "Asia/Seoul" });
 */
export async function runShopPipeline(options: ShopPipelineOptions): Promise<ShopPipelineResult> {
  const { client, live, simNow, timeZone } = options;
  const analyzer = new Analyzer({
    timeZone,
    decode: { shopId: live.shopId, onInvalid: () => live.onInvalid() },
    ...(options.classify === undefined ? {} : { classify: options.classify }),
    quality: false,
    // The dashboard's signal counts and devices in range: a plug-in of the engine, fed every signal it applies.
    accumulators: [{ signal: (s) => live.onSignal(s) }],
    onSlice: (slice) => live.onSlice(slice),
    liveOccupancy: (o) => live.onOccupancy(o),
  });
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
  try {
    await lastValueFrom(pages$.pipe(tap((page) => page.records.forEach((r) => analyzer.push(r)))), { defaultValue: undefined });
    const result = analyzer.finish();
    return { sessions: result.sessions, days: result.days, hours: result.hours, people: result.people };
  } finally {
    live.onEnd();
  }
}
