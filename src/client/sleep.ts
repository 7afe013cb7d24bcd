/**
 * Resolves after `ms` milliseconds, or rejects with `signal.reason` as soon as the signal
 * aborts (the timer is cleared, so nothing fires later).
 *
 * @example
 * await sleep(250, AbortSignal.timeout(1000));
 */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.reject(signal.reason);
  if (ms <= 0) return Promise.resolve();
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
      // Timers wrap around above 2^31−1 ms and would fire at once; waiting 24 days is "forever" enough.
      Math.min(ms, 2_147_483_647),
    );
    signal.addEventListener("abort", onAbort, { once: true });
  });
}
