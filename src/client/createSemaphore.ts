/**
 * A counting semaphore: at most `permits` holders at once, the rest wait in FIFO order.
 * Used to bound requests in flight per client (`maxInFlight`).
 *
 * @example
 * const slots = createSemaphore(4);
 * await slots.acquire();
 * try { await work(); } finally { slots.release(); }
 */
export interface Semaphore {
  /**
   * Resolves once a permit is held. Rejects with `signal.reason` if the signal aborts
   * first; the waiter is then removed and holds nothing.
   */
  acquire(signal?: AbortSignal): Promise<void>;
  /**
   * Takes a permit if one is free right now and says whether it did; never waits. Lets a
   * caller skip the promise (and the await) of {@link Semaphore.acquire} on the common
   * uncontended path. A free permit implies nobody is waiting, so this never jumps the queue.
   */
  tryAcquire(): boolean;
  /** Returns one permit, handing it to the oldest waiter if any. */
  release(): void;
  /** Permits currently held. */
  readonly inUse: number;
  /** Callers currently waiting. */
  readonly waiting: number;
}

interface Waiter {
  resolve(): void;
  reject(reason: unknown): void;
  signal: AbortSignal | undefined;
  onAbort: (() => void) | undefined;
  done: boolean;
}

/**
 * Creates a {@link Semaphore} with `permits` slots (a positive integer or `Infinity`).
 *
 * @example
 * const slots = createSemaphore(1);
 * slots.inUse; // 0
 */
export function createSemaphore(permits: number): Semaphore {
  let inUse = 0;
  let queue: Waiter[] = [];
  let head = 0;
  let live = 0;

  const next = (): Waiter | undefined => {
    while (head < queue.length) {
      const w = queue[head++]!;
      if (!w.done) return w;
    }
    return undefined;
  };
  const compact = () => {
    // Keep the array from growing without bound under a long backfill.
    if (head === queue.length) {
      queue = [];
      head = 0;
    } else if (head > 1024 && head * 2 > queue.length) {
      queue = queue.slice(head);
      head = 0;
    }
  };

  return {
    get inUse() {
      return inUse;
    },
    get waiting() {
      return live;
    },
    tryAcquire(): boolean {
      if (inUse >= permits) return false;
      inUse++;
      return true;
    },
    acquire(signal?: AbortSignal): Promise<void> {
      if (signal?.aborted) return Promise.reject(signal.reason);
      if (inUse < permits) {
        inUse++;
        return Promise.resolve();
      }
      return new Promise<void>((resolve, reject) => {
        const waiter: Waiter = { resolve, reject, signal, onAbort: undefined, done: false };
        if (signal !== undefined) {
          waiter.onAbort = () => {
            if (waiter.done) return;
            waiter.done = true;
            live--;
            reject(signal.reason);
          };
          signal.addEventListener("abort", waiter.onAbort, { once: true });
        }
        queue.push(waiter);
        live++;
      });
    },
    release(): void {
      const w = next();
      compact();
      if (w === undefined) {
        inUse--;
        return;
      }
      // The permit passes straight to the waiter, so `inUse` stays the same.
      w.done = true;
      live--;
      if (w.onAbort !== undefined) w.signal?.removeEventListener("abort", w.onAbort);
      w.resolve();
    },
  };
}
