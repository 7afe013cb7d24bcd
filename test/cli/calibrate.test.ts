import { existsSync } from "node:fs";
import { copyFile, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../../src/cli/main.ts";
import { calibrationsByShop, type CalibrationFile } from "../../src/kernels/calibration/Calibration.ts";
import { fakeIo } from "./fakeIo.ts";
import { gunzipSync } from "node:zlib";
import { analyze } from "../../src/analysis/analyze.ts";
import { calibrate as calibrateLibrary, calibrationFromEstimates, calibrationSettings } from "../../src/analysis/calibrate.ts";
import { analyzeFile } from "../../src/file/analyzeFile.ts";
import { mergeTruth } from "../../src/truth/mergeTruth.ts";
import { parseTruth } from "../../src/truth/parseTruth.ts";

// Two real counted days of the Brno lab (test/data/brno-sc6-61, MIT): calibrate on one, analyse
// the next with it, and every way the truth can be wrong.
const DATA = fileURLToPath(new URL("../data/brno-sc6-61/", import.meta.url));
const FIT_DAY = "2024-03-07";
const NEXT_DAY = "2024-03-14";
const TZ = "Europe/Prague";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "footfall-cli-calibrate-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const signalsOf = (day: string) => join(DATA, `${day}.signals.ndjson.gz`);
const truthOf = (day: string) => join(DATA, `${day}.truth.csv`);
const lines = (text: string) =>
  text
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l) as Record<string, unknown>);

async function calibrate(argv: readonly string[]): Promise<{ status: number; err: string }> {
  const f = fakeIo();
  const status = await main(["calibrate", "--tz", TZ, ...argv], f.io);
  return { status, err: f.text.err };
}

describe("footfall calibrate", () => {
  it("fits a calibration on a counted day, and analyze --calibration uses it on the next day and names it in every line", { timeout: 120_000 }, async () => {
    const out = join(dir, "lab.json");
    const fit = await calibrate(["--input", signalsOf(FIT_DAY), "--truth", truthOf(FIT_DAY), "--out", out]);
    const file = JSON.parse(await readFile(out, "utf8")) as CalibrationFile;
    const shops = calibrationsByShop(file);
    expect([...shops.keys()]).toEqual([61]);
    const c = shops.get(61)!;
    // One counted day: written, and said to be what it rests on.
    expect(c.counts.days).toBe(1);
    expect(c.counts.intervals).toBeGreaterThanOrEqual(8);
    expect(c.start).toBeLessThan(c.end);
    expect(fit.err).toContain(`shop 61: ${c.id}`);
    expect(fit.status).toBe(c.trusted ? 0 : 1);

    const f = fakeIo();
    expect(await main(["analyze", "--input", signalsOf(NEXT_DAY), "--tz", TZ, "--format", "ndjson", "--calibration", out], f.io)).toBe(0);
    const analysed = lines(f.text.out);
    const named = analysed.filter((l) => l.type === "summary" || l.type === "occupancy");
    expect(named.length).toBeGreaterThan(1);
    for (const l of named) expect((l.calibration as { id: string } | null)?.id).toBe(c.id);

    const g = fakeIo();
    expect(await main(["analyze", "--input", signalsOf(NEXT_DAY), "--tz", TZ, "--format", "ndjson"], g.io)).toBe(0);
    for (const l of lines(g.text.out).filter((x) => x.type === "summary" || x.type === "occupancy")) expect(l.calibration).toBeNull();
  });

  it("is exactly the library's fit, and analyze --calibration exactly the library's estimate: one calibration path", { timeout: 180_000 }, async () => {
    const days = ["2024-03-07", "2024-03-14", "2024-03-21"];
    const out = join(dir, "three.json");
    const fit = await calibrate([...days.flatMap((d) => ["--input", signalsOf(d), "--truth", truthOf(d)]), "--visitor-rssi=-70", "--out", out]);
    expect(fit.status).toBeLessThan(2);
    const cli = calibrationsByShop(JSON.parse(await readFile(out, "utf8")) as CalibrationFile).get(61)!;
    // Three counted days: a model, fitted at the threshold given, which the file records.
    expect(cli.model).not.toBeNull();
    expect(cli.settings.visitorRssi).toBe(-70);
    expect(fit.err).toContain("a model of people inside");
    // The library, on the same days read as the CLI reads them (each file analysed alone), and the same fit.
    const estimates = [];
    for (const d of days) estimates.push(...(await analyzeFile(signalsOf(d), { timeZone: TZ, classify: { visitorRssi: -70 } })).people);
    const truth = mergeTruth(await Promise.all(days.map(async (d) => parseTruth(await readFile(truthOf(d), "utf8"), truthOf(d)))));
    const library = calibrationFromEstimates(estimates, truth, { ...calibrationSettings({ timeZone: TZ, classify: { visitorRssi: -70 } }), minCoverage: 0.5 });
    expect(library.calibrations).toEqual([cli]);
    // One day's records: calibrate() gives what the CLI gives.
    const one = join(dir, "one.json");
    await calibrate(["--input", signalsOf(days[0]!), "--truth", truthOf(days[0]!), "--out", one]);
    const records = gunzipSync(await readFile(signalsOf(days[0]!))).toString("utf8").split("\n").filter((l) => l !== "").map((l) => JSON.parse(l) as unknown);
    const single = await calibrateLibrary(records, parseTruth(await readFile(truthOf(days[0]!), "utf8"), truthOf(days[0]!)), { timeZone: TZ });
    expect(single.file).toEqual(JSON.parse(await readFile(one, "utf8")));
    // Analysed with it, the CLI's occupancy lines are the library's estimate.
    const f = fakeIo();
    expect(await main(["analyze", "--input", signalsOf("2025-03-27"), "--tz", TZ, "--format", "ndjson", "--calibration", out], f.io)).toBe(0);
    const lines = f.text.out.split("\n").filter((l) => l.startsWith('{"type":"occupancy"')).map((l) => JSON.parse(l) as { start: number; inside: number });
    const day = gunzipSync(await readFile(signalsOf("2025-03-27"))).toString("utf8").split("\n").filter((l) => l !== "").map((l) => JSON.parse(l) as unknown);
    const { occupancy } = await analyze(day, { timeZone: TZ, calibration: library.file });
    expect(lines.map((l) => [l.start, l.inside])).toEqual(occupancy.map((o) => [o.start, Math.round(o.inside * 100) / 100]));
  });

  it("says when a calibration applied is stale, in the lines and on stderr", { timeout: 120_000 }, async () => {
    const out = join(dir, "old.json");
    await calibrate(["--input", signalsOf(FIT_DAY), "--truth", truthOf(FIT_DAY), "--out", out]);
    // A year later: the calibration still applies, widened, and is flagged.
    const f = fakeIo();
    expect(await main(["analyze", "--input", signalsOf("2025-03-27"), "--tz", TZ, "--format", "ndjson", "--calibration", out], f.io)).toBe(0);
    const summary = lines(f.text.out).find((l) => l.type === "summary")!;
    const ref = summary.calibration as { trusted: boolean; warnings: string[] };
    expect(ref.trusted).toBe(false);
    expect(ref.warnings.some((w) => w.startsWith("stale: "))).toBe(true);
    expect(f.text.err).toMatch(/footfall analyze: shop 61: calibration cal-61-[0-9a-f]{8} is not to be trusted \(.*stale: \d+ days/);
  });

  it("refuses bad truth with exit 2, naming the file and line, and writes nothing", { timeout: 120_000 }, async () => {
    const cases: [string, string, RegExp][] = [
      ["no-offset.csv", "shop_id,start,end,people\n61,2024-03-07T10:00:00,2024-03-07T11:00:00,3\n", /no-offset\.csv:2: .*offset/],
      ["negative.csv", "shop_id,start,end,people\n61,2024-03-07T10:00:00+01:00,2024-03-07T11:00:00+01:00,-3\n", /negative\.csv:2: /],
      ["unparsable.csv", "shop_id,start,end,people\n61,yesterday,2024-03-07T11:00:00+01:00,3\n", /unparsable\.csv:2: /],
      ["unknown-shop.csv", "shop_id,start,end,people\n99,2024-03-07T10:00:00+01:00,2024-03-07T11:00:00+01:00,3\n", /unknown-shop\.csv:2: shop 99 has no analysed day/],
      ["other-day.csv", "shop_id,start,end,people\n61,2024-03-01T10:00:00+01:00,2024-03-01T11:00:00+01:00,3\n", /other-day\.csv:2: shop 61 has no analysed day/],
    ];
    for (const [name, text, message] of cases) {
      const truth = join(dir, name);
      await writeFile(truth, text);
      const out = join(dir, `${name}.json`);
      const r = await calibrate(["--input", signalsOf(FIT_DAY), "--truth", truth, "--out", out]);
      expect([name, r.status]).toEqual([name, 2]);
      expect(r.err).toMatch(message);
      expect(existsSync(out)).toBe(false);
    }
  });

  it("leaves a calibration file as it was when the next fit is refused", { timeout: 120_000 }, async () => {
    const out = join(dir, "kept.json");
    await copyFile(truthOf(FIT_DAY), join(dir, "good.csv"));
    await writeFile(out, "previous\n");
    await writeFile(join(dir, "bad.csv"), "shop_id,date,visitors\n61,2024-02-30,12\n");
    const r = await calibrate(["--input", signalsOf(FIT_DAY), "--truth", join(dir, "good.csv"), "--truth", join(dir, "bad.csv"), "--out", out]);
    expect(r.status).toBe(2);
    expect(r.err).toMatch(/bad\.csv:2: /);
    expect(await readFile(out, "utf8")).toBe("previous\n");
  });

  it("asks for --truth and --out", async () => {
    expect((await calibrate(["--input", signalsOf(FIT_DAY), "--out", join(dir, "x.json")])).status).toBe(2);
    expect((await calibrate(["--input", signalsOf(FIT_DAY), "--truth", truthOf(FIT_DAY)])).status).toBe(2);
  });
});
