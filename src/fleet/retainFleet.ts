import { Queue, type RedisOptions } from "bullmq";
import type { Pool } from "pg";
import { FLEET_QUEUE, RETAIN_SCHEDULER_ID, type RetainJobData } from "./fleetJobs.ts";
import { dateOfEpochDay } from "../time/calendarDate.ts";

/**
 * Options of {@link retainFleet}.
 *
 * @example
 * const o: RetainFleetOptions = { retainDays: 30 };
 */
export interface RetainFleetOptions {
  /** Per-device rows of local days older than this many days are deleted, 1…3650. @default 30 */
  readonly retainDays?: number;
  /** "Now", epoch ms (tests pass a fixed one). @default Date.now() */
  readonly nowMs?: number;
}

/**
 * Defaults of {@link RetainFleetOptions}.
 *
 * @example
 * defaultRetainFleet.retainDays; // 30
 */
export const defaultRetainFleet = { retainDays: 30 } as const;

/**
 * What {@link retainFleet} deleted.
 *
 * @example
 * const r: RetainFleetResult = { before: "2026-10-24", sessions: 1200, visits: 310 };
 */
export interface RetainFleetResult {
  /** Rows of local days before this date (YYYY-MM-DD) were deleted. */
  readonly before: string;
  /** `footfall_sessions` rows deleted. */
  readonly sessions: number;
  /** `footfall_visits` rows deleted. */
  readonly visits: number;
}

/**
 * Retention of per-device data: deletes the fleet's per-device rows (`footfall_sessions`,
 * `footfall_visits`: each names a device pseudonym) of local days more than `retainDays` days
 * before today, in one transaction. Aggregates stay: daily summaries, occupancy intervals,
 * quality, checkpoints. Idempotent; run it daily (`footfall fleet retain`). Repeat visitors are
 * only recognised within the retained days.
 *
 * The cutoff is a UTC calendar date; a shop's local day differs from it by at most one day, which
 * retention ages in days do not need to resolve.
 *
 * @example
 * const { sessions, visits } = await retainFleet(pool, { retainDays: 30 });
 */
export async function retainFleet(pool: Pool, options: RetainFleetOptions = {}): Promise<RetainFleetResult> {
  const retainDays = options.retainDays ?? defaultRetainFleet.retainDays;
  if (!Number.isInteger(retainDays) || retainDays < 1 || retainDays > 3650) {
    throw new RangeError(`retainFleet: retainDays must be an integer from 1 to 3650, got ${String(retainDays)}`);
  }
  const nowMs = options.nowMs ?? Date.now();
  if (!Number.isFinite(nowMs)) throw new RangeError("retainFleet: nowMs must be a finite epoch ms");
  const before = dateOfEpochDay(Math.floor(nowMs / 86_400_000) - retainDays);
  const db = await pool.connect();
  try {
    await db.query("BEGIN");
    // `day` is YYYY-MM-DD text: its order is the calendar's.
    const sessions = await db.query("DELETE FROM footfall_sessions WHERE day < $1", [before]);
    const visits = await db.query("DELETE FROM footfall_visits WHERE day < $1", [before]);
    await db.query("COMMIT");
    return { before, sessions: sessions.rowCount ?? 0, visits: visits.rowCount ?? 0 };
  } catch (error) {
    await db.query("ROLLBACK").catch(() => undefined);
    throw error;
  } finally {
    db.release();
  }
}

/**
 * Options of {@link scheduleRetention}.
 *
 * @example
 * const o: ScheduleRetentionOptions = { retainDays: 30, everyMs: 86_400_000 };
 */
export interface ScheduleRetentionOptions {
  /** As {@link RetainFleetOptions.retainDays}, 1…3650. @default 30 */
  readonly retainDays?: number;
  /** How often a worker runs it, ms (at least 1000). @default 86400000 (daily) */
  readonly everyMs?: number;
}

/**
 * Makes the fleet run {@link retainFleet} on a schedule: a BullMQ job scheduler (id
 * `RETAIN_SCHEDULER_ID`, one per fleet; scheduling again replaces its settings) whose jobs any
 * `footfall worker` runs. The first run is due at once.
 *
 * @example
 * await scheduleRetention(connection, { retainDays: 30 });
 */
export async function scheduleRetention(connection: RedisOptions, options: ScheduleRetentionOptions = {}): Promise<void> {
  const retainDays = options.retainDays ?? defaultRetainFleet.retainDays;
  const everyMs = options.everyMs ?? 86_400_000;
  if (!Number.isInteger(retainDays) || retainDays < 1 || retainDays > 3650) {
    throw new RangeError(`scheduleRetention: retainDays must be an integer from 1 to 3650, got ${String(retainDays)}`);
  }
  if (!Number.isInteger(everyMs) || everyMs < 1000) throw new RangeError(`scheduleRetention: everyMs must be an integer ≥ 1000, got ${String(everyMs)}`);
  const queue = new Queue<RetainJobData>(FLEET_QUEUE, { connection });
  try {
    await queue.upsertJobScheduler(
      RETAIN_SCHEDULER_ID,
      { every: everyMs, immediately: true },
      { name: "retain", data: { kind: "retain", retainDays }, opts: { removeOnComplete: 10, removeOnFail: 10 } },
    );
  } finally {
    await queue.close();
  }
}
