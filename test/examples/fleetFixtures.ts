import { Writable } from "node:stream";
import type { RedisOptions } from "bullmq";
import type { Pool } from "pg";
import type { CliIo } from "../../src/cli/common.ts";
import type { Client } from "../../src/client/Client.ts";
import { createClient } from "../../src/client/createClient.ts";
import { analyze } from "../../src/analysis/analyze.ts";
import { analyzeShopDay, type ShopDayAnalysis } from "../../src/fleet/analyzeShopDay.ts";
import { claimFence } from "../../src/fleet/claimFence.ts";
import type { LiveOccupancyInterval } from "../../src/kernels/people/LiveOccupancy.ts";
import { createFleetWorker, type FleetWorker, type FleetWorkerOptions } from "../../src/fleet/createFleetWorker.ts";
import { initFleetSchema } from "../../src/fleet/fleetSchema.ts";
import { openFleetDatabase } from "../../src/fleet/openFleetDatabase.ts";
import { openFleetRedis } from "../../src/fleet/openFleetRedis.ts";
import { fixtureNames, sharedSim, useFixtures } from "./fixtures.ts";

/**
 * Free variables of the fleet's `@example`s (test/examples/fleetExamples.ts), on top of those of
 * test/examples/fixtures.ts (`client`, `sinceMs`, `untilMs` … against the shared simulator):
 * the servers' URLs, a checked `connection` (BullMQ's Redis options) and a `pool` whose schema
 * is created, built on first use. `openFleet` also starts one fleet worker in the background, so
 * the shop-day jobs the examples enqueue are done and `waitForJobs` returns, as in a fleet.
 */

interface Servers {
  readonly redisUrl: string;
  readonly databaseUrl: string;
}

let servers: Servers | undefined;
let connection: Promise<RedisOptions> | undefined;
let pool: Promise<Pool> | undefined;
let background: FleetWorker | undefined;

const need = (): Servers => {
  if (servers === undefined) throw new Error("fleet fixtures: call openFleet(…) first");
  return servers;
};

const sharedConnection = (): Promise<RedisOptions> => (connection ??= openFleetRedis(need().redisUrl));
const sharedPool = (): Promise<Pool> =>
  (pool ??= openFleetDatabase(need().databaseUrl).then(async (p) => {
    await initFleetSchema(p);
    return p;
  }));

const simClient = async (): Promise<Client> => {
  const sim = await sharedSim();
  return createClient({ baseUrl: sim.baseUrl, signalUrl: sim.signalUrl, email: sim.email, token: sim.token });
};

/** The first shop's day analysed as a shop-day job does (what `commitShopDay` stores). */
const analysis = async (): Promise<ShopDayAnalysis> => {
  const world = (await sharedSim()).world;
  return analyzeShopDay(await simClient(), { shopId: world.shops[0]!.id, sinceMs: world.startMs, untilMs: world.endMs, timeZone: "Asia/Seoul" });
};

/** Shop 101's occupancy as its first day goes on, as a tail emits it. */
const liveIntervals = async (): Promise<readonly LiveOccupancyInterval[]> => {
  const world = (await sharedSim()).world;
  const shop = world.shops.find((s) => s.id === 101)!;
  return (await analyze(world.rawSignals(shop.id), { timeZone: shop.timeZone, liveOccupancy: true })).liveOccupancy;
};

const sink = (): Writable =>
  new Writable({
    write(_chunk, _encoding, done) {
      done();
    },
  });

/** A CLI io with the simulator and the fleet's servers in its environment; `worker` stops when its signal aborts. */
const fleetIo = async (): Promise<CliIo> => {
  const sim = await sharedSim();
  const { redisUrl, databaseUrl } = need();
  const env = {
    FOOTFALL_BASE_URL: sim.baseUrl,
    FOOTFALL_SIGNAL_URL: sim.signalUrl,
    FOOTFALL_EMAIL: sim.email,
    FOOTFALL_TOKEN: sim.token,
    FOOTFALL_REDIS_URL: redisUrl,
    FOOTFALL_DATABASE_URL: databaseUrl,
    // The worker stores pseudonyms; a key here keeps it from generating a key file in the home.
    FOOTFALL_MAC_KEY: "00112233445566778899aabbccddeeff",
  };
  return { stdout: sink(), stderr: sink(), env, signal: AbortSignal.timeout(1_500) };
};

type Factory = () => unknown;

const FLEET_FIXTURES: Record<string, Factory> = {
  redisUrl: () => need().redisUrl,
  databaseUrl: () => need().databaseUrl,
  connection: sharedConnection,
  pool: sharedPool,
  analysis,
  io: fleetIo,
};

/** Where a name means something else in one file's examples (paths relative to src/). */
const FLEET_FIXTURES_BY_FILE: Record<string, Record<string, Factory>> = {
  // `footfall worker`/`fleet`'s flags: the servers named on the command line.
  "cli/fleetSettings.ts": { argv: () => ["--redis", need().redisUrl, "--database", need().databaseUrl] },
  // A tail's claim on shop 101 and live intervals of that shop, to store under it.
  "fleet/storeLiveOccupancy.ts": {
    epoch: async () => claimFence(await sharedPool(), 101, "tail"),
    intervals: async () => (await liveIntervals()).slice(40, 44),
    interval: async () => (await liveIntervals())[40],
  },
  // FleetWorkerOptions there.
  "fleet/createFleetWorker.ts": {
    options: async (): Promise<FleetWorkerOptions> => ({ connection: await sharedConnection(), pool: await sharedPool(), client: await simClient(), concurrency: 2 }),
  },
};

/** Names of the fleet fixtures and the shared ones, for the harness to look for in an example. */
export const fleetFixtureNames: readonly string[] = [
  ...new Set([...fixtureNames, ...Object.keys(FLEET_FIXTURES), ...Object.values(FLEET_FIXTURES_BY_FILE).flatMap(Object.keys)]),
];

/**
 * Points the fixtures at the servers, creates the schema and starts the background worker
 * (one job at a time, like a small fleet).
 */
export async function openFleet(urls: Servers): Promise<void> {
  servers = urls;
  background = createFleetWorker({ connection: await sharedConnection(), pool: await sharedPool(), client: await simClient(), name: "examples" });
}

/** Stops the background worker and closes the pool (before the servers stop). */
export async function closeFleet(): Promise<void> {
  await background?.close();
  background = undefined;
  const p = pool;
  pool = undefined;
  connection = undefined;
  servers = undefined;
  // A pool that never opened (a server that did not start) has nothing to close.
  if (p !== undefined) await (await p.catch(() => undefined))?.end();
}

/** Builds the named fixtures for an example of `file` (relative to src/): fleet ones first, then the shared ones. */
export async function useFleetFixtures(file: string, names: readonly string[], body: (fixtures: Record<string, unknown>) => Promise<void>): Promise<void> {
  const local = FLEET_FIXTURES_BY_FILE[file] ?? {};
  const fleet: Record<string, unknown> = {};
  const rest: string[] = [];
  for (const name of names) {
    const factory = local[name] ?? FLEET_FIXTURES[name];
    if (factory === undefined) rest.push(name);
    else fleet[name] = await factory();
  }
  await useFixtures(file, rest, async (shared) => body({ ...shared, ...fleet }));
}
