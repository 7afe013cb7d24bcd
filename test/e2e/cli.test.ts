import { spawn, spawnSync } from "node:child_process";
import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWorld } from "../../src/sim/createWorld.ts";
import { startSimulator, type RunningSimulator } from "../../src/sim/service/startSimulator.ts";
import { CLI, ROOT, TEST_MAC_KEY, ensureBuilt, footfall } from "./cliBuild.ts";

// The built CLI, as `npx footfall` runs it, against a simulator on a real port.

const COMMANDS = ["demo", "sim", "brands", "shop", "signals", "analyze", "sales"] as const;
const H = 3_600_000;

let sim: RunningSimulator;
let settings: Record<string, string>;
let dir: string;

beforeAll(async () => {
  await ensureBuilt();
  sim = await startSimulator({
    port: 0,
    seed: 3,
    world: { shops: 2, openingHours: [10, 12], visitorsPerDay: 40, passersByPerDay: 300, staffPerShop: 2, stationaryPerShop: 1 },
  });
  settings = { FOOTFALL_BASE_URL: sim.baseUrl, FOOTFALL_SIGNAL_URL: sim.signalUrl, FOOTFALL_EMAIL: sim.email, FOOTFALL_TOKEN: sim.token };
  dir = await mkdtemp(join(tmpdir(), "footfall-cli-e2e-"));
}, 180_000);

afterAll(async () => {
  await sim?.close();
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
});

const oneLine = (text: string): void => {
  expect(text.trim()).not.toBe("");
  expect(text.trim().split("\n")).toHaveLength(1);
};

describe("help", () => {
  it("footfall --help lists every command; no command at all is bad usage", async () => {
    const help = await footfall(["--help"]);
    expect(help.status).toBe(0);
    for (const name of COMMANDS) expect(help.stdout).toMatch(new RegExp(`^  ${name}\\s`, "m"));
    const none = await footfall([]);
    expect(none.status).toBe(2);
    expect(none.stdout).toBe("");
    expect(none.stderr).toContain("usage: footfall");
  });

  it.each(COMMANDS)("footfall %s --help: exit 0, usage on stdout, nothing on stderr", async (name) => {
    const r = await footfall([name, "--help"]);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^usage: footfall ${name}\\b`));
    expect(r.stdout).toContain("--");
    expect(r.stderr).toBe("");
  });
});

describe("bad usage: one clear line, exit 2", () => {
  it("an unknown command", async () => {
    const r = await footfall(["frobnicate"]);
    expect(r.status).toBe(2);
    oneLine(r.stderr);
    expect(r.stderr).toContain("unknown command");
  });

  it.each([
    [["demo", "--nope"]],
    [["sim", "--nope"]],
    [["brands", "--nope"]],
    [["shop", "--brand", "Cafe Mori", "--key", "K", "--nope"]],
    [["signals", "backfill", "--shop", "101", "--since", "2026-11-16", "--nope"]],
    [["analyze", "--input", "x.ndjson", "--nope"]],
    [["sales", "upload", "x.csv", "--nope"]],
  ])("an unknown flag: %j", async (argv) => {
    const r = await footfall(argv, settings);
    expect(r.status).toBe(2);
    oneLine(r.stderr);
    expect(r.stderr).toMatch(/nope/);
    expect(r.stdout).toBe("");
  });

  it.each([
    [["brands"], /FOOTFALL_BASE_URL/],
    [["shop", "--brand", "Cafe Mori", "--key", "MORI-GN-01"], /FOOTFALL_BASE_URL/],
    [["signals", "backfill", "--shop", "101", "--since", "2026-11-16T00:00:00+09:00"], /FOOTFALL_SIGNAL_URL/],
    [["analyze", "--shop", "101", "--since", "2026-11-16", "--until", "2026-11-17"], /FOOTFALL_SIGNAL_URL/],
    [["sales", "upload", "x.csv", "--brand", "Cafe Mori"], /FOOTFALL_BASE_URL/],
  ])("a missing setting: %j", async (argv, message) => {
    const r = await footfall(argv, {});
    expect(r.status).toBe(2);
    oneLine(r.stderr);
    expect(r.stderr).toMatch(message);
    expect(r.stdout).toBe("");
  });

  it("each command asks only for the settings it uses: the brand commands need no signal URL", async () => {
    const { FOOTFALL_SIGNAL_URL: _unused, ...baseOnly } = settings;
    const r = await footfall(["brands", "--format", "ndjson"], baseOnly);
    expect(r.status, r.stderr).toBe(0);
    const brands = r.stdout.trim().split("\n").map((l) => JSON.parse(l) as unknown);
    expect(brands).toEqual(sim.world.brands.map((b) => ({ id: b.id, name: b.name })));
  });
});

describe("service answers: one clear line, exit 1", () => {
  it("an unknown brand", async () => {
    const r = await footfall(["shop", "--brand", "No Such Brand", "--key", "MORI-GN-01"], settings);
    expect(r.status).toBe(1);
    oneLine(r.stderr);
    expect(r.stderr).toContain("No Such Brand");
    expect(r.stdout).toBe("");
  });

  it("an unknown External Key", async () => {
    const r = await footfall(["shop", "--brand", sim.world.brands[0]!.name, "--key", "NOT-REGISTERED"], settings);
    expect(r.status).toBe(1);
    oneLine(r.stderr);
    expect(r.stderr).toContain("NOT-REGISTERED");
  });

  it("a rejected token, without printing it", async () => {
    const token = "wrong-token-canary-e2e";
    const r = await footfall(["brands"], { ...settings, FOOTFALL_TOKEN: token });
    expect(r.status).toBe(1);
    oneLine(r.stderr);
    expect(r.stderr).toMatch(/401/);
    expect(r.stderr + r.stdout).not.toContain(token);
  });

  it("a service that is not there", async () => {
    // A port that was free a moment ago: nothing listens on it.
    const port = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, "127.0.0.1", () => {
        const p = (s.address() as { port: number }).port;
        s.close(() => resolve(p));
      });
    });
    const r = await footfall(["brands"], { ...settings, FOOTFALL_BASE_URL: `http://127.0.0.1:${port}` });
    expect(r.status).toBe(1);
    oneLine(r.stderr.split("\n").filter((l) => !/retrying/.test(l)).join("\n"));
  });

  it("shop --format ndjson prints one { id, name } line", async () => {
    const shop = sim.world.shops[1]!;
    const brand = sim.world.brands.find((b) => b.id === shop.brandId)!;
    const r = await footfall(["shop", "--brand", brand.name, "--key", shop.externalKey, "--format", "ndjson"], settings);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout.trim().split("\n").map((l) => JSON.parse(l) as unknown)).toEqual([{ id: shop.id, name: shop.name }]);
  });
});

describe("NDJSON round trip", () => {
  it("signals backfill → analyze --input gives exactly what analyze --shop gives over the same range", async () => {
    const shop = sim.world.shops[0]!;
    const iso = (ms: number): string => new Date(ms).toISOString();
    const since = iso(sim.world.startMs + 9 * H);
    const until = iso(sim.world.startMs + 14 * H);
    const backfill = await footfall(["signals", "backfill", "--shop", String(shop.id), "--since", since, "--until", until, "--format", "ndjson"], settings);
    expect(backfill.status, backfill.stderr).toBe(0);
    const lines = backfill.stdout.trim().split("\n");
    // Every record of the range, each line the service's record plus decoded fields.
    const expected = [...sim.world.rawSignals(shop.id, sim.world.startMs + 9 * H, sim.world.startMs + 14 * H)];
    expect(lines).toHaveLength(expected.length);
    const first = JSON.parse(lines[0]!) as Record<string, unknown>;
    expect(first).toMatchObject(expected[0] as unknown as Record<string, unknown>);
    const file = join(dir, "signals.ndjson");
    await writeFile(file, backfill.stdout);

    const fromFile = await footfall(["analyze", "--input", file, "--format", "ndjson"], {});
    const fromService = await footfall(["analyze", "--shop", String(shop.id), "--since", since, "--until", until, "--format", "ndjson"], settings);
    expect(fromFile.status, fromFile.stderr).toBe(0);
    expect(fromService.status, fromService.stderr).toBe(0);
    expect(fromFile.stdout).toBe(fromService.stdout);
    const kinds = new Set(fromFile.stdout.trim().split("\n").map((l) => (JSON.parse(l) as { type: string }).type));
    expect(kinds).toEqual(new Set(["session", "summary", "occupancy", "quality"]));
  });

  it("analyze --input --threads 2 gives byte for byte what one thread gives, rejections included", async () => {
    const shop = sim.world.shops[1]!;
    // Over 4 MiB, so that the file is more than one range and a decode thread reads part of it:
    // the shop's morning, then a busier world's day as shop 999.
    const busy = createWorld({ seed: 8, shops: 1, days: 1, visitorsPerDay: 300, passersByPerDay: 2000 });
    const records = [
      ...sim.world.rawSignals(shop.id, sim.world.startMs + 9 * H, sim.world.startMs + 13 * H),
      ...[...busy.rawSignals(busy.shops[0]!.id)].map((r) => ({ ...r, row_key: r.row_key.replace(/^\d+:/, "999:") })),
    ];
    // Lines a decode thread must reject exactly as the one-thread reader does: not JSON, an
    // unusable row_key, a bad MAC; and CRLF line ends, a blank line, a BOM.
    const lines = records.map((r) => JSON.stringify(r));
    lines.splice(10, 0, "{not json");
    lines.splice(500, 0, JSON.stringify({ ...records[0], row_key: "garbage" }));
    lines.splice(1500, 0, "");
    lines.splice(lines.length - 100, 0, JSON.stringify({ ...records[0], device_id: "zz:zz" }));
    const file = join(dir, "threads.ndjson");
    await writeFile(file, `\uFEFF${lines.join("\r\n")}\r\n`);
    expect((await stat(file)).size).toBeGreaterThan(4.5 * 2 ** 20);
    const one = await footfall(["analyze", "--input", file, "--format", "ndjson", "--threads", "1"], {});
    const two = await footfall(["analyze", "--input", file, "--format", "ndjson", "--threads", "2"], {});
    expect(one.status).toBe(1);
    expect(two.status).toBe(1);
    expect(two.stdout).toBe(one.stdout);
    expect(two.stderr).toBe(one.stderr);
    expect(one.stderr).toContain("line 11: not JSON");
    expect(one.stderr).toContain("3 record(s) rejected");
    const quality = JSON.parse(one.stdout.trim().split("\n").at(-1)!) as { invalidByReason: Record<string, number>; signals: number };
    expect(quality.invalidByReason).toMatchObject({ "not-json": 1, "bad-row-key": 1, "bad-mac": 1 });
    expect(quality.signals).toBe(records.length);
    // Sensor clocks aligned in the decode threads as on one thread.
    const offsets = ["--clock-offsets", `${shop.sensors[0]}=3000`];
    const oneAligned = await footfall(["analyze", "--input", file, "--format", "ndjson", "--threads", "1", ...offsets], {});
    const twoAligned = await footfall(["analyze", "--input", file, "--format", "ndjson", "--threads", "2", ...offsets], {});
    expect(twoAligned.stdout).toBe(oneAligned.stdout);
    expect(oneAligned.stdout).not.toBe(one.stdout);
    // Standard input on two threads, cut into pieces as it is read: the same lines.
    const stdin = spawnSync(process.execPath, [CLI, "analyze", "--input", "-", "--format", "ndjson", "--threads", "2"], {
      cwd: ROOT,
      env: { PATH: process.env["PATH"] ?? "", FOOTFALL_MAC_KEY: TEST_MAC_KEY },
      input: await readFile(file),
      maxBuffer: 256 * 1024 * 1024,
      encoding: "utf8",
    });
    expect([stdin.status, stdin.stdout]).toEqual([1, one.stdout]);
  });

  it("analyze --threads: bad values are usage errors", async () => {
    for (const argv of [["--threads", "0"], ["--threads", "two"]]) {
      const r = await footfall(["analyze", "--input", "x.ndjson", ...argv], {});
      expect(r.status).toBe(2);
      oneLine(r.stderr);
    }
  });
});

/** Runs the built CLI and reads its stdout only up to the first line, then closes the pipe, as `| head -1` does. */
function footfallUntilFirstLine(args: readonly string[], env: Record<string, string>): Promise<{ status: number | null; signal: string | null; first: string; stderr: string }> {
  const child = spawn(process.execPath, [CLI, ...args], {
    cwd: ROOT,
    env: { PATH: process.env["PATH"] ?? "", FOOTFALL_MAC_KEY: TEST_MAC_KEY, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    out += chunk;
    if (out.includes("\n")) child.stdout.destroy();
  });
  return new Promise((done, fail) => {
    child.once("error", fail);
    child.once("close", (status, signal) => done({ status, signal, first: out.slice(0, out.indexOf("\n")), stderr }));
  });
}

describe("a reader that stops early (`| head`)", () => {
  it("stops analyze and signals quietly with status 1, no stack trace", async () => {
    // A shop-day whose output is far larger than a pipe's buffer (64 KiB).
    const world = createWorld({ seed: 5, shops: 1, visitorsPerDay: 150, passersByPerDay: 1500, openingHours: [10, 18] });
    const file = join(dir, "head.ndjson");
    await writeFile(file, [...world.rawSignals(world.shops[0]!.id)].map((r) => JSON.stringify(r)).join("\n"));
    const shop = sim.world.shops[0]!;
    const day = [new Date(sim.world.startMs).toISOString(), new Date(sim.world.startMs + 24 * H).toISOString()];
    for (const [args, env] of [
      [["analyze", "--input", file, "--format", "ndjson"], {}],
      [["signals", "backfill", "--shop", String(shop.id), "--since", day[0]!, "--until", day[1]!], settings],
    ] as const) {
      const r = await footfallUntilFirstLine(args, env);
      expect(JSON.parse(r.first)).toBeTypeOf("object");
      expect(r.signal).toBeNull();
      expect(r.stderr).toBe("");
      expect(r.status).toBe(1);
    }
  }, 60_000);
});
