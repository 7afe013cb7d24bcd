import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWorld } from "../../src/sim/createWorld.ts";
import { startSimulator, type RunningSimulator } from "../../src/sim/service/startSimulator.ts";
import { fleetTestsSkipped, freePort, startPostgres, startRedis, type TestPostgres, type TestRedis } from "./fleetServers.ts";
import { cli, startWorker, stopWorker } from "./fleetRun.ts";

const SECRET = "hunter2-Zq9";

describe("fleet settings (no servers needed)", () => {
  it.each([
    ["a Redis URL of another scheme", ["fleet", "backfill", "--shops", "1", "--since", "2026-11-16", "--until", "2026-11-17", "--redis", `mysql://u:${SECRET}@h/x`], /--redis: expected a redis:\/\/ URL/],
    ["no URL at all", ["fleet", "backfill", "--shops", "1", "--since", "2026-11-16", "--until", "2026-11-17", "--redis", "not a url"], /--redis: not a URL/],
    ["a database URL of another scheme", ["fleet", "results", "--shops", "1", "--since", "2026-11-16", "--until", "2026-11-17", "--database", `mysql://u:${SECRET}@h/x`], /--database: expected a postgres:\/\/ URL/],
    ["missing settings", ["fleet", "status"], /missing --redis \(or FOOTFALL_REDIS_URL\)/],
    ["bad shops", ["fleet", "backfill", "--shops", "1,x", "--since", "2026-11-16", "--until", "2026-11-17"], /--shops must be/],
    ["an unknown subcommand", ["fleet", "frobnicate"], /unknown fleet command/],
  ])("%s: one line, exit 2, no password", async (_name, argv, message) => {
    const r = await cli({}, argv);
    expect(r.status).toBe(2);
    expect(r.err).toMatch(message);
    expect(r.err.trim().split("\n")).toHaveLength(1);
    expect(r.err).not.toContain(SECRET);
  });

  it("unreachable Redis or PostgreSQL: one line, exit 2, the password masked", async () => {
    const port = await freePort();
    const redis = await cli({}, ["fleet", "backfill", "--shops", "1", "--since", "2026-11-16", "--until", "2026-11-17", "--redis", `redis://:${SECRET}@127.0.0.1:${port}`]);
    expect(redis.status).toBe(2);
    expect(redis.err).toMatch(new RegExp(`^footfall fleet: --redis: cannot use redis://:\\*\\*\\*@127\\.0\\.0\\.1:${port} \\(.+\\)\\n$`));
    const db = await cli({}, ["fleet", "results", "--shops", "1", "--since", "2026-11-16", "--until", "2026-11-17", "--database", `postgres://app:${SECRET}@127.0.0.1:${port}/footfall`]);
    expect(db.status).toBe(2);
    expect(db.err).toMatch(new RegExp(`^footfall fleet: --database: cannot use postgres://app:\\*\\*\\*@127\\.0\\.0\\.1:${port}/footfall \\(.+\\)\\n$`));
    for (const r of [redis, db]) expect(r.err + r.out).not.toContain(SECRET);
  });
});

describe.skipIf(fleetTestsSkipped())("fleet schema and worker lifecycle", () => {
  let redis: TestRedis;
  let postgres: TestPostgres;
  let sim: RunningSimulator;

  beforeAll(async () => {
    [redis, postgres] = await Promise.all([startRedis(), startPostgres()]);
    const world = createWorld({ seed: 18, shops: 1, days: 1, start: "2026-11-16", visitorsPerDay: 30, passersByPerDay: 100, staffPerShop: 1, stationaryPerShop: 0, openingHours: [10, 13] });
    sim = await startSimulator({ seed: 18, world, faults: { latencyMs: 25 } });
  });

  afterAll(async () => {
    await sim?.close();
    await Promise.all([redis?.stop(), postgres?.stop()]);
  });

  it("fleet init is idempotent; a schema of another version is refused with exit 2", async () => {
    const url = await postgres.createDatabase("schema_test");
    const env = { FOOTFALL_DATABASE_URL: url, FOOTFALL_REDIS_URL: redis.url };
    const results = ["fleet", "results", "--shops", "1", "--since", "2026-11-16", "--until", "2026-11-17"];
    const before = await cli(env, results);
    expect(before.status).toBe(2);
    expect(before.err).toMatch(/no footfall schema; run `footfall fleet init`/);
    expect((await cli(env, ["fleet", "init"])).err).toMatch(/schema version 4 created/);
    expect((await cli(env, ["fleet", "init"])).err).toMatch(/schema version 4 already current/);
    expect((await cli(env, results)).status).toBe(0);
    const db = new pg.Client({ connectionString: url });
    await db.connect();
    const visitorsNullable = async () =>
      (await db.query<{ n: string }>("SELECT is_nullable AS n FROM information_schema.columns WHERE table_name = 'footfall_summaries' AND column_name = 'visitors'")).rows[0]!.n;
    expect(await visitorsNullable()).toBe("YES");
    const liveTable = async () => (await db.query<{ t: string | null }>("SELECT to_regclass('footfall_live')::text AS t")).rows[0]!.t;
    expect(await liveTable()).toBe("footfall_live");
    // A version-1 database (visitors NOT NULL, no live or calibrations table) is refused until `fleet init` upgrades it, step by step.
    await db.query("ALTER TABLE footfall_summaries ALTER COLUMN visitors SET NOT NULL, ALTER COLUMN passers_by SET NOT NULL");
    await db.query("DROP TABLE footfall_live");
    await db.query("DROP TABLE footfall_calibrations");
    await db.query("UPDATE footfall_meta SET value = '1' WHERE key = 'schema_version'");
    const old = await cli(env, results);
    expect(old.status).toBe(2);
    expect(old.err).toMatch(/schema version 1; this footfall uses version 4/);
    expect((await cli(env, ["fleet", "init"])).err).toMatch(/schema upgraded to version 4/);
    expect(await visitorsNullable()).toBe("YES");
    expect(await liveTable()).toBe("footfall_live");
    expect((await db.query<{ t: string | null }>("SELECT to_regclass('footfall_calibrations')::text AS t")).rows[0]!.t).toBe("footfall_calibrations");
    expect((await cli(env, results)).status).toBe(0);
    await db.query("UPDATE footfall_meta SET value = '99' WHERE key = 'schema_version'");
    await db.end();
    for (const argv of [results, ["fleet", "init"], ["fleet", "status"]]) {
      const r = await cli(env, argv);
      expect(r.status).toBe(2);
      expect(r.err).toMatch(/schema: the database holds footfall schema version 99; this footfall uses version 4\n$/);
    }
  });

  it("SIGTERM: the worker hands its job back and exits 0; another finishes it", async () => {
    const env = {
      FOOTFALL_REDIS_URL: `${redis.url}/1`,
      FOOTFALL_DATABASE_URL: await postgres.createDatabase("lifecycle"),
      FOOTFALL_SIGNAL_URL: sim.signalUrl,
      FOOTFALL_EMAIL: sim.email,
      FOOTFALL_TOKEN: sim.token,
    };
    expect((await cli(env, ["fleet", "init"])).status).toBe(0);
    const ws = [startWorker(env, ["--name", "A"]), startWorker(env, ["--name", "B"])];
    try {
      await Promise.all(ws.map((w) => w.waitFor(/ready/)));
      const shop = String(sim.world.shops[0]!.id);
      const backfill = cli(env, ["fleet", "backfill", "--shops", shop, "--since", "2026-11-16", "--until", "2026-11-17", "--wait"]);
      // Whichever worker took the job is stopped; the other must finish it.
      const [stopped, jobId] = await Promise.race(ws.map((w) => w.waitFor(/job (\S+) started/).then((m) => [w, m[1]!] as const)));
      const other = ws.find((w) => w !== stopped)!;
      process.kill(stopped.pid, "SIGTERM");
      expect(await stopped.exited).toBe(0);
      expect(stopped.err).toContain(`job ${jobId} handed back`);
      expect(stopped.err).not.toContain(`job ${jobId} committed`);
      expect((await backfill).status).toBe(0);
      expect(other.err).toContain(`job ${jobId} committed`);
    } finally {
      await Promise.all(ws.map(stopWorker));
    }
  }, 120_000);
});
