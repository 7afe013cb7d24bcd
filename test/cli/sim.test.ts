import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { afterAll, describe, expect, it } from "vitest";
import { command } from "../../src/cli/sim.ts";
import { UsageError, type CliIo } from "../../src/cli/common.ts";

const dir = mkdtempSync(join(tmpdir(), "footfall-cli-sim-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const worldFile = join(dir, "world.json");
writeFileSync(worldFile, JSON.stringify({ shops: 1, openingHours: [10, 12], visitorsPerDay: 20, passersByPerDay: 100, staffPerShop: 1, stationaryPerShop: 1 }));

function fakeIo() {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = "";
  let err = "";
  stdout.on("data", (c) => (out += String(c)));
  stderr.on("data", (c) => (err += String(c)));
  const controller = new AbortController();
  const io: CliIo = { stdout, stderr, env: {}, signal: controller.signal };
  return { io, controller, out: () => out, err: () => err };
}

async function waitFor<T>(probe: () => T | undefined): Promise<T> {
  for (let i = 0; i < 400; i++) {
    const v = probe();
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error("timed out waiting");
}

describe("footfall sim", () => {
  it("prints exactly one ready line on stdout, serves with the given account, writes truth, stops on abort", async () => {
    const f = fakeIo();
    const truth = join(dir, "truth.ndjson");
    const status = command.run(["--port", "0", "--world", worldFile, "--seed", "5", "--email", "me@x.kr", "--token", "tok", "--truth", truth], f.io);
    const line = await waitFor(() => (f.out().includes("\n") ? f.out() : undefined));
    expect(line).toMatch(/^footfall sim listening on http:\/\/127\.0\.0\.1:\d+\n$/);
    const base = line.trim().split(" ").at(-1)!;
    const res = await fetch(`${base}/api/v1/brands`, { headers: { "x-user-email": "me@x.kr", "x-user-token": "tok" } });
    expect(res.status).toBe(200);
    expect((await res.json()).brands.length).toBeGreaterThan(0);
    expect(f.err()).toContain("x-user-token: tok");
    const visits = readFileSync(truth, "utf8").trimEnd().split("\n").map((l) => JSON.parse(l));
    expect(visits.length).toBeGreaterThan(0);
    expect(visits.every((v) => v.shop === 101)).toBe(true);
    f.controller.abort();
    expect(await status).toBe(0);
    expect(f.out()).toBe(line);
    await expect(fetch(`${base}/api/v1/brands`)).rejects.toThrow();
  });

  it("splits signal_url onto --signal-port and applies fault flags", async () => {
    const f = fakeIo();
    const status = command.run(["--port", "0", "--signal-port", "0", "--world", worldFile, "--fail-rate", "1"], f.io);
    await waitFor(() => (f.out().includes("\n") ? true : undefined));
    const signalUrl = /signal_url (\S+)/.exec(f.err())![1]!;
    const base = f.out().trim().split(" ").at(-1)!;
    expect(signalUrl).not.toBe(base);
    const headers = { "x-user-email": "analyst@footfall.test", "x-user-token": "sim-token" };
    expect((await fetch(`${base}/api/v1/shops/101/wifi_signals`, { headers })).status).toBe(404);
    expect([500, 503]).toContain((await fetch(`${signalUrl}/api/v1/shops/101/wifi_signals`, { headers })).status);
    f.controller.abort();
    expect(await status).toBe(0);
  });

  it("--rotation, --burst-gap-s and --shadowing-db build a rotating world; --truth-visits and --truth-occupancy write the person-level truth", async () => {
    const f = fakeIo();
    const truth = join(dir, "rot-truth.ndjson");
    const visitsFile = join(dir, "rot-visits.ndjson");
    const occupancyFile = join(dir, "rot-occupancy.ndjson");
    const argv = ["--port", "0", "--world", worldFile, "--rotation", "0.9", "--burst-gap-s", "5,20", "--shadowing-db", "6", "--truth", truth, "--truth-visits", visitsFile, "--truth-occupancy", occupancyFile];
    const status = command.run(argv, f.io);
    const line = await waitFor(() => (f.out().includes("\n") ? f.out() : undefined));
    const base = line.trim().split(" ").at(-1)!;
    const headers = { "x-user-email": "analyst@footfall.test", "x-user-token": "sim-token" };
    const world = await (await fetch(`${base}/__sim/world`, { headers })).json();
    expect(world.macBehaviour.rotatingShare).toBe(0.9);
    expect(world.macBehaviour.burstGapS).toEqual({ screenOn: [5, 20], screenOff: [5, 20], associated: [5, 20] });
    expect(world.model.shadowingDb).toBe(6);
    expect(f.err()).toContain("MAC rotation on");
    const read = (file: string) => readFileSync(file, "utf8").trimEnd().split("\n").map((l) => JSON.parse(l));
    const macs = read(truth);
    const visits = read(visitsFile);
    const occupancy = read(occupancyFile);
    // The per-MAC rows are the heard MACs of the visits, so people can be counted from either file.
    const heard = visits.flatMap((v) => v.macs.filter((m: { records: number }) => m.records > 0).map((m: { mac: string }) => `${v.visit} ${m.mac}`));
    expect(macs.map((r) => `${r.visit} ${r.device}`).sort()).toEqual(heard.sort());
    const rotating = visits.filter((v) => v.kind === "visitor" && v.macClass === "rotating" && !v.associated);
    expect(rotating.length).toBeGreaterThan(0);
    // Each used several MACs, unless its phone burst once in the visit (a replayed real phone
    // may burst every ten minutes: its one burst has one MAC).
    expect(rotating.every((v) => v.macs.length > 1 || v.macs[0].last - v.macs[0].first <= 1000)).toBe(true);
    expect(rotating.some((v) => v.macs.length > 1)).toBe(true);
    // People's visits: a person's second or third device (real phones, the default) is not one.
    const inside = visits.filter((v) => (v.kind === "visitor" || v.kind === "staff") && v.extraDevice === undefined);
    expect(occupancy).toHaveLength(2 * inside.length);
    f.controller.abort();
    expect(await status).toBe(0);
  });

  it("--page-size serves short pages whatever limit asks", async () => {
    const f = fakeIo();
    const status = command.run(["--port", "0", "--world", worldFile, "--page-size", "30,60"], f.io);
    const line = await waitFor(() => (f.out().includes("\n") ? f.out() : undefined));
    const base = line.trim().split(" ").at(-1)!;
    const headers = { "x-user-email": "analyst@footfall.test", "x-user-token": "sim-token" };
    const page = async (since: string) => (await (await fetch(`${base}/api/v1/shops/101/wifi_signals?since=${since}&limit=200`, { headers })).json()).signals as unknown[];
    const first = await page("0000000000000000");
    expect(first.length).toBeGreaterThanOrEqual(30);
    expect(first.length).toBeLessThanOrEqual(60);
    // Asking again gives the same page.
    expect(await page("0000000000000000")).toEqual(first);
    f.controller.abort();
    expect(await status).toBe(0);
  });

  it.each([
    [["--rts-case", "upper"], /^101:[0-9A-F]{16}$/],
    [["--rts-case", "upper", "--rts-unpadded"], /^101:[1-9A-F][0-9A-F]{0,14}$/],
  ])("%j spells the RTS in row_key so", async (flags, form) => {
    const f = fakeIo();
    const status = command.run(["--port", "0", "--world", worldFile, ...flags], f.io);
    const line = await waitFor(() => (f.out().includes("\n") ? f.out() : undefined));
    const base = line.trim().split(" ").at(-1)!;
    const headers = { "x-user-email": "analyst@footfall.test", "x-user-token": "sim-token" };
    const body = (await (await fetch(`${base}/api/v1/shops/101/wifi_signals?since=0000000000000000&limit=5`, { headers })).json()) as { signals: { row_key: string }[] };
    expect(body.signals).toHaveLength(5);
    for (const s of body.signals) expect(s.row_key).toMatch(form);
    expect(body.signals.some((s) => /[A-F]/.test(s.row_key))).toBe(true);
    f.controller.abort();
    expect(await status).toBe(0);
  });

  it.each([
    [["--rotation", "sometimes"]],
    [["--rotation", "1.5"]],
    [["--burst-gap-s", "0.1"]],
    [["--burst-gap-s", "30,5"]],
    [["--rotation", "off", "--burst-gap-s", "30"]],
    [["--shadowing-db", "-1"]],
    [["--shadowing-db", "strong"]],
    [["--port", "abc"]],
    [["--days", "0"]],
    [["--fail-rate", "2"]],
    [["--since-mode", "sometimes"]],
    [["--rts-case", "mixed"]],
    [["--upload-every-s", "-1"]],
    [["--upload-every-s", "soon"]],
    [["--page-size", "0"]],
    [["--page-size", "1.5"]],
    [["--page-size", "201"]],
    [["--page-size", "80,20"]],
    [["--page-size", "1,2,3"]],
    [["--world", join(dir, "missing.json")]],
    [["--bogus"]],
  ])("rejects bad usage %j with a UsageError", async (argv) => {
    await expect(command.run(argv, fakeIo().io)).rejects.toBeInstanceOf(UsageError);
  });
});
