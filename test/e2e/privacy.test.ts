import { chmod, mkdir, mkdtemp, readFile, readdir, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSimulator, type RunningSimulator } from "../../src/sim/service/startSimulator.ts";
import { TEST_MAC_KEY, ensureBuilt, footfall, type CliRun } from "./cliBuild.ts";

// Issue 16, item 6: run every command that writes devices on a simulator world, then search every
// byte it wrote (stdout, stderr, files) for each of the world's MACs in every textual form.

let sim: RunningSimulator;
let settings: Record<string, string>;
let dir: string;
let macs: string[];
let signalsFile: string;
let since: string;
let until: string;

/** Every textual form of a MAC: colon, dash, bare; lower and upper case. */
function forms(mac: string): string[] {
  const bare = mac.replace(/[^0-9a-f]/gi, "").toLowerCase();
  const pairs = bare.match(/../g)!;
  const lower = [pairs.join(":"), pairs.join("-"), bare];
  return [...lower, ...lower.map((f) => f.toUpperCase())];
}

/**
 * Every place a MAC could hide in `text`, lowercased: at every position, six hex pairs joined by
 * colons or by dashes, or 12 hex digits. Looking each MAC
 * up in this set finds what `text.includes(form)` finds, in time linear in the text: with the
 * demo's phones rotating their MACs (tens of thousands a day), one `includes` per MAC and form
 * over every byte written took minutes.
 */
function macWindows(text: string): Set<string> {
  const lower = text.toLowerCase();
  const windows = new Set<string>();
  // A lookahead matches at every position, so overlapping candidates are all found (as includes would).
  for (const m of lower.matchAll(/(?=([0-9a-f]{2}(?::[0-9a-f]{2}){5}|[0-9a-f]{2}(?:-[0-9a-f]{2}){5}|[0-9a-f]{12}))/g)) windows.add(m[1]!);
  return windows;
}

/** The MAC forms found in `text`, in any case (empty: none leaked). */
function leaks(text: string): string[] {
  const windows = macWindows(text);
  const found: string[] = [];
  for (const mac of macs) for (const f of forms(mac)) if (f === f.toLowerCase() && windows.has(f)) found.push(f);
  return found;
}

async function filesUnder(path: string): Promise<string> {
  let all = "";
  for (const entry of await readdir(path, { withFileTypes: true })) {
    const p = join(path, entry.name);
    all += entry.isDirectory() ? await filesUnder(p) : await readFile(p, "latin1");
  }
  return all;
}

const written = (r: CliRun): string => r.stdout + r.stderr;

beforeAll(async () => {
  await ensureBuilt();
  sim = await startSimulator({
    port: 0,
    seed: 16,
    world: { shops: 1, days: 2, openingHours: [10, 12], visitorsPerDay: 30, passersByPerDay: 150, staffPerShop: 1, stationaryPerShop: 1 },
  });
  settings = { FOOTFALL_BASE_URL: sim.baseUrl, FOOTFALL_SIGNAL_URL: sim.signalUrl, FOOTFALL_EMAIL: sim.email, FOOTFALL_TOKEN: sim.token };
  dir = await mkdtemp(join(tmpdir(), "footfall-privacy-e2e-"));
  const iso = (ms: number): string => new Date(ms).toISOString();
  since = iso(sim.world.startMs);
  until = iso(sim.world.endMs);
  const shop = sim.world.shops[0]!;
  const backfill = await footfall(["signals", "backfill", "--shop", String(shop.id), "--since", since, "--until", until], settings);
  expect(backfill.status, backfill.stderr).toBe(0);
  signalsFile = join(dir, "signals.ndjson");
  await writeFile(signalsFile, backfill.stdout);
  macs = [...new Set(backfill.stdout.trim().split("\n").map((l) => (JSON.parse(l) as { device: string }).device))];
}, 180_000);

afterAll(async () => {
  await sim?.close();
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
});

describe("no MAC leaves footfall unless asked", () => {
  it("the world has devices, and signals backfill (a copy of the service's data) writes their MACs, as its --help says", async () => {
    expect(macs.length).toBeGreaterThan(50);
    expect(leaks(await readFile(signalsFile, "utf8")).length).toBeGreaterThan(0);
    const help = await footfall(["signals", "--help"]);
    expect(help.stdout).toMatch(/copy of the service's data: its records unchanged/);
  });

  it("analyze --input and --shop, NDJSON and table: pseudonyms only; --raw-macs writes MACs", async () => {
    const shop = String(sim.world.shops[0]!.id);
    const runs = [
      await footfall(["analyze", "--input", signalsFile, "--format", "ndjson"]),
      await footfall(["analyze", "--input", signalsFile]),
      await footfall(["analyze", "--shop", shop, "--since", since, "--until", until, "--format", "ndjson"], settings),
      await footfall(["analyze", "--shop", shop, "--since", since, "--until", until], settings),
    ];
    for (const r of runs) {
      expect(r.status, r.stderr).toBe(0);
      expect(leaks(written(r))).toEqual([]);
    }
    const sessions = runs[0]!.stdout.trim().split("\n").map((l) => JSON.parse(l) as { type: string; device?: string }).filter((l) => l.type === "session");
    expect(sessions.length).toBeGreaterThan(0);
    for (const s of sessions) expect(s.device).toMatch(/^[0-9a-f]{32}$/);
    // The same key gives the same pseudonyms, run after run and from either input.
    expect(runs[2]!.stdout).toBe(runs[0]!.stdout);
    expect((await footfall(["analyze", "--input", signalsFile, "--format", "ndjson"])).stdout).toBe(runs[0]!.stdout);

    const raw = await footfall(["analyze", "--input", signalsFile, "--format", "ndjson", "--raw-macs"]);
    expect(raw.status, raw.stderr).toBe(0);
    expect(leaks(raw.stdout).length).toBeGreaterThan(0);
  });

  it("the demo's files (sessions.ndjson, daily.csv, report.html, sales CSV) and its output: pseudonyms only", async () => {
    const out = join(dir, "demo");
    const r = await footfall(["demo", "--shops", "1", "--hours", "10-12", "--speed", "60000", "--seed", "16", "--out", out], {}, 170_000);
    expect(r.status, r.stderr).toBe(0);
    expect(leaks(written(r) + (await filesUnder(out)))).toEqual([]);
    const lines = (await readFile(join(out, "sessions.ndjson"), "utf8")).trim().split("\n");
    expect(lines.length).toBeGreaterThan(0);
    const demoMacs = new Set<string>();
    const rawOut = join(dir, "demo-raw");
    const raw = await footfall(["demo", "--shops", "1", "--hours", "10-12", "--speed", "60000", "--seed", "16", "--out", rawOut, "--raw-macs"], {}, 170_000);
    expect(raw.status, raw.stderr).toBe(0);
    for (const l of (await readFile(join(rawOut, "sessions.ndjson"), "utf8")).trim().split("\n")) demoMacs.add((JSON.parse(l) as { device: string }).device);
    // The demo's world is its own; its raw sessions hold MACs, its default ones do not.
    const all = [...demoMacs];
    expect(all.every((m) => /^[0-9a-f]{2}(:[0-9a-f]{2}){5}$/.test(m))).toBe(true);
    const saved = macs;
    macs = all;
    try {
      expect(leaks(written(r) + (await filesUnder(out)))).toEqual([]);
    } finally {
      macs = saved;
    }
  }, 360_000);
});

describe("linkability is a choice", () => {
  const sessionsOf = (stdout: string) =>
    stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { type: string; device: string; date: string })
      .filter((l) => l.type === "session");

  it("a stable key links a device across days; daily rotation does not", async () => {
    const raw = sessionsOf((await footfall(["analyze", "--input", signalsFile, "--format", "ndjson", "--raw-macs"])).stdout);
    const stable = sessionsOf((await footfall(["analyze", "--input", signalsFile, "--format", "ndjson"])).stdout);
    const daily = sessionsOf((await footfall(["analyze", "--input", signalsFile, "--format", "ndjson", "--pseudonym-rotation", "daily"])).stdout);
    expect(stable).toHaveLength(raw.length);
    expect(daily).toHaveLength(raw.length);
    // Devices heard on both days (staff): one pseudonym across days with a stable key, one per day with rotation.
    const days = new Map<string, Set<string>>();
    raw.forEach((s) => days.set(s.device, (days.get(s.device) ?? new Set()).add(s.date)));
    const both = [...days].filter(([, d]) => d.size === 2).map(([m]) => m);
    expect(both.length).toBeGreaterThan(0);
    for (const mac of both) {
      const idx = raw.flatMap((s, i) => (s.device === mac ? [i] : []));
      expect(new Set(idx.map((i) => stable[i]!.device)).size).toBe(1);
      expect(new Set(idx.map((i) => daily[i]!.device)).size).toBe(2);
    }
    // Repeat visitors are unavailable (null), not zero, with daily rotation.
    const summaries = (await footfall(["analyze", "--input", signalsFile, "--format", "ndjson", "--pseudonym-rotation", "daily"])).stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { type: string; repeatVisitors?: unknown; newVisitors?: unknown })
      .filter((l) => l.type === "summary");
    expect(summaries.length).toBe(2);
    for (const s of summaries) expect([s.newVisitors, s.repeatVisitors]).toEqual([null, null]);
    // Same day, same key: rotation still gives one pseudonym per device within a day.
    const again = sessionsOf((await footfall(["analyze", "--input", signalsFile, "--format", "ndjson", "--pseudonym-rotation", "daily"])).stdout);
    expect(again).toEqual(daily);
  });

  it("another key gives other pseudonyms", async () => {
    const a = sessionsOf((await footfall(["analyze", "--input", signalsFile, "--format", "ndjson"])).stdout);
    const b = sessionsOf((await footfall(["analyze", "--input", signalsFile, "--format", "ndjson"], { FOOTFALL_MAC_KEY: "ab".repeat(16) })).stdout);
    expect(a[0]!.device).not.toBe(b[0]!.device);
  });
});

describe("the key", () => {
  const analyzeNdjson = ["analyze", "--input", "", "--format", "ndjson"];
  const args = (...more: string[]): string[] => {
    const a = [...analyzeNdjson, ...more];
    a[2] = signalsFile;
    return a;
  };

  it("without one, a key file is generated owner-only, said once on stderr, then reused; the key is never printed", async () => {
    const config = join(dir, "config");
    const first = await footfall(args(), { FOOTFALL_MAC_KEY: undefined, FOOTFALL_CONFIG_DIR: config });
    expect(first.status, first.stderr).toBe(0);
    const keyFile = join(config, "mac.key");
    expect(first.stderr).toContain(`generated a pseudonym key in ${keyFile}`);
    expect(((await stat(keyFile)).mode & 0o777).toString(8)).toBe("600");
    const key = (await readFile(keyFile, "utf8")).trim();
    expect(written(first)).not.toContain(key);
    const second = await footfall(args(), { FOOTFALL_MAC_KEY: undefined, FOOTFALL_CONFIG_DIR: config });
    expect(second.stderr).not.toContain("generated");
    expect(second.stdout).toBe(first.stdout);
    // The same key given by file or by variable gives the same pseudonyms.
    const byFile = await footfall(args("--mac-key-file", keyFile), { FOOTFALL_MAC_KEY: undefined });
    const byEnv = await footfall(args(), { FOOTFALL_MAC_KEY: key });
    expect(byFile.stdout).toBe(first.stdout);
    expect(byEnv.stdout).toBe(first.stdout);
    expect(leaks(written(first) + written(second) + written(byFile))).toEqual([]);
  });

  it("a key file others can read, a missing or unreadable one, or a bad key: one clear line, exit 2, no key shown", async () => {
    const open = join(dir, "open.key");
    await writeFile(open, `${TEST_MAC_KEY}\n`, { mode: 0o644 });
    await chmod(open, 0o644);
    const short = join(dir, "short.key");
    await writeFile(short, "abcd\n", { mode: 0o600 });
    const folder = join(dir, "keydir");
    await mkdir(folder, { recursive: true, mode: 0o700 });
    const cases: [string[], Record<string, string | undefined>, RegExp][] = [
      [args("--mac-key-file", open), {}, /readable by others \(mode 644\)/],
      [args("--mac-key-file", join(dir, "missing.key")), {}, /cannot read .*ENOENT/],
      [args("--mac-key-file", folder), {}, /not a regular file/],
      [args("--mac-key-file", short), {}, /at least 16 bytes/],
      [args(), { FOOTFALL_MAC_KEY: "not a key" }, /FOOTFALL_MAC_KEY must be hex or base64/],
      [args("--pseudonym-rotation", "hourly"), {}, /--pseudonym-rotation must be none or daily/],
    ];
    for (const [argv, env, message] of cases) {
      const r = await footfall(argv, env);
      expect(r.status, r.stderr).toBe(2);
      expect(r.stdout).toBe("");
      expect(r.stderr.trim().split("\n")).toHaveLength(1);
      expect(r.stderr).toMatch(message);
      expect(r.stderr).not.toContain(TEST_MAC_KEY);
      expect(r.stderr).not.toContain("not a key");
    }
  });
});
