import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createWorld } from "../../src/sim/createWorld.ts";
import type { World } from "../../src/sim/World.ts";
import { startSimulator, type RunningSimulator } from "../../src/sim/startSimulator.ts";
import { fleetTestsSkipped, startPostgres, startRedis, type TestPostgres, type TestRedis } from "./fleetServers.ts";
import { cli, expectStoredEqual, fleetJobs, lines, singleProcess, startWorker, stopWorker, type WorkerProcess } from "./fleetRun.ts";

const TZ = "Asia/Seoul";
const DAY = "2026-11-16";

describe.skipIf(fleetTestsSkipped())("fleet tail", () => {
  let redis: TestRedis;
  let postgres: TestPostgres;
  let world: World;
  let shops: number[];
  let expected: Awaited<ReturnType<typeof singleProcess>>;
  let live: RunningSimulator | undefined;
  let workers: WorkerProcess[] = [];

  beforeAll(async () => {
    [redis, postgres] = await Promise.all([startRedis(), startPostgres()]);
    // Stationary devices are seen all night, so records past midnight close each day.
    world = createWorld({ seed: 17, shops: 2, days: 2, start: DAY, visitorsPerDay: 30, passersByPerDay: 100, staffPerShop: 1, stationaryPerShop: 1, openingHours: [10, 13] });
    shops = world.shops.map((s) => s.id);
    const clean = await startSimulator({ seed: 17, world });
    try {
      expected = await singleProcess(clean, shops, DAY, "2026-11-17", TZ);
    } finally {
      await clean.close();
    }
  }, 120_000);

  afterEach(async () => {
    await Promise.all(workers.map(stopWorker));
    workers = [];
  });

  afterAll(async () => {
    await live?.close();
    await Promise.all([redis?.stop(), postgres?.stop()]);
  });

  it("keeps one live tail per shop; a killed tail worker's shops resume elsewhere from the checkpoint", async () => {
    // Live: one simulated day passes in about 17 s.
    live = await startSimulator({ seed: 17, world, speed: 5_000 });
    const env = {
      FOOTFALL_REDIS_URL: redis.url,
      FOOTFALL_DATABASE_URL: postgres.url,
      FOOTFALL_SIGNAL_URL: live.signalUrl,
      FOOTFALL_EMAIL: live.email,
      FOOTFALL_TOKEN: live.token,
    };
    expect((await cli(env, ["fleet", "init"])).status).toBe(0);
    const fast = ["--lock-ms", "1500", "--stalled-ms", "500", "--concurrency", "2"];
    const a = startWorker(env, ["--name", "A", ...fast]);
    workers.push(a);
    await a.waitFor(/ready/);
    const tail = ["fleet", "tail", "--shops", shops.join(","), "--since", DAY, "--poll-ms", "200"];
    expect((await cli(env, tail)).status).toBe(0);
    // Asking again does not start a second tail of the same shop.
    expect((await cli(env, tail)).status).toBe(0);
    await Promise.all(shops.map((s) => a.waitFor(new RegExp(`job tail-${s} started`))));
    expect(await fleetJobs(env)).toMatchObject({ active: 2, waiting: 0 });
    process.kill(a.pid, "SIGKILL");
    await a.exited;
    const b = startWorker(env, ["--name", "B", ...fast]);
    workers.push(b);
    await Promise.all(shops.map((s) => b.waitFor(new RegExp(`job tail-${s} committed ${DAY}`))));
    // The fault happened: A never committed, its tails stalled and B resumed them.
    expect(a.err).not.toMatch(/committed/);
    for (const s of shops) expect(b.err).toContain(`job tail-${s} stalled`);
    expect((await cli(env, ["fleet", "stop", "--shops", shops.join(",")])).status).toBe(0);
    await Promise.all(shops.map((s) => b.waitFor(new RegExp(`job tail-${s} stopped`))));
    const rows = await expectStoredEqual(env, expected, shops, DAY, "2026-11-17");
    for (const r of rows) {
      expect(r.worker).toBe("B");
      expect(Number(r.epoch)).toBeGreaterThanOrEqual(2);
    }
    const status = lines((await cli(env, ["fleet", "status", "--format", "ndjson"])).out);
    for (const s of shops) {
      expect(status.find((x) => x.type === "shop" && x.shopId === s)).toMatchObject({ tail: { wanted: false, nextDay: "2026-11-17" } });
    }
    expect((await fleetJobs(env)).failed).toBe(0);
  }, 150_000);
});
