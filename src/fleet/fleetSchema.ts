import type { Pool, PoolClient } from "pg";
import { FleetSettingsError } from "../errors/FleetSettingsError.ts";

/**
 * Version of the PostgreSQL schema this footfall reads and writes. `footfall fleet init` records
 * it (and upgrades an older one it knows); workers and queries refuse a database of another
 * version rather than misread it.
 *
 * @example
 * FLEET_SCHEMA_VERSION; // 4
 */
export const FLEET_SCHEMA_VERSION = 4;

/**
 * What `footfall fleet init` runs on a database of an older version to bring it to the next one,
 * by the version it upgrades from. 1 → 2: a summary's `visitors` and `passers_by` may be unknown
 * (NULL) — people estimated from a shop-day with bursts and no identity-known phone to learn a
 * burst rate or scale from — instead of a MAC-level count standing in for people. 2 → 3: live
 * tails store occupancy as the day goes on (`footfall_live`). 3 → 4: each shop's current people
 * calibration (`footfall_calibrations`), which jobs read at their start.
 */
const UPGRADES: Readonly<Record<string, string>> = {
  "1": "ALTER TABLE footfall_summaries ALTER COLUMN visitors DROP NOT NULL, ALTER COLUMN passers_by DROP NOT NULL",
  "2": liveTableSql(),
  "3": calibrationsTableSql(),
};

/** The table live tails write (schema 3): a hoisted function, so the upgrade above can use it. */
function liveTableSql(): string {
  return `CREATE TABLE IF NOT EXISTS footfall_live (
  shop_id bigint NOT NULL, start_ms bigint NOT NULL, end_ms bigint NOT NULL, day text NOT NULL,
  inside double precision, inside_low double precision, inside_high double precision,
  outside double precision, visitors double precision, visitors_low double precision,
  visitors_high double precision, line json NOT NULL,
  PRIMARY KEY (shop_id, start_ms));`;
}

/**
 * The table of people calibrations (schema 4): one current calibration per shop, as
 * `footfall fleet calibration set` stored it (`jsonb`: it is read back as an object, never
 * printed as stored, so its text need not survive); setting another replaces the row.
 */
function calibrationsTableSql(): string {
  return `CREATE TABLE IF NOT EXISTS footfall_calibrations (
  shop_id bigint PRIMARY KEY, calibration_id text NOT NULL, calibration jsonb NOT NULL,
  set_at timestamptz NOT NULL DEFAULT now());`;
}

/**
 * The schema, version 4. Every table's primary key makes each write an upsert, so a redelivered
 * job can only replace what it wrote before. Device columns are opaque text (they may hold
 * pseudonyms). Results are stored as the exact NDJSON lines `footfall analyze` prints (`json`, not
 * `jsonb`, so field order and number text survive), beside the columns analysts query.
 *
 * @example
 * console.log(FLEET_SCHEMA_SQL); // CREATE TABLE … statements
 */
export const FLEET_SCHEMA_SQL = `
CREATE TABLE IF NOT EXISTS footfall_meta (key text PRIMARY KEY, value text NOT NULL);
-- Fencing: one epoch per unit of work (scope 'day:YYYY-MM-DD' for a shop-day, 'tail' for a shop's
-- tail), raised by each claim; a commit is accepted only under the newest claim.
CREATE TABLE IF NOT EXISTS footfall_fences (
  shop_id bigint NOT NULL, scope text NOT NULL, epoch bigint NOT NULL,
  PRIMARY KEY (shop_id, scope));
-- Checkpoint of each committed shop-day, written in the transaction of its results.
CREATE TABLE IF NOT EXISTS footfall_shop_days (
  shop_id bigint NOT NULL, day text NOT NULL, since_ms bigint NOT NULL, until_ms bigint NOT NULL,
  time_zone text NOT NULL, epoch bigint NOT NULL, worker text NOT NULL, job_id text NOT NULL,
  signals bigint NOT NULL, sessions integer NOT NULL, committed_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (shop_id, day));
CREATE TABLE IF NOT EXISTS footfall_summaries (
  shop_id bigint NOT NULL, day text NOT NULL, visitors integer, visits integer NOT NULL,
  passers_by integer, capture_rate double precision, line json NOT NULL,
  PRIMARY KEY (shop_id, day));
CREATE TABLE IF NOT EXISTS footfall_sessions (
  session_id text PRIMARY KEY, shop_id bigint NOT NULL, day text NOT NULL, seq integer NOT NULL,
  device text NOT NULL, start_ms bigint NOT NULL, end_ms bigint NOT NULL, kind text NOT NULL,
  line json NOT NULL);
CREATE INDEX IF NOT EXISTS footfall_sessions_shop_day ON footfall_sessions (shop_id, day, seq);
-- Universal-MAC visitors per shop-day: new vs repeat is derived from this table when results
-- are read, so it never depends on which day's job ran first.
CREATE TABLE IF NOT EXISTS footfall_visits (
  shop_id bigint NOT NULL, device text NOT NULL, day text NOT NULL, first_ms bigint NOT NULL,
  PRIMARY KEY (shop_id, device, day));
CREATE INDEX IF NOT EXISTS footfall_visits_shop_day ON footfall_visits (shop_id, day);
-- Interval estimates of people inside (the engine's occupancy lines).
CREATE TABLE IF NOT EXISTS footfall_occupancy (
  shop_id bigint NOT NULL, start_ms bigint NOT NULL, end_ms bigint NOT NULL, day text NOT NULL,
  inside double precision, inside_low double precision, inside_high double precision,
  outside double precision, line json NOT NULL,
  PRIMARY KEY (shop_id, start_ms));
CREATE INDEX IF NOT EXISTS footfall_occupancy_shop_day ON footfall_occupancy (shop_id, day);
CREATE TABLE IF NOT EXISTS footfall_quality (
  shop_id bigint NOT NULL, day text NOT NULL, line json NOT NULL, PRIMARY KEY (shop_id, day));
-- Live tails: wanted or not, and the checkpoint (the local day in progress).
CREATE TABLE IF NOT EXISTS footfall_tails (
  shop_id bigint PRIMARY KEY, wanted boolean NOT NULL, next_day text NOT NULL, time_zone text NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now());
-- Occupancy as the day goes on, written by a shop's live tail for the day in progress (provisional:
-- the day so far); the day's commit replaces these rows by its footfall_occupancy rows.
${liveTableSql()}
-- Each shop's current people calibration: every job of the shop reads it when it starts.
${calibrationsTableSql()}
`;

// Any constant: serialises concurrent `fleet init`s on one database.
const INIT_LOCK = 0x666f6f74;

/**
 * Creates the fleet's tables when missing and records {@link FLEET_SCHEMA_VERSION}; idempotent and
 * safe to run from several machines at once. A database of an older version footfall knows is
 * upgraded in the same transaction ("upgraded"; stop the older workers first: they refuse the
 * new version). Any other version is refused with a {@link FleetSettingsError} (nothing is changed).
 *
 * @example
 * await initFleetSchema(pool); // "created" the first time, "current" after
 */
export async function initFleetSchema(pool: Pool): Promise<"created" | "current" | "upgraded"> {
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    await client.query("SELECT pg_advisory_xact_lock($1)", [INIT_LOCK]);
    await client.query("CREATE TABLE IF NOT EXISTS footfall_meta (key text PRIMARY KEY, value text NOT NULL)");
    const found = await schemaVersion(client);
    let version = found;
    // Upgrade step by step, in this transaction: every step or none.
    while (version !== undefined && version !== String(FLEET_SCHEMA_VERSION) && UPGRADES[version] !== undefined) {
      await client.query(UPGRADES[version]!);
      version = String(Number(version) + 1);
    }
    if (version !== undefined && version !== String(FLEET_SCHEMA_VERSION)) {
      throw new FleetSettingsError("schema", versionMismatch(found!));
    }
    await client.query(FLEET_SCHEMA_SQL);
    await client.query("INSERT INTO footfall_meta (key, value) VALUES ('schema_version', $1) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value", [
      String(FLEET_SCHEMA_VERSION),
    ]);
    await client.query("COMMIT");
    return found === undefined ? "created" : found === version ? "current" : "upgraded";
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/**
 * Checks that the database holds the footfall schema of this version; otherwise a
 * {@link FleetSettingsError} saying what to run.
 *
 * @example
 * await assertFleetSchema(pool);
 */
export async function assertFleetSchema(pool: Pool): Promise<void> {
  const client = await pool.connect();
  try {
    const exists = await client.query<{ t: string | null }>("SELECT to_regclass('footfall_meta')::text AS t");
    const found = exists.rows[0]?.t == null ? undefined : await schemaVersion(client);
    if (found === undefined) throw new FleetSettingsError("schema", "the database has no footfall schema; run `footfall fleet init`");
    if (found !== String(FLEET_SCHEMA_VERSION)) throw new FleetSettingsError("schema", versionMismatch(found));
  } finally {
    client.release();
  }
}

async function schemaVersion(client: PoolClient): Promise<string | undefined> {
  const r = await client.query<{ value: string }>("SELECT value FROM footfall_meta WHERE key = 'schema_version'");
  return r.rows[0]?.value;
}

function versionMismatch(found: string): string {
  return `the database holds footfall schema version ${found}; this footfall uses version ${FLEET_SCHEMA_VERSION}`;
}
