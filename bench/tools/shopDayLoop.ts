/**
 * A fleet worker's own work with no I/O, for calibrating what 2 processes can gain over 1 on a
 * machine: `analyzeShopDay` (the worker's read, decode and analysis, through the real client and
 * source) over one shop-day whose pages are held in memory, run `N` times.
 *
 * Run as a child (`node --import tsx bench/tools/shopDayLoop.ts N [SHARES [SCALE]]`; SHARES: the
 * analysis split by device over that many threads, `analyzeShopDay`'s `shares`; SCALE: visitors
 * and passers-by × SCALE, for a busier shop): it builds the world and its
 * pages, prints `ready`, waits for a line on stdin (so that several copies start their timed
 * part together), runs, and prints one JSON line `{ "shopDays": N, "wallMs": …, "cpuMs": … }`.
 * `shopDayLoopScaling` below runs it in 1 and then in 2 processes.
 *
 * A tool, not a bench: it lives under bench/tools/ so `npm run bench` does not run it by itself.
 */
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { createClient } from "../../src/client/createClient.ts";
import { analyzeShopDay } from "../../src/fleet/analyzeShopDay.ts";
import { backfillJobs } from "../../src/fleet/enqueueBackfill.ts";
import { createSimHandler } from "../../src/sim/service/createSimHandler.ts";
import { createWorld, type WorldOptions } from "../../src/sim/createWorld.ts";

/** The shop-day shape of bench/fleet.ts (one shop of it). */
export const FLEET_BENCH_WORLD: WorldOptions = {
  seed: 21,
  shops: 1,
  days: 1,
  start: "2026-11-16",
  visitorsPerDay: 300,
  passersByPerDay: 1500,
  staffPerShop: 3,
  stationaryPerShop: 2,
};

/** One copy's figures: its timed part only. */
export interface LoopFigures {
  readonly shopDays: number;
  readonly wallMs: number;
  /** user + system CPU of the whole process (all threads: GC helpers included), ms. */
  readonly cpuMs: number;
}

/** Result of {@link shopDayLoopScaling}. */
export interface LoopScaling {
  readonly one: LoopFigures;
  readonly two: readonly [LoopFigures, LoopFigures];
  /** Shop-days per second with 2 processes ÷ with 1 (2.0 = two free, independent cores). */
  readonly ratio: number;
  /** CPU per shop-day with 2 processes at once ÷ alone (1.0 = running together costs nothing extra). */
  readonly cpuGrowth: number;
}

/**
 * Runs the loop in 1 process, then in 2 at once (`shopDays` each), and compares.
 *
 * @example
 * const s = await shopDayLoopScaling(3);
 * console.log(s.ratio.toFixed(2), s.cpuGrowth.toFixed(2)); // e.g. 1.85 1.05 on two idle cores
 */
export async function shopDayLoopScaling(shopDays: number): Promise<LoopScaling> {
  const [one] = await together(1, shopDays);
  const two = (await together(2, shopDays)) as [LoopFigures, LoopFigures];
  const rate = (f: LoopFigures): number => f.shopDays / f.wallMs;
  const cpuPer = (f: LoopFigures): number => f.cpuMs / f.shopDays;
  return {
    one: one!,
    two,
    ratio: (rate(two[0]) + rate(two[1])) / rate(one!),
    cpuGrowth: (cpuPer(two[0]) + cpuPer(two[1])) / 2 / cpuPer(one!),
  };
}

async function together(processes: number, shopDays: number): Promise<LoopFigures[]> {
  const children = Array.from({ length: processes }, () =>
    spawn(process.execPath, ["--import", "tsx", fileURLToPath(import.meta.url), String(shopDays)], { stdio: ["pipe", "pipe", "inherit"] }),
  );
  const lines = children.map((c) => createInterface({ input: c.stdout! })[Symbol.asyncIterator]());
  const next = async (i: number): Promise<string> => {
    const r = await lines[i]!.next();
    if (r.done === true) throw new Error("shopDayLoop child exited early");
    return r.value;
  };
  await Promise.all(children.map((_c, i) => next(i)));
  for (const c of children) c.stdin!.end("go\n");
  return Promise.all(children.map(async (_c, i) => JSON.parse(await next(i)) as LoopFigures));
}

async function main(shopDays: number, shares: number, scale: number): Promise<void> {
  const base = FLEET_BENCH_WORLD;
  const world = createWorld({ ...base, visitorsPerDay: base.visitorsPerDay! * scale, passersByPerDay: base.passersByPerDay! * scale });
  const sim = createSimHandler({ seed: 21, world });
  const pages = new Map<string, Uint8Array<ArrayBuffer>>();
  const headers = { "content-type": "application/json; charset=utf-8" };
  // Pages from memory: the first pass asks the simulator, the timed ones only copy bytes.
  const fetchPage = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    let body = pages.get(request.url);
    if (body === undefined) {
      const res = await sim.handle(request);
      if (res.status !== 200) return res;
      body = new Uint8Array(await res.arrayBuffer());
      pages.set(request.url, body);
    }
    return new Response(body, { status: 200, headers });
  };
  const client = createClient({ baseUrl: "http://sim", signalUrl: "http://sim", email: sim.email, token: sim.token, fetch: fetchPage });
  const d = backfillJobs({ shops: [world.shops[0]!.id], sinceMs: world.startMs, untilMs: world.startMs + 1, timeZone: "Asia/Seoul" })[0]!.data;
  const job = (): Promise<unknown> => analyzeShopDay(client, { shopId: d.shopId, sinceMs: d.sinceMs, untilMs: d.untilMs, timeZone: d.timeZone, shares });
  await job(); // pages recorded, code warm
  process.stdout.write("ready\n");
  await new Promise((resolve) => process.stdin.once("data", resolve));
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  for (let i = 0; i < shopDays; i++) await job();
  const cpu = process.cpuUsage(cpu0);
  const figures: LoopFigures = { shopDays, wallMs: performance.now() - t0, cpuMs: (cpu.user + cpu.system) / 1000 };
  process.stdout.write(`${JSON.stringify(figures)}\n`);
}

if (import.meta.url === `file://${process.argv[1]}`) await main(Number(process.argv[2] ?? 3), Number(process.argv[3] ?? 1), Number(process.argv[4] ?? 1));
