import type { RedisOptions } from "bullmq";
import { Redis, type RedisOptions as IoRedisOptions } from "ioredis";
import { FleetSettingsError } from "../errors/FleetSettingsError.ts";
import { redactUrl, scrub, urlSecrets } from "./redactUrl.ts";

/**
 * Connection settings for the fleet's BullMQ queues, from a `redis://` (or `rediss://`) URL,
 * after one PING proves the server is there and a warning check of `maxmemory-policy` (BullMQ
 * needs `noeviction`; `warn` receives one line otherwise). A malformed URL or an unreachable or
 * refusing server is a {@link FleetSettingsError} whose message never contains the password.
 *
 * The returned options make BullMQ wait through a Redis restart (retry forever, no per-command
 * retry limit) instead of failing jobs.
 *
 * @example
 * import { Queue } from "bullmq";
 * const connection = await openFleetRedis(redisUrl); // e.g. "redis://127.0.0.1:6379"
 * const queue = new Queue(FLEET_QUEUE, { connection });
 * await queue.close();
 */
export async function openFleetRedis(url: string, warn: (line: string) => void = () => undefined): Promise<RedisOptions> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new FleetSettingsError("--redis", "not a URL; expected redis://[:PASSWORD@]HOST:PORT[/DB]");
  }
  if (parsed.protocol !== "redis:" && parsed.protocol !== "rediss:") {
    throw new FleetSettingsError("--redis", `expected a redis:// URL, got ${redactUrl(url)}`);
  }
  const db = parsed.pathname.length > 1 ? Number(parsed.pathname.slice(1)) : 0;
  if (!Number.isInteger(db) || db < 0) throw new FleetSettingsError("--redis", `bad database number in ${redactUrl(url)}`);
  const options: RedisOptions = {
    host: parsed.hostname,
    port: parsed.port === "" ? 6379 : Number(parsed.port),
    db,
    ...(parsed.username === "" ? {} : { username: decodeURIComponent(parsed.username) }),
    ...(parsed.password === "" ? {} : { password: decodeURIComponent(parsed.password) }),
    ...(parsed.protocol === "rediss:" ? { tls: {} } : {}),
    maxRetriesPerRequest: null,
    // Back off to 2 s between reconnects while Redis restarts.
    retryStrategy: (times: number) => Math.min(100 * times, 2_000),
  };
  // BullMQ's option type is ioredis' with looser optional fields; the values are the same.
  const probe = new Redis({ ...(options as IoRedisOptions), lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, connectTimeout: 5_000 });
  // ioredis reports the cause (ECONNREFUSED, ENOTFOUND, WRONGPASS) here and then rejects with
  // a bare "Connection is closed.": keep the cause for the message.
  let cause: Error | undefined;
  probe.on("error", (e: Error) => {
    cause ??= e;
  });
  const secrets = urlSecrets(url);
  try {
    await probe.connect();
    await probe.ping();
    const policy = (await probe.config("GET", "maxmemory-policy").catch(() => [])) as string[];
    if (policy[1] !== undefined && policy[1] !== "noeviction") {
      warn(`Redis maxmemory-policy is ${policy[1]}; BullMQ needs noeviction (jobs may be evicted)`);
    }
  } catch (error) {
    const e = cause ?? error;
    const code = (e as { code?: unknown }).code;
    const text = e instanceof Error ? e.message : String(e);
    const reason = scrub(typeof code === "string" && !text.includes(code) ? `${code}: ${text}` : text, secrets);
    throw new FleetSettingsError("--redis", `cannot use ${redactUrl(url)} (${reason})`);
  } finally {
    probe.disconnect();
  }
  return options;
}
