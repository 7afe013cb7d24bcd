import { parseRowKey } from "../codec/rowKey.ts";
import type { RawSignal } from "../contract/rawSignal.ts";
import { recordIdentity } from "./recordIdentity.ts";
import type { RejectedRecord } from "./SignalPage.ts";

/**
 * Where a stream of one shop stands, and all a checkpoint needs to resume it with nothing
 * lost and nothing repeated: every record of the range with an RTS before `rts` has been
 * delivered, and of the records at exactly `rts`, those whose identities are listed
 * (with multiplicity; see `recordIdentity`). Nothing at `rts` delivered yet → `[]`.
 *
 * The next request asks for `since = rts − 1 unit`, so the whole group at `rts` comes back
 * whether the service treats `since` as inclusive or exclusive; the listed ones are dropped.
 * `delivered` never holds more than one tie group, so it stays small.
 *
 * @example
 * const start: SignalCursor = { rts: "0000019a9ed3a000", delivered: [] };
 */
export interface SignalCursor {
  /** Boundary RTS: 16 lowercase hex digits. */
  readonly rts: string;
  /** Identities of the records delivered at exactly `rts`, a multiset. */
  readonly delivered: readonly string[];
}

/**
 * Counts of delivered identities at the boundary RTS: the mutable form of
 * {@link SignalCursor.delivered} used while paging.
 *
 * @example
 * const counts: IdentityCounts = new Map([["id-a", 2]]);
 */
export type IdentityCounts = Map<string, number>;

/**
 * Multiset (array with repeats) → counts.
 *
 * @example
 * countsOf(["a", "a", "b"]); // Map { "a" → 2, "b" → 1 }
 */
export function countsOf(delivered: readonly string[]): IdentityCounts {
  const counts: IdentityCounts = new Map();
  for (const id of delivered) counts.set(id, (counts.get(id) ?? 0) + 1);
  return counts;
}

/**
 * Counts → multiset (array with repeats), in insertion order.
 *
 * @example
 * multisetOf(new Map([["a", 2], ["b", 1]])); // ["a", "a", "b"]
 */
export function multisetOf(counts: IdentityCounts): string[] {
  const out: string[] = [];
  for (const [id, n] of counts) for (let i = 0; i < n; i++) out.push(id);
  return out;
}

/**
 * The cursor after delivering `records[0..count)` of a page from `cursor` (the records the
 * source returned as new: valid row_keys, ascending RTS, all at or after `cursor.rts`), and
 * reporting the page's `rejected` records placed before record `count − 1` or earlier: those
 * whose row_key placed them count among the records at their RTS. Used when a consumer stops
 * in the middle of a page, so the checkpoint covers exactly what it received.
 *
 * @example
 * advanceCursor({ rts: "0000000000000001", delivered: [] }, [], 0); // unchanged
 */
export function advanceCursor(cursor: SignalCursor, records: readonly RawSignal[], count: number, rejected: readonly RejectedRecord[] = []): SignalCursor {
  if (count <= 0) return cursor;
  // A delivered record's row_key is valid; its RTS in footfall's one spelling (a service may
  // write it in uppercase or without leading zeros).
  const rtsOf = (record: RawSignal): string => parseRowKey(record.row_key).rts;
  const last = rtsOf(records[count - 1]!);
  const delivered = last === cursor.rts ? [...cursor.delivered] : [];
  let first = count - 1;
  while (first > 0 && rtsOf(records[first - 1]!) === last) first--;
  for (let i = first; i < count; i++) delivered.push(recordIdentity(records[i]!));
  for (const r of rejected) {
    if (r.placed && r.before < count && rtsOf(r.invalid.record as RawSignal) === last) delivered.push(recordIdentity(r.invalid.record as RawSignal));
  }
  return { rts: last, delivered };
}
