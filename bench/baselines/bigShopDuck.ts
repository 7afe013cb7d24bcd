/**
 * The DuckDB baseline of the big shop-day bench (issue 13): what an analyst would pick instead
 * of footfall for the minimal job, in one SQL query over the NDJSON file — `read_ndjson`,
 * sessions per shop and device by a 5-minute gap (LAG, then a running SUM of "new session"
 * flags), visits (dwell ≥ 5 min and peak RSSI ≥ −75 dBm), then per shop and local day of the
 * session's start: sessions, visits, visitors (devices with a visit) and devices. The same
 * rules as bench/baselines/bigShopLoop.ts, so both must give the same counts. Two threads
 * (`SET threads = 2`), the machine's cores.
 *
 * Run as its own process by the bench: `node bigShopDuck.js FILE [TIME_ZONE]` prints one JSON
 * line shaped like the loop's result (`records`, `days`).
 */
import { fileURLToPath } from "node:url";
import type { BigShopDayCounts, BigShopLoopResult } from "./bigShopLoop.ts";

/**
 * The query; `$file` and `$tz` are bound as parameters. A gap of exactly 5 min stays in the
 * session (the library's rule: gaps up to `gapMs` inclusive).
 */
const QUERY = `
WITH records AS (
  SELECT CAST(split_part(row_key, ':', 1) AS BIGINT) AS shop_id, device_id, rssi, ts
  FROM read_ndjson($file, columns = {row_key: 'VARCHAR', device_id: 'VARCHAR', rssi: 'INTEGER', ts: 'BIGINT'})
),
flagged AS (
  SELECT *, CASE WHEN ts - lag(ts) OVER (PARTITION BY shop_id, device_id ORDER BY ts) <= 300000 THEN 0 ELSE 1 END AS new_session
  FROM records
),
numbered AS (
  SELECT *, sum(new_session) OVER (PARTITION BY shop_id, device_id ORDER BY ts ROWS UNBOUNDED PRECEDING) AS session
  FROM flagged
),
sessions AS (
  SELECT shop_id, device_id, min(ts) AS start_ms, max(ts) - min(ts) AS dwell_ms, max(rssi) AS peak
  FROM numbered GROUP BY shop_id, device_id, session
),
dated AS (
  SELECT *, strftime(make_timestamp(start_ms * 1000) AT TIME ZONE 'UTC' AT TIME ZONE $tz, '%Y-%m-%d') AS date,
         dwell_ms >= 300000 AND peak >= -75 AS visit
  FROM sessions
)
SELECT shop_id, date, count(*) AS sessions, count(*) FILTER (WHERE visit) AS visits,
       count(DISTINCT device_id) FILTER (WHERE visit) AS visitors, count(DISTINCT device_id) AS devices
FROM dated GROUP BY shop_id, date ORDER BY shop_id, date`;

/**
 * Runs the query on `path` with two threads and returns the counts per shop and local day.
 *
 * @example
 * const result = await bigShopDuck("day.ndjson", "Asia/Seoul");
 * result.days[0]?.sessions;
 */
export async function bigShopDuck(path: string, timeZone: string): Promise<BigShopLoopResult> {
  const { DuckDBInstance } = await import("@duckdb/node-api");
  // Extensions come built in (json, icu); nothing may be downloaded during a bench.
  const instance = await DuckDBInstance.create(":memory:", { threads: "2", autoinstall_known_extensions: "false" });
  const connection = await instance.connect();
  try {
    await connection.run("SET threads = 2");
    const reader = await connection.runAndReadAll(QUERY, { file: path, tz: timeZone });
    const days: BigShopDayCounts[] = reader.getRowObjectsJS().map((row) => {
      return {
        shopId: Number(row["shop_id"]),
        date: String(row["date"]),
        sessions: Number(row["sessions"]),
        visits: Number(row["visits"]),
        visitors: Number(row["visitors"]),
        devices: Number(row["devices"]),
      };
    });
    // Records are not counted: a second pass over the file is no part of the minimal job.
    return { records: Number.NaN, days };
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

if (process.argv[1] !== undefined && process.argv[1] === fileURLToPath(import.meta.url)) {
  const [path, timeZone = "Asia/Seoul"] = process.argv.slice(2);
  if (path === undefined) throw new Error("usage: node bigShopDuck.js FILE [TIME_ZONE]");
  process.stdout.write(`${JSON.stringify(await bigShopDuck(path, timeZone))}\n`);
}
