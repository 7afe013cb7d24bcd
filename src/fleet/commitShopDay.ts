import { createHash } from "node:crypto";
import type { Pool } from "pg";
import { FencedCommitError } from "../errors/FencedCommitError.ts";
import type { ShopDayAnalysis } from "./analyzeShopDay.ts";

/**
 * What {@link commitShopDay} stores: one shop-day's analysis and the claim it was computed under.
 *
 * @example
 * const c: ShopDayCommit = { shopId: 101, day: "2026-11-16", sinceMs, untilMs, timeZone: "Asia/Seoul", scope: "day:2026-11-16", epoch: 1, worker: "host:123", jobId: "day-101-2026-11-16", analysis };
 */
export interface ShopDayCommit {
  readonly shopId: number;
  /** Local date, YYYY-MM-DD. */
  readonly day: string;
  readonly sinceMs: number;
  readonly untilMs: number;
  readonly timeZone: string;
  /** Fence scope the claim was taken on (see `claimFence`). */
  readonly scope: string;
  /** Epoch returned by `claimFence`. */
  readonly epoch: number;
  /** Who commits (for `fleet status` and post-mortems). */
  readonly worker: string;
  readonly jobId: string;
  readonly analysis: ShopDayAnalysis;
  /** Tail checkpoint to store in the same transaction: the next local day to follow. */
  readonly tailNextDay?: string;
}

/**
 * The tables holding a shop-day's results, replaced as a whole by each commit of that shop-day; a
 * live tail's provisional rows of the day (`footfall_live`) go too, the final figures replacing them.
 */
const REPLACED_TABLES = ["footfall_sessions", "footfall_visits", "footfall_occupancy", "footfall_summaries", "footfall_quality", "footfall_live"] as const;

/**
 * Stores one shop-day's results — summary, sessions, visits, occupancy and quality lines — and its
 * checkpoint in ONE transaction, after checking under a row lock that `epoch` is still the newest
 * claim of `scope`; otherwise nothing is written and a {@link FencedCommitError} is thrown. Every
 * row is an upsert on its primary key, and the shop-day's earlier rows are replaced, so whatever
 * BullMQ redelivers, a shop-day's results are present exactly once.
 *
 * @example
 * const job = backfillJobs({ shops: [101], sinceMs, untilMs, timeZone: "Asia/Seoul" })[0]!;
 * const scope = dayScope(job.data.day);
 * const epoch = await claimFence(pool, job.data.shopId, scope);
 * await commitShopDay(pool, { ...job.data, scope, epoch, worker: "host:123", jobId: job.opts.jobId, analysis });
 */
export async function commitShopDay(pool: Pool, c: ShopDayCommit): Promise<void> {
  const { shopId, day } = c;
  const lines = c.analysis.records;
  const sessions = lines.filter((l) => l.type === "session");
  const summaries = lines.filter((l) => l.type === "summary" && l.date === day);
  const occupancy = lines.filter((l) => l.type === "occupancy");
  const quality = lines.find((l) => l.type === "quality");
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    const fence = await client.query<{ epoch: string }>("SELECT epoch FROM footfall_fences WHERE shop_id = $1 AND scope = $2 FOR UPDATE", [
      shopId,
      c.scope,
    ]);
    const current = Number(fence.rows[0]?.epoch ?? 0);
    if (current !== c.epoch) throw new FencedCommitError(c.jobId, c.epoch, current);
    // One statement, not one per table: every round trip inside the transaction holds the fence
    // row's lock and costs both the worker and PostgreSQL a query's overhead.
    await client.query(
      `WITH ${REPLACED_TABLES.map((t, i) => `d${i} AS (DELETE FROM ${t} WHERE shop_id = $1 AND day = $2)`).join(", ")} SELECT 1`,
      [shopId, day],
    );
    if (sessions.length > 0) {
      await client.query(
        `INSERT INTO footfall_sessions (session_id, shop_id, day, seq, device, start_ms, end_ms, kind, line)
         SELECT id, $1, $2, seq, device, start_ms, end_ms, kind, line::json
         FROM unnest($3::text[], $4::int[], $5::text[], $6::bigint[], $7::bigint[], $8::text[], $9::text[])
           AS t(id, seq, device, start_ms, end_ms, kind, line)
         ON CONFLICT (session_id) DO UPDATE SET shop_id = EXCLUDED.shop_id, day = EXCLUDED.day, seq = EXCLUDED.seq,
           device = EXCLUDED.device, start_ms = EXCLUDED.start_ms, end_ms = EXCLUDED.end_ms, kind = EXCLUDED.kind, line = EXCLUDED.line`,
        [
          shopId,
          day,
          sessions.map((s) => sessionId(shopId, String(s.device), Number(s.start))),
          sessions.map((_s, i) => i),
          sessions.map((s) => String(s.device)),
          sessions.map((s) => Number(s.start)),
          sessions.map((s) => Number(s.end)),
          sessions.map((s) => String(s.kind)),
          sessions.map((s) => JSON.stringify(s)),
        ],
      );
    }
    if (c.analysis.visits.length > 0) {
      // One row per device and day (its first visit); the recorder may see a device once per day only, but be safe.
      const first = new Map<string, number>();
      for (const [device, ms] of c.analysis.visits) first.set(device, Math.min(ms, first.get(device) ?? ms));
      await client.query(
        `INSERT INTO footfall_visits (shop_id, device, day, first_ms)
         SELECT $1, device, $2, first_ms FROM unnest($3::text[], $4::bigint[]) AS t(device, first_ms)
         ON CONFLICT (shop_id, device, day) DO UPDATE SET first_ms = EXCLUDED.first_ms`,
        [shopId, day, [...first.keys()], [...first.values()]],
      );
    }
    if (occupancy.length > 0) {
      const num = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);
      for (const o of occupancy) {
        if (!Number.isSafeInteger(Number(o.start)) || !Number.isSafeInteger(Number(o.end))) {
          throw new TypeError(`commitShopDay: an occupancy line needs start and end in epoch ms, got ${JSON.stringify(o).slice(0, 200)}`);
        }
      }
      // All of the day's intervals (96 at 15 min) in one statement rather than one round trip each.
      await client.query(
        `INSERT INTO footfall_occupancy (shop_id, start_ms, end_ms, day, inside, inside_low, inside_high, outside, line)
         SELECT $1, start_ms, end_ms, $2, inside, inside_low, inside_high, outside, line::json
         FROM unnest($3::bigint[], $4::bigint[], $5::float8[], $6::float8[], $7::float8[], $8::float8[], $9::text[])
           AS t(start_ms, end_ms, inside, inside_low, inside_high, outside, line)
         ON CONFLICT (shop_id, start_ms) DO UPDATE SET end_ms = EXCLUDED.end_ms, day = EXCLUDED.day, inside = EXCLUDED.inside,
           inside_low = EXCLUDED.inside_low, inside_high = EXCLUDED.inside_high, outside = EXCLUDED.outside, line = EXCLUDED.line`,
        [
          shopId,
          day,
          occupancy.map((o) => Number(o.start)),
          occupancy.map((o) => Number(o.end)),
          occupancy.map((o) => num(o.inside)),
          occupancy.map((o) => num(o.insideLow)),
          occupancy.map((o) => num(o.insideHigh)),
          occupancy.map((o) => num(o.outside)),
          occupancy.map((o) => JSON.stringify(o)),
        ],
      );
    }
    for (const s of summaries) {
      await client.query(
        `INSERT INTO footfall_summaries (shop_id, day, visitors, visits, passers_by, capture_rate, line)
         VALUES ($1, $2, $3, $4, $5, $6, $7::json)
         ON CONFLICT (shop_id, day) DO UPDATE SET visitors = EXCLUDED.visitors, visits = EXCLUDED.visits,
           passers_by = EXCLUDED.passers_by, capture_rate = EXCLUDED.capture_rate, line = EXCLUDED.line`,
        [shopId, day, s.visitors, s.visits, s.passersBy, typeof s.captureRate === "number" && Number.isFinite(s.captureRate) ? s.captureRate : null, JSON.stringify(s)],
      );
    }
    if (quality !== undefined) {
      await client.query(
        `INSERT INTO footfall_quality (shop_id, day, line) VALUES ($1, $2, $3::json)
         ON CONFLICT (shop_id, day) DO UPDATE SET line = EXCLUDED.line`,
        [shopId, day, JSON.stringify(quality)],
      );
    }
    await client.query(
      `INSERT INTO footfall_shop_days (shop_id, day, since_ms, until_ms, time_zone, epoch, worker, job_id, signals, sessions, committed_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, now())
       ON CONFLICT (shop_id, day) DO UPDATE SET since_ms = EXCLUDED.since_ms, until_ms = EXCLUDED.until_ms, time_zone = EXCLUDED.time_zone,
         epoch = EXCLUDED.epoch, worker = EXCLUDED.worker, job_id = EXCLUDED.job_id, signals = EXCLUDED.signals,
         sessions = EXCLUDED.sessions, committed_at = now()`,
      [shopId, day, c.sinceMs, c.untilMs, c.timeZone, c.epoch, c.worker, c.jobId, c.analysis.signals, sessions.length],
    );
    if (c.tailNextDay !== undefined) {
      await client.query("UPDATE footfall_tails SET next_day = $2, updated_at = now() WHERE shop_id = $1", [shopId, c.tailNextDay]);
    }
    await client.query("COMMIT");
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/**
 * Deterministic id of a session: the same shop, device and start give the same id on every run
 * and every worker, so a redelivered job upserts instead of duplicating. 32 hex digits.
 *
 * @example
 * sessionId(101, "f0:18:98:12:34:56", 1795190400000).length; // 32
 */
export function sessionId(shopId: number, device: string, startMs: number): string {
  return createHash("sha256").update(`${shopId}\n${device}\n${startMs}`).digest("hex").slice(0, 32);
}
