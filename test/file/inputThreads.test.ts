import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { THREADS_MIN_RECORDS, defaultInputThreads } from "../../src/file/inputThreads.ts";

// Three cores, whatever this machine has: a gzip file leaves zlib one (two threads, not three).
vi.mock("node:os", async (importOriginal) => ({ ...(await importOriginal<typeof import("node:os")>()), availableParallelism: () => 3 }));

const dir = mkdtempSync(join(tmpdir(), "footfall-input-threads-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A file of `n` lines of `length` bytes each (newline included). */
function file(name: string, n: number, length: number): string {
  const path = join(dir, name);
  writeFileSync(path, `${"x".repeat(length - 1)}\n`.repeat(n));
  return path;
}

const many = Math.max(1, Math.min(availableParallelism(), 3));

describe("defaultInputThreads", () => {
  it("counts a file's records from its size and its first lines: short raw lines reach the threshold in fewer bytes than long ones", async () => {
    // 100 MB of 144-byte lines (raw service records) is ~690 k records; of 300-byte lines, ~330 k.
    const raw = file("raw.ndjson", 1_000, 144);
    const long = file("long.ndjson", 1_000, 300);
    expect(await defaultInputThreads(raw, 100e6)).toBe(many);
    expect(await defaultInputThreads(long, 100e6)).toBe(1);
    expect(await defaultInputThreads(long, THREADS_MIN_RECORDS * 300)).toBe(many);
    expect(await defaultInputThreads(raw, THREADS_MIN_RECORDS * 144 - 144 * 1_000)).toBe(1);
  });

  it("counts a gzip file's records from its first 64 KiB decompressed, and leaves zlib a core", async () => {
    // 1 000 lines of 144 bytes compress ~100-fold: the sample is the whole file, cut nowhere.
    const raw = join(dir, "raw.ndjson.gz");
    writeFileSync(raw, gzipSync(readFileSync(file("raw-for-gzip.ndjson", 1_000, 144))));
    const big = Math.max(1, Math.min(availableParallelism() - 1, 3));
    expect([many, big]).toEqual([3, 2]);
    const ratio = (1_000 * 144) / readFileSync(raw).length;
    expect(await defaultInputThreads(raw, (THREADS_MIN_RECORDS * 144) / ratio + 1_000, true)).toBe(big);
    expect(await defaultInputThreads(raw, (THREADS_MIN_RECORDS * 144) / ratio - 1_000, true)).toBe(1);
  });

  it("reads a small file, or one long line (a JSON array), on one thread", async () => {
    expect(await defaultInputThreads(file("small.ndjson", 10, 144), 1_440)).toBe(1);
    const array = join(dir, "array.json");
    writeFileSync(array, `[${"{},".repeat(30_000)}{}]`);
    expect(await defaultInputThreads(array, 500e6)).toBe(1);
  });
});
