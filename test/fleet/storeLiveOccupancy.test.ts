import { describe, expect, it } from "vitest";
import type { Pool } from "pg";
import { isFencedCommitError } from "../../src/errors/FencedCommitError.ts";
import { liveLine, liveOccupancyWriter } from "../../src/fleet/storeLiveOccupancy.ts";
import type { LiveOccupancyInterval } from "../../src/kernels/people/LiveOccupancy.ts";

const Q = 900_000;

/** An interval with only what the stored line reads. */
function interval(i: number, inside = i / 2): LiveOccupancyInterval {
  return {
    shopId: 101,
    start: i * Q,
    end: (i + 1) * Q,
    inside,
    insideLow: inside / 2,
    insideHigh: inside * 2,
    outside: 3,
    today: { label: "2026-11-16", visitors: 10 * i, visitorsLow: 8 * i, visitorsHigh: Number.POSITIVE_INFINITY, macVisitors: i, macPassersBy: 2 * i },
  } as unknown as LiveOccupancyInterval; // only the fields liveLine reads
}

/** A pool whose queries answer from `answer` (call number → the fence's epoch, or an error), logging each write's interval starts. */
function fakePool(answer: (call: number) => number | Error): { pool: Pool; writes: number[][] } {
  const writes: number[][] = [];
  let calls = 0;
  const pool = {
    query: async (_sql: string, params: unknown[]) => {
      const a = answer(calls++);
      await new Promise((resolve) => setTimeout(resolve, 5));
      if (a instanceof Error) throw a;
      writes.push(params[2] as number[]);
      return { rows: [{ epoch: String(a) }] };
    },
  } as unknown as Pool; // only query is used
  return { pool, writes };
}

describe("liveOccupancyWriter", () => {
  it("writes every interval once, in order, batching those that come during a write", async () => {
    const { pool, writes } = fakePool(() => 7);
    const errors: unknown[] = [];
    const live = liveOccupancyWriter(pool, { shopId: 101, epoch: 7, jobId: "tail-101" }, (e) => errors.push(e));
    for (let i = 0; i < 5; i++) live.push(interval(i));
    await live.flush();
    expect(writes).toEqual([[0], [Q, 2 * Q, 3 * Q, 4 * Q]]);
    expect(errors).toEqual([]);
  });

  it("keeps the intervals of a failed write for the next one, and says so without stopping", async () => {
    const { pool, writes } = fakePool((call) => (call === 0 ? new Error("connection reset") : 7));
    const seen: [string, boolean][] = [];
    const live = liveOccupancyWriter(pool, { shopId: 101, epoch: 7, jobId: "tail-101" }, (e, fatal) => seen.push([(e as Error).message, fatal]));
    live.push(interval(0));
    await new Promise((resolve) => setTimeout(resolve, 20));
    live.push(interval(1));
    await live.flush();
    expect(seen).toEqual([["connection reset", false]]);
    expect(writes.flat()).toEqual([0, Q]);
    // Still a failure at flush: one more try there, then the intervals wait for the next push.
    const down = fakePool((call) => (call < 2 ? new Error("down") : 7));
    const live2 = liveOccupancyWriter(down.pool, { shopId: 101, epoch: 7, jobId: "tail-101" }, () => undefined);
    live2.push(interval(0));
    await live2.flush();
    expect(down.writes).toEqual([]);
    live2.push(interval(1));
    await live2.flush();
    expect(down.writes).toEqual([[0, Q]]);
  });

  it("stops at a stale claim: a FencedCommitError, fatal, and nothing written after", async () => {
    const { pool, writes } = fakePool(() => 8);
    const seen: [unknown, boolean][] = [];
    const live = liveOccupancyWriter(pool, { shopId: 101, epoch: 7, jobId: "tail-101" }, (e, fatal) => seen.push([e, fatal]));
    live.push(interval(0));
    await live.flush();
    live.push(interval(1));
    await live.flush();
    expect(seen.length).toBe(1);
    expect(isFencedCommitError(seen[0]![0])).toBe(true);
    expect(seen[0]![1]).toBe(true);
    // The fake records what was sent: one statement, which the database refused (epoch 8 ≠ 7).
    expect(writes).toEqual([[0]]);
  });

  it("stores unknown and unbounded figures as null", () => {
    const line = liveLine(interval(2, Number.NaN));
    expect(line).toMatchObject({ type: "live", shopId: 101, start: 2 * Q, inside: null, insideLow: null, visitors: 20, visitorsHigh: null, date: "2026-11-16", macs: { visitors: 2, passersBy: 4 } });
  });
});
