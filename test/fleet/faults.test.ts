import { Redis } from "ioredis";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createWorld } from "../../src/sim/createWorld.ts";
import type { World } from "../../src/sim/world/World.ts";
import { startSimulator, type RunningSimulator } from "../../src/sim/service/startSimulator.ts";
import { fleetTestsSkipped, startPostgres, startRedis, type TestPostgres, type TestRedis } from "./fleetServers.ts";
import { cli, expectStoredEqual, fleetJobs, singleProcess, startWorker, stopWorker, type WorkerProcess } from "./fleetRun.ts";

const TZ = "Asia/Seoul";
const SINCE = "2026-11-16";
const UNTIL = "2026-11-18";
// Short locks, so a dead or frozen worker loses its job within seconds.
const FAST_LOCKS = ["--lock-ms", "1500", "--stalled-ms", "500"];

/**
 * Each fault against real servers: one redis-server and one PostgreSQL for the file, a fresh
 * database and Redis DB per test. Expected results come from a simulator without faults serving
 * the same world; the simulators under test add latency (so a job is surely in progress when the
 * fault strikes) or seeded failures and throttling.
 */
describe.skipIf(fleetTestsSkipped())("fleet faults", () => {
  let redis: TestRedis;
  let postgres: TestPostgres;
  let world: World;
  let clean: RunningSimulator;
  let slow: RunningSimulator;
  let shops: number[];
  let expected: Awaited<ReturnType<typeof singleProcess>>;
  let workers: WorkerProcess[] = [];
  let n = 0;

  beforeAll(async () => {
    [redis, postgres] = await Promise.all([startRedis(), startPostgres()]);
    world = createWorld({
      seed: 16,
      shops: 2,
      days: 2,
      start: SINCE,
      visitorsPerDay: 30,
      passersByPerDay: 100,
      staffPerShop: 1,
      stationaryPerShop: 0,
      openingHours: [10, 13],
      returningShare: 0.5,
    });
    shops = world.shops.map((s) => s.id);
    clean = await startSimulator({ seed: 16, world });
    slow = await startSimulator({ seed: 16, world, faults: { latencyMs: 25 } });
    expected = await singleProcess(clean, shops, SINCE, UNTIL, TZ);
  }, 120_000);

  afterEach(async () => {
    await Promise.all(workers.map(stopWorker));
    workers = [];
  });

  afterAll(async () => {
    await Promise.all([clean?.close(), slow?.close()]);
    await Promise.all([redis?.stop(), postgres?.stop()]);
  });

  /** A fresh database (schema initialised) and Redis DB, against `sim`. */
  async function fleetEnv(sim: RunningSimulator): Promise<Record<string, string>> {
    n++;
    const env = {
      FOOTFALL_REDIS_URL: `${redis.url}/${n}`,
      FOOTFALL_DATABASE_URL: await postgres.createDatabase(`faults${n}`),
      FOOTFALL_SIGNAL_URL: sim.signalUrl,
      FOOTFALL_EMAIL: sim.email,
      FOOTFALL_TOKEN: sim.token,
    };
    expect((await cli(env, ["fleet", "init"])).status).toBe(0);
    return env;
  }

  function worker(env: Record<string, string>, name: string, args: readonly string[] = []): WorkerProcess {
    const w = startWorker(env, ["--name", name, ...FAST_LOCKS, ...args]);
    workers.push(w);
    return w;
  }

  it("a worker SIGKILLed in the middle of a job: another takes the job over, results equal", async () => {
    const env = await fleetEnv(slow);
    const a = worker(env, "A");
    await a.waitFor(/ready/);
    const backfill = cli(env, ["fleet", "backfill", "--shops", shops.join(","), "--since", SINCE, "--until", "2026-11-17", "--wait"]);
    const [, jobId] = (await a.waitFor(/job (\S+) started/)) as RegExpMatchArray & [string, string];
    process.kill(a.pid, "SIGKILL");
    expect(await a.exited).toBe("SIGKILL");
    const b = worker(env, "B");
    const done = await backfill;
    expect(done.status).toBe(0);
    // The fault happened: the killed job stalled, and B committed it under a newer claim.
    expect(b.err).toContain(`job ${jobId} stalled`);
    expect(a.err).not.toContain(`job ${jobId} committed`);
    const rows = await expectStoredEqual(env, expected, shops, SINCE, "2026-11-17");
    const row = rows.find((r) => r.job_id === jobId)!;
    expect(row.worker).toBe("B");
    expect(Number(row.epoch)).toBeGreaterThanOrEqual(2);
    expect((await fleetJobs(env)).failed).toBe(0);
  }, 120_000);

  it("a worker SIGSTOPped past its lock, then resumed: its late commit is refused", async () => {
    const env = await fleetEnv(slow);
    const a = worker(env, "A");
    await a.waitFor(/ready/);
    const backfill = cli(env, ["fleet", "backfill", "--shops", String(shops[0]), "--since", SINCE, "--until", "2026-11-17", "--wait"]);
    const [, jobId] = (await a.waitFor(/job (\S+) started/)) as RegExpMatchArray & [string, string];
    process.kill(a.pid, "SIGSTOP");
    const b = worker(env, "B");
    await b.waitFor(new RegExp(`job ${jobId} committed`));
    expect((await backfill).status).toBe(0);
    process.kill(a.pid, "SIGCONT");
    // A wakes up, finishes reading the day and tries to commit under its old claim.
    const [refused] = await a.waitFor(new RegExp(`job ${jobId}: commit of ${jobId} refused: claim 1 is stale \\(now \\d+\\)`));
    expect(refused).toBeDefined();
    expect(b.err).toContain(`job ${jobId} stalled`);
    const rows = await expectStoredEqual(env, expected, [shops[0]!], SINCE, "2026-11-17");
    // Only B's commit stands (a loaded machine may make B's own lock lapse once more: epoch ≥ 2).
    expect(rows[0]!.worker).toBe("B");
    expect(Number(rows[0]!.epoch)).toBeGreaterThanOrEqual(2);
    expect((await fleetJobs(env)).failed).toBe(0);
  }, 120_000);

  it("Redis restarted during a run: every shop-day is still done once", async () => {
    const env = await fleetEnv(slow);
    const ws = [worker(env, "A"), worker(env, "B")];
    await Promise.all(ws.map((w) => w.waitFor(/ready/)));
    const backfill = cli(env, ["fleet", "backfill", "--shops", shops.join(","), "--since", SINCE, "--until", UNTIL, "--wait"]);
    await Promise.race(ws.map((w) => w.waitFor(/committed/)));
    const committedBefore = ws.map((w) => (w.err.match(/committed/g) ?? []).length).reduce((a, b) => a + b, 0);
    await redis.restart();
    const done = await backfill;
    expect(done.status).toBe(0);
    // The fault happened mid-run: jobs were still to do when Redis went away.
    expect(committedBefore).toBeLessThan(shops.length * 2);
    await expectStoredEqual(env, expected, shops, SINCE, UNTIL);
    expect((await fleetJobs(env)).failed).toBe(0);
  }, 120_000);

  it("Redis losing its data (as a restart without persistence would): --wait enqueues the lost jobs again", async () => {
    const env = await fleetEnv(slow);
    const ws = [worker(env, "A"), worker(env, "B")];
    await Promise.all(ws.map((w) => w.waitFor(/ready/)));
    const backfill = cli(env, ["fleet", "backfill", "--shops", shops.join(","), "--since", SINCE, "--until", UNTIL, "--wait"]);
    await Promise.race(ws.map((w) => w.waitFor(/committed/)));
    const r = new Redis(env.FOOTFALL_REDIS_URL!);
    await r.flushdb();
    r.disconnect();
    const done = await backfill;
    expect(done.status).toBe(0);
    expect(done.err).toMatch(/Redis lost \d+ job\(s\); enqueueing them again/);
    await expectStoredEqual(env, expected, shops, SINCE, UNTIL);
    expect((await fleetJobs(env)).failed).toBe(0);
  }, 120_000);

  it("the signal service failing and throttling: retried, results equal", async () => {
    const faulty = await startSimulator({ seed: 16, world, faults: { failRate: 0.15, throttleRate: 0.15, retryAfterS: 0 } });
    try {
      const env = await fleetEnv(faulty);
      const ws = [worker(env, "A"), worker(env, "B")];
      await Promise.all(ws.map((w) => w.waitFor(/ready/)));
      const done = await cli(env, ["fleet", "backfill", "--shops", shops.join(","), "--since", SINCE, "--until", "2026-11-17", "--wait"]);
      expect(done.status).toBe(0);
      const log = ws.map((w) => w.err).join("");
      expect(log).toMatch(/HTTP 5\d\d.*retrying in/);
      expect(log).toMatch(/HTTP 429.*retrying in/);
      await expectStoredEqual(env, expected, shops, SINCE, "2026-11-17");
      expect((await fleetJobs(env)).failed).toBe(0);
    } finally {
      await faulty.close();
    }
  }, 120_000);
});
