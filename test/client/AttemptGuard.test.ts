import { getEventListeners } from "node:events";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { AttemptGuard } from "../../src/client/AttemptGuard.ts";

describe("AttemptGuard", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("settles like the promise when nothing cancels it, and leaves no timer or listener", async () => {
    const parent = new AbortController().signal;
    const guard = new AttemptGuard(parent, 1000);
    expect(getEventListeners(parent, "abort")).toHaveLength(1);
    expect(await guard.race(Promise.resolve(42))).toBe(42);
    await expect(guard.race(Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    guard.dispose();
    expect(getEventListeners(parent, "abort")).toHaveLength(0);
    expect(vi.getTimerCount()).toBe(0);
    expect(guard.signal.aborted).toBe(false);
  });

  it("the parent's abort rejects the race with the parent's reason and aborts its signal", async () => {
    const parent = new AbortController();
    const guard = new AttemptGuard(parent.signal, Number.POSITIVE_INFINITY);
    const outcome = guard.race(new Promise(() => {})).catch((e: unknown) => e);
    parent.abort("stop");
    expect(await outcome).toBe("stop");
    expect(guard.signal.reason).toBe("stop");
    expect(guard.timedOut).toBe(false);
    guard.dispose();
  });

  it("the timeout rejects the race with an AbortError and says it timed out", async () => {
    const guard = new AttemptGuard(undefined, 1000);
    const outcome = guard.race(new Promise(() => {})).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(999);
    expect(guard.signal.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(((await outcome) as Error).name).toBe("AbortError");
    expect(guard.timedOut).toBe(true);
    guard.dispose();
  });

  it("an already aborted parent cancels at once; a race started after a cancel rejects at once", async () => {
    const guard = new AttemptGuard(AbortSignal.abort("gone"), 1000);
    expect(guard.signal.aborted).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
    await expect(guard.race(Promise.resolve(1))).rejects.toBe("gone");
    guard.dispose();
  });

  it("absorbs the late rejection of a promise that lost the race", async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on("unhandledRejection", onUnhandled);
    try {
      const guard = new AttemptGuard(undefined, 10);
      let fail!: (e: unknown) => void;
      const outcome = guard.race(new Promise((_resolve, reject) => (fail = reject))).catch((e: unknown) => e);
      await vi.advanceTimersByTimeAsync(10);
      expect(((await outcome) as Error).name).toBe("AbortError");
      fail(new Error("late"));
      guard.dispose();
      vi.useRealTimers();
      await new Promise((r) => setImmediate(r));
      expect(unhandled).toEqual([]);
    } finally {
      process.off("unhandledRejection", onUnhandled);
    }
  });
});
