/**
 * readSignalInput is the one choice of how a file is read: threads for a regular uncompressed
 * file, this thread otherwise, and why when threads were asked for and cannot be used. The same
 * records reach the analyzer whichever way it reads.
 */
import { execFileSync } from "node:child_process";
import { createReadStream } from "node:fs";
import { mkdtemp, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Analyzer } from "../../src/analysis/analyze.ts";
import { readSignalInput, type OneThreadReason, type ReadSignalInputOptions, type SignalInput } from "../../src/file/readSignalInput.ts";
import { createWorld } from "../../src/sim/createWorld.ts";

describe("readSignalInput", () => {
  let dir: string;
  let plain: string;
  let gzip: string;
  let fifo: string;
  let text: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "footfall-readSignalInput-"));
    const world = createWorld({ seed: 9, shops: 1, days: 1 });
    // The day's first 40 000 records: enough for two threads to share.
    const lines: string[] = [];
    for (const r of world.rawSignals(world.shops[0]!.id)) if (lines.push(JSON.stringify(r)) === 40_000) break;
    text = lines.join("\n");
    plain = join(dir, "day.ndjson");
    gzip = join(dir, "day.ndjson.gz");
    fifo = join(dir, "day.fifo");
    await writeFile(plain, text);
    await writeFile(gzip, gzipSync(text));
    execFileSync("mkfifo", [fifo]);
  });

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  /** One read of `path`: the analyzer's days, and what the read said about itself. */
  async function read(path: string | SignalInput, options: Partial<ReadSignalInputOptions> = {}) {
    const analyzer = new Analyzer({ timeZone: "Asia/Seoul" });
    const why: OneThreadReason[] = [];
    let onThisThread = false;
    const input = typeof path === "string" ? { path, info: await stat(path) } : path;
    const decoded = await readSignalInput(input, analyzer, {
      decode: {},
      signal: new AbortController().signal,
      onInvalidLine: () => {},
      onReader: () => void (onThisThread = true),
      onOneThread: (reason) => void why.push(reason),
      ...options,
    });
    return { days: analyzer.finish(decoded).days, decoded, why, onThisThread };
  }

  it("reads a regular uncompressed file on the threads asked for, or on this one, to the same days", async () => {
    const one = await read(plain, { threads: 1 });
    expect(one.onThisThread).toBe(true);
    expect(one.decoded).toBeUndefined();
    expect(one.days.length).toBeGreaterThan(0);
    const two = await read(plain, { threads: 2 });
    expect(two.onThisThread).toBe(false);
    expect(two.decoded?.decoded).toBe(text.split("\n").length);
    expect(two.why).toEqual([]);
    expect(two.days).toEqual(one.days);
  });

  it("splits a gzip file, a named pipe or a stream among the threads asked for as well, to the same days", async () => {
    const one = await read(plain, { threads: 1 });
    const gz = await read(gzip, { threads: 2 });
    expect([gz.why, gz.onThisThread, gz.days]).toEqual([[], false, one.days]);
    expect(gz.decoded?.decoded).toBe(text.split("\n").length);
    // A named pipe: its writer starts once the read has opened it.
    const reading = read(fifo, { threads: 2 });
    createReadStream(plain).pipe((await import("node:fs")).createWriteStream(fifo));
    const piped = await reading;
    expect([piped.why, piped.onThisThread, piped.days]).toEqual([[], false, one.days]);
    // A stream handed over (standard input), gzip-compressed; on one thread unless asked.
    const stream = await read({ stream: createReadStream(gzip) }, { threads: 2 });
    expect([stream.why, stream.onThisThread, stream.days]).toEqual([[], false, one.days]);
    const defaulted = await read({ stream: createReadStream(gzip) });
    expect([defaulted.onThisThread, defaulted.days]).toEqual([true, one.days]);
  });

  it("says why, and reads on this thread, decoder options that cannot cross to a thread", async () => {
    const one = await read(plain, { threads: 1 });
    const codec = await read(plain, { threads: 2, decode: undefined });
    expect([codec.why, codec.onThisThread, codec.days]).toEqual([["codec"], true, one.days]);
  });

  it("refuses when onOneThread throws, before reading anything", async () => {
    const refusal = new Error("threads or nothing");
    const analyzer = new Analyzer({ timeZone: "Asia/Seoul" });
    const options: ReadSignalInputOptions = {
      threads: 2,
      decode: {},
      signal: new AbortController().signal,
      onInvalidLine: () => {},
      onOneThread: () => {
        throw refusal;
      },
    };
    await expect(readSignalInput({ path: plain, info: await stat(plain) }, analyzer, { ...options, decode: undefined })).rejects.toBe(refusal);
    expect(analyzer.finish().days).toEqual([]);
  });
});
