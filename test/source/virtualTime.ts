import type { VirtualTimeScheduler } from "rxjs";

/** Lets every pending promise callback run (one macrotask turn). Not a clock wait. */
export function drain(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * Runs `scheduler`'s actions due up to virtual time `t`, one at a time, draining promise
 * callbacks between them (the source awaits its fake client between waits); then sets the
 * clock to `t`.
 */
export async function advanceTo(scheduler: VirtualTimeScheduler, t: number): Promise<void> {
  for (;;) {
    await drain();
    const next = scheduler.actions[0];
    if (next === undefined || next.delay > t) break;
    scheduler.maxFrames = next.delay;
    scheduler.flush();
  }
  await drain();
  if (scheduler.frame < t) scheduler.frame = t;
}
