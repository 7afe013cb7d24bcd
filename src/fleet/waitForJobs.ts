import { Queue, type RedisOptions } from "bullmq";
import { FLEET_QUEUE } from "./fleetJobs.ts";

/**
 * Progress of {@link waitForJobs}: jobs done, failed, and in total.
 *
 * @example
 * const p: JobsProgress = { done: 3, failed: 0, total: 12 };
 */
export interface JobsProgress {
  readonly done: number;
  readonly failed: number;
  readonly total: number;
}

/**
 * Options of {@link waitForJobs}.
 *
 * @example
 * const o: WaitForJobsOptions = { pollMs: 500, onProgress: (p) => console.error(`${p.done}/${p.total}`) };
 */
export interface WaitForJobsOptions {
  /** How often the jobs' states are read, ms (polled, so a Redis restart is only a pause). @default 500 */
  readonly pollMs?: number;
  /** Called when the counts change. */
  readonly onProgress?: (progress: JobsProgress) => void;
  /**
   * Called with the ids of jobs Redis no longer has (a Redis restarted without persistence): add
   * them again (job ids keep it idempotent), e.g. with `addJobs`. Without it such jobs are waited
   * for, in case someone else adds them.
   */
  readonly requeue?: (ids: readonly string[]) => Promise<void>;
  /** Aborting stops waiting (rejects with the reason). */
  readonly signal?: AbortSignal;
}

/**
 * Defaults of {@link WaitForJobsOptions}.
 *
 * @example
 * defaultWaitForJobs.pollMs; // 500
 */
export const defaultWaitForJobs = { pollMs: 500 } as const;

/**
 * Waits until every job in `ids` is completed or failed (failed: out of attempts) and resolves
 * with the final counts. A job that is gone from Redis counts as not done: it is handed to
 * `requeue` when given, and the wait goes on.
 *
 * @example
 * const ids = await enqueueBackfill(connection, { shops: [101], sinceMs, untilMs, timeZone: "Asia/Seoul" });
 * const { done, failed } = await waitForJobs(connection, ids); // once the fleet's workers ran them
 * [done, failed]; // [1, 0]
 * // a CLI then exits with process.exitCode = failed > 0 ? 1 : 0
 */
export async function waitForJobs(connection: RedisOptions, ids: readonly string[], options: WaitForJobsOptions = {}): Promise<JobsProgress> {
  const pollMs = options.pollMs ?? defaultWaitForJobs.pollMs;
  if (!(pollMs > 0)) throw new RangeError(`waitForJobs: pollMs must be > 0, got ${String(pollMs)}`);
  const queue = new Queue(FLEET_QUEUE, { connection });
  queue.on("error", () => undefined);
  const pending = new Set(ids);
  let done = 0;
  let failed = 0;
  let last = "";
  try {
    for (;;) {
      options.signal?.throwIfAborted();
      try {
        const lost: string[] = [];
        for (const id of [...pending]) {
          const state = await queue.getJobState(id);
          if (state === "completed") done++;
          else if (state === "failed") failed++;
          else {
            if (state === "unknown") lost.push(id);
            continue;
          }
          pending.delete(id);
        }
        if (lost.length > 0 && options.requeue !== undefined) await options.requeue(lost);
      } catch {
        // Redis away (restarting): try again at the next poll.
      }
      const progress = { done, failed, total: ids.length };
      const key = `${done} ${failed}`;
      if (key !== last) {
        last = key;
        options.onProgress?.(progress);
      }
      if (pending.size === 0) return progress;
      await new Promise((resolve) => setTimeout(resolve, pollMs));
    }
  } finally {
    await queue.close().catch(() => undefined);
  }
}
