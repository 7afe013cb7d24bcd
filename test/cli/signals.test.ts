import { fakeIo } from "./fakeIo.ts";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../../src/cli/main.ts";
import { command } from "../../src/cli/signals.ts";
import { startSimulator, type RunningSimulator } from "../../src/sim/service/startSimulator.ts";
import { createWorld } from "../../src/sim/createWorld.ts";
import type { World } from "../../src/sim/world/World.ts";

const lines = (text: string): Record<string, unknown>[] =>
  text
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l) as Record<string, unknown>);

let sim: RunningSimulator;
let world: World;
let env: Record<string, string>;
let dir: string;
beforeAll(async () => {
  world = createWorld({ seed: 5, shops: 1, visitorsPerDay: 20, passersByPerDay: 20, staffPerShop: 0, stationaryPerShop: 0, days: 1, openingHours: [10, 12] });
  sim = await startSimulator({ seed: 5, world });
  env = { FOOTFALL_SIGNAL_URL: sim.signalUrl, FOOTFALL_EMAIL: sim.email, FOOTFALL_TOKEN: sim.token };
  dir = await mkdtemp(join(tmpdir(), "footfall-cli-signals-"));
});
afterAll(async () => {
  await sim.close();
  await rm(dir, { recursive: true, force: true });
});

const iso = (ms: number): string => new Date(ms).toISOString();

describe("footfall signals", () => {
  it("has full help", async () => {
    const { io, text } = fakeIo();
    expect(await main(["signals", "--help"], io)).toBe(0);
    for (const word of ["backfill", "tail", "--shop", "--since", "--until", "--tz", "--limit", "--slices", "--checkpoint", "--format", "--poll-ms", "--rts-unit", "Exit status"]) {
      expect(text.out).toContain(word);
    }
    expect(command.summary).not.toMatch(/not built/);
  });

  it.each([
    [[], /backfill or tail/],
    [["backfill", "--since", "2026-11-15"], /--shop is required/],
    [["backfill", "--shop", "101"], /--since is required/],
    [["backfill", "--shop", "101", "--since", "yesterday"], /--since must be an ISO date/],
    [["backfill", "--shop", "101", "--since", "2026-11-15", "--until", "2026-11-14"], /--until must be after/],
    [["backfill", "--shop", "101", "--since", "2026-11-15", "--limit", "500"], /--limit must be 1-200/],
    [["backfill", "--shop", "101", "--since", "2026-11-15", "--slices", "2"], /--slices needs/],
    [["backfill", "--shop", "101", "--since", "2026-11-15", "--format", "xml"], /--format/],
    [["tail", "--shop", "x"], /--shop must be an integer/],
    [["tail", "--shop", "1", "--rts-unit", "h"], /--rts-unit must be one of/],
    [["sideways", "--shop", "1"], /backfill or tail/],
  ])("bad usage %j → exit 2, one line", async (argv, message) => {
    const { io, text } = fakeIo(env);
    expect(await main(["signals", ...argv], io)).toBe(2);
    expect(text.err).toMatch(message);
    expect(text.err.trim().split("\n")).toHaveLength(1);
    expect(text.out).toBe("");
  });

  it("needs only the signal URL, e-mail and token", async () => {
    const { io, text } = fakeIo({ FOOTFALL_EMAIL: "a@b.c", FOOTFALL_TOKEN: "t" });
    expect(await main(["signals", "backfill", "--shop", "101", "--since", "2026-11-15"], io)).toBe(2);
    expect(text.err).toMatch(/missing --signal-url/);
  });

  it("backfill writes NDJSON: the service's records unchanged plus decoded fields", async () => {
    const shopId = world.shops[0]!.id;
    const from = world.startMs;
    const to = world.endMs;
    const { io, text } = fakeIo(env);
    const status = await main(["signals", "backfill", "--shop", String(shopId), "--since", iso(from), "--until", iso(to), "--limit", "150"], io);
    expect(text.err).toBe("");
    expect(status).toBe(0);
    const out = lines(text.out);
    const expected = [...world.rawSignals(shopId)];
    expect(expected.length).toBeGreaterThan(100);
    const raw = out.map(({ row_key, device_id, rssi, square_mac, ts, local }) => ({ row_key, device_id, rssi, square_mac, ts, local }));
    expect(raw).toEqual(expected);
    const first = out[0]!;
    expect(Object.keys(first).slice(0, 6)).toEqual(["row_key", "device_id", "rssi", "square_mac", "ts", "local"]);
    expect(first).toMatchObject({ shopId, rts: (first.row_key as string).split(":")[1], time: expected[0]!.ts });
    expect(typeof first.device).toBe("string");
    expect(typeof first.randomized).toBe("boolean");
  });

  it("a bare date is local midnight in --tz (default Asia/Seoul), as analyze reads it: the day read is the day analyze reports", async () => {
    const shopId = world.shops[0]!.id;
    const all = [...world.rawSignals(shopId)];
    const backfill = async (argv: string[]) => {
      const { io, text } = fakeIo(env);
      expect(await main(["signals", "backfill", "--shop", String(shopId), ...argv], io)).toBe(0);
      return text.out;
    };
    const tsOf = (out: string) => lines(out).map((r) => r.ts);
    const within = (from: string, to: string) => all.filter((r) => Number(r.ts) >= Date.parse(from) && Number(r.ts) < Date.parse(to)).map((r) => r.ts);
    // The world's day is Seoul's 2026-11-16 (its records from 09:05 to 12:48 KST).
    expect(tsOf(await backfill(["--since", "2026-11-16", "--until", "2026-11-17"]))).toEqual(all.map((r) => r.ts));
    expect(tsOf(await backfill(["--since", "2026-11-15", "--until", "2026-11-16"]))).toEqual([]);
    // UTC−2: its 2026-11-15 ends at 02:00Z, part-way through the records.
    const noronha = await backfill(["--since", "2026-11-15", "--until", "2026-11-16", "--tz", "America/Noronha"]);
    const part = within("2026-11-15T02:00:00Z", "2026-11-16T02:00:00Z");
    expect(part.length).toBeGreaterThan(0);
    expect(part.length).toBeLessThan(all.length);
    expect(tsOf(noronha)).toEqual(part);
    // The file, analysed in that zone, is what analyze reads from the service with the same dates.
    const path = join(dir, "noronha.ndjson");
    await writeFile(path, noronha);
    const analyzed = async (argv: string[]) => {
      const { io, text } = fakeIo(env);
      expect(await main(["analyze", "--format", "ndjson", "--tz", "America/Noronha", ...argv], io)).toBe(0);
      return lines(text.out).filter((r) => r.type !== "quality");
    };
    const fromFile = await analyzed(["--input", path]);
    expect(fromFile.some((r) => r.type === "summary")).toBe(true);
    expect(fromFile).toEqual(await analyzed(["--shop", String(shopId), "--since", "2026-11-15", "--until", "2026-11-16"]));
    const bad = fakeIo(env);
    expect(await main(["signals", "backfill", "--shop", String(shopId), "--since", "2026-11-15", "--tz", "Mars/Base"], bad.io)).toBe(2);
    expect(bad.text.err).toMatch(/--tz: unknown time zone "Mars\/Base"/);
  });

  it("csv has a header and one row per record; --slices gives the same rows", async () => {
    const shopId = world.shops[0]!.id;
    const base = ["signals", "backfill", "--shop", String(shopId), "--since", iso(world.startMs), "--until", iso(world.endMs), "--format", "csv"];
    const one = fakeIo(env);
    expect(await main(base, one.io)).toBe(0);
    const rows = one.text.out.trim().split("\n");
    expect(rows[0]).toBe("row_key,device_id,rssi,square_mac,ts,local,shopId,rts,time,device,sensor,randomized,vendor,invalid");
    expect(rows.length - 1).toBe(world.signalCount(shopId));
    const three = fakeIo(env);
    expect(await main([...base, "--slices", "3"], three.io)).toBe(0);
    expect(three.text.out).toBe(one.text.out);
  });

  it("Ctrl-C stops cleanly with the checkpoint saved; running again resumes with nothing lost or repeated", async () => {
    const shopId = world.shops[0]!.id;
    const checkpoint = join(dir, "cp.json");
    const argv = ["signals", "backfill", "--shop", String(shopId), "--since", iso(world.startMs), "--limit", "50", "--checkpoint", checkpoint];
    const controller = new AbortController();
    let chunks = 0;
    const first = fakeIo(env, { signal: controller.signal, onOut: () => {
      if (++chunks === 3) controller.abort();
    } });
    expect(await main(argv, first.io)).toBe(1);
    expect(first.text.err).toMatch(/interrupted .*resume/);
    const second = fakeIo(env);
    expect(await main(argv, second.io)).toBe(0);
    const all = [...lines(first.text.out), ...lines(second.text.out)].map((l) => l.row_key + String(l.device_id) + String(l.square_mac));
    const expected = [...world.rawSignals(shopId)].map((r) => r.row_key + r.device_id + r.square_mac);
    expect(lines(first.text.out).length).toBeGreaterThan(0);
    expect(lines(first.text.out).length).toBeLessThan(expected.length);
    expect(all).toEqual(expected);
  });

  it("a service failure is one line and exit 1", async () => {
    const { io, text } = fakeIo({ ...env, FOOTFALL_TOKEN: "wrong-token" });
    expect(await main(["signals", "backfill", "--shop", "101", "--since", iso(world.startMs)], io)).toBe(1);
    expect(text.err.trim().split("\n")).toHaveLength(1);
    expect(text.err).toMatch(/401/);
    expect(text.err).not.toContain("wrong-token");
  });

  it("tail polls until Ctrl-C, then exits 0", async () => {
    const shopId = world.shops[0]!.id;
    const since = world.startMs + 11 * 3_600_000; // the last opening hour of the local day
    const expected = [...world.rawSignals(shopId, since)].length;
    expect(expected).toBeGreaterThan(10);
    const controller = new AbortController();
    let seen = 0;
    const { io, text } = fakeIo(env, { signal: controller.signal, onOut: (chunk) => {
      seen += chunk.split("\n").length - 1;
      // Once caught up, let it poll a few more times on the real port (nothing new), then stop it.
      if (seen >= expected) setTimeout(() => controller.abort(), 100);
    } });
    const status = await main(["signals", "tail", "--shop", String(shopId), "--since", iso(since), "--poll-ms", "20"], io);
    expect(status).toBe(0);
    expect(text.err).toMatch(/interrupted/);
    expect(lines(text.out)).toHaveLength(expected);
  });
});
