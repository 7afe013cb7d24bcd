import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { main } from "../../src/cli/main.ts";
import { createClient } from "../../src/client/createClient.ts";
import { analyzeShopDay } from "../../src/fleet/analyzeShopDay.ts";
import { createSimHandler } from "../../src/sim/service/createSimHandler.ts";
import { createWorld, type WorldOptions } from "../../src/sim/createWorld.ts";
import { fakeIo } from "../cli/fakeIo.ts";

/**
 * footfall's outputs that a change of structure must leave byte for byte as they are (issue 35):
 * `footfall analyze` in NDJSON and as a table on three simulated worlds (the simple one, MACs
 * rotating, real phones) and on two real Brno days, the demo's files, and a fleet shop-day's
 * stored lines. Each case produces its text; `record.ts` writes them to `outputs/`, and
 * `golden.test.ts` compares. A change that is meant to change them is recorded again, and the
 * diff of `outputs/` shows what it changed.
 */
export interface GoldenCase {
  readonly name: string;
  readonly produce: () => Promise<string>;
}

const BRNO = fileURLToPath(new URL("../data/brno-sc6-61", import.meta.url));

// Small worlds, explicit in every option that matters, so a change of the simulator's defaults
// does not move them: two shops, one day.
const WORLDS: Record<string, WorldOptions> = {
  simple: { seed: 21, shops: 2, days: 1, rotation: "off", visitorsPerDay: 120, passersByPerDay: 600, openingHours: [10, 18] },
  rotating: { seed: 22, shops: 2, days: 1, rotation: "realistic", phones: "off", visitorsPerDay: 120, passersByPerDay: 600, openingHours: [10, 18] },
  "real-phones": { seed: 23, shops: 2, days: 1, rotation: "realistic", phones: "real", visitorsPerDay: 120, passersByPerDay: 600, openingHours: [10, 18] },
};

async function inTempDir<T>(work: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), "footfall-golden-"));
  try {
    return await work(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function cli(argv: readonly string[]): Promise<string> {
  const { io, text } = fakeIo();
  const status = await main([...argv], io);
  if (status !== 0) throw new Error(`footfall ${argv.join(" ")} exited ${status}: ${text.err}`);
  return text.out;
}

async function analyzeWorld(options: WorldOptions, format: "ndjson" | "table", threads: readonly string[] = ["--threads", "1"]): Promise<string> {
  const world = createWorld(options);
  return inTempDir(async (dir) => {
    const input = join(dir, "signals.ndjson");
    const lines: string[] = [];
    for (const shop of world.shops) for (const r of world.rawSignals(shop.id)) lines.push(JSON.stringify(r));
    await writeFile(input, lines.join("\n") + "\n");
    return cli(["analyze", "--input", input, "--tz", world.shops[0]!.timeZone, "--format", format, ...threads]);
  });
}

async function demoFiles(): Promise<string> {
  return inTempDir(async (dir) => {
    const world = join(dir, "world.json");
    await writeFile(world, JSON.stringify({ visitorsPerDay: 60, passersByPerDay: 400, staffPerShop: 2, stationaryPerShop: 1 }));
    const out = join(dir, "out");
    await cli(["demo", "--shops", "2", "--hours", "10-12", "--speed", "1000000", "--seed", "5", "--world", world, "--out", out]);
    const parts: string[] = [];
    for (const file of ["daily.csv", "sessions.ndjson"]) parts.push(`== ${file}\n${await readFile(join(out, file), "utf8")}`);
    return parts.join("");
  });
}

async function fleetShopDay(): Promise<string> {
  const world = createWorld({ seed: 24, shops: 1, days: 1, rotation: "realistic", phones: "real", visitorsPerDay: 120, passersByPerDay: 600, openingHours: [10, 18] });
  const sim = createSimHandler({ world });
  const client = createClient({ baseUrl: "http://sim", signalUrl: "http://sim", email: sim.email, token: sim.token, fetch: (input, init) => sim.fetch(input, init) });
  const day = await analyzeShopDay(client, { shopId: world.shops[0]!.id, sinceMs: world.startMs, untilMs: world.endMs, timeZone: world.shops[0]!.timeZone });
  return day.records.map((r) => JSON.stringify(r)).join("\n") + "\n";
}

/** Every golden case, in a fixed order. */
export const goldenCases: readonly GoldenCase[] = [
  ...Object.entries(WORLDS).flatMap(([name, options]) => [
    { name: `analyze-${name}.ndjson`, produce: () => analyzeWorld(options, "ndjson") },
    { name: `analyze-${name}.txt`, produce: () => analyzeWorld(options, "table") },
  ]),
  ...["2024-03-14", "2025-03-27"].map((day) => ({
    name: `analyze-brno-${day}.ndjson`,
    produce: () => cli(["analyze", "--input", join(BRNO, `${day}.signals.ndjson.gz`), "--tz", "Europe/Prague", "--format", "ndjson"]),
  })),
  { name: "demo-files.txt", produce: demoFiles },
  { name: "fleet-shop-day.ndjson", produce: fleetShopDay },
];

/**
 * The analyses again, split by device (`--shares`) and read on threads: each must give its
 * recorded output, byte for byte (issue 53).
 */
export const splitCases: readonly GoldenCase[] = [
  ...Object.entries(WORLDS).map(([name, options]) => ({
    name: `analyze-${name}.ndjson`,
    produce: () => analyzeWorld(options, "ndjson", ["--threads", "2", "--shares", "3"]),
  })),
  ...["2024-03-14", "2025-03-27"].map((day) => ({
    name: `analyze-brno-${day}.ndjson`,
    produce: () => cli(["analyze", "--input", join(BRNO, `${day}.signals.ndjson.gz`), "--tz", "Europe/Prague", "--format", "ndjson", "--threads", "2", "--shares", "2"]),
  })),
];

/** Where the recorded outputs live (gzip). */
export const GOLDEN_DIR = fileURLToPath(new URL("./outputs", import.meta.url));
