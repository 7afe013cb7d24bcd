import { Queue, type RedisOptions } from "bullmq";
import type { Pool } from "pg";
import { FLEET_QUEUE } from "./fleetJobs.ts";
import type { LiveLine } from "./storeLiveOccupancy.ts";

/**
 * What `footfall fleet status` shows.
 *
 * @example
 * const s: FleetStatus = await fleetStatus(connection, pool);
 * console.log(s.jobs.failed, s.workers.length);
 */
export interface FleetStatus {
  /** Jobs per BullMQ state. */
  readonly jobs: { readonly waiting: number; readonly active: number; readonly delayed: number; readonly completed: number; readonly failed: number };
  /** Workers connected to the queue now (BullMQ's client list), by name. */
  readonly workers: readonly string[];
  /**
   * Per shop: days committed, the last committed day and when, its live tail (if any), and the
   * latest interval its tail stored for the day in progress (`null` when none: no running tail,
   * or no interval of its day passed yet; rows a tail left behind when it died are not shown).
   */
  readonly shops: readonly {
    readonly shopId: number;
    readonly days: number;
    readonly lastDay: string | null;
    readonly lastCommittedAt: string | null;
    readonly tail: { readonly wanted: boolean; readonly nextDay: string; readonly timeZone: string } | null;
    readonly live: LiveLine | null;
  }[];
}

/**
 * Reads the fleet's state from Redis (job counts, live workers) and PostgreSQL (checkpoints).
 *
 * @example
 * const s = await fleetStatus(connection, pool);
 */
export async function fleetStatus(connection: RedisOptions, pool: Pool): Promise<FleetStatus> {
  const queue = new Queue(FLEET_QUEUE, { connection });
  let jobs: Record<string, number>;
  let workers: string[];
  try {
    jobs = await queue.getJobCounts("waiting", "active", "delayed", "completed", "failed", "prioritized");
    // Each worker holds several connections, named `…:w:<worker name>`.
    const names = (await queue.getWorkers()).map((w) => {
      const raw = String(w.rawname ?? w.name ?? "");
      const at = raw.indexOf(":w:");
      return at === -1 ? raw : raw.slice(at + 3);
    });
    workers = [...new Set(names)].sort();
  } finally {
    await queue.close();
  }
  const r = await pool.query<{ shop_id: string; days: string; last_day: string | null; last_at: Date | null; wanted: boolean | null; next_day: string | null; time_zone: string | null; live: string | null }>(
    `SELECT shop_id, coalesce(d.days, 0) AS days, d.last_day, d.last_at, t.wanted, t.next_day, t.time_zone, l.line::text AS live
     FROM (SELECT shop_id FROM footfall_shop_days UNION SELECT shop_id FROM footfall_tails) s
     LEFT JOIN (SELECT shop_id, count(*) AS days, max(day) AS last_day, max(committed_at) AS last_at FROM footfall_shop_days GROUP BY shop_id) d USING (shop_id)
     LEFT JOIN footfall_tails t USING (shop_id)
     LEFT JOIN LATERAL (SELECT line FROM footfall_live WHERE footfall_live.shop_id = s.shop_id AND t.wanted AND day = t.next_day
       ORDER BY start_ms DESC LIMIT 1) l ON true
     ORDER BY shop_id`,
  );
  return {
    jobs: {
      waiting: (jobs.waiting ?? 0) + (jobs.prioritized ?? 0),
      active: jobs.active ?? 0,
      delayed: jobs.delayed ?? 0,
      completed: jobs.completed ?? 0,
      failed: jobs.failed ?? 0,
    },
    workers,
    shops: r.rows.map((row) => ({
      shopId: Number(row.shop_id),
      days: Number(row.days),
      lastDay: row.last_day,
      lastCommittedAt: row.last_at === null ? null : row.last_at.toISOString(),
      tail: row.wanted === null || row.next_day === null ? null : { wanted: row.wanted, nextDay: row.next_day, timeZone: row.time_zone ?? "UTC" },
      live: row.live === null ? null : (JSON.parse(row.live) as LiveLine),
    })),
  };
}
