import { Queue, type RedisOptions } from "bullmq";
import type { Pool } from "pg";
import { assertTimeZone } from "../time/timeZone.ts";
import { FLEET_QUEUE, tailJobId, type FleetAnalyzeOptions, type TailJobData } from "./fleetJobs.ts";

/**
 * Options of {@link enqueueTails}.
 *
 * @example
 * const o: EnqueueTailsOptions = { shops: [101, 102], startDay: "2026-11-16" };
 */
export interface EnqueueTailsOptions {
  /** SHOP IDs (non-negative integers). */
  readonly shops: readonly number[];
  /** Local date (YYYY-MM-DD) a new tail starts with; a tail that has a checkpoint resumes from it instead. */
  readonly startDay: string;
  /** IANA zone of the shops' local days. @default "Asia/Seoul" */
  readonly timeZone?: string;
  /** Wait between polls once caught up, ms. @default 5000 */
  readonly pollIntervalMs?: number;
  /** Analysis settings. @default {} */
  readonly analyze?: FleetAnalyzeOptions;
}

/**
 * Defaults of {@link EnqueueTailsOptions}.
 *
 * @example
 * defaultEnqueueTails.pollIntervalMs; // 5000
 */
export const defaultEnqueueTails = { timeZone: "Asia/Seoul", pollIntervalMs: 5_000, analyze: {} } as const;

/**
 * Makes sure exactly one live tail per shop runs somewhere in the fleet: marks each shop's tail
 * wanted in PostgreSQL (keeping its checkpoint if it has one) and adds job `tail-<shop>` (a no-op
 * while that job exists). A tail job that fails or whose worker dies is retried by BullMQ (stalled
 * jobs return to the queue) and resumes from the checkpoint. Returns the job ids.
 *
 * @example
 * await enqueueTails(connection, pool, { shops: [101], startDay: "2026-11-16" });
 */
export async function enqueueTails(connection: RedisOptions, pool: Pool, options: EnqueueTailsOptions): Promise<string[]> {
  const timeZone = options.timeZone ?? defaultEnqueueTails.timeZone;
  assertTimeZone(timeZone);
  const pollIntervalMs = options.pollIntervalMs ?? defaultEnqueueTails.pollIntervalMs;
  if (!(pollIntervalMs > 0)) throw new RangeError(`enqueueTails: pollIntervalMs must be > 0, got ${String(pollIntervalMs)}`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(options.startDay)) throw new TypeError(`enqueueTails: startDay must be YYYY-MM-DD, got ${options.startDay}`);
  for (const s of options.shops) {
    if (!Number.isSafeInteger(s) || s < 0) throw new TypeError(`enqueueTails: shop ids must be non-negative integers, got ${String(s)}`);
  }
  for (const shopId of options.shops) {
    await pool.query(
      `INSERT INTO footfall_tails (shop_id, wanted, next_day, time_zone) VALUES ($1, true, $2, $3)
       ON CONFLICT (shop_id) DO UPDATE SET wanted = true, updated_at = now()`,
      [shopId, options.startDay, timeZone],
    );
  }
  const analyze = options.analyze ?? defaultEnqueueTails.analyze;
  const queue = new Queue<TailJobData>(FLEET_QUEUE, { connection });
  try {
    for (const shopId of options.shops) {
      const id = tailJobId(shopId);
      // A tail that was stopped completed; its job id must be free for the new one.
      const old = await queue.getJob(id);
      if (old !== undefined && ((await old.isCompleted()) || (await old.isFailed()))) await old.remove();
      const data: TailJobData = { kind: "tail", shopId, timeZone, pollIntervalMs, analyze };
      await queue.add("tail", data, {
        jobId: id,
        // A live tail retries for ever: each failure waits 5 s and resumes from the checkpoint.
        attempts: Number.MAX_SAFE_INTEGER,
        backoff: { type: "fixed", delay: 5_000 },
        removeOnComplete: true,
        removeOnFail: true,
      });
    }
  } finally {
    await queue.close();
  }
  return options.shops.map(tailJobId);
}

/**
 * Stops shops' live tails: marks them unwanted (a running tail notices at its next poll, commits
 * nothing more and completes) and removes tail jobs that are waiting or delayed.
 *
 * @example
 * await stopTails(connection, pool, [101]);
 */
export async function stopTails(connection: RedisOptions, pool: Pool, shops: readonly number[]): Promise<void> {
  await pool.query("UPDATE footfall_tails SET wanted = false, updated_at = now() WHERE shop_id = ANY($1::bigint[])", [shops]);
  const queue = new Queue(FLEET_QUEUE, { connection });
  try {
    for (const shopId of shops) {
      const job = await queue.getJob(tailJobId(shopId));
      if (job !== undefined && ((await job.isWaiting()) || (await job.isDelayed()))) await job.remove().catch(() => undefined);
    }
  } finally {
    await queue.close();
  }
}
