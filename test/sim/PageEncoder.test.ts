import { describe, expect, it } from "vitest";
import { PageEncoder } from "../../src/sim/PageEncoder.ts";
import { smallWorld, smallWorldOptions } from "./fixtures.ts";
import { createWorld } from "../../src/sim/createWorld.ts";

const decoder = new TextDecoder();

describe("PageEncoder", () => {
  const world = smallWorld();
  const table = world.signalTable(101)!;
  const all = [...world.rawSignals(101)];

  it("writes exactly JSON.stringify of the records, across chunk boundaries and at the ends", () => {
    const pages = new PageEncoder("ms");
    for (const [from, end] of [[0, 20], [500, 700], [511, 513], [1000, 1200], [table.count - 7, table.count], [40, 40]] as const) {
      const text = decoder.decode(pages.page(table, from, end, "00000000000000aa"));
      expect(text).toBe(JSON.stringify({ signals: all.slice(from, end), since: "00000000000000aa" }));
    }
  });

  it("writes a record's ts apart from its RTS when the sensors upload in batches", () => {
    const batched = createWorld({ ...smallWorldOptions, sensorUploadEveryMs: 120_000 });
    const t = batched.signalTable(101)!;
    const records = [...batched.rawSignals(101)];
    expect(records.some((r) => Number.parseInt(r.row_key.split(":")[1]!, 16) !== r.ts)).toBe(true);
    const pages = new PageEncoder("ms");
    for (const [from, end] of [[0, 200], [t.count - 150, t.count]] as const) {
      expect(decoder.decode(pages.page(t, from, end, "s"))).toBe(JSON.stringify({ signals: records.slice(from, end), since: "s" }));
    }
  });

  it("serves the same bytes from a cache too small to hold anything but the chunk in use", () => {
    const big = new PageEncoder("ms");
    const tiny = new PageEncoder("ms", 1);
    const mismatches: number[] = [];
    for (let from = 0; from + 200 <= table.count && from < 6000; from += 173) {
      if (decoder.decode(tiny.page(table, from, from + 200, "x")) !== decoder.decode(big.page(table, from, from + 200, "x"))) mismatches.push(from);
    }
    expect(mismatches).toEqual([]);
  });

  it.each([
    ["s", (ms: number) => Math.floor(ms / 1000)],
    ["us", (ms: number) => ms * 1000],
  ] as const)("scales ts for unit %s", (unit, scale) => {
    const parsed = JSON.parse(decoder.decode(new PageEncoder(unit).page(table, 100, 150, "s"))).signals;
    expect(parsed).toEqual(all.slice(100, 150).map((s) => ({ ...s, ts: scale(s.ts) })));
  });

  it("writes nanoseconds as exact digits (beyond 2^53)", () => {
    const text = decoder.decode(new PageEncoder("ns").page(table, 0, 1, "s"));
    expect(text).toContain(`"ts":${all[0]!.ts}000000,`);
  });
});
