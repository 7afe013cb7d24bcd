import { hostname } from "node:os";
import { DelayedError, Worker, type Job, type RedisOptions } from "bullmq";
import type { Pool } from "pg";
import type { Client } from "../client/Client.ts";
import { isFencedCommitError } from "../errors/FencedCommitError.ts";
import { clearLiveOccupancy, liveOccupancyWriter } from "./storeLiveOccupancy.ts";
import { epochDayOfDate, dateOfEpochDay } from "../time/calendarDate.ts";
import { localMidnight } from "../time/timeZone.ts";
import { analyzeShopDay } from "./analyzeShopDay.ts";
import { retainFleet } from "./retainFleet.ts";
import type { DeviceId } from "../analysis/AnalysisRecord.ts";
import { claimFence, dayScope } from "./claimFence.ts";
import { commitShopDay } from "./commitShopDay.ts";
import { shopCalibration } from "./fleetCalibrations.ts";
import { FLEET_QUEUE, type FleetJobData, type ShopDayJobData, type TailJobData } from "./fleetJobs.ts";
import type { RtsCodec } from "../codec/rts.ts";
import type { Calibration } from "../kernels/calibration/Calibration.ts";

/**
 * Options of {@link createFleetWorker}.
 *
 * @example
 * const o: FleetWorkerOptions = { connection, pool, client, concurrency: 2 };
 */
export interface FleetWorkerOptions {
  /** Redis connection (see `openFleetRedis`). */
  readonly connection: RedisOptions;
  /** PostgreSQL pool holding the fleet schema (see `openFleetDatabase`, `initFleetSchema`). */
  readonly pool: Pool;
  /** Signal service client. */
  readonly client: Client;
  /** Jobs run at once (a live tail holds one slot for as long as it runs). @default 1 */
  readonly concurrency?: number;
  /** BullMQ lock per job, ms: a worker silent this long loses its job to another. @default 30000 */
  readonly lockDurationMs?: number;
  /** How often stalled jobs (lost locks) are looked for, ms. @default 30000 */
  readonly stalledIntervalMs?: number;
  /** Times a job may stall (its worker died or froze) before it fails. @default 10 */
  readonly maxStalledCount?: number;
  /** Name of this worker in `fleet status` and in the checkpoint rows. @default `${hostname}:${pid}` */
  readonly name?: string;
  /** Receives one line per event (job started, committed, refused, stalled, handed back). @default ignore */
  readonly log?: (line: string) => void;
  /**
   * How stored rows identify devices (sessions' `device` and lines, visits): `footfall worker`
   * passes a keyed pseudonym. @default the MAC (rawDevice; a library caller's own database)
   */
  readonly device?: DeviceId;
  /** Whether `device` links devices across days (false with daily pseudonyms; see `analyzeShopDay`). @default true */
  readonly linkedAcrossDays?: boolean;
  /** How the service turns a datetime into an RTS (see `analyzeShopDay`). @default millisRts */
  readonly rtsCodec?: RtsCodec;
  /**
   * Shares a backfill job's analysis is split into by device, each on a thread of its own
   * (`analyzeShopDay`'s `shares`): for one busy shop on spare cores. A live tail is not split.
   * @default 1
   */
  readonly shares?: number;
}

/**
 * Defaults of {@link FleetWorkerOptions}.
 *
 * @example
 * defaultFleetWorker.lockDurationMs; // 30000
 */
export const defaultFleetWorker = { concurrency: 1, lockDurationMs: 30_000, stalledIntervalMs: 30_000, maxStalledCount: 10, shares: 1 } as const;

/**
 * A running fleet worker; {@link FleetWorker.close} hands back or finishes its jobs.
 *
 * @example
 * const w = createFleetWorker(options);
 * const stop = (): void => void w.close();
 * process.once("SIGTERM", stop);
 * // … on shutdown (here at once):
 * process.off("SIGTERM", stop);
 * await w.close();
 */
export interface FleetWorker {
  /** The BullMQ worker (events: "completed", "failed", "stalled", …). */
  readonly worker: Worker<FleetJobData>;
  /** This worker's name. */
  readonly name: string;
  /**
   * Stops taking jobs, aborts the ones in progress and returns them to the queue (they run again
   * elsewhere from their checkpoint; nothing half-done was committed), then closes the connection.
   */
  close(): Promise<void>;
}

/**
 * Starts a BullMQ worker that runs the fleet's jobs: a shop-day job claims its fence, analyses the
 * day through the same code as `footfall analyze` ({@link analyzeShopDay}) and commits results and
 * checkpoint in one fenced transaction ({@link commitShopDay}); a tail job follows its shop day
 * after day from the checkpoint in PostgreSQL. Each job reads its shop's people calibration
 * (`footfall fleet calibration set`) once when it starts, a tail once per day, so a calibration
 * set meanwhile applies from the next job (or day). Locks expire when a worker dies or freezes, BullMQ
 * moves its jobs back to the queue (stalled-job recovery), and the fence refuses the old worker's
 * late commit.
 *
 * @example
 * const w = createFleetWorker({ connection, pool, client, concurrency: 2, log: (l) => console.error(l) });
 * // … later
 * await w.close();
 */
export function createFleetWorker(options: FleetWorkerOptions): FleetWorker {
  const concurrency = options.concurrency ?? defaultFleetWorker.concurrency;
  const lockDuration = options.lockDurationMs ?? defaultFleetWorker.lockDurationMs;
  const stalledInterval = options.stalledIntervalMs ?? defaultFleetWorker.stalledIntervalMs;
  const maxStalledCount = options.maxStalledCount ?? defaultFleetWorker.maxStalledCount;
  const shares = options.shares ?? defaultFleetWorker.shares;
  for (const [key, v, min] of [
    ["concurrency", concurrency, 1],
    ["shares", shares, 1],
    ["lockDurationMs", lockDuration, 100],
    ["stalledIntervalMs", stalledInterval, 100],
    ["maxStalledCount", maxStalledCount, 0],
  ] as const) {
    if (!Number.isInteger(v) || v < min) throw new RangeError(`createFleetWorker: ${key} must be an integer ≥ ${min}, got ${String(v)}`);
  }
  const name = options.name ?? `${hostname()}:${process.pid}`;
  const log = options.log ?? (() => undefined);
  const { pool, client } = options;
  // What every job reads and stores the same way, whatever its kind: the worker's settings.
  const readAs = {
    ...(options.device === undefined ? {} : { device: options.device }),
    ...(options.linkedAcrossDays === undefined ? {} : { linkedAcrossDays: options.linkedAcrossDays }),
    ...(options.rtsCodec === undefined ? {} : { rtsCodec: options.rtsCodec }),
  };
  const running = new Set<AbortController>();
  let closing = false;

  const processor = async (job: Job<FleetJobData>, token?: string): Promise<unknown> => {
    const abort = new AbortController();
    running.add(abort);
    if (closing) abort.abort(new Error("worker stopping"));
    try {
      if (closing) throw new Error("worker stopping");
      if (job.data.kind === "retain") {
        const r = await retainFleet(pool, { retainDays: job.data.retainDays });
        log(`retention: deleted ${r.sessions} session and ${r.visits} visit rows of days before ${r.before}`);
        return r;
      }
      return job.data.kind === "day" ? await runDay(job as Job<ShopDayJobData>, abort.signal) : await runTail(job as Job<TailJobData>, abort.signal);
    } catch (error) {
      if (closing && abort.signal.aborted) {
        // Hand the job back: due now, so another worker takes it at once.
        await job.moveToDelayed(Date.now(), token);
        log(`job ${job.id} handed back (worker stopping)`);
        throw new DelayedError();
      }
      if (isFencedCommitError(error)) log(`job ${job.id}: ${error.message}`);
      throw error;
    } finally {
      running.delete(abort);
    }
  };

  const runDay = async (job: Job<ShopDayJobData>, signal: AbortSignal): Promise<unknown> => {
    const d = job.data;
    const scope = dayScope(d.day);
    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    const epoch = await claimFence(pool, d.shopId, scope);
    // Read once, here: the whole job uses the calibration current when it started (one set
    // meanwhile applies from the shop's next job), so a day's lines never mix two.
    const calibration = await shopCalibration(pool, d.shopId);
    const t1 = performance.now();
    log(`job ${job.id} started (claim ${epoch}, attempt ${job.attemptsMade + 1}, ${calibrationName(calibration)})`);
    const analysis = await analyzeShopDay(client, {
      shopId: d.shopId,
      sinceMs: d.sinceMs,
      untilMs: d.untilMs,
      timeZone: d.timeZone,
      analyze: d.analyze,
      signal,
      shares,
      ...readAs,
      ...(calibration === undefined ? {} : { calibration }),
    });
    const t2 = performance.now();
    await commitShopDay(pool, { ...d, scope, epoch, worker: name, jobId: String(job.id), analysis });
    const t3 = performance.now();
    const cpu = process.cpuUsage(cpu0);
    // Timings let `bench/fleet.ts` (and operators) see where a shop-day's time goes.
    log(
      `job ${job.id} committed (claim ${epoch}, ${analysis.signals} signals, ${analysis.records.length} lines; ` +
        // Where the RTS is not the records' time (analyzeShopDay): what was left to the days beside, and taken from them.
        (analysis.outside + analysis.fromMargin > 0 ? `outside ${analysis.outside}, fromMargin ${analysis.fromMargin}; ` : "") +
        `read+analyze ${Math.round(t2 - t1)} ms, postgres ${Math.round(t1 - t0 + t3 - t2)} ms, cpu ${Math.round((cpu.user + cpu.system) / 1000)} ms)`,
    );
    return { signals: analysis.signals, epoch };
  };

  const runTail = async (job: Job<TailJobData>, signal: AbortSignal): Promise<unknown> => {
    const t = job.data;
    const epoch = await claimFence(pool, t.shopId, "tail");
    log(`job ${job.id} started (claim ${epoch})`);
    for (;;) {
      const row = await tailState(pool, t.shopId);
      if (row === undefined || !row.wanted) {
        await clearLiveOccupancy(pool, { shopId: t.shopId, epoch });
        log(`job ${job.id} stopped`);
        return { stopped: true };
      }
      const day = epochDayOfDate(row.next_day);
      if (day === undefined) throw new TypeError(`tail of shop ${t.shopId}: bad checkpoint ${row.next_day}`);
      const sinceMs = localMidnight(day, t.timeZone);
      const untilMs = localMidnight(day + 1, t.timeZone);
      // Once per local day, not once per tail: a tail runs for months, and a calibration set
      // meanwhile should not wait for a restart. The day's live and final lines share it.
      const calibration = await shopCalibration(pool, t.shopId);
      log(`job ${job.id} reads ${row.next_day} (${calibrationName(calibration)})`);
      // The day is read again from its start after a failure: the sessions open at the
      // checkpoint are rebuilt from the records, so the checkpoint is just the day in progress.
      const dayAbort = new AbortController();
      const onAbort = (): void => dayAbort.abort(signal.reason);
      signal.addEventListener("abort", onAbort, { once: true });
      let stopped = false;
      // Occupancy as the day goes on, stored under this tail's claim; a stale claim (the tail
      // resumed elsewhere) stops the day's read with its error, other failures are retried.
      let liveFailed: { readonly error: unknown } | undefined;
      const live = liveOccupancyWriter(pool, { shopId: t.shopId, epoch, jobId: String(job.id) }, (error, fatal) => {
        if (!fatal) return log(`job ${job.id}: live occupancy not stored yet (${error instanceof Error ? error.message : String(error)}); retried with the next interval`);
        liveFailed = { error };
        dayAbort.abort(error);
      });
      const watch = setInterval(() => {
        tailState(pool, t.shopId).then(
          (r) => {
            if (r === undefined || !r.wanted) {
              stopped = true;
              dayAbort.abort(new Error("tail stopped"));
            }
          },
          () => undefined,
        );
      }, t.pollIntervalMs);
      try {
        const analysis = await analyzeShopDay(client, {
          shopId: t.shopId,
          sinceMs,
          untilMs,
          timeZone: t.timeZone,
          analyze: t.analyze,
          mode: "tail",
          ...readAs,
          pollIntervalMs: t.pollIntervalMs,
          signal: dayAbort.signal,
          onLive: (interval) => live.push(interval),
          ...(calibration === undefined ? {} : { calibration }),
        });
        // The day's last intervals are stored before the commit, which replaces them all.
        await live.flush();
        if (liveFailed !== undefined) throw liveFailed.error;
        const nextDay = dateOfEpochDay(day + 1);
        await commitShopDay(pool, {
          shopId: t.shopId,
          day: row.next_day,
          sinceMs,
          untilMs,
          timeZone: t.timeZone,
          scope: "tail",
          epoch,
          worker: name,
          jobId: String(job.id),
          analysis,
          tailNextDay: nextDay,
        });
        log(`job ${job.id} committed ${row.next_day} (claim ${epoch}, ${analysis.signals} signals)`);
      } catch (error) {
        await live.flush();
        if (stopped && !signal.aborted) {
          await clearLiveOccupancy(pool, { shopId: t.shopId, epoch });
          log(`job ${job.id} stopped`);
          return { stopped: true };
        }
        throw error;
      } finally {
        clearInterval(watch);
        signal.removeEventListener("abort", onAbort);
      }
    }
  };

  const worker = new Worker<FleetJobData>(FLEET_QUEUE, processor, {
    connection: options.connection,
    concurrency,
    lockDuration,
    stalledInterval,
    maxStalledCount,
    name,
  });
  worker.on("stalled", (jobId) => log(`job ${jobId} stalled (its worker stopped renewing the lock); back to the queue`));
  worker.on("failed", (job, error) => {
    if (job !== undefined && !(error instanceof DelayedError) && error.name !== "DelayedError") log(`job ${job.id} failed: ${error.message}`);
  });
  // Connection errors while Redis restarts: ioredis reconnects by itself; one line each.
  worker.on("error", (error) => log(`worker: ${error.message}`));

  return {
    worker,
    name,
    close: async () => {
      closing = true;
      // Stop fetching first, then abort what runs: close() waits for the processors to return.
      const closed = worker.close();
      for (const a of running) a.abort(new Error("worker stopping"));
      await closed;
    },
  };
}

/** How a job's log line names the people calibration it uses. */
function calibrationName(c: Calibration | undefined): string {
  return c === undefined ? "no calibration: the prior" : `calibration ${c.id}`;
}

async function tailState(pool: Pool, shopId: number): Promise<{ wanted: boolean; next_day: string } | undefined> {
  const r = await pool.query<{ wanted: boolean; next_day: string }>("SELECT wanted, next_day FROM footfall_tails WHERE shop_id = $1", [shopId]);
  return r.rows[0];
}
