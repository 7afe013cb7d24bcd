import pg from "pg";
import { FleetSettingsError } from "../errors/FleetSettingsError.ts";
import { redactUrl, scrub, urlSecrets } from "./redactUrl.ts";

/**
 * Options of {@link openFleetDatabase}.
 *
 * @example
 * const options: OpenFleetDatabaseOptions = { max: 4, connectTimeoutMs: 5_000 };
 */
export interface OpenFleetDatabaseOptions {
  /** Most connections in the pool. @default 4 */
  readonly max?: number;
  /** Give up connecting after this long, ms. @default 5000 */
  readonly connectTimeoutMs?: number;
}

/**
 * Defaults of {@link OpenFleetDatabaseOptions}.
 *
 * @example
 * defaultOpenFleetDatabase.max; // 4
 */
export const defaultOpenFleetDatabase = { max: 4, connectTimeoutMs: 5_000 } as const satisfies OpenFleetDatabaseOptions;

/**
 * A connection pool to the fleet's PostgreSQL database (`postgres://` or `postgresql://` URL),
 * checked with one query before it is returned. A malformed URL or an unreachable or refusing
 * server is a {@link FleetSettingsError} whose message never contains the password. Close it with
 * `pool.end()`.
 *
 * @example
 * const pool = await openFleetDatabase(databaseUrl); // e.g. "postgres://footfall@127.0.0.1:5432/footfall"
 * await pool.end();
 */
export async function openFleetDatabase(url: string, options: OpenFleetDatabaseOptions = {}): Promise<pg.Pool> {
  const max = options.max ?? defaultOpenFleetDatabase.max;
  const connectTimeoutMs = options.connectTimeoutMs ?? defaultOpenFleetDatabase.connectTimeoutMs;
  if (!Number.isInteger(max) || max < 1) throw new RangeError(`openFleetDatabase: max must be an integer ≥ 1, got ${String(max)}`);
  if (!(connectTimeoutMs > 0)) throw new RangeError(`openFleetDatabase: connectTimeoutMs must be > 0, got ${String(connectTimeoutMs)}`);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new FleetSettingsError("--database", "not a URL; expected postgres://USER[:PASSWORD]@HOST:PORT/DATABASE");
  }
  if (parsed.protocol !== "postgres:" && parsed.protocol !== "postgresql:") {
    throw new FleetSettingsError("--database", `expected a postgres:// URL, got ${redactUrl(url)}`);
  }
  const secrets = urlSecrets(url);
  const pool = new pg.Pool({ connectionString: url, max, connectionTimeoutMillis: connectTimeoutMs });
  // An idle client's error (the server restarted) must not crash the process: the next query reconnects.
  pool.on("error", () => undefined);
  try {
    await pool.query("SELECT 1");
  } catch (error) {
    await pool.end().catch(() => undefined);
    const reason = scrub(describe(error), secrets);
    throw new FleetSettingsError("--database", `cannot use ${redactUrl(url)} (${reason})`);
  }
  return pool;
}

function describe(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) return describe(error.errors[0]);
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    const msg = error.message !== "" ? error.message : String(code ?? error.name);
    return typeof code === "string" && !msg.includes(code) ? `${code}: ${msg}` : msg;
  }
  return String(error);
}
