import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import { poolPeopleRecords } from "../../src/analysis/analysisRecords.ts";
import { type AnalysisRecord } from "../../src/analysis/AnalysisRecord.ts";
import { createWorld } from "../../src/sim/createWorld.ts";
import { startSimulator, type RunningSimulator } from "../../src/sim/service/startSimulator.ts";
import { fleetTestsSkipped, startPostgres, startRedis, type TestPostgres, type TestRedis } from "./fleetServers.ts";
import { cli, lines, singleProcess, startWorker, stopWorker, type WorkerProcess } from "./fleetRun.ts";

const TZ = "Asia/Seoul";
const SHOPS = 6;

describe.skipIf(fleetTestsSkipped())("fleet backfill with 3 workers", () => {
  let redis: TestRedis;
  let postgres: TestPostgres;
  let sim: RunningSimulator;
  let env: Record<string, string>;
  let workers: WorkerProcess[] = [];
  let shops: number[];
  let since: string;
  let until: string;

  beforeAll(async () => {
    [redis, postgres] = await Promise.all([startRedis(), startPostgres()]);
    const world = createWorld({
      seed: 15,
      shops: SHOPS,
      days: 2,
      start: "2026-11-16",
      visitorsPerDay: 40,
      passersByPerDay: 120,
      staffPerShop: 1,
      stationaryPerShop: 0,
      openingHours: [10, 13],
      returningShare: 0.5,
    });
    sim = await startSimulator({ seed: 15, world });
    shops = world.shops.map((s) => s.id);
    since = "2026-11-16";
    until = "2026-11-18";
    env = {
      FOOTFALL_REDIS_URL: redis.url,
      FOOTFALL_DATABASE_URL: postgres.url,
      FOOTFALL_SIGNAL_URL: sim.signalUrl,
      FOOTFALL_EMAIL: sim.email,
      FOOTFALL_TOKEN: sim.token,
    };
    expect((await cli(env, ["fleet", "init"])).status).toBe(0);
  });

  afterAll(async () => {
    await Promise.all(workers.map(stopWorker));
    await sim?.close();
    await Promise.all([redis?.stop(), postgres?.stop()]);
  });

  it("stores exactly what analyze computes per shop-day, whatever order the days ran in", async () => {
    // One worker splits its jobs' analysis by device over 2 threads: what it stores must not differ.
    workers = [0, 1, 2].map((i) => startWorker(env, ["--name", `w${i}`, ...(i === 0 ? ["--shares", "2"] : [])]));
    await Promise.all(workers.map((w) => w.waitFor(/ready/)));
    // The second day first: its repeat visitors must still count the first day, stored later.
    const second = await cli(env, ["fleet", "backfill", "--shops", shops.join(","), "--since", "2026-11-17", "--until", until, "--wait"]);
    expect(second.status).toBe(0);
    const all = await cli(env, ["fleet", "backfill", "--shops", shops.join(","), "--since", since, "--until", until, "--wait"]);
    expect(all.status).toBe(0);
    expect(all.err).toMatch(new RegExp(`${SHOPS * 2}/${SHOPS * 2} done, 0 failed`));
    // Enqueueing again adds nothing: every job is already done.
    const again = await cli(env, ["fleet", "backfill", "--shops", shops.join(","), "--since", since, "--until", until]);
    expect(again.status).toBe(0);

    const expected = await singleProcess(sim, shops, since, until, TZ);
    const stored = await cli(env, ["fleet", "results", "--shops", shops.join(","), "--since", since, "--until", until, "--sessions", "--occupancy", "--format", "ndjson"]);
    expect(stored.status).toBe(0);
    const rows = lines(stored.out);
    // Interval estimates: every shop-day's occupancy lines, in order, as analyze prints them.
    const occupancy = rows.filter((r) => r.type === "occupancy");
    const expectedOccupancy = [...expected.occupancy.values()].flat();
    expect(expectedOccupancy.length).toBeGreaterThan(SHOPS * 2);
    expect(occupancy).toEqual(expectedOccupancy);
    const summaries = rows.filter((r) => r.type === "summary");
    expect(summaries).toHaveLength(SHOPS * 2);
    for (const s of summaries) expect(s).toEqual(expected.summaries.get(`${s.shopId} ${s.date}`));
    expect(summaries.some((s) => Number(s.repeatVisitors) > 0)).toBe(true);
    const sessions = rows.filter((r) => r.type === "session");
    const expectedSessions = [...expected.sessions.values()].flat();
    expect(sessions).toEqual(expectedSessions);
    // --pool-days: each shop's two days from their stored lines together, as poolPeopleRecords pools them.
    const pooled = await cli(env, ["fleet", "results", "--shops", shops.join(","), "--since", since, "--until", until, "--occupancy", "--pool-days", "--format", "ndjson"]);
    expect(pooled.status).toBe(0);
    const pooledRows = lines(pooled.out);
    // Through JSON, as the CLI prints them: a prior's infinite degrees of freedom is null in a line.
    expect(pooledRows).toEqual(JSON.parse(JSON.stringify(poolPeopleRecords(rows.filter((r) => r.type !== "session")))));
    expect(pooledRows.filter((r) => r.type === "summary").map((r) => r.pooledDays)).toEqual(summaries.map(() => 2));
    // Each worker took part, and each shop-day was committed once (first claim) by one of them.
    const db = new pg.Client({ connectionString: postgres.url });
    await db.connect();
    try {
      const days = await db.query<{ n: string; workers: string; max_epoch: string }>(
        "SELECT count(*) AS n, count(DISTINCT worker) AS workers, max(epoch) AS max_epoch FROM footfall_shop_days",
      );
      expect(Number(days.rows[0]!.n)).toBe(SHOPS * 2);
      expect(Number(days.rows[0]!.workers)).toBeGreaterThan(1);
      const split = await db.query<{ n: string }>("SELECT count(*) AS n FROM footfall_shop_days WHERE worker = 'w0'");
      expect(Number(split.rows[0]!.n)).toBeGreaterThan(0);
      expect(Number(days.rows[0]!.max_epoch)).toBe(1);
      const dup = await db.query("SELECT session_id FROM footfall_sessions GROUP BY session_id HAVING count(*) > 1");
      expect(dup.rows).toEqual([]);
      // The typed occupancy columns analysts query say what each stored line says (NULL where the line has no number).
      const columns = await db.query<{ inside: number | null; inside_low: number | null; inside_high: number | null; outside: number | null; line: AnalysisRecord }>(
        "SELECT inside, inside_low, inside_high, outside, line FROM footfall_occupancy",
      );
      expect(columns.rows).toHaveLength(expectedOccupancy.length);
      const orNull = (v: unknown): unknown => (typeof v === "number" ? v : null);
      for (const r of columns.rows) {
        expect([r.inside, r.inside_low, r.inside_high, r.outside]).toEqual([orNull(r.line.inside), orNull(r.line.insideLow), orNull(r.line.insideHigh), orNull(r.line.outside)]);
      }
      // Privacy (issue 16): stored devices are keyed pseudonyms; no MAC of the world is anywhere
      // in the per-device tables, in any textual form.
      const devices = await db.query<{ device: string }>("SELECT device FROM footfall_sessions UNION SELECT device FROM footfall_visits");
      expect(devices.rows.length).toBeGreaterThan(0);
      for (const { device } of devices.rows) expect(device).toMatch(/^[0-9a-f]{32}$/);
      const dump = await db.query<{ t: string }>(
        "SELECT string_agg(t, '\n') AS t FROM (SELECT line::text AS t FROM footfall_sessions UNION ALL SELECT line::text FROM footfall_summaries UNION ALL SELECT device FROM footfall_visits) x",
      );
      const text = dump.rows[0]!.t;
      const macs = new Set<string>();
      for (const shop of shops) for (const r of sim.world.rawSignals(shop)) macs.add(String((r as { device_id?: unknown }).device_id ?? ""));
      for (const t of sim.world.truth()) macs.add(t.device);
      macs.delete("");
      // Every MAC in any textual form (aa:bb:…, aa-bb-…, 12 bare hex digits, either case), found
      // in one pass over the text: rotating phones give tens of thousands of MACs.
      const bare = new Set([...macs].map((mac) => mac.replace(/[^0-9a-f]/gi, "").toLowerCase()).filter((b) => b.length === 12));
      const found = new Set<string>();
      for (const m of text.matchAll(/(?:[0-9a-f]{2}[:-]){5}[0-9a-f]{2}/gi)) if (bare.has(m[0].replace(/[:-]/g, "").toLowerCase())) found.add(m[0]);
      for (const m of text.matchAll(/[0-9a-f]{12,}/gi)) {
        const run = m[0].toLowerCase();
        for (let i = 0; i + 12 <= run.length; i++) if (bare.has(run.slice(i, i + 12))) found.add(run.slice(i, i + 12));
      }
      expect([...found]).toEqual([]);
    } finally {
      await db.end();
    }
    const status = await cli(env, ["fleet", "status", "--format", "ndjson"]);
    const fleet = lines(status.out)[0]!;
    expect(fleet).toMatchObject({ type: "fleet", jobs: { failed: 0, completed: SHOPS * 2 } });
    expect(fleet.workers).toEqual(["w0", "w1", "w2"]);

    // Days written with daily pseudonyms (a worker with --pseudonym-rotation daily stores new and
    // repeat visitors as null): results keep them unavailable, not 0, even where stored visits
    // share a device across days; a linked day beside them still gets its repeat count.
    const rotated = new pg.Client({ connectionString: postgres.url });
    await rotated.connect();
    try {
      const summary = (day: string, linked: boolean): string =>
        JSON.stringify({ type: "summary", shopId: 999, date: day, visitors: 1, newVisitors: linked ? 1 : null, repeatVisitors: linked ? 0 : null });
      for (const [day, linked] of [["2026-01-01", false], ["2026-01-02", false], ["2026-01-03", true]] as const) {
        await rotated.query("INSERT INTO footfall_summaries (shop_id, day, visitors, visits, passers_by, capture_rate, line) VALUES (999, $1, 1, 1, 0, 1, $2)", [day, summary(day, linked)]);
        await rotated.query("INSERT INTO footfall_visits (shop_id, device, day, first_ms) VALUES (999, 'same', $1, 0)", [day]);
      }
    } finally {
      await rotated.end();
    }
    const rotatedResults = await cli(env, ["fleet", "results", "--shops", "999", "--since", "2026-01-01", "--until", "2026-01-04", "--format", "ndjson"]);
    expect(rotatedResults.status, rotatedResults.err).toBe(0);
    expect(lines(rotatedResults.out).map((r) => [r.date, r.newVisitors, r.repeatVisitors])).toEqual([
      ["2026-01-01", null, null],
      ["2026-01-02", null, null],
      ["2026-01-03", 0, 1],
    ]);

    // Retention: per-device rows of days older than --retain-days go; the daily summaries stay.
    const retained = await cli(env, ["fleet", "retain", "--retain-days", "1"]);
    expect(retained.status, retained.err).toBe(0);
    expect(retained.err).toMatch(/deleted [1-9]\d* session and [1-9]\d* visit rows of days before/);
    const after = await cli(env, ["fleet", "results", "--shops", shops.join(","), "--since", since, "--until", until, "--sessions", "--format", "ndjson"]);
    const left = lines(after.out);
    expect(left.filter((r) => r.type === "session")).toEqual([]);
    expect(left.filter((r) => r.type === "summary")).toHaveLength(SHOPS * 2);
    expect((await cli(env, ["fleet", "retain", "--retain-days", "0"])).status).toBe(2);
    // Scheduled: a BullMQ job scheduler whose jobs the workers run.
    const scheduled = await cli(env, ["fleet", "retain", "--schedule", "--retain-days", "1", "--every-ms", "60000"]);
    expect(scheduled.status, scheduled.err).toBe(0);
    const ran = await Promise.any(workers.map((w) => w.waitFor(/retention: deleted (\d+) session and (\d+) visit rows/)));
    expect([ran[1], ran[2]]).toEqual(["0", "0"]);
  }, 240_000);
});
