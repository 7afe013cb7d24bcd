// Timers wrap around above 2^31−1 ms and would fire at once; waiting 24 days is "forever" enough.
const MAX_TIMER_MS = 2_147_483_647;

/**
 * Resolves after `ms` milliseconds, or rejects with `signal.reason` as soon as the signal
 * aborts (the timer is cleared, so nothing fires later). Without a signal it just waits.
 *
 * @example
 * await sleep(250, AbortSignal.timeout(1000));
 */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.reject(signal.reason);
  if (ms <= 0) return Promise.resolve();
  if (signal === undefined) return new Promise<void>((resolve) => setTimeout(resolve, Math.min(ms, MAX_TIMER_MS)));
  return new Promise<void>((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(
      () => {
        signal.removeEventListener("abort", onAbort);
        resolve();
      },
      Math.min(ms, MAX_TIMER_MS),
    );
    signal.addEventListener("abort", onAbort, { once: true });
  });
}
