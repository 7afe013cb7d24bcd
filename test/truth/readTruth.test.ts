import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { isTruthInputError, type TruthInputError } from "../../src/errors/TruthInputError.ts";
import { readTruth } from "../../src/truth/readTruth.ts";
import { truthInside } from "../../src/analysis/truthInside.ts";

const dir = mkdtempSync(join(tmpdir(), "footfall-truth-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, content: string | Uint8Array): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

async function failure(files: string[]): Promise<TruthInputError> {
  try {
    await readTruth(files);
  } catch (error) {
    if (isTruthInputError(error)) return error;
    throw error;
  }
  throw new Error("expected a TruthInputError");
}

const SEG = "shop_id,start,end,people\n";

describe("readTruth", () => {
  it("reads and merges files of both shapes, plain or gzip, BOM and CRLF", async () => {
    const a = file("a.truth.csv", `\uFEFF${SEG}61,2024-03-14T13:00:00+01:00,2024-03-14T14:00:00+01:00,12\r\n61,2024-03-14T14:00:00+01:00,2024-03-14T15:00:00+01:00,NaN\r\n`);
    const b = file("b.truth.csv.gz", gzipSync(`${SEG}62,2024-03-14T12:00:00Z,2024-03-14T12:30:00Z,3\n`));
    const c = file("door.csv", "shop_id,date,visitors\n61,2024-03-14,212\n");
    const truth = await readTruth([a, b, c]);
    expect(truth.segments).toEqual([
      { shopId: 61, start: Date.parse("2024-03-14T12:00:00Z"), end: Date.parse("2024-03-14T13:00:00Z"), people: 12, line: 2, source: a },
      { shopId: 62, start: Date.parse("2024-03-14T12:00:00Z"), end: Date.parse("2024-03-14T12:30:00Z"), people: 3, line: 2, source: b },
    ]);
    expect(truth.daily).toEqual([{ shopId: 61, date: "2024-03-14", visitors: 212, line: 2, source: c }]);
    expect(truth.unknownRows).toBe(1);
  });

  it("the same file twice is kept once; two files disagreeing on a moment is an error naming both", async () => {
    const a = file("x.truth.csv", `${SEG}61,2024-03-14T13:00:00+01:00,2024-03-14T14:00:00+01:00,12\n`);
    expect((await readTruth([a, a])).segments).toHaveLength(1);
    const b = file("y.truth.csv", `${SEG}61,2024-03-14T13:30:00+01:00,2024-03-14T14:30:00+01:00,11\n`);
    const e = await failure([a, b]);
    expect(e.message).toMatch(new RegExp(`^${b.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}:2: shop 61: 11 people .* but ${a.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}:2 says 12 `));
    expect(e).toMatchObject({ source: b, line: 2 });
  });

  it("rejects the whole set on the first bad file, in the order given", async () => {
    const good = file("good.csv", `${SEG}61,2024-03-14T13:00:00+01:00,2024-03-14T14:00:00+01:00,12\n`);
    const bad1 = file("bad1.csv", `${SEG}61,2024-03-14T13:00:00,2024-03-14T14:00:00+01:00,12\n`);
    const bad2 = file("bad2.csv", "");
    expect(await failure([good, bad1, bad2])).toMatchObject({ source: bad1, line: 2 });
    expect(await failure([good, bad2, bad1])).toMatchObject({ source: bad2, line: 1 });
  });

  it("a file that cannot be read, is not gzip or not UTF-8: an error on the file as a whole", async () => {
    const missing = join(dir, "missing.csv");
    const e = await failure([missing]);
    expect(e).toMatchObject({ source: missing, line: 0 });
    expect(e.message).toMatch(new RegExp(`^.*missing\\.csv: cannot read: .*ENOENT`));
    const broken = file("broken.csv.gz", Uint8Array.from([0x1f, 0x8b, 0x08, 0, 1, 2, 3]));
    expect((await failure([broken])).message).toMatch(/broken\.csv\.gz: not a valid gzip file/);
    const latin1 = file("latin1.csv", Buffer.from(`shop_id,date,visitors,note\n61,2024-03-14,3,caf\xe9\n`, "latin1"));
    expect((await failure([latin1])).message).toMatch(/latin1\.csv: not UTF-8 text/);
    expect((await failure([dir])).message).toMatch(/cannot read: /);
  });

  it("no files give empty truth; what is not a list of paths is a TypeError", async () => {
    expect(await readTruth([])).toEqual({ segments: [], daily: [], unknownRows: 0 });
    await expect(readTruth("a.csv" as unknown as string[])).rejects.toThrow(TypeError);
    await expect(readTruth([""])).rejects.toThrow(TypeError);
  });
});

// The real counted truth beside the checkout (../shared/data, as in CI); skipped where it is not.
const REAL = new URL("../../../shared/data/brno-sc6-61/", import.meta.url);
const REAL_DIR = fileURLToPath(REAL);
const DAY = join(REAL_DIR, "2024-03-14.truth.csv");
const haveReal = existsSync(DAY);
if (!haveReal) console.warn(`readTruth: ${DAY} not found, the tests on real counted truth are skipped`);

describe.skipIf(!haveReal)("readTruth on real counted truth (../shared/data/brno-sc6-61)", () => {
  interface IndexDay {
    readonly day: string;
    readonly truthSegments: number;
    readonly peopleMin: number;
    readonly peopleMax: number;
  }
  const index = haveReal ? (JSON.parse(readFileSync(join(REAL_DIR, "index.json"), "utf8")) as { shopId: number; days: IndexDay[] }) : { shopId: 0, days: [] };

  it("reads 2024-03-14 as the index describes it", async () => {
    const truth = await readTruth([DAY]);
    const entry = index.days.find((d) => d.day === "2024-03-14")!;
    expect(truth.unknownRows).toBe(0);
    expect(truth.daily).toEqual([]);
    expect(truth.segments).toHaveLength(entry.truthSegments);
    expect(truth.segments[0]).toEqual({ shopId: index.shopId, start: Date.parse("2024-03-14T13:54:07.533+01:00"), end: Date.parse("2024-03-14T14:32:00.392+01:00"), people: 17, line: 2, source: DAY });
    const people = truth.segments.map((s) => s.people);
    expect([Math.min(...people), Math.max(...people)]).toEqual([entry.peopleMin, entry.peopleMax]);
    // one count at a time, with no gap, from the first count to the last
    for (let i = 1; i < truth.segments.length; i++) expect(truth.segments[i]!.start).toBe(truth.segments[i - 1]!.end);
    // 14:45–15:00 local, by hand from the file: 17, 15, 4, 0, 6, 12 and 13 people in turn
    const from = Date.parse("2024-03-14T14:45:00+01:00");
    const to = from + 15 * 60_000;
    const inside = truthInside(truth.segments, index.shopId, from, to);
    expect(inside.coveredMs).toBe(15 * 60_000);
    const at = (clock: string): number => Date.parse(`2024-03-14T${clock}+01:00`);
    const parts = [
      [17, at("14:45:07.609") - from],
      [15, at("14:46:00.689") - at("14:45:07.609")],
      [4, at("14:47:03.929") - at("14:46:00.689")],
      [0, at("14:57:00.282") - at("14:47:03.929")],
      [6, at("14:58:00.207") - at("14:57:00.282")],
      [12, at("14:59:01.706") - at("14:58:00.207")],
      [13, to - at("14:59:01.706")],
    ] as const;
    expect(parts.reduce((sum, [, ms]) => sum + ms, 0)).toBe(15 * 60_000);
    expect(inside.people).toBeCloseTo(parts.reduce((sum, [p, ms]) => sum + p * ms, 0) / (15 * 60_000), 9);
  });

  it("reads every day together: NaN rows are unknown, not errors, and no two days contradict", async () => {
    const files = readdirSync(REAL_DIR).filter((name) => name.endsWith(".truth.csv")).sort().map((name) => join(REAL_DIR, name));
    const truth = await readTruth(files);
    const listed = index.days.reduce((sum, d) => sum + d.truthSegments, 0);
    expect(files).toHaveLength(index.days.length);
    expect(truth.unknownRows).toBeGreaterThan(0);
    expect(truth.segments.length + truth.unknownRows).toBe(listed);
    expect(new Set(truth.segments.map((s) => s.shopId))).toEqual(new Set([index.shopId]));
  });
});
