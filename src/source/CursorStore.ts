import type { SignalCursor } from "./SignalCursor.ts";

/**
 * Where the source keeps its checkpoints: one {@link SignalCursor} per key (by default
 * `shop:<id>`). Implementations: {@link memoryCursorStore} (survives resubscription, e.g. an
 * RxJS `retry()`), {@link fileCursorStore} (survives a crash; atomic write).
 *
 * The source calls `save` after a page has been delivered and waits for it before it
 * delivers the next one; see `signals` for the delivery guarantees.
 *
 * @example
 * const store: CursorStore = memoryCursorStore();
 * await store.save("shop:101", { rts: "0000019a9ed3a000", delivered: [] });
 * await store.load("shop:101"); // { rts: "0000019a9ed3a000", delivered: [] }
 */
export interface CursorStore {
  /** The cursor last saved under `key`, or `undefined` when there is none. */
  load(key: string): Promise<SignalCursor | undefined>;
  /** Stores `cursor` under `key`, replacing what was there. Resolves once it is durable. */
  save(key: string, cursor: SignalCursor): Promise<void>;
}
