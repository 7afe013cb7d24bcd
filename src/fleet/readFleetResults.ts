import type { Pool } from "pg";
import { poolPeopleRecords } from "../analysis/analysisRecords.ts";
import { type AnalysisRecord } from "../analysis/AnalysisRecord.ts";

/**
 * Options of {@link readFleetResults}.
 *
 * @example
 * const o: ReadFleetResultsOptions = { shops: [101], sinceDay: "2026-11-16", untilDay: "2026-11-18", sessions: true };
 */
export interface ReadFleetResultsOptions {
  /** SHOP IDs. */
  readonly shops: readonly number[];
  /** First local date, YYYY-MM-DD (inclusive). */
  readonly sinceDay: string;
  /** Last local date, YYYY-MM-DD (exclusive). */
  readonly untilDay: string;
  /** Include `session` lines. @default false */
  readonly sessions?: boolean;
  /** Include `occupancy` lines. @default false */
  readonly occupancy?: boolean;
  /** Include `quality` lines (one per shop-day). @default false */
  readonly quality?: boolean;
  /**
   * Include `live` lines (`LiveLine`): a running tail's day in progress, interval by interval
   * (provisional: the day so far; gone once the day commits and its `occupancy` lines are stored).
   * @default false
   */
  readonly live?: boolean;
  /**
   * Estimate people from each shop's days in the range together (`poolPeopleRecords`, as
   * `footfall analyze --pool-days` does over a file): the summary and occupancy lines are worked
   * out again from the stored days' samples. Days stored before summaries carried their
   * `peopleSample` keep their own figures. @default false
   */
  readonly poolDays?: boolean;
}

/**
 * Defaults of {@link ReadFleetResultsOptions}.
 *
 * @example
 * defaultReadFleetResults.sessions; // false
 */
export const defaultReadFleetResults = { sessions: false, occupancy: false, quality: false, live: false, poolDays: false } as const;

/**
 * The stored results as the lines `footfall analyze --format ndjson` prints, shop by shop: its
 * sessions (in the analysis' order), then its `summary` lines by date, then its `occupancy` lines
 * by start, then `quality` lines, then `live` lines by start. New vs repeat visitors in each summary are derived here from the
 * visits of every stored day of that shop (repeat: the device visited the shop on an earlier
 * day), so they do not depend on the order in which days were computed.
 *
 * @example
 * for (const line of await readFleetResults(pool, { shops: [101], sinceDay: "2026-11-16", untilDay: "2026-11-17" })) {
 *   console.log(JSON.stringify(line));
 * }
 */
export async function readFleetResults(pool: Pool, options: ReadFleetResultsOptions): Promise<AnalysisRecord[]> {
  const { shops, sinceDay, untilDay } = options;
  for (const d of [sinceDay, untilDay]) if (!/^\d{4}-\d{2}-\d{2}$/.test(d)) throw new TypeError(`readFleetResults: days must be YYYY-MM-DD, got ${d}`);
  const out: AnalysisRecord[] = [];
  for (const shopId of shops) {
    if (options.sessions ?? defaultReadFleetResults.sessions) {
      const r = await pool.query<{ line: string }>(
        "SELECT line::text AS line FROM footfall_sessions WHERE shop_id = $1 AND day >= $2 AND day < $3 ORDER BY day, seq",
        [shopId, sinceDay, untilDay],
      );
      for (const row of r.rows) out.push(JSON.parse(row.line) as AnalysisRecord);
    }
    const summaries = await pool.query<{ line: string; visitors: string; repeaters: string }>(
      `SELECT s.line::text AS line,
         (SELECT count(*) FROM footfall_visits v WHERE v.shop_id = s.shop_id AND v.day = s.day) AS visitors,
         (SELECT count(*) FROM footfall_visits v WHERE v.shop_id = s.shop_id AND v.day = s.day
            AND EXISTS (SELECT 1 FROM footfall_visits p WHERE p.shop_id = v.shop_id AND p.device = v.device AND p.day < v.day)) AS repeaters
       FROM footfall_summaries s WHERE s.shop_id = $1 AND s.day >= $2 AND s.day < $3 ORDER BY s.day`,
      [shopId, sinceDay, untilDay],
    );
    // The shop's summary and occupancy lines, which --pool-days works out again together.
    const people: AnalysisRecord[] = [];
    for (const row of summaries.rows) {
      const line = JSON.parse(row.line) as AnalysisRecord;
      // Written with daily pseudonyms: devices do not link across days, so new vs repeat stays
      // unavailable (null), never a count of 0 repeat visitors.
      if (line["repeatVisitors"] === null) {
        people.push(line);
        continue;
      }
      const repeat = Number(row.repeaters);
      // Replaced in place, so the line keeps the field order analyze prints.
      people.push({ ...line, newVisitors: Number(row.visitors) - repeat, repeatVisitors: repeat });
    }
    const occupancy = options.occupancy ?? defaultReadFleetResults.occupancy;
    const poolDays = options.poolDays ?? defaultReadFleetResults.poolDays;
    if (occupancy || poolDays) {
      const r = await pool.query<{ line: string }>(
        "SELECT line::text AS line FROM footfall_occupancy WHERE shop_id = $1 AND day >= $2 AND day < $3 ORDER BY start_ms",
        [shopId, sinceDay, untilDay],
      );
      for (const row of r.rows) people.push(JSON.parse(row.line) as AnalysisRecord);
    }
    for (const l of poolDays ? poolPeopleRecords(people) : people) if (occupancy || l.type !== "occupancy") out.push(l);
    if (options.quality ?? defaultReadFleetResults.quality) {
      const r = await pool.query<{ line: string }>(
        "SELECT line::text AS line FROM footfall_quality WHERE shop_id = $1 AND day >= $2 AND day < $3 ORDER BY day",
        [shopId, sinceDay, untilDay],
      );
      for (const row of r.rows) out.push(JSON.parse(row.line) as AnalysisRecord);
    }
    if (options.live ?? defaultReadFleetResults.live) {
      const r = await pool.query<{ line: string }>(
        "SELECT line::text AS line FROM footfall_live WHERE shop_id = $1 AND day >= $2 AND day < $3 ORDER BY start_ms",
        [shopId, sinceDay, untilDay],
      );
      for (const row of r.rows) out.push(JSON.parse(row.line) as AnalysisRecord);
    }
  }
  return out;
}
