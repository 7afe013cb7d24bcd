import type { Pool } from "pg";
import type { RedisOptions } from "bullmq";
import { isFleetSettingsError } from "../errors/FleetSettingsError.ts";
import { UsageError, type CliIo } from "./common.ts";

/**
 * Flags of the fleet's servers, shared by `footfall worker` and `footfall fleet`.
 *
 * @example
 * const { values } = parseFlags(argv, { ...fleetServerFlags });
 */
export const fleetServerFlags = {
  redis: { type: "string" },
  database: { type: "string" },
} as const;

/**
 * The Redis connection from `--redis` or `FOOTFALL_REDIS_URL`, checked; a missing, malformed or
 * unreachable one is a {@link UsageError} (exit 2) without the password.
 *
 * @example
 * const connection = await fleetRedis(values, io, "fleet");
 */
export async function fleetRedis(values: Readonly<Record<string, unknown>>, io: CliIo, name: string): Promise<RedisOptions> {
  const url = setting(values.redis, io.env.FOOTFALL_REDIS_URL, "--redis", "FOOTFALL_REDIS_URL");
  const { openFleetRedis } = await import("../fleet/openFleetRedis.ts");
  return usage(() => openFleetRedis(url, (line) => io.stderr.write(`footfall ${name}: ${line}\n`)));
}

/**
 * The PostgreSQL pool from `--database` or `FOOTFALL_DATABASE_URL`, checked (and, unless `init`,
 * its schema version); a missing, malformed or unreachable one, or a schema of another version,
 * is a {@link UsageError} (exit 2) without the password.
 *
 * @example
 * const pool = await fleetDatabase(values, io);
 * await pool.end();
 */
export async function fleetDatabase(values: Readonly<Record<string, unknown>>, io: CliIo, checkSchema = true): Promise<Pool> {
  const url = setting(values.database, io.env.FOOTFALL_DATABASE_URL, "--database", "FOOTFALL_DATABASE_URL");
  const [{ openFleetDatabase }, { assertFleetSchema }] = await Promise.all([import("../fleet/openFleetDatabase.ts"), import("../fleet/fleetSchema.ts")]);
  const pool = await usage(() => openFleetDatabase(url));
  if (checkSchema) {
    try {
      await usage(() => assertFleetSchema(pool));
    } catch (error) {
      await pool.end().catch(() => undefined);
      throw error;
    }
  }
  return pool;
}

/**
 * `--shops 101,102,…` → SHOP IDs; anything else is a {@link UsageError}.
 *
 * @example
 * shopsFlag("101,102"); // [101, 102]
 */
export function shopsFlag(value: string | undefined): number[] {
  if (value === undefined || value.trim() === "") throw new UsageError("--shops ID,ID,… is required");
  const shops = value.split(",").map((s) => s.trim());
  if (!shops.every((s) => /^\d+$/.test(s) && Number.isSafeInteger(Number(s)))) {
    throw new UsageError(`--shops must be SHOP IDs separated by commas, got ${JSON.stringify(value)}`);
  }
  return [...new Set(shops.map(Number))];
}

function setting(flag: unknown, env: string | undefined, name: string, variable: string): string {
  const value = typeof flag === "string" && flag !== "" ? flag : env;
  if (value === undefined || value === "") throw new UsageError(`missing ${name} (or ${variable})`);
  return value;
}

async function usage<T>(f: () => Promise<T>): Promise<T> {
  try {
    return await f();
  } catch (error) {
    if (isFleetSettingsError(error)) throw new UsageError(error.message);
    throw error;
  }
}
