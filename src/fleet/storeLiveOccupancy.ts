import type { Pool } from "pg";
import { FencedCommitError, isFencedCommitError } from "../errors/FencedCommitError.ts";
import { occupancyRecord } from "../analysis/occupancyRecord.ts";
import type { LiveOccupancyInterval } from "../kernels/people/LiveOccupancy.ts";
import type { CalibrationRef } from "../kernels/calibration/Calibration.ts";

/** A count as written: unknown (NaN) and unbounded (±Infinity) are null, as in the summary line. */
function count(x: number): number | null {
  return Number.isFinite(x) ? Math.round(x) : null;
}

/**
 * The stored line of one live interval (`footfall_live.line`): the interval's `occupancy` line
 * (`occupancyRecord`, as `footfall analyze` prints it) typed `live`, then the local date, the
 * people who came in so far (`visitors`, rounded as the summary line rounds it, with its 90 %
 * interval) and the MAC-level counts so far. Unknown figures are `null`.
 *
 * @example
 * const l: LiveLine = { type: "live", shopId: 101, start: 0, end: 900_000, inside: 3.2, insideLow: 2.1, insideHigh: 4.9, outside: 12, knownInside: 1, insideBursts: 40, outsideBursts: 310, calibration: null, date: "2026-11-16", visitors: 41, visitorsLow: 35, visitorsHigh: 49, macs: { visitors: 12, passersBy: 300 } };
 */
export interface LiveLine {
  readonly type: "live";
  readonly shopId: number;
  /** Interval, epoch ms. */
  readonly start: number;
  readonly end: number;
  /** Mean people inside over the interval, with its 90 % interval, and outside (as the `occupancy` line). */
  readonly inside: number | null;
  readonly insideLow: number | null;
  readonly insideHigh: number | null;
  readonly outside: number | null;
  readonly knownInside: number | null;
  readonly insideBursts: number | null;
  readonly outsideBursts: number | null;
  /** The people calibration the estimate used (as the `occupancy` line names it); null with the prior. */
  readonly calibration: CalibrationRef | null;
  /** Local date of the day so far, YYYY-MM-DD. */
  readonly date: string;
  /** People who came in so far today, with its 90 % interval. */
  readonly visitors: number | null;
  readonly visitorsLow: number | null;
  readonly visitorsHigh: number | null;
  readonly macs: { readonly visitors: number; readonly passersBy: number };
}

/**
 * The {@link LiveLine} of one live interval.
 *
 * @example
 * liveLine(interval).type; // "live"
 */
export function liveLine(o: LiveOccupancyInterval): LiveLine {
  const t = o.today;
  return {
    // occupancyRecord's line is an untyped AnalysisRecord; its fields are those LiveLine lists.
    ...(occupancyRecord(o) as unknown as Omit<LiveLine, "type" | "date" | "visitors" | "visitorsLow" | "visitorsHigh" | "macs">),
    type: "live",
    date: t.label,
    visitors: count(t.visitors),
    visitorsLow: count(t.visitorsLow),
    visitorsHigh: count(t.visitorsHigh),
    macs: { visitors: t.macVisitors, passersBy: t.macPassersBy },
  };
}

/**
 * Stores live intervals of one shop's tail (`footfall_live`, one row per interval: a later
 * reading of an interval replaces the earlier one) under the tail's claim: one statement that
 * writes only while `epoch` is the newest claim of the shop's tail, holding the fence row
 * shared meanwhile, so a claim taken concurrently waits for it or makes it write nothing. A
 * stale claim (the tail resumed elsewhere) writes nothing and gets a {@link FencedCommitError}.
 *
 * The rows are provisional — the day so far — and the day's commit (`commitShopDay`) deletes
 * them with the rest of the shop-day's rows when it stores the final figures.
 *
 * @example
 * await storeLiveOccupancy(pool, { shopId: 101, epoch, jobId: "tail-101", intervals });
 */
export async function storeLiveOccupancy(
  pool: Pool,
  w: { readonly shopId: number; readonly epoch: number; readonly jobId: string; readonly intervals: readonly LiveOccupancyInterval[] },
): Promise<void> {
  if (w.intervals.length === 0) return;
  const lines = w.intervals.map(liveLine);
  const r = await pool.query<{ epoch: string | null }>(
    `WITH fence AS (SELECT epoch FROM footfall_fences WHERE shop_id = $1 AND scope = 'tail' FOR SHARE),
     written AS (
       INSERT INTO footfall_live (shop_id, start_ms, end_ms, day, inside, inside_low, inside_high, outside, visitors, visitors_low, visitors_high, line)
       SELECT $1, start_ms, end_ms, day, inside, inside_low, inside_high, outside, visitors, visitors_low, visitors_high, line::json
       FROM unnest($3::bigint[], $4::bigint[], $5::text[], $6::float8[], $7::float8[], $8::float8[], $9::float8[], $10::float8[], $11::float8[], $12::float8[], $13::text[])
         AS t(start_ms, end_ms, day, inside, inside_low, inside_high, outside, visitors, visitors_low, visitors_high, line)
       WHERE (SELECT epoch FROM fence) = $2
       ON CONFLICT (shop_id, start_ms) DO UPDATE SET end_ms = EXCLUDED.end_ms, day = EXCLUDED.day, inside = EXCLUDED.inside,
         inside_low = EXCLUDED.inside_low, inside_high = EXCLUDED.inside_high, outside = EXCLUDED.outside, visitors = EXCLUDED.visitors,
         visitors_low = EXCLUDED.visitors_low, visitors_high = EXCLUDED.visitors_high, line = EXCLUDED.line
       RETURNING 1)
     SELECT (SELECT epoch FROM fence) AS epoch, (SELECT count(*) FROM written) AS written`,
    [
      w.shopId,
      w.epoch,
      lines.map((l) => l.start),
      lines.map((l) => l.end),
      lines.map((l) => l.date),
      lines.map((l) => l.inside),
      lines.map((l) => l.insideLow),
      lines.map((l) => l.insideHigh),
      lines.map((l) => l.outside),
      lines.map((l) => l.visitors),
      lines.map((l) => l.visitorsLow),
      lines.map((l) => l.visitorsHigh),
      lines.map((l) => JSON.stringify(l)),
    ],
  );
  const current = Number(r.rows[0]?.epoch ?? 0);
  if (current !== w.epoch) throw new FencedCommitError(w.jobId, w.epoch, current);
}

/**
 * Deletes a shop's live rows when its tail stops (under the tail's claim, as
 * {@link storeLiveOccupancy} writes them): a stopped tail leaves no day in progress behind.
 *
 * @example
 * await clearLiveOccupancy(pool, { shopId: 101, epoch });
 */
export async function clearLiveOccupancy(pool: Pool, w: { readonly shopId: number; readonly epoch: number }): Promise<void> {
  await pool.query(
    `DELETE FROM footfall_live WHERE shop_id = $1
     AND (SELECT epoch FROM footfall_fences WHERE shop_id = $1 AND scope = 'tail' FOR SHARE) = $2`,
    [w.shopId, w.epoch],
  );
}

/**
 * Stores a tail's live intervals as they come, in the background: each write takes every interval
 * waiting (a tail that resumes mid-day emits the morning's at once), one write at a time, in
 * order. A stale claim ({@link FencedCommitError}) stops the writer and goes to `onError` with
 * `fatal` true; any other failure (PostgreSQL restarting) goes there with `fatal` false and its
 * intervals wait for the next write — the next interval, or `flush` — so a passing outage loses no
 * interval and does not stop the tail.
 *
 * @example
 * const live = liveOccupancyWriter(pool, { shopId: 101, epoch, jobId: "tail-101" }, (e, fatal) => console.error(fatal, e));
 * for (const o of intervals) live.push(o);
 * await live.flush();
 */
export function liveOccupancyWriter(
  pool: Pool,
  w: { readonly shopId: number; readonly epoch: number; readonly jobId: string },
  onError: (error: unknown, fatal: boolean) => void,
): { push(interval: LiveOccupancyInterval): void; flush(): Promise<void> } {
  let waiting: LiveOccupancyInterval[] = [];
  let failed = false;
  let running: Promise<void> | undefined;
  const drain = async (): Promise<void> => {
    try {
      while (waiting.length > 0 && !failed) {
        const intervals = waiting;
        waiting = [];
        try {
          await storeLiveOccupancy(pool, { ...w, intervals });
        } catch (error) {
          if (isFencedCommitError(error)) {
            failed = true;
            waiting = [];
          } else {
            // Before what came meanwhile, so a later reading of an interval still wins.
            waiting = intervals.concat(waiting);
          }
          onError(error, failed);
          return;
        }
      }
    } finally {
      running = undefined;
    }
  };
  return {
    push(interval) {
      if (failed) return;
      waiting.push(interval);
      running ??= drain();
    },
    async flush() {
      while (running !== undefined) await running;
      // What a passing failure left waiting: one more try.
      if (waiting.length > 0 && !failed) await (running ??= drain());
    },
  };
}
