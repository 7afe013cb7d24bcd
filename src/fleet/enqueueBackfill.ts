import { Queue, type RedisOptions } from "bullmq";
import { assertTimeZone } from "../time/timeZone.ts";
import { FLEET_QUEUE, shopDayJobId, type FleetAnalyzeOptions, type ShopDayJobData } from "./fleetJobs.ts";
import { localDays } from "./localDays.ts";

/**
 * Options of {@link enqueueBackfill}.
 *
 * @example
 * const o: EnqueueBackfillOptions = { shops: [101, 102], sinceMs: Date.parse("2026-11-16T00:00+09:00"), untilMs: Date.parse("2026-11-18T00:00+09:00") };
 */
export interface EnqueueBackfillOptions {
  /** SHOP IDs (non-negative integers). */
  readonly shops: readonly number[];
  /** Start, epoch ms; the local day containing it is the first. */
  readonly sinceMs: number;
  /** End, epoch ms, exclusive; the local day containing `untilMs - 1` is the last. */
  readonly untilMs: number;
  /** IANA zone of the shops' local days. @default "Asia/Seoul" */
  readonly timeZone?: string;
  /** Analysis settings every job uses. @default {} */
  readonly analyze?: FleetAnalyzeOptions;
  /** Tries per job before it counts as failed (backoff doubles from `backoffMs`). @default 5 */
  readonly attempts?: number;
  /** First retry delay, ms. @default 1000 */
  readonly backoffMs?: number;
}

/**
 * Defaults of {@link EnqueueBackfillOptions}.
 *
 * @example
 * defaultEnqueueBackfill.attempts; // 5
 */
export const defaultEnqueueBackfill = { timeZone: "Asia/Seoul", analyze: {}, attempts: 5, backoffMs: 1_000 } as const;

/**
 * Adds one BullMQ job per shop and local day, with job id `day-<shop>-<date>`: adding the same
 * shop-day again while its job is kept (completed jobs are kept 7 days) does nothing. Returns the
 * job ids, in shop then date order.
 *
 * @example
 * const ids = await enqueueBackfill(connection, { shops: [101], sinceMs, untilMs, timeZone: "Asia/Seoul" });
 */
export async function enqueueBackfill(connection: RedisOptions, options: EnqueueBackfillOptions): Promise<string[]> {
  const jobs = backfillJobs(options);
  await addJobs(connection, jobs);
  return jobs.map((j) => j.opts.jobId);
}

/**
 * One BullMQ job (name, data, options) of {@link backfillJobs}.
 *
 * @example
 * const j: BackfillJob = backfillJobs({ shops: [101], sinceMs, untilMs })[0]!;
 */
export interface BackfillJob {
  readonly name: "day";
  readonly data: ShopDayJobData;
  readonly opts: {
    readonly jobId: string;
    readonly attempts: number;
    readonly backoff: { readonly type: "exponential"; readonly delay: number };
    readonly removeOnComplete: { readonly age: number };
    readonly removeOnFail: { readonly age: number };
  };
}

/**
 * The jobs {@link enqueueBackfill} adds, without adding them (options validated here): e.g. to
 * add again, with {@link addJobs}, jobs that a Redis without persistence forgot.
 *
 * @example
 * backfillJobs({ shops: [101], sinceMs, untilMs }).map((j) => j.opts.jobId); // ["day-101-2026-11-16"]
 */
export function backfillJobs(options: EnqueueBackfillOptions): BackfillJob[] {
  const timeZone = options.timeZone ?? defaultEnqueueBackfill.timeZone;
  assertTimeZone(timeZone);
  const attempts = options.attempts ?? defaultEnqueueBackfill.attempts;
  const backoffMs = options.backoffMs ?? defaultEnqueueBackfill.backoffMs;
  if (!Number.isInteger(attempts) || attempts < 1) throw new RangeError(`enqueueBackfill: attempts must be an integer ≥ 1, got ${String(attempts)}`);
  if (!(backoffMs >= 0)) throw new RangeError(`enqueueBackfill: backoffMs must be ≥ 0, got ${String(backoffMs)}`);
  for (const s of options.shops) {
    if (!Number.isSafeInteger(s) || s < 0) throw new TypeError(`enqueueBackfill: shop ids must be non-negative integers, got ${String(s)}`);
  }
  if (!(options.untilMs > options.sinceMs)) throw new RangeError("enqueueBackfill: untilMs must be after sinceMs");
  const days = localDays(options.sinceMs, options.untilMs, timeZone);
  const analyze = options.analyze ?? defaultEnqueueBackfill.analyze;
  return options.shops.flatMap((shopId) =>
    days.map((d) => ({
      name: "day" as const,
      data: { kind: "day" as const, shopId, day: d.day, timeZone, sinceMs: d.sinceMs, untilMs: d.untilMs, analyze },
      opts: {
        jobId: shopDayJobId(shopId, d.day),
        attempts,
        backoff: { type: "exponential" as const, delay: backoffMs },
        // Kept, so that enqueueing the same shop-day again is a no-op and `--wait` can see it done.
        removeOnComplete: { age: 7 * 24 * 3600 },
        removeOnFail: { age: 7 * 24 * 3600 },
      },
    })),
  );
}

/**
 * Adds jobs made by {@link backfillJobs} (jobs whose id exists are left alone).
 *
 * @example
 * const options = { shops: [101], sinceMs, untilMs, timeZone: "Asia/Seoul" };
 * const lost = new Set(["day-101-2026-11-16"]); // ids gone from Redis
 * await addJobs(connection, backfillJobs(options).filter((j) => lost.has(j.opts.jobId)));
 */
export async function addJobs(connection: RedisOptions, jobs: readonly BackfillJob[]): Promise<void> {
  if (jobs.length === 0) return;
  const queue = new Queue<ShopDayJobData>(FLEET_QUEUE, { connection });
  try {
    await queue.addBulk(jobs.map((j) => ({ name: j.name, data: j.data, opts: { ...j.opts, backoff: { ...j.opts.backoff } } })));
  } finally {
    await queue.close();
  }
}
