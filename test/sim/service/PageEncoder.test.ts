import { describe, expect, it } from "vitest";
import { PageEncoder } from "../../../src/sim/service/PageEncoder.ts";
import { smallWorld, smallWorldOptions } from "../world/fixtures.ts";
import { createWorld } from "../../../src/sim/createWorld.ts";
import { BROKEN_KINDS, breakRecord, brokenKind } from "../../../src/sim/service/brokenRecord.ts";
import { rtsOfMillis } from "../../../src/sim/service/serviceRts.ts";
import { decodeSignal, isInvalidRecord } from "../../../src/codec/decodeSignal.ts";

const decoder = new TextDecoder();

describe("PageEncoder", () => {
  const world = smallWorld();
  const table = world.signalTable(101)!;
  const all = [...world.rawSignals(101)];

  it("writes exactly JSON.stringify of the records, across chunk boundaries and at the ends", () => {
    const pages = new PageEncoder({ unit: "ms" });
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
    const pages = new PageEncoder({ unit: "ms" });
    for (const [from, end] of [[0, 200], [t.count - 150, t.count]] as const) {
      expect(decoder.decode(pages.page(t, from, end, "s"))).toBe(JSON.stringify({ signals: records.slice(from, end), since: "s" }));
    }
  });

  it("serves the same bytes from a cache too small to hold anything but the chunk in use", () => {
    const big = new PageEncoder({ unit: "ms" });
    const tiny = new PageEncoder({ unit: "ms", maxCacheBytes: 1 });
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
    const parsed = JSON.parse(decoder.decode(new PageEncoder({ unit }).page(table, 100, 150, "s"))).signals;
    expect(parsed).toEqual(all.slice(100, 150).map((s) => ({ ...s, ts: scale(s.ts) })));
  });

  it("writes nanoseconds as exact digits (beyond 2^53)", () => {
    const text = decoder.decode(new PageEncoder({ unit: "ns" }).page(table, 0, 1, "s"));
    expect(text).toContain(`"ts":${all[0]!.ts}000000,`);
  });
});

describe("PageEncoder: quoted ts and broken records", () => {
  const world = smallWorld();
  const table = world.signalTable(101)!;
  const all = [...world.rawSignals(101)];
  const records = (text: string): string[] => {
    // The page's records as their own JSON texts (records hold no brackets or braces inside strings).
    const body = text.slice('{"signals":['.length, text.lastIndexOf("]"));
    return body === "" ? [] : body.split(/(?<=\}),(?=\{)/);
  };

  it.each(["ms", "ns"] as const)("quotes ts (unit %s): the digits of the unquoted page, as a string", (unit) => {
    const plain = records(decoder.decode(new PageEncoder({ unit }).page(table, 300, 500, "s")));
    const quoted = records(decoder.decode(new PageEncoder({ unit, quoteTs: true }).page(table, 300, 500, "s")));
    expect(quoted).toEqual(plain.map((r) => r.replace(/"ts":(\d+)/, '"ts":"$1"')));
  });

  it.each([
    ["ms", false],
    ["us", true],
    ["ns", false],
  ] as const)("breaks the records brokenKind picks, as breakRecord says, the same on every request (unit %s, quoted %s)", (unit, quoteTs) => {
    const rate = 0.05;
    const form = { unit, quoteTs, malformedRate: rate, seed: 9 };
    const plain = records(decoder.decode(new PageEncoder({ unit, quoteTs }).page(table, 0, 2000, "s")));
    const broken = records(decoder.decode(new PageEncoder(form).page(table, 0, 2000, "s")));
    const kinds = plain.map((_, i) => brokenKind(9, 101, i, rate));
    expect(broken).toEqual(plain.map((r, i) => (kinds[i]! < 0 ? r : breakRecord(r, kinds[i]!))));
    // About the share asked for, and every kind among them.
    const n = kinds.filter((k) => k >= 0).length;
    expect(n).toBeGreaterThan(2000 * rate * 0.6);
    expect(n).toBeLessThan(2000 * rate * 1.4);
    expect(new Set(kinds.filter((k) => k >= 0)).size).toBe(BROKEN_KINDS.length);
    // Asked again, from an encoder with a one-chunk cache and across chunk boundaries: the same bytes.
    const again = new PageEncoder({ ...form, maxCacheBytes: 1 });
    expect(records(decoder.decode(again.page(table, 700, 1100, "s")))).toEqual(broken.slice(700, 1100));
  });

  it("every broken kind is rejected by the decoder for the reason BROKEN_KINDS gives", () => {
    const json = JSON.stringify(all[0]);
    for (const [kind, { reason }] of BROKEN_KINDS.entries()) {
      for (const text of [json, json.replace(/"ts":(\d+)/, '"ts":"$1"')]) {
        const result = decodeSignal(JSON.parse(breakRecord(text, kind)), { shopId: 101 });
        expect(isInvalidRecord(result) ? result.reason : "decoded").toBe(reason);
      }
    }
  });
});

describe("PageEncoder: an RTS in another unit", () => {
  const world = smallWorld();
  const table = world.signalTable(101)!;
  const all = [...world.rawSignals(101)];

  it.each(["s", "us", "ns"] as const)("writes each row_key's RTS in %s (the rest of the record as in ms)", (rtsUnit) => {
    const text = decoder.decode(new PageEncoder({ unit: "ms", rtsUnit }).page(table, 500, 800, "s"));
    expect(JSON.parse(text).signals).toEqual(all.slice(500, 800).map((r) => ({ ...r, row_key: `101:${rtsOfMillis(r.ts, rtsUnit)}` })));
  });
});
