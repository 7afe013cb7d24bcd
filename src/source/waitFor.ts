import type { SchedulerLike } from "rxjs";

/**
 * Resolves after `ms` on `scheduler`'s clock; rejects with `signal.reason` as soon as `signal`
 * aborts, cancelling the scheduled action (so no timer outlives an unsubscription).
 *
 * @example
 * await waitFor(250, asyncScheduler, controller.signal); // 250 ms later, or rejects when controller aborts
 */
export function waitFor(ms: number, scheduler: SchedulerLike, signal: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = (): void => {
      subscription.unsubscribe();
      reject(signal.reason);
    };
    const subscription = scheduler.schedule(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}
