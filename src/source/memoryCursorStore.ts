import type { CursorStore } from "./CursorStore.ts";
import type { SignalCursor } from "./SignalCursor.ts";

/**
 * A {@link CursorStore} in memory. It does not survive the process, but it does survive a
 * resubscription: `signals(client, { checkpoint: store, … }).pipe(retry(3))` resumes where
 * the failed attempt stopped instead of starting over, with no duplicates.
 * `save` takes effect synchronously (before its promise resolves).
 *
 * @example
 * const store = memoryCursorStore();
 * await store.save("shop:1", { rts: "0000000000000001", delivered: [] });
 * (await store.load("shop:1"))?.rts; // "0000000000000001"
 */
export function memoryCursorStore(): CursorStore {
  const cursors = new Map<string, SignalCursor>();
  return {
    load: (key) => Promise.resolve(cursors.get(key)),
    save(key, cursor) {
      cursors.set(key, { rts: cursor.rts, delivered: [...cursor.delivered] });
      return Promise.resolve();
    },
  };
}
