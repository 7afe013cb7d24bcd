/**
 * readSignalFile reads a regular file straight into the line reader's memory, a megabyte at a
 * time: it must give what pushing the whole file at once gives — lines across its reads, a CRLF
 * split between two, rejections and their line numbers — and stop when aborted.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SignalDecoder } from "../../src/codec/decodeSignal.ts";
import type { Signal } from "../../src/codec/Signal.ts";
import { readSignalFile } from "../../src/file/readSignalFile.ts";
import { SignalLineReader } from "../../src/file/SignalLineReader.ts";
import { createWorld } from "../../src/sim/createWorld.ts";

const MIB = 1 << 20;

describe("readSignalFile", () => {
  let dir: string;
  let file: string;
  let bytes: Buffer;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "footfall-readSignalFile-"));
    const world = createWorld({ seed: 5, shops: 1, days: 1 });
    const lines = [...world.rawSignals(world.shops[0]!.id)].map((r) => JSON.stringify(r));
    for (let at = 5; at < lines.length; at += 3001) lines.splice(at, 0, "{not json");
    let text = lines.join("\r\n");
    // A CRLF whose CR ends the first read and whose LF starts the second.
    const cr = text.indexOf("\r\n", MIB - 200);
    text = text.slice(0, cr) + " ".repeat(MIB - 1 - cr) + text.slice(cr);
    bytes = Buffer.from(text);
    expect(bytes[MIB - 1]).toBe(13);
    expect(bytes.length).toBeGreaterThan(3 * MIB);
    file = join(dir, "day.ndjson");
    await writeFile(file, bytes);
  });

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  function reader(): { lines: SignalLineReader; signals: Signal[]; invalid: string[] } {
    const signals: Signal[] = [];
    const invalid: string[] = [];
    let lines: SignalLineReader | undefined;
    const decoder = new SignalDecoder({ onInvalid: (x) => invalid.push(`${lines!.line} ${x.reason}`) });
    lines = new SignalLineReader(decoder, (s) => signals.push(s));
    return { lines, signals, invalid };
  }

  it("gives what pushing the whole file at once gives", async () => {
    const whole = reader();
    whole.lines.push(bytes);
    whole.lines.end();
    const read = reader();
    expect(await readSignalFile(file, read.lines)).toBe(true);
    expect(read.signals.length).toBeGreaterThan(10_000);
    expect(read.invalid.length).toBeGreaterThan(3);
    expect(read.signals).toEqual(whole.signals);
    expect(read.invalid).toEqual(whole.invalid);
    expect(read.lines.line).toBe(whole.lines.line);
  });

  it("stops when aborted, without ending the reader", async () => {
    const controller = new AbortController();
    const read = reader();
    let first = true;
    const lines = read.lines;
    const commit = lines.commit.bind(lines);
    lines.commit = (written: number): void => {
      commit(written);
      if (first) controller.abort();
      first = false;
    };
    expect(await readSignalFile(file, lines, controller.signal)).toBe(false);
    // One read of a megabyte: some of the file's lines, not all.
    expect(read.signals.length).toBeGreaterThan(0);
    expect(lines.line).toBeLessThan(bytes.toString("latin1").split("\r\n").length / 2);
  });
});
