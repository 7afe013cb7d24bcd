import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { asyncScheduler, from, of } from "rxjs";
import { analyze, type AnalyzeResult } from "../../src/analysis/analyze.ts";
import { createClient } from "../../src/client/createClient.ts";
import type { CliIo } from "../../src/cli/common.ts";
import type { DashboardFrame } from "../../src/demo/dashboardText.ts";
import { ShopLive, type ShopLiveSnapshot } from "../../src/demo/ShopLive.ts";
import type { DemoRun, DemoShopResult } from "../../src/demo/DemoShopResult.ts";
import { defaultClientDeps } from "../../src/cli/serviceClient.ts";
import { millisRts } from "../../src/codec/rts.ts";
import { isInvalidRecord, SignalDecoder } from "../../src/codec/decodeSignal.ts";
import type { Signal } from "../../src/codec/Signal.ts";
import type { AnalyzeShopDayOptions } from "../../src/fleet/analyzeShopDay.ts";
import { EventTimeEngine } from "../../src/kernels/sessions/EventTimeEngine.ts";
import { DataQuality } from "../../src/kernels/quality/dataQuality.ts";
import { scoreAgainstTruth } from "../../src/kernels/visits/scoreAgainstTruth.ts";
import type { RawSignal } from "../../src/contract/index.ts";
import { openSignalPages } from "../../src/source/openSignalPages.ts";
import { resolveSignalsOptions, type SignalsOptions } from "../../src/source/signalsOptions.ts";
import type { SlicePagerConfig } from "../../src/source/SlicePager.ts";
import { startSimulator, type RunningSimulator } from "../../src/sim/service/startSimulator.ts";
import type { World } from "../../src/sim/world/World.ts";
import { sampleReportInput } from "../report/reportFixture.ts";

/**
 * Free variables the `@example`s in src/ share (`world`, `client`, `records`, `io` …), and the
 * scratch working directory they run in (so `"report.html"` or `"sales.csv"` stay out of the
 * repository). A fixture is built only for an example that mentions it and does not declare it
 * itself; the simulator behind `sim`, `world` and `client` starts once per test file.
 */

/** The world examples talk about: shops 101, 102, 103 on 2026-11-16 in Seoul, light traffic. */
const WORLD = { seed: 7, shops: 3, days: 1, visitorsPerDay: 40, passersByPerDay: 300, staffPerShop: 1, stationaryPerShop: 1 };

let simulator: Promise<RunningSimulator> | undefined;
let analyzed: Promise<AnalyzeResult> | undefined;

/** The shared simulator, started on first use. */
export const sharedSim = (): Promise<RunningSimulator> => (simulator ??= startSimulator({ port: 0, world: WORLD }));

/** Stops the shared simulator, if one was started (after the last example). */
export async function closeFixtures(): Promise<void> {
  const sim = simulator;
  simulator = undefined;
  analyzed = undefined;
  if (sim !== undefined) await (await sim).close();
}

/** A writable stream that drops what it gets. */
const sink = (): Writable =>
  new Writable({
    write(_chunk, _encoding, done) {
      done();
    },
  });

/** A CLI io against the shared simulator whose signal aborts soon, so `sim`, `tail` and `demo` return. */
async function cliIo(): Promise<CliIo> {
  const sim = await sharedSim();
  // A pseudonym key, so examples that write devices do not generate a key file in the home.
  const env = { FOOTFALL_BASE_URL: sim.baseUrl, FOOTFALL_SIGNAL_URL: sim.signalUrl, FOOTFALL_EMAIL: sim.email, FOOTFALL_TOKEN: sim.token, FOOTFALL_MAC_KEY: "00112233445566778899aabbccddeeff" };
  return { stdout: sink(), stderr: sink(), env, signal: AbortSignal.timeout(750) };
}

const firstShop = (world: World) => world.shops[0]!;
const records = async (): Promise<RawSignal[]> => {
  const world = (await sharedSim()).world;
  return [...world.rawSignals(firstShop(world).id)];
};
const result = async (): Promise<AnalyzeResult> => (analyzed ??= records().then((r) => analyze(r, { timeZone: "Asia/Seoul" })));
/** The first shop's day, decoded (what the kernels consume). */
const decoded = async (): Promise<Signal[]> => {
  const decoder = new SignalDecoder({ shopId: firstShop((await sharedSim()).world).id });
  return (await records()).map((r) => decoder.decode(r)).filter((s): s is Signal => !isInvalidRecord(s));
};
/** The first shop's day decoded and pushed through an engine with a DataQuality, then flushed. */
const qualityRun = async (): Promise<{ decoder: SignalDecoder; engine: EventTimeEngine; quality: DataQuality }> => {
  const decoder = new SignalDecoder({ shopId: firstShop((await sharedSim()).world).id });
  const quality = new DataQuality();
  const engine = new EventTimeEngine({}, { emit: () => {} }, [quality]);
  for (const r of await records()) {
    const s = decoder.decode(r);
    if (s !== undefined && !isInvalidRecord(s)) engine.push(s);
  }
  engine.flush();
  return { decoder, engine, quality };
};
/** One morning hour of the first shop: enough pages to show paging, few enough to stay fast. */
const signalsOptions = async (): Promise<SignalsOptions> => {
  const world = (await sharedSim()).world;
  const since = world.startMs + 10 * 3_600_000;
  return { shopId: firstShop(world).id, since, until: since + 3_600_000 };
};
/** One shop's live figures, the numbers the dashboard examples show. */
const snapshot = (shopId: number, name: string): ShopLiveSnapshot => ({
  shopId,
  name,
  signals: 260_000,
  invalid: 0,
  lastEventMs: 0,
  inRange: 180,
  visitors: 560,
  passersBy: 6_003,
  medianDwellMs: 900_000,
  zones: { immediate: 12, near: 40, far: 91 },
  people: { visitors: 540, low: 480, high: 600 },
  inside: { inside: 12, low: 9, high: 15 },
  done: false,
});
const demoResults = async (): Promise<DemoShopResult[]> => {
  const world = (await sharedSim()).world;
  const shop = firstShop(world);
  const r = await result();
  return [
    {
      id: shop.id,
      name: shop.name,
      brand: world.brands.find((b) => b.id === shop.brandId)?.name ?? "",
      externalKey: shop.externalKey,
      sensors: shop.sensors,
      timeZone: shop.timeZone,
      date: r.days[0]!.label,
      signals: (await records()).length,
      invalid: 0,
      counts: r.days[0],
      hours: r.hours,
      dwell: undefined,
      sessions: r.sessions,
      zones: [],
      sales: undefined,
      truth: world.truth(shop.id),
      score: undefined,
      people: r.people[0],
      peopleScore: undefined,
    },
  ];
};

type Factory = () => unknown;

const FIXTURES: Record<string, Factory> = {
  sim: sharedSim,
  world: async () => (await sharedSim()).world,
  shopId: async () => firstShop((await sharedSim()).world).id,
  settings: async () => {
    const sim = await sharedSim();
    return { baseUrl: sim.baseUrl, signalUrl: sim.signalUrl, email: sim.email, token: sim.token };
  },
  client: async () => {
    const sim = await sharedSim();
    return createClient({ baseUrl: sim.baseUrl, signalUrl: sim.signalUrl, email: sim.email, token: sim.token });
  },
  url: async () => `${(await sharedSim()).baseUrl}/api/v1/brands`,
  token: () => "sim-token",
  headers: () => new Headers(),
  records,
  result,
  options: signalsOptions,
  since: async () => (await sharedSim()).world.startMs,
  // the world's one local day (2026-11-16 in Seoul), as the fleet's shop-day jobs give it
  sinceMs: async () => (await sharedSim()).world.startMs,
  untilMs: async () => (await sharedSim()).world.endMs,
  until: async () => (await sharedSim()).world.endMs,
  opened: async () => {
    const sim = await sharedSim();
    const client = createClient({ baseUrl: sim.baseUrl, signalUrl: sim.signalUrl, email: sim.email, token: sim.token });
    return openSignalPages(client, resolveSignalsOptions(await signalsOptions()), new AbortController().signal);
  },
  page: async () => ({ records: [], cursor: { rts: millisRts.encode((await sharedSim()).world.startMs), delivered: [] }, caughtUp: true }),
  config: async (): Promise<SlicePagerConfig> => {
    const sim = await sharedSim();
    const client = createClient({ baseUrl: sim.baseUrl, signalUrl: sim.signalUrl, email: sim.email, token: sim.token });
    return {
      client,
      shopId: firstShop(sim.world).id,
      limit: 200,
      start: { rts: millisRts.encode(sim.world.startMs), delivered: [] },
      endRts: millisRts.encode(sim.world.startMs + 3_600_000),
      mode: "backfill",
      settleMs: 0,
      codec: millisRts,
      scheduler: asyncScheduler,
      slice: 0,
    };
  },
  signal: () => new AbortController().signal,
  controller: () => new AbortController(),
  callerSignal: () => new AbortController().signal,
  clientSignal: () => new AbortController().signal,
  callSignal: () => new AbortController().signal,
  work: () => async (_signal?: AbortSignal): Promise<void> => {},
  bar: () => ({ update: (_fraction: number): void => {} }),
  // report
  input: () => sampleReportInput(),
  shop: () => sampleReportInput().shops[0],
  rows: () => [
    { hour: 10, visitors: 12, passersBy: 80, sales: 3 },
    { hour: 11, visitors: 30, passersBy: 120, sales: 8 },
  ],
  // analytics
  session: async () => (await result()).sessions[0],
  sessions: async () => (await result()).sessions,
  classified: async () => (await result()).sessions,
  counts: async () => (await result()).days[0],
  decoder: async () => new SignalDecoder({ shopId: firstShop((await sharedSim()).world).id }),
  "signals$": async () => from(await decoded()),
  join: () => join,
  // cli
  io: cliIo,
  argv: () => ["--format", "ndjson"],
  values: () => ({}),
  deps: () => defaultClientDeps,
  error: () => new Error("GET /api/v1/brands failed with HTTP 401"),
  report: () => ({ failed: 0 }),
  out: sink,
  stream: sink,
  frame: (): DashboardFrame => ({
    heading: "1 shop · Mon 2026-11-16 · Asia/Seoul",
    clock: "14:05",
    fraction: 0.52,
    elapsedMs: 31_000,
    shops: [snapshot(101, "Mori")],
    status: "sales: the day's takings go up at closing time",
  }),
  results: demoResults,
  overall: () => undefined,
  run: (): DemoRun => ({ date: "2026-11-16", timeZone: "Asia/Seoul", seed: "7", speed: 900, elapsedMs: 60_000, currency: "KRW" }),
  dayStartMs: async () => (await sharedSim()).world.startMs,
  dayEndMs: async () => (await sharedSim()).world.endMs,
  openMs: async () => (await sharedSim()).world.startMs + 10 * 3_600_000,
  closeMs: async () => (await sharedSim()).world.startMs + 22 * 3_600_000,
  t0: () => performance.now(),
  live: async () => {
    const world = (await sharedSim()).world;
    return new ShopLive(firstShop(world), world.endMs);
  },
  day: async () => ({ startMs: (await sharedSim()).world.startMs }),
  // Stopping at once: the pipeline still reads what is visible and flushes every operator.
  stop$: () => of(true),
  simNow: async () => {
    const end = (await sharedSim()).world.endMs;
    return () => end;
  },
};

/** Where a name means something else in one file's (or, ending in "/", one area's) examples; paths relative to src/. */
const FIXTURES_BY_FILE: Record<string, Record<string, Factory>> = {
  // In the kernels' examples `signals` is decoded records, not the source function.
  "kernels/": { signals: decoded, apply: () => (_signal: Signal): void => {} },
  // AnalyzeShopDayOptions there: the first shop's day.
  "fleet/analyzeShopDay.ts": {
    options: async (): Promise<AnalyzeShopDayOptions> => {
      const world = (await sharedSim()).world;
      return { shopId: firstShop(world).id, sinceMs: world.startMs, untilMs: world.endMs, timeZone: "Asia/Seoul" };
    },
  },
  "kernels/sessions/EventTimeEngine.ts": { engine: () => new EventTimeEngine({}, { emit: () => {} }) },
  // The decoder, engine and DataQuality of one shop's day, run to the end: what the counts merge.
  "kernels/quality/dataQuality.ts": {
    decoder: async () => (await qualityRun()).decoder,
    engine: async () => (await qualityRun()).engine,
    quality: async () => (await qualityRun()).quality,
  },
  "kernels/visits/scoreAgainstTruth.ts": {
    score: async () => scoreAgainstTruth((await result()).sessions, (await sharedSim()).world.truth(), { timeZone: "Asia/Seoul" }),
  },
};

/** Names of the fixtures, for the harness to look for in an example's code. */
export const fixtureNames: readonly string[] = [...new Set([...Object.keys(FIXTURES), ...Object.values(FIXTURES_BY_FILE).flatMap(Object.keys)])];

/** Builds the named fixtures for an example of `file` (relative to src/) and runs `body` with them. */
export async function useFixtures(
  file: string,
  names: readonly string[],
  body: (fixtures: Record<string, unknown>) => Promise<void>,
): Promise<void> {
  const fixtures: Record<string, unknown> = {};
  const local = Object.entries(FIXTURES_BY_FILE)
    .filter(([where]) => (where.endsWith("/") ? file.startsWith(where) : file === where))
    .map(([, fixtures]) => fixtures);
  for (const name of names) {
    // A name only some files define (kernels' `signals`) stays the export of src/ elsewhere.
    const factory = local.find((f) => name in f)?.[name] ?? FIXTURES[name];
    if (factory !== undefined) fixtures[name] = await factory();
  }
  await body(fixtures);
}

/**
 * A scratch working directory holding the files examples name (`world.json`, `sales.csv`,
 * `pos.csv`, `day.ndjson`); the returned function removes it.
 */
export function scratchDir(): { readonly dir: string; readonly remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), "footfall-examples-"));
  writeFileSync(join(dir, "world.json"), JSON.stringify({ shops: 2, seed: 7 }));
  const sales = "external_key,timestamp,amount,quantity,currency\nMORI-GN-01,2026-11-16T10:05:00+09:00,12000,2,KRW\nMORI-GN-01,2026-11-16T11:40:00+09:00,8500,1,KRW\n";
  writeFileSync(join(dir, "sales.csv"), sales);
  writeFileSync(join(dir, "pos.csv"), sales);
  writeFileSync(join(dir, "sales.ndjson"), '{"external_key":"MORI-GN-01","date":"2026-11-16","amount":20500,"quantity":3,"currency":"KRW"}\n');
  writeFileSync(join(dir, "day.ndjson"), "");
  mkdirSync(join(dir, "out"));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
