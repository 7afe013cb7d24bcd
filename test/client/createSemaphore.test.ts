import { describe, expect, it } from "vitest";
import { createSemaphore } from "../../src/client/createSemaphore.ts";

describe("createSemaphore", () => {
  it("hands permits out in FIFO order", async () => {
    const s = createSemaphore(1);
    await s.acquire();
    const order: number[] = [];
    const a = s.acquire().then(() => order.push(1));
    const b = s.acquire().then(() => order.push(2));
    expect(s.waiting).toBe(2);
    s.release();
    await a;
    s.release();
    await b;
    expect(order).toEqual([1, 2]);
    s.release();
    expect(s.inUse).toBe(0);
  });

  it("an aborted waiter leaves the queue and takes no permit", async () => {
    const s = createSemaphore(1);
    await s.acquire();
    const ac = new AbortController();
    const waiting = s.acquire(ac.signal);
    ac.abort("no");
    await expect(waiting).rejects.toBe("no");
    expect(s.waiting).toBe(0);
    s.release();
    expect(s.inUse).toBe(0);
    await expect(s.acquire(AbortSignal.abort("already"))).rejects.toBe("already");
  });

  it("survives a long queue", async () => {
    const s = createSemaphore(2);
    let done = 0;
    await Promise.all(
      Array.from({ length: 5000 }, async () => {
        await s.acquire();
        await Promise.resolve();
        done++;
        s.release();
      }),
    );
    expect(done).toBe(5000);
    expect(s.inUse).toBe(0);
  });
});

describe("createSemaphore: tryAcquire", () => {
  it("takes a free permit without waiting and refuses when none is free", () => {
    const s = createSemaphore(2);
    expect(s.tryAcquire()).toBe(true);
    expect(s.tryAcquire()).toBe(true);
    expect(s.tryAcquire()).toBe(false);
    expect(s.inUse).toBe(2);
    s.release();
    expect(s.tryAcquire()).toBe(true);
  });

  it("does not jump the queue: a released permit goes to the waiter", async () => {
    const s = createSemaphore(1);
    expect(s.tryAcquire()).toBe(true);
    const waiter = s.acquire();
    s.release();
    expect(s.tryAcquire()).toBe(false);
    await waiter;
    expect(s.inUse).toBe(1);
  });
});
