import type { HeldSession } from "./SessionColumns.ts";

/**
 * What one share of a device split closed over a run of records (`AnalyzerShard`): its sessions
 * in the order its engine closed them, each with the number of the record whose push closed it,
 * and each shop's oldest open start when the run ended.
 *
 * @example
 * const none: ShardSessions = { held: [], seq: [], opens: [] };
 */
export interface ShardSessions {
  /** Sessions in the order the share's engine closed them; `complete` as the share saw it. */
  readonly held: readonly HeldSession[];
  /** Per session, the push that closed it (every share counts the same pushes; a flush's come after them, shop by shop). */
  readonly seq: ArrayLike<number>;
  /** Pairs of shop id and the oldest start (epoch ms) among the share's sessions still open in it. */
  readonly opens: ArrayLike<number>;
}

/**
 * Puts the sessions every share of a device split closed over the same records back into the
 * order one engine over all devices closes them, each with the `complete` that engine gives it,
 * and hands them to `each` in that order.
 *
 * Why it is exact: every share's engine sees every record, so shops' watermarks, the pushes that
 * close a session and its `watermark` are the same in all. One engine closes a shop's sessions in
 * order of end, ties by device (canonical order), push by push: so by (push, end, device). A
 * session's `complete` is the smaller of where the engine had applied up to and the oldest start
 * still open in its shop when it closed; a share knows its own open sessions, and the others'
 * that were open then are those that close after it — later in this run, or still open at its end
 * (`opens`). A session opened after it closed starts after that point, so the minimum over them
 * all changes nothing beyond what one engine gives.
 *
 * @example
 * const order: string[] = [];
 * mergeShardSessions([{ held: [], seq: [], opens: [] }, { held: [], seq: [], opens: [101, 1_763_600_000_000] }], (held) => order.push(held.device));
 * order.length; // 0
 */
export function mergeShardSessions(parts: readonly ShardSessions[], each: (held: HeldSession) => void): void {
  const order: { readonly held: HeldSession; readonly seq: number; readonly end: number }[] = [];
  for (const part of parts) {
    const { held, seq } = part;
    for (let i = 0; i < held.length; i++) order.push({ held: held[i]!, seq: seq[i]!, end: held[i]!.end });
  }
  if (parts.length > 1) order.sort((a, b) => a.seq - b.seq || a.end - b.end || (a.held.device < b.held.device ? -1 : a.held.device > b.held.device ? 1 : 0));
  // Per shop, the oldest start among the sessions that close after the one at hand.
  const later = new Map<number, number>();
  for (const part of parts) {
    const opens = part.opens;
    for (let i = 0; i + 1 < opens.length; i += 2) {
      const shop = opens[i]!;
      const start = opens[i + 1]!;
      if (!(start >= (later.get(shop) ?? Number.POSITIVE_INFINITY))) later.set(shop, start);
    }
  }
  for (let i = order.length - 1; i >= 0; i--) {
    const held = order[i]!.held;
    const oldest = later.get(held.shopId);
    if (oldest !== undefined) {
      if (oldest < held.complete) held.setComplete(oldest);
      if (held.start < oldest) later.set(held.shopId, held.start);
    } else {
      later.set(held.shopId, held.start);
    }
  }
  for (const o of order) each(o.held);
}
