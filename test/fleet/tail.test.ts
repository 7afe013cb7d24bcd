import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import { analyze } from "../../src/analysis/analyze.ts";
import { FencedCommitError } from "../../src/errors/FencedCommitError.ts";
import { liveLine, storeLiveOccupancy, type LiveLine } from "../../src/fleet/storeLiveOccupancy.ts";
import { createWorld } from "../../src/sim/createWorld.ts";
import type { World } from "../../src/sim/world/World.ts";
import { startSimulator, type RunningSimulator } from "../../src/sim/service/startSimulator.ts";
import { fleetTestsSkipped, startPostgres, startRedis, type TestPostgres, type TestRedis } from "./fleetServers.ts";
import { cli, expectStoredEqual, fleetJobs, lines, singleProcess, startWorker, stopWorker, type WorkerProcess } from "./fleetRun.ts";

const TZ = "Asia/Seoul";
const DAY = "2026-11-16";

/** Polls footfall_live until every shop has `n` rows; returns the stored lines. */
async function waitForLive(db: pg.Client, shops: readonly number[], n: number): Promise<LiveLine[]> {
  for (let i = 0; i < 300; i++) {
    const r = await db.query<{ line: string }>("SELECT line::text AS line FROM footfall_live ORDER BY shop_id, start_ms");
    const stored = r.rows.map((x) => JSON.parse(x.line) as LiveLine);
    if (shops.every((s) => stored.filter((l) => l.shopId === s).length >= n)) return stored;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`footfall_live: fewer than ${n} intervals per shop after 15 s`);
}

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
    // Occupancy as the day goes on: each stored interval is what analyze() gives for it (the
    // shop's intervals of the day, emitted as the records pass their ends). Read mid-day, before
    // the day's commit replaces them.
    const mid = new pg.Client({ connectionString: postgres.url });
    await mid.connect();
    try {
      const stored = await waitForLive(mid, shops, 8);
      const references = new Map<number, Map<number, LiveLine>>();
      for (const s of shops) {
        const shop = world.shops.find((x) => x.id === s)!;
        const reference = new Map(
          (await analyze(world.rawSignals(s), { timeZone: shop.timeZone, liveOccupancy: true })).liveOccupancy.map((o) => [o.start, liveLine(o)]),
        );
        references.set(s, reference);
        const rows = stored.filter((r) => r.shopId === s);
        expect(rows.length).toBeGreaterThanOrEqual(8);
        for (const r of rows) expect(r).toEqual(reference.get(r.start));
      }
      // `fleet results --live` gives the stored lines, as analyze gives them too.
      const results = ["fleet", "results", "--shops", shops.join(","), "--since", DAY, "--until", "2026-11-17", "--live"];
      const viaCli = lines((await cli(env, results)).out).filter((l) => l.type === "live") as unknown as LiveLine[];
      expect(viaCli.length).toBeGreaterThanOrEqual(8 * shops.length);
      for (const l of viaCli) expect(l).toEqual(references.get(l.shopId)!.get(l.start));
      // `fleet status` shows each shop's latest interval so far, in its table too.
      const table = (await cli(env, ["fleet", "status"])).out;
      expect(table).toMatch(/inside \[90 %\].*people today +calibration/);
      // No shop here has a calibration: each live row says its people rest on the prior.
      expect(table.split("\n").filter((l) => / until \d{2}:\d{2}/.test(l)).every((l) => / prior$/.test(l))).toBe(true);
      expect(table).toMatch(/(unknown|\d+(\.\d)?( \[[\d.]+–[\d.]+\])?) until \d{2}:\d{2}/);
      const status = lines((await cli(env, ["fleet", "status", "--format", "ndjson"])).out) as unknown as { type: string; shopId?: number; live?: LiveLine | null }[];
      for (const s of shops) {
        const live = status.find((x) => x.type === "shop" && x.shopId === s)?.live;
        expect(live?.shopId).toBe(s);
        expect(live!.end).toBeGreaterThanOrEqual(Math.max(...stored.filter((r) => r.shopId === s).map((r) => r.end)));
      }
    } finally {
      await mid.end();
    }
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
    const db = new pg.Client({ connectionString: postgres.url });
    await db.connect();
    try {
      // The day's commit replaced its live rows, and a stopped tail leaves none of the next day.
      expect((await db.query("SELECT shop_id FROM footfall_live")).rows).toEqual([]);
      // A stale claim stores nothing: A's (1), after B's took the tail.
      const pool = new pg.Pool({ connectionString: postgres.url });
      try {
        const interval = (await analyze(world.rawSignals(shops[0]!), { timeZone: TZ, liveOccupancy: true })).liveOccupancy[40]!;
        await expect(storeLiveOccupancy(pool, { shopId: shops[0]!, epoch: 1, jobId: "tail-stale", intervals: [interval] })).rejects.toThrow(FencedCommitError);
        expect((await db.query("SELECT shop_id FROM footfall_live")).rows).toEqual([]);
      } finally {
        await pool.end();
      }
    } finally {
      await db.end();
    }
    const status = lines((await cli(env, ["fleet", "status", "--format", "ndjson"])).out);
    for (const s of shops) {
      expect(status.find((x) => x.type === "shop" && x.shopId === s)).toMatchObject({ tail: { wanted: false, nextDay: "2026-11-17", timeZone: TZ }, live: null });
    }
    expect((await fleetJobs(env)).failed).toBe(0);
  }, 150_000);
});
