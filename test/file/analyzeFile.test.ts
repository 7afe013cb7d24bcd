/**
 * analyzeFile reads a file as `footfall analyze --input` does: plain or gzip, on one thread or
 * several, it must give exactly what `analyze` gives for the same records, rejections and their
 * line numbers included.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { analyze } from "../../src/analysis/analyze.ts";
import { parseSignalLine } from "../../src/codec/parseSignalLine.ts";
import { analyzeFile } from "../../src/file/analyzeFile.ts";
import { createWorld } from "../../src/sim/createWorld.ts";

/** readInputInThreads' range (4 MiB): a file of three or more is read by two threads when asked. */
const RANGE_BYTES = 4 * 1024 * 1024;

describe("analyzeFile", () => {
  let dir: string;
  let plain: string;
  let gzip: string;
  let size: number;
  let records: unknown[];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "footfall-analyzeFile-"));
    const world = createWorld({ seed: 31, shops: 1, days: 1, visitorsPerDay: 150, passersByPerDay: 800, openingHours: [10, 16] });
    const lines = [...world.rawSignals(world.shops[0]!.id)].map((r) => JSON.stringify(r));
    // Rejections spread over the file (over every range), so their line numbers cross ranges.
    for (let at = 11; at < lines.length; at += 9973) lines.splice(at, 0, at % 2 === 0 ? "{not json" : JSON.stringify({ row_key: "garbage" }));
    const text = `${lines.join("\n")}\n`;
    size = Buffer.byteLength(text);
    records = lines.flatMap((line) => {
      try {
        return [parseSignalLine(line)];
      } catch {
        return [];
      }
    });
    plain = join(dir, "day.ndjson");
    gzip = join(dir, "day.ndjson.gz");
    await writeFile(plain, text);
    await writeFile(gzip, gzipSync(text));
  });

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("gives the same result plain and gzip, on 1 and 2 threads, and what analyze gives", async () => {
    expect(size).toBeGreaterThan(2 * RANGE_BYTES);
    const options = { timeZone: "Asia/Seoul" };
    const runs = [
      { path: plain, threads: 1 },
      { path: plain, threads: 2 },
      { path: gzip, threads: 1 },
      // Cut into pieces as it is decompressed.
      { path: gzip, threads: 2 },
    ];
    const results = [];
    for (const run of runs) {
      const rejected: string[] = [];
      const result = await analyzeFile(run.path, { ...options, threads: run.threads, onInvalidLine: (x, line) => rejected.push(`${line} ${x.reason}`) });
      results.push({ result, rejected });
    }
    const [first, ...rest] = results;
    expect(first!.result.sessions.length).toBeGreaterThan(0);
    expect(first!.result.decoder.invalid).toBeGreaterThan(2);
    expect(first!.rejected).toHaveLength(first!.result.decoder.invalid);
    expect(first!.rejected[0]).toMatch(/^12 /);
    for (const other of rest) {
      expect(other.rejected).toEqual(first!.rejected);
      expect(other.result).toEqual(first!.result);
    }
    // The records analyze is given (the "not JSON" lines are rejected by the reader, not analyze).
    const direct = await analyze(records, options);
    expect(first!.result.sessions).toEqual(direct.sessions);
    expect(first!.result.days).toEqual(direct.days);
  });

  it("reports rejections to decode.onInvalid as well, on any number of threads", async () => {
    for (const threads of [1, 2]) {
      const seen: string[] = [];
      const result = await analyzeFile(plain, { threads, decode: { onInvalid: (x) => seen.push(x.reason) } });
      expect(seen).toHaveLength(result.decoder.invalid);
    }
  });

  it("rejects with the signal's reason when aborted, and bad threads with a RangeError", async () => {
    const controller = new AbortController();
    controller.abort(new Error("stop"));
    await expect(analyzeFile(plain, { signal: controller.signal })).rejects.toThrow("stop");
    const late = new AbortController();
    const reading = analyzeFile(plain, { threads: 2, signal: late.signal });
    setTimeout(() => late.abort(new Error("later")), 5);
    await expect(reading).rejects.toThrow("later");
    await expect(analyzeFile(plain, { threads: 0 })).rejects.toThrow(RangeError);
    await expect(analyzeFile(join(dir, "missing.ndjson"))).rejects.toThrow(/ENOENT/);
  });
});
