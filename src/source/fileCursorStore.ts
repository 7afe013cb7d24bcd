import { open, readFile, rename, rm } from "node:fs/promises";
import { CheckpointError } from "../errors/CheckpointError.ts";
import { isRts } from "../codec/rts.ts";
import type { CursorStore } from "./CursorStore.ts";
import type { SignalCursor } from "./SignalCursor.ts";

/**
 * Options of {@link fileCursorStore}.
 *
 * @example
 * const options: FileCursorStoreOptions = { fsync: true };
 */
export interface FileCursorStoreOptions {
  /**
   * Flush the temporary file to disk before renaming it over the checkpoint. The rename is
   * atomic either way (a crash of the process leaves the old or the new file, never a torn
   * one); `fsync` also covers a crash of the machine, at a cost of a disk flush per page.
   * @default false
   */
  readonly fsync?: boolean;
}

/**
 * Defaults of {@link FileCursorStoreOptions}.
 *
 * @example
 * defaultFileCursorStoreOptions.fsync; // false
 */
export const defaultFileCursorStoreOptions = { fsync: false } as const satisfies Required<FileCursorStoreOptions>;

/**
 * A {@link CursorStore} that also says when everything it was asked to save is on disk.
 *
 * @example
 * const store: FileCursorStore = fileCursorStore("cp.json");
 * await store.flush();
 */
export interface FileCursorStore extends CursorStore {
  /** The checkpoint file. */
  readonly path: string;
  /** Resolves when every `save` issued so far has been written (or rejects with its error). */
  flush(): Promise<void>;
}

interface CheckpointFile {
  readonly version: 1;
  readonly cursors: Record<string, SignalCursor>;
}

/**
 * A {@link CursorStore} in one JSON file (`{ "version": 1, "cursors": { key: cursor } }`),
 * written atomically: the new content goes to a temporary file beside it, which is then
 * renamed over the old one. Several keys (shops) can share a file; writes from one store are
 * serialised and coalesced. One process per file: two processes writing the same file
 * would overwrite each other's keys.
 *
 * A file that exists but is not such JSON gives a {@link CheckpointError} (it is never
 * silently replaced); a missing file means "no checkpoint yet".
 *
 * @example
 * const store = fileCursorStore("/tmp/footfall-checkpoint.json");
 * await store.save("shop:101", { rts: "0000019a9ed3a000", delivered: [] });
 * await store.load("shop:101"); // { rts: "0000019a9ed3a000", delivered: [] }
 */
export function fileCursorStore(path: string, options: FileCursorStoreOptions = {}): FileCursorStore {
  if (typeof path !== "string" || path === "") throw new TypeError("fileCursorStore: path must be a non-empty string");
  const fsync = options.fsync ?? defaultFileCursorStoreOptions.fsync;
  if (typeof fsync !== "boolean") throw new TypeError("fileCursorStore: fsync must be a boolean");

  let cursors: Record<string, SignalCursor> | undefined;
  let loading: Promise<Record<string, SignalCursor>> | undefined;
  /** Saved but not yet written; registered synchronously so `flush()` right after `save()` covers it. */
  const pending = new Map<string, SignalCursor>();
  // Serialises writes; `queued` is true while a write that has not started yet will pick up
  // the newest state, so bursts of saves cost one write.
  let chain: Promise<void> = Promise.resolve();
  let queued = false;
  // A unique temporary name per store, so two stores (or processes) never share one.
  const tmpPrefix = `${path}.${globalThis.crypto.randomUUID().slice(0, 8)}`;
  let tmpCounter = 0;

  const loadAll = (): Promise<Record<string, SignalCursor>> => {
    if (cursors !== undefined) return Promise.resolve(cursors);
    loading ??= readCheckpoint(path).then((loaded) => (cursors = loaded));
    return loading;
  };

  const writeNow = async (): Promise<void> => {
    const all = await loadAll();
    queued = false;
    for (const [key, cursor] of pending) all[key] = cursor;
    pending.clear();
    const doc: CheckpointFile = { version: 1, cursors: all };
    const tmp = `${tmpPrefix}.${++tmpCounter}.tmp`;
    try {
      const handle = await open(tmp, "w");
      try {
        await handle.writeFile(`${JSON.stringify(doc)}\n`, "utf8");
        if (fsync) await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(tmp, path);
    } catch (error) {
      await rm(tmp, { force: true }).catch(() => undefined);
      throw new CheckpointError(path, `cannot write: ${(error as Error).message}`, { cause: error });
    }
  };

  return {
    path,
    async load(key) {
      const all = await loadAll();
      const cursor = pending.get(key) ?? all[key];
      return cursor === undefined ? undefined : { rts: cursor.rts, delivered: [...cursor.delivered] };
    },
    save(key, cursor) {
      pending.set(key, { rts: cursor.rts, delivered: [...cursor.delivered] });
      if (queued) return chain;
      queued = true;
      // A failed write must not poison later ones: each link starts from a settled chain.
      chain = chain.catch(() => undefined).then(writeNow);
      return chain;
    },
    flush: () => chain,
  };
}

async function readCheckpoint(path: string): Promise<Record<string, SignalCursor>> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if ((error as { code?: unknown }).code === "ENOENT") return {};
    throw new CheckpointError(path, `cannot read: ${(error as Error).message}`, { cause: error });
  }
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (error) {
    throw new CheckpointError(path, "not valid JSON", { cause: error });
  }
  if (typeof doc !== "object" || doc === null || (doc as { version?: unknown }).version !== 1) {
    throw new CheckpointError(path, "not a footfall checkpoint (expected version 1)");
  }
  const raw = (doc as { cursors?: unknown }).cursors;
  if (typeof raw !== "object" || raw === null) throw new CheckpointError(path, "missing cursors");
  const out: Record<string, SignalCursor> = {};
  for (const [key, value] of Object.entries(raw)) {
    const c = value as { rts?: unknown; delivered?: unknown };
    if (!isRts(c.rts) || !Array.isArray(c.delivered) || !c.delivered.every((d) => typeof d === "string")) {
      throw new CheckpointError(path, `cursor ${JSON.stringify(key)} is malformed`);
    }
    out[key] = { rts: c.rts, delivered: c.delivered as string[] };
  }
  return out;
}
