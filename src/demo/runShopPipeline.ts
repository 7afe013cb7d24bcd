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
import type { WindowDwell } from "../kernels/DwellMeter.ts";
import type { PeopleEstimate } from "../kernels/people/PeopleEstimate.ts";
import type { ClassifiedSession, VisitClassifierOptions } from "../kernels/VisitClassifier.ts";
import type { VisitCounts } from "../kernels/VisitCounter.ts";
import { classifyVisits } from "../operators/classifyVisits.ts";
import { countVisits } from "../operators/countVisits.ts";
import { decodeSignals } from "../operators/decodeSignals.ts";
import { estimatePeople } from "../operators/estimatePeople.ts";
import { liveOccupancy } from "../operators/liveOccupancy.ts";
import { measureDwell } from "../operators/measureDwell.ts";
import { sessionize } from "../operators/sessionize.ts";
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
  /** Options of the visit classifier (opening hours, thresholds). @default {} */
  readonly classify?: VisitClassifierOptions;
  /** Wait between polls once caught up, real ms. @default 200 */
  readonly pollIntervalMs?: number;
}

/**
 * The day's analytics of one shop, from the real operators.
 *
 * @example
 * const r: ShopPipelineResult = await runShopPipeline({ client, live, since: world.startMs, simNow, stop$, timeZone: "Asia/Seoul" });
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
 * `countVisits` (day, hour), `measureDwell`, `estimatePeople` (people, not MACs), and beside them
 * `liveOccupancy` (people inside and the day so far, as the day goes on), with taps feeding
 * `live`. Stopping completes the source, so every operator flushes what it holds and the result
 * covers the day up to then. A failing source (the service gave up) also ends the reading; the
 * error is kept in `live`.
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
        // People inside and the day so far, as the day goes on (the dashboard's people figures).
        // A second engine beside sessionize's, where Analyzer runs LiveOccupancy in its one
        // engine: Analyzer hands out no proximity slices (the engine's `slice` sink, sessionize's
        // `onSlice`), and the dashboard's zones now need them.
        signals$.pipe(
          // The classifier's options as the final figures use them (LiveOccupancy sets their time zone to its own).
          liveOccupancy({ timeZone: classify.timeZone ?? timeZone, classify }),
          tap((o) => live.onOccupancy(o)),
          ignoreElements(),
        ),
        signals$.pipe(
          // One engine: sessions carry their proximity, and its slices feed the zones now.
          sessionize({ onSlice: (slice) => live.onSlice(slice) }),
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
