/**
 * Settles like `promise`, or rejects with `signal.reason` when the signal aborts first.
 * For a `fetch` (or body read) that ignores its signal; the late outcome of `promise`
 * is absorbed, so it can never become an unhandled rejection.
 *
 * @example
 * const res = await raceSignal(fetch(url, { signal }), signal);
 */
export function raceSignal<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    promise.catch(() => {});
    return Promise.reject(signal.reason);
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}
