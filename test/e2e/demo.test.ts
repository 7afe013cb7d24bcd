import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectSelfContained } from "../report/reportFixture.ts";
import { ensureBuilt, footfall, type CliRun } from "./cliBuild.ts";

// `footfall demo` as `npm start` runs it (the built CLI), on a small, fast day: two quiet shops
// open for two hours, the clock at 30 000×, phones rotating their MACs (the demo's default).

let dir: string;
let run: CliRun;

beforeAll(async () => {
  await ensureBuilt();
  dir = await mkdtemp(join(tmpdir(), "footfall-demo-e2e-"));
  const world = join(dir, "world.json");
  await writeFile(world, JSON.stringify({ visitorsPerDay: 60, passersByPerDay: 400, staffPerShop: 2, stationaryPerShop: 1 }));
  run = await footfall(["demo", "--shops", "2", "--hours", "10-12", "--speed", "30000", "--seed", "5", "--world", world, "--out", join(dir, "out")]);
}, 240_000);

afterAll(async () => {
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
});

const csvRows = (text: string): Record<string, string>[] => {
  const [head, ...rows] = text.trim().split("\n");
  const keys = head!.split(",");
  return rows.map((r) => Object.fromEntries(r.split(",").map((v, i) => [keys[i]!, v])));
};

describe("footfall demo (built CLI)", () => {
  it("reads the day, uploads its sales and exits 0, with plain progress lines when not on a terminal", () => {
    expect(run.status, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/^footfall demo: building a simulated day of 2 shops \(seed 5, MAC rotation realistic\)/m);
    expect(run.stderr).toMatch(/^footfall demo: \d\d:\d\d \(\d+ %\) in range \d+ · (people ≈ [\d,]+ · )?MAC visitors/m);
    expect(run.stderr).toMatch(/sales: 2 shop-days uploaded/);
    expect(run.stderr).not.toContain("\x1b[");
  });

  it("prints a summary per shop and its accuracy against ground truth on stdout, agreeing with daily.csv", async () => {
    const daily = csvRows(await readFile(join(dir, "out", "daily.csv"), "utf8"));
    expect(daily).toHaveLength(2);
    expect(run.stdout).toMatch(/^shop\s+visitors \[90 %\]\s+MAC visitors\s+passers-by\s+capture\s+<5 min\s+5–20 min\s+20–60 min\s+1–6 h\s+≥6 h\s+median dwell\s+receipts\s+sales\s+conversion\s+per visitor$/m);
    expect(run.stdout).toContain("accuracy against the simulator's ground truth: people counted vs people present");
    for (const row of daily) {
      const line = run.stdout.split("\n").find((l) => l.startsWith(row["shop"]!))!;
      expect(line).toBeDefined();
      const cells = line.slice(row["shop"]!.length).trim().split(/\s{2,}/);
      const int = (key: string) => Number(row[key]).toLocaleString("en");
      expect(cells[0]).toBe(`${int("visitors")} [${int("visitors_low")}–${int("visitors_high")}]`);
      expect(cells[1]).toBe(int("mac_visitors"));
      expect(cells[2]).toBe(int("passers_by"));
      expect(row["sales_status"]).toBe("uploaded");
      expect(Number(row["receipts"])).toBeGreaterThan(0);
      expect(Number(row["conversion"])).toBeCloseTo(Number(row["receipts"]) / Number(row["visitors"]), 3);
      // Scored against the people present: the row of the accuracy table agrees with daily.csv.
      const acc = run.stdout.split("\n").find((l) => l.startsWith(row["shop"]!) && /\b(yes|NO)\b/.test(l))!;
      const accCells = acc.slice(row["shop"]!.length).trim().split(/\s{2,}/);
      expect(accCells[0]).toBe(int("truth_visitors"));
      expect(accCells[3]).toBe(row["visitors_in_interval"] === "true" ? "yes" : "NO");
      // Dwell: the table's median is daily.csv's (the summary line's, of people with an estimate),
      // and the dwell error is scorePeople's in both (table in whole s, 0.1 min; csv in 0.1 s).
      expect(Math.abs(Number.parseFloat(cells[9]!) * 60 - Number(row["dwell_median_s"]))).toBeLessThanOrEqual(3.05);
      expect(Math.abs(Number.parseFloat(accCells[7]!) - Number(row["median_abs_dwell_error_s"]))).toBeLessThanOrEqual(0.55);
    }
    expect(run.stdout).toMatch(/^all shops\s/m);
    // With every shop estimated, all shops' median dwell is left out: medians do not pool.
    const shopLines = daily.map((row) => run.stdout.split("\n").find((l) => l.startsWith(row["shop"]!))!);
    const all = run.stdout.split("\n").find((l) => l.startsWith("all shops"))!.slice("all shops".length).trim().split(/\s{2,}/);
    if (shopLines.every((l) => /\d \[\d/.test(l))) expect(all[9]).toBe("–");
  });

  it("writes sessions.ndjson consistent with the counts", async () => {
    const daily = csvRows(await readFile(join(dir, "out", "daily.csv"), "utf8"));
    const sessions = (await readFile(join(dir, "out", "sessions.ndjson"), "utf8"))
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { type: string; shopId: number; device: string; kind: string; dwellMs: number; end: number; start: number });
    for (const row of daily) {
      const visitors = new Set(sessions.filter((s) => s.shopId === Number(row["shop_id"]) && s.kind === "visitor").map((s) => s.device));
      expect(visitors.size).toBe(Number(row["mac_visitors"]));
    }
    for (const s of sessions) {
      expect(s.type).toBe("session");
      expect(s.dwellMs).toBe(s.end - s.start);
    }
  });

  it("writes report.html: SVG charts inline, no external resource of any kind", async () => {
    const html = await readFile(join(dir, "out", "report.html"), "utf8");
    expectSelfContained(html);
    const svgs = html.match(/<svg\b[^>]*>/g) ?? [];
    // Eight overview charts (two of them people vs MACs) and three per shop (occupancy with its band among them).
    expect(svgs.length).toBe(8 + 3 * 2);
    for (const title of ["When people came", "How long visitors stayed", "where people stood", "Who can be recognised again", "How close to the truth", "People, not MAC addresses", "people inside"]) {
      expect(html).toContain(title);
    }
  });

  it("keeps the till export it uploaded, with the sales workflow's journal beside it", async () => {
    const pos = (await readFile(join(dir, "out", "pos-transactions.csv"), "utf8")).trim().split("\n");
    expect(pos[0]).toBe("brand,external_key,timestamp,amount,quantity");
    expect(pos.length).toBeGreaterThan(1);
    const journal = JSON.parse(await readFile(join(dir, "out", "pos-transactions.csv.journal.json"), "utf8")) as unknown;
    expect(journal).toBeTypeOf("object");
  });
});
