import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Queue } from "bullmq";
import { lastValueFrom, toArray } from "rxjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { analysisRecords } from "../../src/analysis/analysisRecords.ts";
import { type AnalysisRecord } from "../../src/analysis/AnalysisRecord.ts";
import { analyze } from "../../src/analysis/analyze.ts";
import { createClient } from "../../src/client/createClient.ts";
import { analyzeShopDay } from "../../src/fleet/analyzeShopDay.ts";
import { FLEET_QUEUE, shopDayJobId } from "../../src/fleet/fleetJobs.ts";
import { openFleetRedis } from "../../src/fleet/openFleetRedis.ts";
import { CALIBRATION_VERSION, checkCalibration, type Calibration, type CalibrationFile } from "../../src/kernels/calibration/Calibration.ts";
import type { LiveOccupancyInterval } from "../../src/kernels/people/LiveOccupancy.ts";
import { createSimHandler } from "../../src/sim/service/createSimHandler.ts";
import { createWorld } from "../../src/sim/createWorld.ts";
import type { World } from "../../src/sim/world/World.ts";
import { startSimulator, type RunningSimulator } from "../../src/sim/service/startSimulator.ts";
import { signals } from "../../src/source/signals.ts";
import { fleetTestsSkipped, startPostgres, startRedis, type TestPostgres, type TestRedis } from "./fleetServers.ts";
import { cli, lines, startWorker, stopWorker, type WorkerProcess } from "./fleetRun.ts";

const TZ = "Asia/Seoul";
const DAY = "2026-11-16";
const NEXT = "2026-11-17";

/**
 * A calibration of `shopId` as `fitCalibration` would write one, by hand: fitted the week before
 * the world's day, with a yardstick about half the prior's (1.44 bursts a minute), so the people it
 * gives are clearly not the prior's.
 */
function calibrationOf(shopId: number, id: string, burstsPerMinute = 0.8): Calibration {
  const start = Date.parse("2026-11-09T10:00:00+09:00");
  return checkCalibration(
    {
      id,
      shopId,
      start,
      end: start + 5 * 86_400_000,
      burstsPerMinute,
      countedBurstsPerMinute: burstsPerMinute * 0.95,
      logSe: 0.08,
      dayLogSd: 0.1,
      personCv: 1.86,
      universalPersonShare: 0.25,
      overdispersion: 1.2,
      counts: { intervals: 40, dailyCounts: 0, days: 5, personHours: 62.5 },
      model: null,
      settings: { intervalMs: 900_000, timeZone: TZ, visitorRssi: "auto" },
      trusted: true,
      warnings: [],
    },
    `calibration of shop ${shopId}`,
  );
}

function file(shops: readonly unknown[]): CalibrationFile {
  return { format: "footfall-calibration", version: CALIBRATION_VERSION, shops: shops as Calibration[] };
}

/** Rotating phones: bursts the people estimate counts with the yardstick, so a calibration shows. */
const WORLD = { seed: 21, shops: 2, days: 1, start: DAY, rotation: "realistic", visitorsPerDay: 60, passersByPerDay: 200, staffPerShop: 1, stationaryPerShop: 0, openingHours: [10, 14] } as const;

describe.skipIf(fleetTestsSkipped())("fleet calibrations", () => {
  let redis: TestRedis;
  let postgres: TestPostgres;
  let sim: RunningSimulator;
  let world: World;
  let env: Record<string, string>;
  let worker: WorkerProcess | undefined;
  let dir: string;
  let a: number;
  let b: number;

  beforeAll(async () => {
    [redis, postgres] = await Promise.all([startRedis(), startPostgres()]);
    world = createWorld(WORLD);
    sim = await startSimulator({ seed: WORLD.seed, world });
    [a, b] = world.shops.map((s) => s.id) as [number, number];
    env = {
      FOOTFALL_REDIS_URL: redis.url,
      FOOTFALL_DATABASE_URL: postgres.url,
      FOOTFALL_SIGNAL_URL: sim.signalUrl,
      FOOTFALL_EMAIL: sim.email,
      FOOTFALL_TOKEN: sim.token,
    };
    dir = mkdtempSync(join(tmpdir(), "footfall-calibration-"));
    expect((await cli(env, ["fleet", "init"])).status).toBe(0);
    worker = startWorker(env, ["--name", "C"]);
    await worker.waitFor(/ready/);
  }, 60_000);

  afterAll(async () => {
    if (worker !== undefined) await stopWorker(worker);
    await sim?.close();
    await Promise.all([redis?.stop(), postgres?.stop()]);
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });

  const write = (name: string, content: unknown): string => {
    const path = join(dir, name);
    writeFileSync(path, typeof content === "string" ? content : JSON.stringify(content, null, 2));
    return path;
  };
  const show = async (...argv: string[]): Promise<AnalysisRecord[]> => {
    const r = await cli(env, ["fleet", "calibration", "show", ...argv]);
    expect(r.status).toBe(0);
    return lines(r.out);
  };
  /** Runs both shops' day through the worker (again: the kept completed jobs are removed first) and returns the stored lines. */
  const runDay = async (): Promise<AnalysisRecord[]> => {
    const queue = new Queue(FLEET_QUEUE, { connection: await openFleetRedis(redis.url) });
    try {
      for (const shop of [a, b]) await queue.remove(shopDayJobId(shop, DAY));
    } finally {
      await queue.close();
    }
    const run = await cli(env, ["fleet", "backfill", "--shops", `${a},${b}`, "--since", DAY, "--until", NEXT, "--wait"]);
    expect(run.status, run.err).toBe(0);
    const stored = await cli(env, ["fleet", "results", "--shops", `${a},${b}`, "--since", DAY, "--until", NEXT, "--occupancy", "--format", "ndjson"]);
    expect(stored.status).toBe(0);
    return lines(stored.out);
  };
  const ofShop = (rows: readonly AnalysisRecord[], shop: number, type: string) => rows.filter((r) => r.shopId === shop && r.type === type);

  it("refuses a bad file or a shop not in it with exit 2, storing nothing and leaving the current calibration", async () => {
    const current = calibrationOf(a, `cal-${a}-00000001`);
    expect((await cli(env, ["fleet", "calibration", "set", "--calibration", write("current.json", file([current]))])).status).toBe(0);
    const before = await show();
    expect(before.map((l) => l.id)).toEqual([current.id]);

    const newer = calibrationOf(a, `cal-${a}-00000002`);
    const { logSe: _dropped, ...broken } = calibrationOf(b, `cal-${b}-00000003`);
    const refused: [string[], RegExp][] = [
      [["--calibration", join(dir, "missing.json")], /--calibration .*missing\.json: ENOENT/],
      [["--calibration", write("text.json", "shop,rho\n101,0.8\n")], /--calibration .*text\.json: not JSON/],
      [["--calibration", write("csv.json", { format: "footfall-truth", shops: [] })], /--calibration .*csv\.json: calibration: not a footfall calibration file/],
      [["--calibration", write("v3.json", { format: "footfall-calibration", version: CALIBRATION_VERSION + 1, shops: [newer] })], new RegExp(`--calibration .*v3\\.json: .*version ${CALIBRATION_VERSION + 1} is not supported`)],
      // One good calibration beside a bad one: neither is stored.
      [["--calibration", write("half.json", file([newer, broken]))], /--calibration .*half\.json: calibration 1: missing field "logSe"/],
      [["--calibration", write("twice.json", file([newer, newer]))], /--calibration .*twice\.json: calibration: shop \d+ is calibrated twice/],
      [["--calibration", write("empty.json", file([]))], /--calibration .*empty\.json: holds no calibration/],
      [["--calibration", write("newer.json", file([newer])), "--shop", String(b)], new RegExp(`--shop ${b}: not in .*newer\\.json \\(it calibrates shop ${a}\\)`)],
      [["--calibration", write("newer2.json", file([newer])), "--shop", "x1"], /--shop must be a SHOP ID/],
      [[], /fleet calibration set needs --calibration FILE/],
    ];
    for (const [argv, message] of refused) {
      const r = await cli(env, ["fleet", "calibration", "set", ...argv]);
      expect([r.status, r.out], argv.join(" ")).toEqual([2, ""]);
      expect(r.err, argv.join(" ")).toMatch(message);
      expect(r.err.trim().split("\n"), argv.join(" ")).toHaveLength(1);
    }
    for (const argv of [["calibration"], ["calibration", "list"], ["calibration", "clear"], ["calibration", "show", "--shops", String(a)], ["calibration", "show", "extra", "word"]]) {
      expect((await cli(env, ["fleet", ...argv])).status, argv.join(" ")).toBe(2);
    }
    expect(await show()).toEqual(before);
    // Clean for the next test.
    const cleared = await cli(env, ["fleet", "calibration", "clear", "--shop", String(a)]);
    expect([cleared.status, cleared.err]).toEqual([0, `footfall fleet calibration: shop ${a}: ${current.id} removed; its next jobs use the prior\n`]);
    expect(await show()).toEqual([]);
  });

  it("a shop's calibration set in PostgreSQL is used by its next job and named in the stored lines; cleared, the prior is back", async () => {
    const prior = await runDay();
    for (const shop of [a, b]) {
      expect(ofShop(prior, shop, "summary")).toHaveLength(1);
      expect(ofShop(prior, shop, "occupancy").length).toBeGreaterThan(8);
    }
    for (const l of prior) expect(l.calibration).toBeNull();
    expect(worker!.err).toMatch(new RegExp(`job day-${a}-${DAY} started \\(claim 1, attempt 1, no calibration: the prior\\)`));

    // The file calibrates both shops; only shop a is set.
    const ca = calibrationOf(a, `cal-${a}-0a1b2c3d`);
    const cb = calibrationOf(b, `cal-${b}-4e5f6a7b`, 3.2);
    const path = write("cal.json", file([ca, cb]));
    const set = await cli(env, ["fleet", "calibration", "set", "--calibration", path, "--shop", String(a)]);
    expect([set.status, set.out]).toEqual([0, ""]);
    expect(set.err).toBe(`footfall fleet calibration: shop ${a}: ${ca.id} set; its next jobs use it\n`);
    const shown = await show();
    expect(shown).toHaveLength(1);
    expect(shown[0]).toMatchObject({ type: "calibration", shopId: a, id: ca.id, calibration: ca });
    expect(Date.now() - Date.parse(String(shown[0]!.setAt))).toBeLessThan(60_000);
    // In the field order of a calibration file (jsonb keeps its own), so lines can be put back in one.
    expect(JSON.stringify(shown[0]!.calibration)).toBe(JSON.stringify(ca));
    expect(await show("--shop", String(a))).toEqual(shown);
    const none = await cli(env, ["fleet", "calibration", "show", "--shop", String(b)]);
    expect([none.status, none.out, none.err]).toEqual([0, "", `footfall fleet calibration: no calibration stored for shop ${b}\n`]);

    const calibrated = await runDay();
    expect(worker!.err).toMatch(new RegExp(`job day-${a}-${DAY} started \\(claim 2, attempt 1, calibration ${ca.id}\\)`));
    const named = { id: ca.id, start: new Date(ca.start).toISOString(), end: new Date(ca.end).toISOString(), method: "scale", trusted: true, warnings: [] };
    const summary = ofShop(calibrated, a, "summary")[0]!;
    const occupancy = ofShop(calibrated, a, "occupancy");
    expect(summary.calibration).toEqual(named);
    for (const l of occupancy) expect(l.calibration).toEqual(named);
    // The calibrated yardstick is half the prior's: more people for the same bursts.
    const inside = (rows: readonly AnalysisRecord[]) => rows.map((l) => l.inside);
    expect(inside(occupancy)).not.toEqual(inside(ofShop(prior, a, "occupancy")));
    expect(occupancy.reduce((s, l) => s + Number(l.inside ?? 0), 0)).toBeGreaterThan(ofShop(prior, a, "occupancy").reduce((s, l) => s + Number(l.inside ?? 0), 0));
    expect(summary.visitors).not.toBe(ofShop(prior, a, "summary")[0]!.visitors);
    // Exactly what the library gives for the day with that calibration.
    const client = createClient({ baseUrl: sim.baseUrl, signalUrl: sim.signalUrl, email: sim.email, token: sim.token });
    const day = { sinceMs: world.startMs, untilMs: world.startMs + 86_400_000 };
    const records = await lastValueFrom(signals(client, { shopId: a, since: day.sinceMs, until: day.untilMs }).pipe(toArray()));
    const expected = [...analysisRecords(await analyze(records, { timeZone: TZ, calibration: [ca] }))];
    const ofDay = (l: AnalysisRecord) => Number(l.start) >= day.sinceMs && Number(l.start) < day.untilMs;
    expect(occupancy).toEqual(expected.filter((l) => l.type === "occupancy" && ofDay(l)));
    const { newVisitors: _n, repeatVisitors: _r, ...people } = expected.find((l) => l.type === "summary" && l.date === DAY)!;
    expect(summary).toMatchObject(people);
    // The results table names it too, beside the people: the id, and the prior for shop b.
    const table = await cli(env, ["fleet", "results", "--shops", `${a},${b}`, "--since", DAY, "--until", NEXT, "--format", "table"]);
    const rows = table.out.trim().split("\n").map((r) => r.split(/ {2,}/));
    const column = rows[0]!.indexOf("calibration");
    expect(column).toBe(rows[0]!.indexOf("visitors") + 1);
    expect(rows.slice(1).map((r) => [Number(r[0]), r[column]])).toEqual([[a, ca.id], [b, "prior"]]);
    // Shop b, not set, keeps the prior: the same lines as before.
    expect(ofShop(calibrated, b, "summary")).toEqual(ofShop(prior, b, "summary"));
    expect(ofShop(calibrated, b, "occupancy")).toEqual(ofShop(prior, b, "occupancy"));

    // Setting it again from the file (every shop in it) replaces a's and adds b's.
    const again = await cli(env, ["fleet", "calibration", "set", "--calibration", path]);
    expect(again.err).toBe(`footfall fleet calibration: shop ${a}: ${ca.id} set (again); its next jobs use it\nfootfall fleet calibration: shop ${b}: ${cb.id} set; its next jobs use it\n`);
    expect((await show()).map((l) => l.id)).toEqual([ca.id, cb.id]);

    const cleared = await cli(env, ["fleet", "calibration", "clear", "--shop", String(a), "--shop", String(b)]);
    expect(cleared.status).toBe(0);
    expect(await show()).toEqual([]);
    const twice = await cli(env, ["fleet", "calibration", "clear", "--shop", String(a)]);
    expect([twice.status, twice.err]).toEqual([0, `footfall fleet calibration: shop ${a}: had no calibration\n`]);
    const after = await runDay();
    for (const l of after) expect(l.calibration).toBeNull();
    expect(after).toEqual(prior);
  }, 120_000);

  it("a live tail reads its shop's calibration for each day it starts", async () => {
    // Stationary devices are seen all night, so records past midnight close the first day.
    const tailWorld = createWorld({ ...WORLD, seed: 23, shops: 1, days: 2, stationaryPerShop: 1 });
    const tailSim = await startSimulator({ seed: 23, world: tailWorld });
    const shop = tailWorld.shops[0]!.id;
    const tailEnv = { ...env, FOOTFALL_REDIS_URL: `${redis.url}/2`, FOOTFALL_DATABASE_URL: await postgres.createDatabase("tail_calibration"), FOOTFALL_SIGNAL_URL: tailSim.signalUrl, FOOTFALL_EMAIL: tailSim.email, FOOTFALL_TOKEN: tailSim.token };
    let tailWorker: WorkerProcess | undefined;
    try {
      expect((await cli(tailEnv, ["fleet", "init"])).status).toBe(0);
      const c = calibrationOf(shop, `cal-${shop}-5a5a5a5a`);
      expect((await cli(tailEnv, ["fleet", "calibration", "set", "--calibration", write("tail.json", file([c]))])).status).toBe(0);
      tailWorker = startWorker(tailEnv, ["--name", "T"]);
      await tailWorker.waitFor(/ready/);
      expect((await cli(tailEnv, ["fleet", "tail", "--shops", String(shop), "--since", DAY, "--poll-ms", "200"])).status).toBe(0);
      await tailWorker.waitFor(new RegExp(`job tail-${shop} committed ${DAY}`));
      expect(tailWorker.err).toContain(`job tail-${shop} reads ${DAY} (calibration ${c.id})`);
      const stored = await cli(tailEnv, ["fleet", "results", "--shops", String(shop), "--since", DAY, "--until", NEXT, "--occupancy", "--format", "ndjson"]);
      const rows = lines(stored.out).filter((l) => l.type === "summary" || l.type === "occupancy");
      expect(rows.length).toBeGreaterThan(8);
      for (const l of rows) expect((l.calibration as { id: string }).id).toBe(c.id);
      // Cleared and stopped: the table and the tail left as the other tests find them.
      expect((await cli(tailEnv, ["fleet", "calibration", "clear", "--shop", String(shop)])).status).toBe(0);
      expect((await cli(tailEnv, ["fleet", "stop", "--shops", String(shop)])).status).toBe(0);
      await tailWorker.waitFor(new RegExp(`job tail-${shop} stopped`));
    } finally {
      if (tailWorker !== undefined) await stopWorker(tailWorker);
      await tailSim.close();
    }
  }, 120_000);
});

describe("analyzeShopDay with a calibration", () => {
  it("estimates the day and its live occupancy with it, and refuses another shop's", async () => {
    const world = createWorld({ ...WORLD, shops: 1 });
    const sim = createSimHandler({ world });
    const client = createClient({ baseUrl: "http://sim", signalUrl: "http://sim", email: sim.email, token: sim.token, fetch: sim.fetch });
    const shopId = world.shops[0]!.id;
    const c = calibrationOf(shopId, `cal-${shopId}-0a1b2c3d`);
    const range = { shopId, sinceMs: world.startMs, untilMs: world.endMs, timeZone: TZ };
    const live: LiveOccupancyInterval[] = [];
    const day = await analyzeShopDay(client, { ...range, calibration: c, onLive: (i) => void live.push(i) });
    expect(live.length).toBeGreaterThan(8);
    for (const i of live) expect(i.calibration?.id).toBe(c.id);
    const people = day.records.filter((r) => r.type === "summary" || r.type === "occupancy");
    expect(people.length).toBeGreaterThan(8);
    for (const r of people) expect((r.calibration as { id: string }).id).toBe(c.id);
    await expect(analyzeShopDay(client, { ...range, calibration: calibrationOf(shopId + 1, "cal-x") })).rejects.toThrow(RangeError);
  });
});
