import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../../src/cli/main.ts";
import { int } from "../../src/demo/textFormats.ts";
import { createWorld } from "../../src/sim/createWorld.ts";
import { fakeIo } from "../cli/fakeIo.ts";
import { expectSelfContained } from "../report/reportFixture.ts";
import { SMALL_WORLD } from "./smallWorld.ts";

// runDemo as `footfall demo` runs it (through the command, in process), on small fast days.

describe("footfall demo, in process, on a small fast day", () => {
  let dir: string;
  let status: number;
  let out: string;
  let err: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "footfall-demo-"));
    const world = join(dir, "world.json");
    await (await import("node:fs/promises")).writeFile(world, JSON.stringify(SMALL_WORLD));
    const { io, text } = fakeIo();
    status = await main(["demo", "--shops", "1", "--hours", "10-12", "--speed", "30000", "--world", world, "--out", dir], io);
    out = text.out;
    err = text.err;
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("reads the whole day, uploads its sales and exits 0", () => {
    expect(status, err).toBe(0);
    expect(err).toMatch(/sales: 1 shop-day uploaded/);
    expect(err).toContain("footfall demo: report in");
    // Not a terminal: plain lines, no cursor movement.
    expect(err).not.toContain("\x1b[");
    expect(err).toMatch(/^footfall demo: \d\d:\d\d \(\d+ %\) in range/m);
  });

  it("read every signal of the day, none twice", () => {
    const world = createWorld({ ...SMALL_WORLD, seed: 1, shops: 1, openingHours: [10, 12], days: 1, rotation: "realistic" });
    expect(out).toContain(`${int(world.signalCount())} signals read live`);
  });

  it("runs the world with rotation on by default and says so", () => {
    expect(err).toContain("MAC rotation realistic");
  });

  it("prints the summary and the accuracy table on stdout: people counted vs people present, the MAC-level count beside them", () => {
    expect(out).toContain("Cafe Mori Gangnam");
    expect(out).toMatch(/shop\s+visitors \[90 %\]\s+MAC visitors\s+passers-by\s+capture/);
    expect(out).toContain("accuracy against the simulator's ground truth: people counted vs people present");
    expect(out).toMatch(/people present\s+people counted \[90 %\]\s+error\s+in interval\s+MAC visitors\s+MAC error/);
    const world = createWorld({ ...SMALL_WORLD, seed: 1, shops: 1, openingHours: [10, 12], days: 1, rotation: "realistic" });
    const present = new Set(world.visits().filter((v) => v.kind === "visitor").map((v) => v.person)).size;
    const row = out.split("\n").find((l) => l.startsWith("Cafe Mori Gangnam") && /\b(yes|NO)\b/.test(l))!;
    expect(row).toBeDefined();
    expect(row.slice("Cafe Mori Gangnam".length).trim().split(/\s{2,}/)[0]).toBe(int(present));
  });

  it("--min-count K: daily.csv writes small counts as \"<K\" and the report draws those hours as suppressed", async () => {
    const small = await mkdtemp(join(tmpdir(), "footfall-demo-min-"));
    try {
      const world = join(small, "world.json");
      await (await import("node:fs/promises")).writeFile(world, JSON.stringify(SMALL_WORLD));
      const { io, text } = fakeIo();
      // Larger than any count of this small day: every count of people is suppressed, zeros stay.
      const k = 1_000_000;
      expect(await main(["demo", "--shops", "1", "--hours", "10-12", "--speed", "30000", "--world", world, "--out", small, "--min-count", String(k)], io), text.err).toBe(0);
      const csv = (await readFile(join(small, "daily.csv"), "utf8")).trim().split("\n");
      const head = csv[0]!.split(",");
      const row = Object.fromEntries(csv[1]!.split(",").map((v, i) => [head[i]!, v]));
      expect(row["visitors"]).toBe(`<${k}`);
      expect(row["passers_by"]).toBe(`<${k}`);
      expect(row["capture_rate"]).toBe("");
      expect(row["dwell_median_s"]).toBe("");
      expect(row["dwell_ge6h"]).toBe("0");
      const report = await readFile(join(small, "report.html"), "utf8");
      expect(report).toContain(`&lt;${k}`);
    } finally {
      await rm(small, { recursive: true, force: true });
    }
  });

  it("writes daily.csv, sessions.ndjson and a self-contained report.html that agree", async () => {
    const csv = (await readFile(join(dir, "daily.csv"), "utf8")).trim().split("\n");
    expect(csv).toHaveLength(2);
    const head = csv[0]!.split(",");
    const row = Object.fromEntries(csv[1]!.split(",").map((v, i) => [head[i]!, v]));
    expect(row["shop_id"]).toBe("101");
    expect(row["sales_status"]).toBe("uploaded");
    const sessions = (await readFile(join(dir, "sessions.ndjson"), "utf8")).trim().split("\n").map((l) => JSON.parse(l) as { type: string; kind: string; device: string });
    expect(sessions.length).toBeGreaterThan(0);
    expect(sessions.every((s) => s.type === "session")).toBe(true);
    const visitorDevices = new Set(sessions.filter((s) => s.kind === "visitor").map((s) => s.device));
    expect(Number(row["mac_visitors"])).toBe(visitorDevices.size);
    // People, not MACs: the estimate sits inside its interval, and is scored against the people present.
    expect(Number(row["visitors_low"])).toBeLessThanOrEqual(Number(row["visitors"]));
    expect(Number(row["visitors"])).toBeLessThanOrEqual(Number(row["visitors_high"]));
    expect(Number(row["truth_visitors"])).toBeGreaterThan(0);
    expect(Number(row["visitor_count_error"])).toBeCloseTo(Number(row["visitors"]) / Number(row["truth_visitors"]) - 1, 1);
    const html = await readFile(join(dir, "report.html"), "utf8");
    expectSelfContained(html);
    // The visitors' sessions carry proximity, so the report has its "where people stood" chart.
    expect(html).toContain("where people stood");
    expect(html).toContain("people inside");
    expect(html).toContain("People, not MAC addresses");
    expect((html.match(/<svg\b/g) ?? []).length).toBeGreaterThanOrEqual(9);
    const pos = await readFile(join(dir, "pos-transactions.csv"), "utf8");
    expect(pos.split("\n")[0]).toBe("brand,external_key,timestamp,amount,quantity");
  });
});

describe("footfall demo, interrupted", () => {
  it("stops on Ctrl-C, exits 1 and still writes what it has", async () => {
    const dir = await mkdtemp(join(tmpdir(), "footfall-demo-stop-"));
    try {
      const controller = new AbortController();
      const { io, text } = fakeIo({}, { signal: controller.signal });
      // Slow enough that the day is far from over when the signal comes.
      const running = main(["demo", "--shops", "1", "--hours", "10-12", "--speed", "600", "--out", dir], io);
      const started = Date.now();
      while (!/in range [1-9]/.test(text.err) && Date.now() - started < 30_000) await new Promise((r) => setTimeout(r, 100));
      controller.abort();
      expect(await running).toBe(1);
      expect(text.err).toContain("interrupted");
      expect(text.out).toMatch(/interrupted at \d\d:\d\d/);
      const html = await readFile(join(dir, "report.html"), "utf8");
      expect(html).toContain('class="banner"');
      const csv = await readFile(join(dir, "daily.csv"), "utf8");
      expect(csv).toContain("not uploaded (interrupted before closing)");
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
