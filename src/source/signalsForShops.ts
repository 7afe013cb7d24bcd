import { from, mergeMap, type Observable } from "rxjs";
import type { Client } from "../client/Client.ts";
import type { RawSignal } from "../contract/rawSignal.ts";
import { signals } from "./signals.ts";
import type { SignalsOptions } from "./signalsOptions.ts";

/**
 * Options of {@link signalsForShops}: those of {@link signals} for every shop (a shared
 * `checkpoint` keeps one cursor per shop, key `shop:<id>`), plus the concurrency bound.
 *
 * @example
 * const options: SignalsForShopsOptions = { since: new Date("2026-11-20T00:00:00Z"), concurrency: 4 };
 */
export interface SignalsForShopsOptions extends Omit<SignalsOptions, "shopId" | "checkpointKey"> {
  /** Shops read at once; the rest wait their turn (in the order given). @default 4 */
  readonly concurrency?: number;
}

/**
 * Defaults of {@link SignalsForShopsOptions}.
 *
 * @example
 * defaultSignalsForShopsOptions.concurrency; // 4
 */
export const defaultSignalsForShopsOptions = { concurrency: 4 } as const;

/**
 * Many shops' signals merged into one Observable, at most `concurrency` shops at a time.
 * Each shop's records keep their order (and each its own pull, cursor and checkpoint);
 * records of different shops interleave as they arrive. In tail mode a shop never
 * completes, so `concurrency` must cover every shop. Unsubscribing stops them all.
 *
 * @example
 * signalsForShops(client, [101, 102, 103], { since: new Date("2026-11-20T00:00:00Z"), concurrency: 2 })
 *   .subscribe((record) => console.log(record.row_key));
 */
export function signalsForShops(
  client: Client,
  shopIds: readonly number[],
  options: SignalsForShopsOptions,
): Observable<RawSignal> {
  if (!Array.isArray(shopIds)) throw new TypeError("signalsForShops: shopIds must be an array");
  const { concurrency = defaultSignalsForShopsOptions.concurrency, ...rest } = options;
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new RangeError(`signalsForShops: concurrency must be an integer ≥ 1, got ${String(concurrency)}`);
  }
  if (new Set(shopIds).size !== shopIds.length) throw new RangeError("signalsForShops: shopIds has duplicates");
  if (rest.mode === "tail" && shopIds.length > concurrency) {
    throw new RangeError("signalsForShops: a tail never completes, so concurrency must be ≥ the number of shops");
  }
  // Validate every shop's options now (the shop ids included), not on subscription.
  const sources = shopIds.map((shopId) => signals(client, { ...rest, shopId }));
  return from(sources).pipe(mergeMap((source) => source, concurrency));
}
