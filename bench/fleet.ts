/**
 * Fleet throughput (issue 15): shop-days per minute with 1 and 2 `footfall worker` processes on
 * this machine, and where each shop-day's CPU goes: the workers, the signal service, Redis and
 * PostgreSQL (each process's own CPU time from /proc), plus Redis commands and PostgreSQL time.
 * Real redis-server and PostgreSQL are started in temp dirs (as the fleet tests do).
 *
 * The workers read the simulator's pages through a replay (`tools/startPageReplay.ts`): every
 * shop-day is paged once through the simulator before timing, with the client and cursor rule the
 * workers use, and the timed runs get those exact bytes from memory. The simulator itself costs
 * about two thirds of a worker's CPU per shop-day; on 2 cores it would compete with the workers
 * it serves, and the bench would measure it instead of the fleet. A real service runs elsewhere.
 * The recording pass is timed too (the simulator plus the client reading its pages).
 *
 * Each round runs 1 and 2 workers (the order alternating between rounds, so drift in the other
 * work on the machine hits both settings alike) and a calibration (`tools/shopDayLoop.ts`): the
 * worker's own read + analysis of a shop-day with no I/O at all, in 1 process and in 2 at once,
 * which is about the most 2 workers can gain over 1 on this machine at that moment (a lone
 * process already runs V8's garbage collection partly on the other core; other users' work
 * takes the rest).
 *
 * `npx tsx bench/fleet.ts` prints every run as JSON; `npm run bench -- fleet` gives the table row
 * (medians over the rounds; the ratio is the median of the rounds' own ratios). `FLEET_BENCH_SHOPS` (default 10) sets the shop-days per run (one
 * local day each), `FLEET_BENCH_ROUNDS` (default 3) the rounds, `FLEET_BENCH_PROFILE=DIR` has every
 * worker write a CPU profile into DIR (`npx tsx bench/tools/profileSummary.ts FILE` sums it),
 * `FLEET_BENCH_LATENCY_MS` delays every page as a remote service would (default 0) and
 * `FLEET_BENCH_CONCURRENCY` sets each worker's `--concurrency` (default 1).
 */
import { loadavg } from "node:os";
import { performance } from "node:perf_hooks";
import { Redis } from "ioredis";
import pg from "pg";
import { createClient } from "../src/client/createClient.ts";
import { backfillJobs, enqueueBackfill } from "../src/fleet/enqueueBackfill.ts";
import { openFleetRedis } from "../src/fleet/openFleetRedis.ts";
import { waitForJobs } from "../src/fleet/waitForJobs.ts";
import { createSimHandler } from "../src/sim/service/createSimHandler.ts";
import { createWorld } from "../src/sim/createWorld.ts";
import { signals } from "../src/source/signals.ts";
import { fleetServersMissing, startPostgres, startRedis } from "../test/fleet/fleetServers.ts";
import { cli, startWorker, stopWorker } from "../test/fleet/fleetRun.ts";
import { timeRatio, type BenchRow } from "./lib.ts";
import { contextSwitches, machineCpuMs, processCpuMs, processSystemMs } from "./tools/processCpu.ts";
import { shopDayLoopScaling, type LoopScaling } from "./tools/shopDayLoop.ts";
import { startPageReplay } from "./tools/startPageReplay.ts";

const TZ = "Asia/Seoul";

/** Figures of one timed run. CPU figures are ms per shop-day unless named otherwise. */
export interface FleetRun {
  readonly round: number;
  readonly workers: number;
  readonly shopDays: number;
  readonly signals: number;
  readonly wallS: number;
  readonly shopDaysPerMin: number;
  readonly signalsPerS: number;
  /** Redis commands and server CPU (µs) per shop-day, from INFO commandstats (command execution only). */
  readonly redisCallsPerShopDay: number;
  readonly redisUsPerShopDay: number;
  /** Claim + commit wall time per shop-day, ms (from the workers' log lines). */
  readonly postgresMsPerShopDay: number;
  /** Read + analyze wall time per shop-day, ms. */
  readonly analyzeMsPerShopDay: number;
  /** Rows written per shop-day (session lines + summary, quality, checkpoint; visits are fewer than sessions). */
  readonly rowsPerShopDay: number;
  /** Worker CPU inside its jobs (claim, read, decode, analyze, commit), from the workers' log lines. */
  readonly jobCpuMsPerShopDay: number;
  /** The worker processes' whole CPU over the run (jobs plus BullMQ, GC, idle polling), from /proc. */
  readonly workerCpuMsPerShopDay: number;
  /** The part of `workerCpuMsPerShopDay` spent in the kernel (sockets to the service, Redis, PostgreSQL; page faults). */
  readonly workerSystemMsPerShopDay: number;
  /** The workers' main threads' context switches per shop-day: waits (a page, a query) and preemptions. */
  readonly workerWaitsPerShopDay: number;
  readonly workerPreemptionsPerShopDay: number;
  /** This process over the run: the page replay serving the workers (and the 50 ms completion poll). */
  readonly serviceCpuMsPerShopDay: number;
  /** redis-server's CPU over the run (commands, networking, AOF writes). */
  readonly redisCpuMsPerShopDay: number;
  /** PostgreSQL's CPU over the run: the postmaster and every backend. */
  readonly postgresCpuMsPerShopDay: number;
  /** CPU the machine spent on everything else meanwhile (other users' work), ms per second of the run. */
  readonly otherCpuMsPerS: number;
  /** Idle CPU of the machine (both cores) during the run, ms per second (2000 = all idle). */
  readonly idleMsPerS: number;
  /** Time the hypervisor took this VM's cores away, ms per second of the run (both cores). */
  readonly stealMsPerS: number;
  /** Pages the timed run needed that had not been recorded (0: it measured the fleet, not the simulator). */
  readonly pagesForwarded: number;
  /** PostgreSQL storage (tables + indexes) per shop-day, bytes. */
  readonly storageBytesPerShopDay: number;
  /** 1-minute load average at the start and end of the run. */
  readonly loadStart: number;
  readonly loadEnd: number;
}

/** The calibration of one round: the worker's own work without I/O, in 1 process and in 2 at once. */
export interface CpuScaling extends LoopScaling {
  readonly round: number;
  /** 1-minute load average before it. */
  readonly load: number;
}

/** Everything one `fleetBench` call measured. */
export interface FleetBenchResult {
  readonly runs: readonly FleetRun[];
  readonly scaling: readonly CpuScaling[];
  /** The simulator's CPU per shop-day, serving each page once (the recording pass), ms. */
  readonly simulatorCpuMsPerShopDay: number;
  /** Bytes of pages the replay holds, per shop-day. */
  readonly pageBytesPerShopDay: number;
  readonly pagesPerShopDay: number;
}

async function redisStats(url: string): Promise<{ calls: number; usec: number }> {
  const r = new Redis(url);
  try {
    const info = await r.info("commandstats");
    let calls = 0;
    let usec = 0;
    for (const m of info.matchAll(/calls=(\d+),usec=(\d+)/g)) {
      calls += Number(m[1]);
      usec += Number(m[2]);
    }
    return { calls, usec };
  } finally {
    r.disconnect();
  }
}

/** Median of numbers (the mean of the middle two for an even count). */
function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/**
 * Runs the fleet bench: `rounds` rounds of 1 and 2 workers over `shops` shop-days each.
 *
 * @example
 * const { runs, scaling } = await fleetBench(12, 3);
 */
export async function fleetBench(shops: number, rounds = 3): Promise<FleetBenchResult> {
  const [redis, postgres] = await Promise.all([startRedis(), startPostgres()]);
  const world = createWorld({ seed: 21, shops, days: 1, start: "2026-11-16", visitorsPerDay: 300, passersByPerDay: 1500, staffPerShop: 3, stationaryPerShop: 2 });
  // Latency only on the timed runs' replayed pages: recording is not timed.
  const replay = await startPageReplay(createSimHandler({ seed: 21, world }), { latencyMs: Number(process.env.FLEET_BENCH_LATENCY_MS ?? 0) });
  const runs: FleetRun[] = [];
  const scaling: CpuScaling[] = [];
  try {
    const jobs = backfillJobs({ shops: world.shops.map((s) => s.id), sinceMs: world.startMs, untilMs: world.startMs + 1, timeZone: TZ });
    // Recording: the same source, options and client the workers' analyzeShopDay uses, so the
    // timed runs ask for exactly these URLs (pagesForwarded checks it).
    const client = createClient({ baseUrl: replay.signalUrl, signalUrl: replay.signalUrl, email: replay.email, token: replay.token });
    const recordCpu0 = process.cpuUsage();
    for (const { data } of jobs) {
      await new Promise<void>((resolve, reject) => {
        signals(client, { shopId: data.shopId, since: data.sinceMs, until: data.untilMs, mode: "backfill" }).subscribe({ error: reject, complete: resolve });
      });
    }
    const recordCpu = process.cpuUsage(recordCpu0);
    const recorded = replay.stats();

    let run = 0;
    for (let round = 1; round <= rounds; round++) {
      const load = loadavg()[0]!;
      scaling.push({ round, load, ...(await shopDayLoopScaling(3)) });
      for (const n of round % 2 === 1 ? [1, 2] : [2, 1]) {
        run++;
        runs.push(await fleetRun(round, n, run));
      }
    }
    return {
      runs,
      scaling,
      // Includes this process's client reading the pages: an upper bound on the simulator's share.
      simulatorCpuMsPerShopDay: (recordCpu.user + recordCpu.system) / 1000 / jobs.length,
      pageBytesPerShopDay: recorded.recordedBytes / jobs.length,
      pagesPerShopDay: recorded.pages / jobs.length,
    };
  } finally {
    await replay.close();
    await Promise.all([redis.stop(), postgres.stop()]);
  }

  async function fleetRun(round: number, n: number, run: number): Promise<FleetRun> {
    const env = {
      FOOTFALL_REDIS_URL: `${redis.url}/${run % 16}`,
      FOOTFALL_DATABASE_URL: await postgres.createDatabase(`bench${run}`),
      FOOTFALL_SIGNAL_URL: replay.signalUrl,
      FOOTFALL_EMAIL: replay.email,
      FOOTFALL_TOKEN: replay.token,
    };
    if ((await cli(env, ["fleet", "init"])).status !== 0) throw new Error("fleet init failed");
    // FLEET_BENCH_PROFILE=DIR: each worker writes a V8 CPU profile there when it stops (see tools/profileSummary.ts).
    const profile = process.env.FLEET_BENCH_PROFILE;
    const nodeArgs = profile === undefined ? [] : ["--cpu-prof", `--cpu-prof-dir=${profile}`];
    const concurrency = process.env.FLEET_BENCH_CONCURRENCY ?? "1";
    const workers = Array.from({ length: n }, (_, i) => startWorker(env, ["--name", `bench${i}`, "--concurrency", concurrency], nodeArgs));
    try {
      await Promise.all(workers.map((w) => w.waitFor(/ready/)));
      const connection = await openFleetRedis(env.FOOTFALL_REDIS_URL);
      const db = new pg.Client({ connectionString: env.FOOTFALL_DATABASE_URL });
      await db.connect();
      const loadStart = loadavg()[0]!;
      const before = await redisStats(redis.url);
      const forwarded0 = replay.stats().forwarded;
      const cpu = (): number[] => [
        workers.reduce((a, w) => a + processCpuMs(w.pid), 0),
        processCpuMs(redis.pid),
        processCpuMs(postgres.pid, true),
        workers.reduce((a, w) => a + processSystemMs(w.pid), 0),
        workers.reduce((a, w) => a + contextSwitches(w.pid).voluntary, 0),
        workers.reduce((a, w) => a + contextSwitches(w.pid).involuntary, 0),
      ];
      const cpu0 = cpu();
      const self0 = process.cpuUsage();
      const machine0 = machineCpuMs();
      const t0 = performance.now();
      const ids = await enqueueBackfill(connection, { shops: world.shops.map((s) => s.id), sinceMs: world.startMs, untilMs: world.startMs + 1, timeZone: TZ });
      // Completion is watched in PostgreSQL, so the wait adds no Redis commands to the figures.
      while (Number((await db.query<{ n: string }>("SELECT count(*) AS n FROM footfall_shop_days")).rows[0]!.n) < ids.length) {
        await new Promise((r) => setTimeout(r, 50));
      }
      const wallS = (performance.now() - t0) / 1000;
      const machine = machineCpuMs();
      const self = process.cpuUsage(self0);
      const [workerMs, redisMs, postgresMs, workerSystemMs, waits, preemptions] = cpu().map((v, i) => v - cpu0[i]!) as [number, number, number, number, number, number];
      const loadEnd = loadavg()[0]!;
      const after = await redisStats(redis.url);
      const pagesForwarded = replay.stats().forwarded - forwarded0;
      const size = await db.query<{ bytes: string }>(
        `SELECT sum(pg_total_relation_size(c.oid)) AS bytes FROM pg_class c WHERE c.relname LIKE 'footfall_%' AND c.relkind = 'r'`,
      );
      await db.end();
      const done = await waitForJobs(connection, ids, { pollMs: 100 });
      if (done.failed > 0) throw new Error(`${done.failed} job(s) failed`);
      const log = workers.map((w) => w.err).join("");
      const commits = [...log.matchAll(/committed \(claim \d+, (\d+) signals, (\d+) lines; read\+analyze (\d+) ms, postgres (\d+) ms, cpu (\d+) ms\)/g)];
      const sum = (i: number): number => commits.reduce((a, m) => a + Number(m[i]), 0);
      const k = ids.length;
      const serviceMs = (self.user + self.system) / 1000;
      return {
        round,
        workers: n,
        shopDays: k,
        signals: sum(1),
        wallS,
        shopDaysPerMin: (k / wallS) * 60,
        signalsPerS: sum(1) / wallS,
        redisCallsPerShopDay: (after.calls - before.calls) / k,
        redisUsPerShopDay: (after.usec - before.usec) / k,
        postgresMsPerShopDay: sum(4) / k,
        analyzeMsPerShopDay: sum(3) / k,
        rowsPerShopDay: sum(2) / k + 1,
        jobCpuMsPerShopDay: sum(5) / k,
        workerCpuMsPerShopDay: workerMs / k,
        workerSystemMsPerShopDay: workerSystemMs / k,
        workerWaitsPerShopDay: waits / k,
        workerPreemptionsPerShopDay: preemptions / k,
        serviceCpuMsPerShopDay: serviceMs / k,
        redisCpuMsPerShopDay: redisMs / k,
        postgresCpuMsPerShopDay: postgresMs / k,
        otherCpuMsPerS: Math.max(0, machine.busy - machine0.busy - workerMs - redisMs - postgresMs - serviceMs) / wallS,
        idleMsPerS: (machine.total - machine0.total - (machine.busy - machine0.busy) - (machine.steal - machine0.steal)) / wallS,
        stealMsPerS: (machine.steal - machine0.steal) / wallS,
        pagesForwarded,
        storageBytesPerShopDay: Number(size.rows[0]!.bytes) / k,
        loadStart,
        loadEnd,
      };
    } finally {
      await Promise.all(workers.map(stopWorker));
    }
  }
}

/** The `npm run bench` row: shop-days per minute, 2 workers ÷ 1 (the median of the rounds' ratios), rates as medians over the rounds. */
export default async function (): Promise<BenchRow[]> {
  const figure = "Fleet backfill (shop-days/min), 2 workers vs 1";
  const missing = fleetServersMissing();
  if (missing !== undefined) {
    return [{ figure, footfall: "—", baseline: "—", ratio: 0, goal: "≥ 1.7×", met: false, note: `not run: needs ${missing}` }];
  }
  const r = await fleetBench(Number(process.env.FLEET_BENCH_SHOPS ?? 10), Number(process.env.FLEET_BENCH_ROUNDS ?? 3));
  const of = (n: number): FleetRun[] => r.runs.filter((x) => x.workers === n);
  const med = (n: number, f: (x: FleetRun) => number): number => median(of(n).map(f));
  const one = med(1, (x) => x.shopDaysPerMin);
  const two = med(2, (x) => x.shopDaysPerMin);
  const split = (n: number): string =>
    `worker ${Math.round(med(n, (x) => x.workerCpuMsPerShopDay))}, service ${Math.round(med(n, (x) => x.serviceCpuMsPerShopDay))}, ` +
    `PostgreSQL ${Math.round(med(n, (x) => x.postgresCpuMsPerShopDay))}, Redis ${Math.round(med(n, (x) => x.redisCpuMsPerShopDay))}`;
  const rounds = r.runs.length / 2;
  const pairs = Array.from({ length: rounds }, (_, i) => {
    const a = r.runs.find((x) => x.round === i + 1 && x.workers === 1)!;
    const b = r.runs.find((x) => x.round === i + 1 && x.workers === 2)!;
    return [a.shopDaysPerMin, b.shopDaysPerMin] as const;
  });
  // Rates, so 2 workers' over 1's: the median of the rounds' own ratios.
  const ratio = timeRatio(
    pairs.map(([, b]) => b),
    pairs.map(([a]) => a),
  );
  const perRound = pairs.map(([a, b]) => `${a.toFixed(1)}→${b.toFixed(1)}`);
  const one1 = of(1)[0]!;
  return [
    {
      figure,
      footfall: `${two.toFixed(1)} /min`,
      baseline: `${one.toFixed(1)} /min`,
      ratio,
      goal: "≥ 1.7×",
      met: ratio >= 1.7,
      note:
        `${rounds} interleaved rounds × ${one1.shopDays} shop-days of ${Math.round(one1.signals / one1.shopDays)} signals, medians (the ratio: of the rounds' ratios); pages replayed from memory ` +
        `(${r.runs.reduce((a, x) => a + x.pagesForwarded, 0)} not recorded; recording through the simulator: ${Math.round(r.simulatorCpuMsPerShopDay)} ms CPU/shop-day, simulator and reading client); ` +
        `per round 1→2: ${perRound.join(", ")}; CPU ms/shop-day, 1 worker: ${split(1)}; 2 workers: ${split(2)}; ` +
        `Redis ${Math.round(med(1, (x) => x.redisCallsPerShopDay))} cmds/shop-day; PostgreSQL claim+commit ${Math.round(med(1, (x) => x.postgresMsPerShopDay))} ms; ` +
        `calibration, the worker's analysis alone with no I/O in 2 processes vs 1: ${r.scaling.map((s) => s.ratio.toFixed(2)).join(", ")}× ` +
        `(CPU per shop-day ×${median(r.scaling.map((s) => s.cpuGrowth)).toFixed(2)}); ` +
        `others' CPU ${Math.round(median(r.runs.map((x) => x.otherCpuMsPerS)))} ms/s; load ${Math.min(...r.runs.map((x) => x.loadStart)).toFixed(1)}–${Math.max(...r.runs.map((x) => x.loadEnd)).toFixed(1)}`,
    },
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = await fleetBench(Number(process.env.FLEET_BENCH_SHOPS ?? 10), Number(process.env.FLEET_BENCH_ROUNDS ?? 3));
  process.stdout.write(`${JSON.stringify(r, null, 2)}\n`);
}
