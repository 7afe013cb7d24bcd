/**
 * Where `VisitCounter` remembers when each device last visited each shop, to tell new visitors
 * from repeat ones. Synchronous, because the kernels are: back it with an in-memory cache of a
 * database if the history must outlive the process (load before, save after).
 *
 * @example
 * const store: VisitHistoryStore = new MemoryVisitHistory();
 */
export interface VisitHistoryStore {
  /** Start (epoch ms) of the device's latest recorded visit at the shop, or `undefined`. */
  lastVisit(shopId: number, device: string): number | undefined;
  /** Records a visit starting at `startMs` (keeps the latest). */
  recordVisit(shopId: number, device: string, startMs: number): void;
}

/**
 * In-memory {@link VisitHistoryStore}: one Map entry per shop and device ever seen visiting
 * (universal MACs only are recorded by `VisitCounter`, since randomized ones never return under the
 * same address). `entries()` and the constructor let callers persist and restore it.
 *
 * @example
 * const history = new MemoryVisitHistory();
 * history.recordVisit(101, "f0:18:98:12:34:56", 1_000);
 * history.lastVisit(101, "f0:18:98:12:34:56"); // 1000
 * const copy = new MemoryVisitHistory(history.entries());
 */
export class MemoryVisitHistory implements VisitHistoryStore {
  readonly #last = new Map<string, number>();

  /** @param entries `[shopId, device, lastVisitMs]` triples, e.g. from {@link MemoryVisitHistory.entries}. */
  constructor(entries: Iterable<readonly [number, string, number]> = []) {
    for (const [shopId, device, ms] of entries) this.recordVisit(shopId, device, ms);
  }

  /** Devices remembered (all shops). */
  get size(): number {
    return this.#last.size;
  }

  lastVisit(shopId: number, device: string): number | undefined {
    return this.#last.get(`${shopId} ${device}`);
  }

  recordVisit(shopId: number, device: string, startMs: number): void {
    const key = `${shopId} ${device}`;
    const prev = this.#last.get(key);
    if (prev === undefined || startMs > prev) this.#last.set(key, startMs);
  }

  /** Every remembered visit as `[shopId, device, lastVisitMs]`. */
  *entries(): IterableIterator<[number, string, number]> {
    for (const [key, ms] of this.#last) {
      const space = key.indexOf(" ");
      yield [Number(key.slice(0, space)), key.slice(space + 1), ms];
    }
  }
}
