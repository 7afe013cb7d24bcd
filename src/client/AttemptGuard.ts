/**
 * Cancellation of one request attempt: the signal handed to `fetch`, a timeout over the
 * whole attempt (headers *and* body), and the caller's signal, folded into one object.
 * {@link AttemptGuard.race} settles like the promise given, or rejects as soon as the
 * attempt is cancelled, even when `fetch` (or a body read) ignores its signal.
 *
 * Why a class and not `AbortSignal.any` plus a race helper: a backfill makes thousands of
 * requests, and each event listener added to and removed from an `AbortSignal` (and each
 * extra controller) costs measurable CPU per request. The guard adds at most one listener
 * (on the caller's signal, removed by `dispose`) and none on its own signal, because it
 * is the only one that aborts it.
 *
 * @example
 * const guard = new AttemptGuard(callerSignal, 30_000);
 * try {
 *   const res = await guard.race(fetch(url, { signal: guard.signal }));
 *   const body = await guard.race(res.text());
 * } catch (error) {
 *   if (guard.timedOut) console.error("took longer than 30 s");
 *   throw error;
 * } finally {
 *   guard.dispose();
 * }
 */
export class AttemptGuard {
  /** Aborts when the attempt is cancelled (timeout or caller); hand it to `fetch`. */
  readonly signal: AbortSignal;
  /** True once the timeout (rather than the caller) cancelled the attempt. */
  timedOut = false;
  readonly #controller: AbortController;
  readonly #parent: AbortSignal | undefined;
  readonly #timer: ReturnType<typeof setTimeout> | undefined;
  /** Rejects the race currently awaited, if any. */
  #reject: ((reason: unknown) => void) | undefined = undefined;

  /**
   * @param parent     the caller's signal; its abort cancels the attempt with its reason
   * @param timeoutMs  limit for the attempt in ms (≤ 2^31−1, checked by the caller); `Infinity` for none
   */
  constructor(parent: AbortSignal | undefined, timeoutMs: number) {
    this.#controller = new AbortController();
    this.signal = this.#controller.signal;
    this.#parent = parent;
    if (parent !== undefined) {
      if (parent.aborted) this.#controller.abort(parent.reason);
      // The guard itself is the listener (handleEvent), so no closure per attempt.
      else parent.addEventListener("abort", this);
    }
    this.#timer = Number.isFinite(timeoutMs) && !this.signal.aborted ? setTimeout(expire, timeoutMs, this) : undefined;
  }

  /**
   * Settles like `promise`, or rejects with the cancel reason if the attempt is cancelled
   * first. A late outcome of `promise` is absorbed, so it never becomes an unhandled
   * rejection.
   */
  race<T>(promise: Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      if (this.signal.aborted) reject(this.signal.reason);
      else this.#reject = reject;
      promise.then(resolve, reject);
    });
  }

  /** Stops the timer and detaches from the caller's signal; call once the attempt is over. */
  dispose(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#parent?.removeEventListener("abort", this);
    this.#reject = undefined;
  }

  /** The caller's signal aborted (EventListener object protocol). */
  handleEvent(): void {
    this.cancel(this.#parent?.reason);
  }

  /** Aborts the attempt with `reason` (`undefined` → the platform's AbortError) and rejects the current race. */
  cancel(reason: unknown): void {
    if (this.signal.aborted) return;
    this.#controller.abort(reason);
    this.#reject?.(this.signal.reason);
  }
}

function expire(guard: AttemptGuard): void {
  guard.timedOut = true;
  guard.cancel(undefined);
}
