import { execFileSync } from "node:child_process";
import { Pseudonymizer } from "../../src/privacy/Pseudonymizer.ts";
import { fakeIo } from "./fakeIo.ts";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { gzipSync } from "node:zlib";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../../src/cli/main.ts";
import { command } from "../../src/cli/analyze.ts";
import { analyze } from "../../src/analysis/analyze.ts";
import { startSimulator, type RunningSimulator } from "../../src/sim/service/startSimulator.ts";
import { createWorld } from "../../src/sim/createWorld.ts";
import type { World } from "../../src/sim/world/World.ts";

const lines = (text: string): Record<string, unknown>[] =>
  text
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l) as Record<string, unknown>);

// Every line but the quality one (which counts what a reader read, not what it analysed).
const withoutQuality = (out: string) => lines(out).filter((r) => r.type !== "quality");

/** Writes `records` as an NDJSON input in the test folder; its path. */
async function writeRecords(name: string, records: readonly unknown[]): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, records.map((r) => JSON.stringify(r)).join("\n"));
  return path;
}

let sim: RunningSimulator;
let world: World;
let env: Record<string, string>;
let dir: string;
let file: string;
beforeAll(async () => {
  world = createWorld({ seed: 11, shops: 1, visitorsPerDay: 60, passersByPerDay: 300, staffPerShop: 1, stationaryPerShop: 1, openingHours: [10, 14] });
  sim = await startSimulator({ seed: 11, world });
  env = { FOOTFALL_SIGNAL_URL: sim.signalUrl, FOOTFALL_EMAIL: sim.email, FOOTFALL_TOKEN: sim.token };
  dir = await mkdtemp(join(tmpdir(), "footfall-cli-analyze-"));
  file = join(dir, "day.ndjson");
  const records = [...world.rawSignals(world.shops[0]!.id)];
  // Lines as `footfall signals` writes them: the record plus decoded fields, which must be ignored.
  await writeFile(file, records.map((r) => JSON.stringify({ ...r, time: 0, device: "x", sensor: "y" })).join("\n") + "\n");
});
afterAll(async () => {
  await sim.close();
  await rm(dir, { recursive: true, force: true });
});


// A shop-day whose sensor clocks the clock tests set off, and its summary line as analyze prints it.
const clockWorld = { seed: 13, shops: 1, rotation: "realistic" as const, visitorsPerDay: 120, passersByPerDay: 800, openingHours: [10, 16] as const };
async function clockDay(argv: string[]): Promise<{ summary: Record<string, unknown>; err: string }> {
  const f = fakeIo();
  expect(await main(["analyze", "--format", "ndjson", ...argv], f.io)).toBe(0);
  // The day (aligned to one sensor's clock, another's first seconds may fall on the day before).
  return { summary: lines(f.text.out).find((r) => r.type === "summary" && r.date === "2026-11-16")!, err: f.text.err };
}

describe("footfall analyze", () => {
  it("has full help", async () => {
    const { io, text } = fakeIo();
    expect(await main(["analyze", "--help"], io)).toBe(0);
    for (const word of ["--shop", "--since", "--until", "--input", "--format", "--tz", "--gap-ms", "--min-dwell-ms", "--visitor-rssi", "Exit status"]) {
      expect(text.out).toContain(word);
    }
    expect(command.summary).not.toMatch(/not built/);
  });

  it.each([
    [[]],
    [["--input", "x", "--shop", "1"]],
    [["--input", "x", "--format", "csv"]],
    [["--input", "x", "--tz", "Mars/Base"]],
    [["--input", "x", "--visitor-rssi", "loud"]],
    [["--input", "x", "--opening-hours", "22-10"]],
    [["--shop", "101", "--since", "2026-11-16"]],
    [["--input", join("/nonexistent", "nothing.ndjson")]],
    [["--input", tmpdir()]],
    [["--input", "x", "--rts-unit", "hours"]],
    [["--input", "x", "--shares", "0"]],
    [["--input", "x", "--shares", "65"]],
  ])("rejects bad usage %j with status 2", async (argv) => {
    const { io, text } = fakeIo(env);
    expect(await main(["analyze", ...argv], io)).toBe(2);
    expect(text.err).toMatch(/footfall analyze: /);
    expect(text.out).toBe("");
  });

  it("writes sessions, then per-day summaries, then quality as NDJSON, matching the library", async () => {
    const { io, text } = fakeIo();
    expect(await main(["analyze", "--input", file, "--format", "ndjson"], io)).toBe(0);
    const rows = lines(text.out);
    const types = rows.map((r) => r.type);
    const firstSummary = types.indexOf("summary");
    expect(types.slice(0, firstSummary).every((t) => t === "session")).toBe(true);
    expect(types.at(-1)).toBe("quality");
    const expected = await analyze(world.rawSignals(world.shops[0]!.id));
    const sessions = rows.filter((r) => r.type === "session");
    expect(sessions).toHaveLength(expected.sessions.length);
    expect(sessions[0]).toMatchObject({
      shopId: expected.sessions[0]!.shopId,
      // The device as a keyed pseudonym of fakeIo's key (the library's result keeps the MAC).
      device: new Pseudonymizer({ key: Buffer.from("00112233445566778899aabbccddeeff", "hex") }).pseudonym(expected.sessions[0]!.device),
      start: expected.sessions[0]!.start,
      end: expected.sessions[0]!.end,
      dwellMs: expected.sessions[0]!.dwellMs,
      signals: expected.sessions[0]!.signalCount,
      kind: expected.sessions[0]!.kind,
      randomized: expected.sessions[0]!.randomized,
    });
    const summaries = rows.filter((r) => r.type === "summary");
    // People, not MACs: the headline figures are the estimates, the MAC-level counts sit in `macs`.
    expect(summaries.map((r) => [r.date, r.visitors, r.visitorsLow, r.visitorsHigh, r.passersBy, r.visits, r.uniqueDevices])).toEqual(
      expected.days.map((d) => [
        d.label,
        Math.round(d.people!.visitors),
        d.people!.visitorsLow,
        d.people!.visitorsHigh,
        Math.round(d.people!.passersBy),
        d.visits,
        d.uniqueDevices,
      ]),
    );
    expect(summaries.map((r) => r.macs)).toEqual(
      expected.days.map((d) => ({ visitors: d.visitors, passersBy: d.passersBy, uniqueDevices: d.uniqueDevices, captureRate: d.captureRate })),
    );
    // One occupancy line per shop and 15 minutes, between the summaries and the quality line.
    const occupancy = rows.filter((r) => r.type === "occupancy");
    expect(occupancy).toHaveLength(expected.occupancy.length);
    expect(occupancy[40]).toMatchObject({ shopId: expected.occupancy[40]!.shopId, start: expected.occupancy[40]!.start, end: expected.occupancy[40]!.start + 900_000 });
    expect(occupancy.every((o) => (o.insideLow as number) <= (o.inside as number) && (o.inside as number) <= (o.insideHigh as number))).toBe(true);
    expect(types.indexOf("occupancy")).toBeGreaterThan(types.lastIndexOf("summary"));
    // Dwell of people: the identity-known visits' (a rotating phone's sessions are pieces of a visit).
    expect((summaries[0]!.dwell as { buckets: unknown }).buckets).toEqual(expected.days[0]!.people!.dwell.buckets);
    expect(text.err).toBe("");
    // --raw-macs: the MACs, for debugging.
    const raw = fakeIo();
    expect(await main(["analyze", "--input", file, "--format", "ndjson", "--raw-macs"], raw.io)).toBe(0);
    expect(lines(raw.text.out).find((r) => r.type === "session")?.device).toBe(expected.sessions[0]!.device);
  });

  it("--min-count K: summary counts below K are null with suppressed: true (table: <K); sessions unchanged", async () => {
    const plain = fakeIo();
    expect(await main(["analyze", "--input", file, "--format", "ndjson"], plain.io)).toBe(0);
    const before = lines(plain.text.out).filter((r) => r.type === "summary");
    // K above the smallest non-zero staff count, so something is suppressed.
    const k = Math.max(...before.map((r) => Number(r.staff))) + 1;
    const suppressed = fakeIo();
    expect(await main(["analyze", "--input", file, "--format", "ndjson", "--min-count", String(k)], suppressed.io)).toBe(0);
    const after = lines(suppressed.text.out);
    const summaries = after.filter((r) => r.type === "summary");
    for (const [i, s] of summaries.entries()) {
      const staff = Number(before[i]!.staff);
      expect(s.staff).toBe(staff > 0 ? null : 0);
      if (staff > 0) expect(s.suppressed).toBe(true);
    }
    expect(after.filter((r) => r.type === "session")).toEqual(lines(plain.text.out).filter((r) => r.type === "session"));
    const table = fakeIo();
    expect(await main(["analyze", "--input", file, "--min-count", String(k)], table.io)).toBe(0);
    if (before.some((r) => Number(r.staff) > 0)) expect(table.text.out).toContain(`<${k}`);
    const bad = fakeIo();
    await expect(main(["analyze", "--input", file, "--min-count", "0"], bad.io)).resolves.toBe(2);
  });

  it("sets the occupancy interval with --interval and shows the visitor estimate with its interval in the table", async () => {
    const hourly = fakeIo();
    expect(await main(["analyze", "--input", file, "--format", "ndjson", "--interval", "1h"], hourly.io)).toBe(0);
    const occupancy = lines(hourly.text.out).filter((r) => r.type === "occupancy");
    expect(occupancy).toHaveLength(24);
    expect(occupancy.every((o) => (o.end as number) - (o.start as number) === 3_600_000)).toBe(true);
    for (const bad of ["30s", "2d", "soon"]) {
      const { io, text } = fakeIo();
      expect(await main(["analyze", "--input", file, "--interval", bad], io)).toBe(2);
      expect(text.err).toMatch(/--interval/);
    }
    const table = fakeIo();
    expect(await main(["analyze", "--input", file], table.io)).toBe(0);
    expect(table.text.out).toMatch(/MAC visitors/);
    expect(table.text.out).toMatch(/\d+ \[\d+–\d+\]/);
  });

  it("--visitor-rssi -70 as the help writes it: the threshold applied, the same lines as --visitor-rssi=-70", async () => {
    const run = async (argv: string[]) => {
      const f = fakeIo();
      expect(await main(["analyze", "--input", file, "--format", "ndjson", ...argv], f.io)).toBe(0);
      return withoutQuality(f.text.out);
    };
    const spaced = await run(["--visitor-rssi", "-70", "--fallback-rssi", "-60"]);
    expect(spaced.filter((r) => r.type === "summary").map((r) => r.visitorRssi)).toEqual(spaced.filter((r) => r.type === "summary").map(() => -70));
    expect(spaced).toEqual(await run(["--visitor-rssi=-70", "--fallback-rssi=-60"]));
    // A dBm out of range is still judged by the flag's own reader.
    const { io, text } = fakeIo();
    expect(await main(["analyze", "--input", file, "--visitor-rssi", "-200"], io)).toBe(2);
    expect(text.err).toMatch(/--visitor-rssi must be a number in -127…0/);
  });

  it("--pool-days: each day's people from the shop's days in the file together, as analyze() with poolDays gives them", async () => {
    const week = createWorld({ seed: 17, shops: 1, days: 3, rotation: "realistic", visitorsPerDay: 80, passersByPerDay: 300, openingHours: [10, 16] });
    const records = [...week.rawSignals(week.shops[0]!.id)];
    const path = await writeRecords("three-days.ndjson", records);
    const summaries = async (argv: string[]) => {
      const f = fakeIo();
      expect(await main(["analyze", "--input", path, "--format", "ndjson", ...argv], f.io)).toBe(0);
      return lines(f.text.out).filter((r) => r.type === "summary");
    };
    const alone = await summaries([]);
    const pooled = await summaries(["--pool-days"]);
    const library = (await analyze(records, { timeZone: "Asia/Seoul", poolDays: true })).people;
    expect(alone.map((d) => d.pooledDays)).toEqual(alone.map(() => 1));
    expect(pooled.map((d) => d.pooledDays)).toEqual(pooled.map(() => library.length));
    expect(pooled.map((d) => [d.date, d.visitors, d.visitorsLow, d.visitorsHigh])).toEqual(library.map((p) => [p.label, Math.round(p.visitors), p.visitorsLow, p.visitorsHigh]));
    // What pooling leaves alone: the MAC-level counts.
    expect(pooled.map((d) => d.macs)).toEqual(alone.map((d) => d.macs));
  });

  it("prints a table and exits 1 when lines are rejected", async () => {
    const bad = join(dir, "bad.ndjson");
    await writeFile(bad, `not json\n{"row_key":"x"}\n`);
    const { io, text } = fakeIo();
    expect(await main(["analyze", "--input", bad], io)).toBe(1);
    expect(text.err).toContain("line 1: not JSON");
    expect(text.err).toContain("line 2:");
    expect(text.err).toContain("2 record(s) rejected");
    const ok = fakeIo();
    expect(await main(["analyze", "--input", file], ok.io)).toBe(0);
    expect(ok.text.out).toMatch(/visitors\s+visits/);
    expect(ok.text.out).toMatch(/sessions: \d+ visitor/);
  });

  it("records later than the allowed lateness: the file is read again keeping them, and gives what an ordered one gives", async () => {
    const records = [...world.rawSignals(world.shops[0]!.id)];
    const sensor = records[0]!.square_mac;
    // That sensor uploads in 3-minute batches: its records reach the file at the end of their batch.
    const arrival = (r: (typeof records)[number]) => (r.square_mac === sensor ? Math.ceil(r.ts / 180_000) * 180_000 : r.ts);
    const batched = await writeRecords("batched.ndjson", [...records].sort((a, b) => arrival(a) - arrival(b)));
    const again = fakeIo();
    expect(await main(["analyze", "--input", batched, "--format", "ndjson"], again.io)).toBe(0);
    const said = /(\d+) record\(s\) came later than the allowed lateness \(the latest [\d.]+ s behind its shop's newest record: a sensor that uploads in batches\?\); analysed again keeping them \(--lateness-ms (\d+); --lateness-ms sets it\)/.exec(again.text.err);
    expect(said).not.toBeNull();
    const lateness = Number(said![2]);
    expect(lateness).toBeGreaterThan(60_000);
    expect(lateness).toBeLessThanOrEqual(180_000);
    // The second reading kept every record: nothing late, the sessions and days of the file in time order.
    expect(lines(again.text.out).find((r) => r.type === "quality")).toMatchObject({ late: 0 });
    const ordered = fakeIo();
    expect(await main(["analyze", "--input", file, "--format", "ndjson", "--lateness-ms", String(lateness)], ordered.io)).toBe(0);
    expect(withoutQuality(again.text.out)).toEqual(withoutQuality(ordered.text.out));
    // A lateness the user sets is the user's: the late records are not used, and the flag that keeps them is named.
    const strict = fakeIo();
    expect(await main(["analyze", "--input", batched, "--format", "ndjson", "--lateness-ms", "60000"], strict.io)).toBe(1);
    expect(strict.text.err).not.toContain("analysed again");
    const hint = /(\d+) record\(s\) later than the allowed lateness were not used \(the latest was [\d.]+ s behind its shop's newest record; --lateness-ms (\d+) keeps them all\)/.exec(strict.text.err);
    expect(hint).not.toBeNull();
    expect(Number(hint![1])).toBe(Number(said![1]));
    expect(Number(hint![2])).toBe(lateness);
    expect(lines(strict.text.out).find((r) => r.type === "quality")).toMatchObject({ late: Number(hint![1]), maxLateMs: lateness });
    expect(withoutQuality(strict.text.out)).not.toEqual(withoutQuality(ordered.text.out));
  });

  it("a service whose RTS is when it received a record, from sensors uploading in batches: the range is read again keeping the late ones", async () => {
    const options = { seed: 13, shops: 1, visitorsPerDay: 120, passersByPerDay: 800, openingHours: [10, 16] as const };
    const every = 180_000;
    const summaryOf = async (w: World, extra: string[] = []) => {
      const sim = await startSimulator({ world: w });
      try {
        const f = fakeIo({ FOOTFALL_SIGNAL_URL: sim.signalUrl, FOOTFALL_EMAIL: sim.email, FOOTFALL_TOKEN: sim.token });
        // Until past the last upload: the service has the day's last readings after the day.
        const range = ["--since", new Date(w.startMs).toISOString(), "--until", new Date(w.endMs + every + 60_000).toISOString()];
        const status = await main(["analyze", "--shop", "101", ...range, "--format", "ndjson", ...extra], f.io);
        return { status, err: f.text.err, summary: lines(f.text.out).find((r) => r.type === "summary" && r.date === "2026-11-16")! };
      } finally {
        await sim.close();
      }
    };
    const right = await summaryOf(createWorld(options));
    const batched = await summaryOf(createWorld({ ...options, sensorUploadEveryMs: every }));
    expect(batched.status).toBe(0);
    expect(batched.err).toMatch(/record\(s\) came later than the allowed lateness .*; analysed again keeping them \(--lateness-ms \d+/);
    expect(batched.summary).toEqual(right.summary);
    const strict = await summaryOf(createWorld({ ...options, sensorUploadEveryMs: every }), ["--lateness-ms", "60000"]);
    expect(strict.status).toBe(1);
    expect(strict.summary.macs).not.toEqual(right.summary.macs);
  });

  it("--shop with --shares splits the pages' analysis by device over threads, to the same lines", async () => {
    const range = ["--since", "2026-11-16", "--until", "2026-11-17"];
    const one = fakeIo(env);
    expect(await main(["analyze", "--shop", "101", ...range, "--format", "ndjson"], one.io)).toBe(0);
    const split = fakeIo(env);
    expect(await main(["analyze", "--shop", "101", ...range, "--format", "ndjson", "--shares", "2"], split.io)).toBe(0);
    expect(lines(one.text.out).filter((r) => r.type === "session").length).toBeGreaterThan(100);
    expect(split.text.out).toBe(one.text.out);
  });

  it("reads a gzip-compressed file decompressed, on one thread or more; a cut one is an error that names it", async () => {
    const gz = join(dir, "day.ndjson.gz");
    const plain = await readFile(file);
    await writeFile(gz, gzipSync(plain));
    const a = fakeIo();
    expect(await main(["analyze", "--input", gz, "--format", "ndjson"], a.io)).toBe(0);
    const b = fakeIo();
    expect(await main(["analyze", "--input", file, "--format", "ndjson"], b.io)).toBe(0);
    expect(a.text.out).toBe(b.text.out);
    // On two threads, cut into pieces as it is decompressed: the same lines; split by device too.
    for (const more of [["--threads", "2"], ["--threads", "2", "--shares", "2"]]) {
      const threads = fakeIo();
      expect(await main(["analyze", "--input", gz, "--format", "ndjson", ...more], threads.io)).toBe(0);
      expect(threads.text.out).toBe(b.text.out);
    }
    const cut = join(dir, "cut.ndjson.gz");
    await writeFile(cut, gzipSync(plain).subarray(0, 5000));
    const c = fakeIo();
    expect(await main(["analyze", "--input", cut], c.io)).toBe(1);
    expect(c.text.err).toContain(`--input ${cut}: unexpected end of file`);
  });

  it("a capture of one rotating phone: people inside are an estimate whose finite bounds hold the one person, never the MAC count in its place", async () => {
    // One phone inside for 15 minutes, a new locally administered MAC at every burst (5 frames), as
    // the labelled captures of rotating phones look: no MAC held, so only the burst yardstick (the
    // prior from real phones) says how many persons the bursts are.
    const lines0: string[] = [];
    const t0 = Date.UTC(2026, 10, 16, 3, 0);
    const t1 = t0 + 15 * 60_000;
    const macs = new Set<string>();
    for (let b = 0, t = t0; t < t1; b++, t += 20_000 + ((b * 7_919) % 20_000)) {
      const mac = `0a:00:00:00:${(b >> 8).toString(16).padStart(2, "0")}:${(b & 255).toString(16).padStart(2, "0")}`;
      macs.add(mac);
      for (let f = 0; f < 5; f++) {
        const ts = t + f * 20;
        lines0.push(JSON.stringify({ row_key: `101:${ts.toString(16).padStart(16, "0")}`, device_id: mac, rssi: -55 - (f % 3), square_mac: "b8:27:eb:00:00:01", ts, local: true }));
      }
    }
    const capture = join(dir, "one-rotating-phone.ndjson");
    await writeFile(capture, lines0.join("\n"));
    const json = fakeIo();
    expect(await main(["analyze", "--input", capture, "--format", "ndjson"], json.io)).toBe(0);
    const summary = lines(json.text.out).find((r) => r.type === "summary")!;
    // The MAC-level count stays beside the people: every burst a one-burst "passer-by".
    expect((summary.macs as { passersBy: number }).passersBy).toBe(macs.size);
    // People inside, per interval: an estimate with finite bounds wherever there is one (the
    // yardstick always exists), and the bounds hold the truth: the phone's mean presence, 1 over
    // its quarter of an hour, 0 elsewhere (no burst heard is a bound on silent persons, not ∞).
    const occupancy = lines(json.text.out).filter((r) => r.type === "occupancy") as { start: number; end: number; inside: number; insideLow: number; insideHigh: number; insideBursts: number }[];
    expect(occupancy.length).toBeGreaterThan(0);
    for (const o of occupancy) {
      const truth = Math.max(0, Math.min(o.end, t1) - Math.max(o.start, t0)) / (o.end - o.start);
      expect([o.inside, o.insideLow, o.insideHigh].every(Number.isFinite), JSON.stringify(o)).toBe(true);
      expect(o.insideLow, JSON.stringify(o)).toBeLessThanOrEqual(truth);
      expect(o.insideHigh, JSON.stringify(o)).toBeGreaterThanOrEqual(truth);
    }
    // The bursts are heard inside, and read as about one person there — nearer the one phone than
    // the MACs it rotated through.
    const heard = occupancy.filter((o) => o.insideBursts > 0);
    expect(heard.length).toBeGreaterThan(0);
    for (const o of heard) {
      expect(o.inside).toBeGreaterThan(0);
      expect(Math.abs(o.inside - 1)).toBeLessThan(Math.abs(o.inside - macs.size));
    }
    // Visitors per day divide the bursts by a stay, and no visit's MAC held to give one: still
    // unknown (at least 0), never the MAC count in their place.
    expect(summary).toMatchObject({ visitors: null, visitorsLow: 0, visitorsHigh: null, captureRate: null, passersBy: 0 });
    const table = fakeIo();
    expect(await main(["analyze", "--input", capture], table.io)).toBe(0);
    expect(table.text.out).toContain("unknown (≥0)");
  });

  it("a day whose few identity-known visits bound people from below only: the table says so, never 'Infinity'", async () => {
    // Three people, every phone rotating: the sample is the one visit whose MAC held.
    const few = createWorld({ seed: 78, shops: 1, visitorsPerDay: 3, passersByPerDay: 0, openingHours: [10, 11], staffPerShop: 0, stationaryPerShop: 0, rotation: 1, phones: "off" });
    const file = await writeRecords("few-visits.ndjson", [...few.rawSignals(few.shops[0]!.id)]);
    const json = fakeIo();
    expect(await main(["analyze", "--input", file, "--format", "ndjson"], json.io)).toBe(0);
    const summary = lines(json.text.out).find((r) => r.type === "summary")!;
    expect(summary.visitors).toEqual(expect.any(Number));
    expect(summary.visitorsHigh).toBeNull();
    const table = fakeIo();
    expect(await main(["analyze", "--input", file], table.io)).toBe(0);
    expect(table.text.out).not.toContain("Infinity");
    expect(table.text.out).toContain(`${summary.visitors as number} [${summary.visitorsLow as number}–?]`);
  });

  it("names each sensor that was down during opening hours, from the simulator's outages, and still exits 0", async () => {
    const down = createWorld({ seed: 12, shops: 1, visitorsPerDay: 60, passersByPerDay: 300, sensorOutages: { perSensorDay: 1, minutes: [60, 90] } });
    const shop = down.shops[0]!;
    const outages = down.sensorOutages(shop.id);
    expect(outages.length).toBe(shop.sensors.length);
    const outaged = await writeRecords("outages.ndjson", [...down.rawSignals(shop.id)]);
    const run = fakeIo();
    expect(await main(["analyze", "--input", outaged], run.io)).toBe(0);
    const warned = [...run.text.err.matchAll(/sensor (\S+) of shop 101 heard nothing from (\S+ \S+) to (\S+ \S+)/g)];
    // One warning per outage, at its sensor, starting within a few minutes of it (the last signal before).
    expect(warned.map((m) => m[1]).sort()).toEqual(outages.map((o) => o.sensor).sort());
    const local = (ms: number) => new Date(ms + 9 * 3_600_000).toISOString().slice(0, 16).replace("T", " ");
    for (const o of outages) {
      const m = warned.find((w) => w[1] === o.sensor)!;
      expect(m[2]! <= local(o.from)).toBe(true);
      expect(m[2]! >= local(o.from - 5 * 60_000)).toBe(true);
      expect(m[3]! >= local(o.to - 60_000)).toBe(true);
    }
    // A world without outages: no warning.
    const clean = fakeIo();
    expect(await main(["analyze", "--input", file], clean.io)).toBe(0);
    expect(clean.text.err).not.toContain("heard nothing");
  });

  it("sensor clocks minutes apart: the file is read again keeping the records that came late, then again with the clocks aligned", async () => {
    const right = await writeRecords("minutes-right.ndjson", [...createWorld(clockWorld).rawSignals(101)]);
    // Up to 90 s apart, and uploading every 3 minutes: the records that come later than the
    // lateness are what the clocks would be measured on.
    const skewed = await writeRecords("minutes-skewed.ndjson", [...createWorld({ ...clockWorld, sensorClockSkewMs: 90_000, sensorUploadEveryMs: 180_000 }).rawSignals(101)]);
    const truth = await clockDay(["--input", right]);
    const aligned = await clockDay(["--input", skewed]);
    const said = aligned.err.split("\n").filter((l) => l.includes("analysed again"));
    expect(said).toHaveLength(2);
    expect(said[0]).toMatch(/came later than the allowed lateness .*; analysed again keeping them \(--lateness-ms \d+; /);
    expect(said[0]).not.toContain("clock");
    expect(said[1]).toMatch(/sensor clocks disagree .*; analysed again with them aligned \(--clock-offsets \S+=-?\d+; /);
    // People within one: whether a randomized MAC's visit is set aside as a piece of a rotating phone's
    // can turn on the milliseconds aligned clocks still differ by; the MACs count exactly alike.
    expect(Math.abs(Number(aligned.summary.visitors) - Number(truth.summary.visitors))).toBeLessThanOrEqual(1);
    expect(aligned.summary.macs).toEqual(truth.summary.macs);
  });

  it("sensor clocks seconds apart: the file is analysed again with them aligned, and counts as if they agreed", async () => {
    const right = await writeRecords("clocks-right.ndjson", [...createWorld(clockWorld).rawSignals(101)]);
    const skewedWorld = createWorld({ ...clockWorld, sensorClockSkewMs: 4_000 });
    const skewed = await writeRecords("clocks-skewed.ndjson", [...skewedWorld.rawSignals(101)]);
    const truth = await clockDay(["--input", right]);
    const aligned = await clockDay(["--input", skewed]);
    expect(aligned.err).toMatch(/sensor clocks disagree with their shop's other sensors \(.*\); analysed again with them aligned \(--clock-offsets \S+=-?\d+/);
    // Offsets found within 100 ms of the simulator's, relative to one sensor.
    const found = Object.fromEntries(/--clock-offsets (\S+);/.exec(aligned.err)![1]!.split(",").map((p) => [p.split("=")[0]!, Number(p.split("=")[1])]));
    const offsets = skewedWorld.sensorClockOffsets(skewedWorld.shops[0]!.id);
    const ref = skewedWorld.shops[0]!.sensors.find((m) => !(m in found))!;
    for (const [mac, ms] of Object.entries(found)) expect(Math.abs(ms - (offsets[mac]! - offsets[ref]!))).toBeLessThanOrEqual(100);
    // People within one: whether a randomized MAC's visit is set aside as a piece of a rotating phone's
    // can turn on the milliseconds aligned clocks still differ by; the MACs count exactly alike.
    expect(Math.abs(Number(aligned.summary.visitors) - Number(truth.summary.visitors))).toBeLessThanOrEqual(1);
    expect(aligned.summary.macs).toEqual(truth.summary.macs);
    // As stamped, the same file counts otherwise (visits at least: real phones mostly take a new
    // MAC every burst, whose one-burst sessions a clock seconds off does not split); and stdin,
    // which cannot be read twice, is told how.
    const asStamped = await clockDay(["--input", skewed, "--clock-offsets", "none"]);
    expect(asStamped.err).not.toContain("clocks disagree");
    expect([asStamped.summary.macs, asStamped.summary.visits]).not.toEqual([truth.summary.macs, truth.summary.visits]);
    expect((await clockDay(["--input", skewed, "--clock-offsets", `${Object.keys(found)[0]}=${Object.values(found)[0]}`])).err).not.toContain("clocks disagree");
    // A named pipe (as `--input <(zcat day.gz)` gives) is read once, as a stream: told the flag,
    // as standard input is (reading it again would wait for a writer that is gone).
    const fifo = join(dir, "clocks.fifo");
    execFileSync("mkfifo", [fifo]);
    const writing = readFile(skewed).then((bytes) => writeFile(fifo, bytes));
    const piped = await clockDay(["--input", fifo]);
    await writing;
    expect(piped.err).toMatch(/sensor clocks disagree .*: figures are off; run again with --clock-offsets \S+=-?\d+/);
    expect(piped.summary.macs).toEqual(asStamped.summary.macs);
    // On two threads too, cut into pieces as it is read.
    const again = readFile(skewed).then((bytes) => writeFile(fifo, bytes));
    const threaded = await clockDay(["--input", fifo, "--threads", "2"]);
    await again;
    expect([threaded.err, threaded.summary]).toEqual([piped.err, piped.summary]);
    // From the service the range is read again, aligned, as from a file.
    const skewedSim = await startSimulator({ world: skewedWorld });
    try {
      const live = fakeIo({ FOOTFALL_SIGNAL_URL: skewedSim.signalUrl, FOOTFALL_EMAIL: skewedSim.email, FOOTFALL_TOKEN: skewedSim.token });
      const range = ["--since", new Date(skewedWorld.startMs).toISOString(), "--until", new Date(skewedWorld.endMs).toISOString()];
      expect(await main(["analyze", "--shop", "101", ...range, "--format", "ndjson"], live.io)).toBe(0);
      expect(live.text.err).toContain("analysed again with them aligned");
      expect(lines(live.text.out).find((r) => r.type === "summary" && r.date === "2026-11-16")!.visitors).toBe(aligned.summary.visitors);
    } finally {
      await skewedSim.close();
    }
    for (const bad of ["b8:27:eb=12", "b8:27:eb:00:00:01=1.5", "b8:27:eb:00:00:01"]) {
      const f = fakeIo();
      expect(await main(["analyze", "--input", skewed, "--clock-offsets", bad], f.io)).toBe(2);
      expect(f.text.err).toMatch(/clock/i);
    }
  });

  it("--rts-unit reads each record's RTS in the service's unit: a µs service's records agree with their ts", async () => {
    const micros = [...world.rawSignals(world.shops[0]!.id)].map((r) => ({ ...r, row_key: `${r.row_key.split(":")[0]}:${(r.ts * 1000).toString(16).padStart(16, "0")}` }));
    const path = await writeRecords("micros.ndjson", micros);
    const quality = async (argv: string[]) => {
      const f = fakeIo();
      expect(await main(["analyze", "--input", path, "--format", "ndjson", ...argv], f.io)).toBe(0);
      return lines(f.text.out).find((r) => r.type === "quality") as { tsRtsMismatch: number; signals: number };
    };
    const asMillis = await quality([]);
    expect(asMillis.tsRtsMismatch).toBe(asMillis.signals);
    expect((await quality(["--rts-unit", "us"])).tsRtsMismatch).toBe(0);
    // Decode threads build their own decoders: with the same unit.
    expect((await quality(["--rts-unit", "us", "--threads", "2"])).tsRtsMismatch).toBe(0);
    expect((await quality(["--threads", "2"])).tsRtsMismatch).toBe(asMillis.signals);
  });

  it("a record from a clock that jumped a year ahead, and records from one never set (1970), change nothing else", async () => {
    const records = [...world.rawSignals(world.shops[0]!.id)];
    const at = Math.floor(records.length / 3);
    const jumped = { ...records[at]!, ts: records[at]!.ts + 365 * 24 * 3_600_000 };
    const unset = [0, 1, 2].map((i) => ({ ...records[i]!, ts: 5_000 + i }));
    const glitchy = await writeRecords("glitchy.ndjson", [...unset, ...records.slice(0, at), jumped, ...records.slice(at)]);
    const a = fakeIo();
    expect(await main(["analyze", "--input", glitchy, "--format", "ndjson"], a.io)).toBe(1);
    expect(a.text.err).toContain("3 record(s) rejected");
    expect(a.text.err).toContain("before 2000: a sensor clock that was never set");
    expect(a.text.err).toContain("1 record(s) stamped more than a day ahead of their shop's other records, by one sensor alone");
    const clean = fakeIo();
    expect(await main(["analyze", "--input", file, "--format", "ndjson"], clean.io)).toBe(0);
    expect(withoutQuality(a.text.out)).toEqual(withoutQuality(clean.text.out));
    expect(lines(a.text.out).find((r) => r.type === "quality")).toMatchObject({ ahead: 1, late: 0 });
  });

  it("a sensor set hours wrong (its bursts fall into other sessions) is found by its rotated MACs and moved, not the others", async () => {
    const options = { seed: 14, shops: 1, rotation: "realistic" as const, visitorsPerDay: 120, passersByPerDay: 800, openingHours: [10, 14] as const };
    const w = createWorld(options);
    const records = [...w.rawSignals(w.shops[0]!.id)];
    const counts = new Map<string, number>();
    for (const r of records) counts.set(r.square_mac, (counts.get(r.square_mac) ?? 0) + 1);
    // The sensor heard most — the engine's reference — runs 9 h ahead (a clock on local time).
    const off = [...counts].sort((a, b) => b[1] - a[1])[0]![0];
    expect(counts.size).toBeGreaterThanOrEqual(3);
    const shifted = records.map((r) => (r.square_mac === off ? { ...r, ts: r.ts + 9 * 3_600_000 } : r)).sort((a, b) => a.ts - b.ts);
    const right = await writeRecords("tz-right.ndjson", records);
    const wrong = await writeRecords("tz-wrong.ndjson", shifted);
    const summary = async (path: string) => {
      const f = fakeIo();
      await main(["analyze", "--input", path, "--format", "ndjson"], f.io);
      return { line: lines(f.text.out).find((r) => r.type === "summary")!, err: f.text.err };
    };
    const truth = await summary(right);
    const aligned = await summary(wrong);
    expect(aligned.err).toContain(`--clock-offsets ${off}=`);
    const found = Number(new RegExp(`${off}=(-?\\d+)`).exec(aligned.err)![1]);
    expect(Math.abs(found - 9 * 3_600_000)).toBeLessThanOrEqual(1_000);
    expect(aligned.line.visitors).toBe(truth.line.visitors);
    expect(aligned.line.macs).toEqual(truth.line.macs);
  });

  it("reads lines as readline does: LF, CRLF and lone CR end lines, blank lines count, the last needs no end", async () => {
    const records = [...world.rawSignals(world.shops[0]!.id)].slice(0, 400).map((r) => JSON.stringify(r));
    // Line numbers: 1 record, 2 blank, 3 bad, 4 record (CRLF), 5 bad (lone CR), 6.. records, last without an end.
    const text = `${records[0]}\n\n{bad\n${records[1]}\r\n[1,\r${records.slice(2).join("\r\n")}`;
    const mixed = join(dir, "mixed.ndjson");
    await writeFile(mixed, text);
    const plain = join(dir, "plain.ndjson");
    await writeFile(plain, records.join("\n"));
    const a = fakeIo();
    expect(await main(["analyze", "--input", mixed, "--format", "ndjson"], a.io)).toBe(1);
    expect(a.text.err).toContain("rejected line 3: not JSON");
    expect(a.text.err).toContain("rejected line 5: not JSON");
    expect(a.text.err).toContain("2 record(s) rejected");
    const b = fakeIo();
    expect(await main(["analyze", "--input", plain, "--format", "ndjson"], b.io)).toBe(0);
    // Every record was read: the same sessions and days as the clean file.
    expect(withoutQuality(a.text.out)).toEqual(withoutQuality(b.text.out));
    expect(withoutQuality(a.text.out).length).toBeGreaterThan(1);
  });

  it("reads a shop from the service and gives what the file gives", async () => {
    const shop = world.shops[0]!;
    const since = new Date(world.startMs).toISOString();
    const until = new Date(world.endMs).toISOString();
    const live = fakeIo(env);
    expect(await main(["analyze", "--shop", String(shop.id), "--since", since, "--until", until, "--format", "ndjson"], live.io)).toBe(0);
    const fromFile = fakeIo();
    expect(await main(["analyze", "--input", file, "--format", "ndjson"], fromFile.io)).toBe(0);
    expect(live.text.out).toBe(fromFile.text.out);
    expect(live.text.err).not.toContain(sim.token);
  });
});
