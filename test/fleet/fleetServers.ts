import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, openSync, readdirSync, rmSync, closeSync } from "node:fs";
import { createServer, createConnection } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * The command that installs what the fleet tests need on Debian/Ubuntu.
 *
 * @example
 * console.log(INSTALL_FLEET_SERVERS);
 */
export const INSTALL_FLEET_SERVERS = "sudo apt-get install -y redis-server postgresql";

/** Where PostgreSQL's server programs are (Debian keeps them out of PATH), or undefined. */
function postgresBin(): string | undefined {
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root).sort((a, b) => Number(b) - Number(a));
  for (const v of versions) if (existsSync(join(root, v, "bin", "postgres"))) return join(root, v, "bin");
  return undefined;
}

function onPath(cmd: string): boolean {
  return spawnSync("sh", ["-c", `command -v ${cmd}`], { stdio: "ignore" }).status === 0;
}

/** The uid/gid PostgreSQL runs as when we are root (it refuses to run as root). */
function postgresUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const r = spawnSync("id", ["-u", "postgres"], { encoding: "utf8" });
  const g = spawnSync("id", ["-g", "postgres"], { encoding: "utf8" });
  if (r.status !== 0 || g.status !== 0) return undefined;
  return { uid: Number(r.stdout.trim()), gid: Number(g.stdout.trim()) };
}

/**
 * Whether redis-server and PostgreSQL can be started here: `undefined` when they can, else why not.
 * In CI (CI=true) a missing server must fail the fleet tests, never skip them: see {@link fleetTestsSkipped}.
 *
 * @example
 * const missing = fleetServersMissing();
 */
export function fleetServersMissing(): string | undefined {
  const missing: string[] = [];
  if (!onPath("redis-server")) missing.push("redis-server");
  if (postgresBin() === undefined) missing.push("PostgreSQL (/usr/lib/postgresql/*/bin)");
  else if (process.getuid?.() === 0 && postgresUser() === undefined) missing.push("the postgres system user");
  return missing.length === 0 ? undefined : missing.join(" and ");
}

/**
 * True when this fleet test file must be skipped: servers missing outside CI. Prints one line
 * (once per test run) naming the skipped fleet tests and the install command. In CI it returns
 * false, so the tests run and fail on the missing servers.
 *
 * @example
 * describe.skipIf(fleetTestsSkipped())("fleet", () => { … });
 */
export function fleetTestsSkipped(): boolean {
  const missing = fleetServersMissing();
  if (missing === undefined || process.env.CI === "true" || process.env.CI === "1") return false;
  // One line per `npm test`, whichever fleet file asks first.
  try {
    closeSync(openSync(join(tmpdir(), `footfall-fleet-skipped-${process.ppid}`), "wx"));
    process.stderr.write(
      `footfall: skipped the fleet server tests (test/fleet/backfill, faults, tail, the fleet's @examples in test/fleet/examples, and settings' schema and lifecycle: they need ${missing}); install with: ${INSTALL_FLEET_SERVERS}\n`,
    );
  } catch {
    // Already said.
  }
  return true;
}

/**
 * A free TCP port on 127.0.0.1 (asked of the OS).
 *
 * @example
 * const port = await freePort();
 */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

async function until(what: string, ok: () => Promise<boolean>, child: ChildProcess, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  // A program that cannot be started (not installed: ENOENT) fails the test with the install hint.
  let failed: Error | undefined;
  child.once("error", (e) => {
    failed = e;
  });
  while (!(await ok())) {
    if (failed !== undefined) throw new Error(`${what} could not start (${failed.message}); ${INSTALL_FLEET_SERVERS}`);
    if (child.exitCode !== null) throw new Error(`${what} exited with ${child.exitCode}`);
    if (Date.now() > deadline) throw new Error(`${what} did not start`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = createConnection({ port, host: "127.0.0.1" });
    s.once("connect", () => {
      s.destroy();
      resolve(true);
    });
    s.once("error", () => resolve(false));
  });
}

async function stopChild(child: ChildProcess, signal: NodeJS.Signals = "SIGTERM"): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  process.kill(child.pid, signal);
  const timer = setTimeout(() => child.pid !== undefined && child.exitCode === null && process.kill(child.pid, "SIGKILL"), 10_000);
  await exited;
  clearTimeout(timer);
}

/**
 * A redis-server of the test's own: temp dir, free port, AOF on every write (a restart loses
 * nothing), `noeviction` as BullMQ needs. Stopped by its own pid.
 *
 * @example
 * const redis = await startRedis();
 * await redis.restart();
 * await redis.stop();
 */
export interface TestRedis {
  readonly url: string;
  readonly port: number;
  /** The redis-server process's id (a new one after `restart`), e.g. for a bench's CPU accounting. */
  readonly pid: number;
  /** Stops (SIGTERM, by pid) and starts it again on the same port and data. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

/** @see TestRedis */
export async function startRedis(): Promise<TestRedis> {
  const dir = mkdtempSync(join(tmpdir(), "footfall-redis-"));
  const port = await freePort();
  let child: ChildProcess;
  const start = async (): Promise<void> => {
    child = spawn(
      "redis-server",
      ["--port", String(port), "--bind", "127.0.0.1", "--dir", dir, "--appendonly", "yes", "--appendfsync", "always", "--save", "", "--maxmemory-policy", "noeviction", "--protected-mode", "no"],
      { stdio: "ignore" },
    );
    await until("redis-server", () => portOpen(port), child);
  };
  try {
    await start();
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    get pid() {
      return child.pid ?? 0;
    },
    restart: async () => {
      await stopChild(child);
      await start();
    },
    stop: async () => {
      await stopChild(child);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A PostgreSQL server of the test's own (initdb in a temp dir owned by the postgres user when we
 * are root, trust authentication on 127.0.0.1, a free port), with one database `footfall`.
 * Stopped by its own pid.
 *
 * @example
 * const pg = await startPostgres();
 * process.env.FOOTFALL_DATABASE_URL = pg.url;
 * await pg.stop();
 */
export interface TestPostgres {
  /** `postgres://postgres@127.0.0.1:PORT/footfall`. */
  readonly url: string;
  readonly port: number;
  /** The postmaster's process id (its backends are its children), e.g. for a bench's CPU accounting. */
  readonly pid: number;
  /** A URL to a fresh, empty database of this server. */
  createDatabase(name: string): Promise<string>;
  stop(): Promise<void>;
}

/** @see TestPostgres */
export async function startPostgres(): Promise<TestPostgres> {
  const bin = postgresBin();
  if (bin === undefined) throw new Error(`PostgreSQL is not installed; ${INSTALL_FLEET_SERVERS}`);
  const user = postgresUser();
  const dir = mkdtempSync(join(tmpdir(), "footfall-pg-"));
  if (user !== undefined) chownSync(dir, user.uid, user.gid);
  const as = user === undefined ? {} : { uid: user.uid, gid: user.gid };
  const data = join(dir, "data");
  const init = spawnSync(join(bin, "initdb"), ["-D", data, "-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8", "--locale", "C"], {
    ...as,
    encoding: "utf8",
    cwd: dir,
  });
  if (init.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`initdb failed: ${init.stderr}`);
  }
  const port = await freePort();
  const child = spawn(
    join(bin, "postgres"),
    ["-D", data, "-p", String(port), "-k", dir, "-c", "listen_addresses=127.0.0.1", "-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off"],
    { ...as, stdio: "ignore", cwd: dir },
  );
  await until("postgres", () => portOpen(port), child);
  const psql = (sql: string): void => {
    const r = spawnSync(join(bin, "psql"), ["-h", "127.0.0.1", "-p", String(port), "-U", "postgres", "-d", "postgres", "-v", "ON_ERROR_STOP=1", "-c", sql], {
      encoding: "utf8",
    });
    if (r.status !== 0) throw new Error(`psql failed: ${r.stderr}`);
  };
  // The server accepts connections a moment after it listens.
  for (let i = 0; ; i++) {
    try {
      psql("CREATE DATABASE footfall");
      break;
    } catch (error) {
      if (i > 50) throw error;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  const url = (db: string): string => `postgres://postgres@127.0.0.1:${port}/${db}`;
  return {
    url: url("footfall"),
    port,
    pid: child.pid ?? 0,
    createDatabase: async (name) => {
      psql(`CREATE DATABASE ${name}`);
      return url(name);
    },
    stop: async () => {
      // SIGINT: PostgreSQL's fast shutdown.
      await stopChild(child, "SIGINT");
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
