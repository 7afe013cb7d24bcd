import { describe, expect, test } from "vitest";
import { readNdjsonRows } from "../../src/sales/readNdjsonRows.ts";
import type { SalesInputRow } from "../../src/sales/SalesInputRow.ts";

async function read(chunks: string[]): Promise<SalesInputRow[]> {
  async function* gen() {
    yield* chunks;
  }
  const rows: SalesInputRow[] = [];
  for await (const row of readNdjsonRows(gen(), { source: "t.ndjson" })) rows.push(row);
  return rows;
}

describe("readNdjsonRows", () => {
  test("one object per line, lines counted across chunks, BOM and CRLF accepted", async () => {
    const text = '\uFEFF{"external_key":"A","date":"2026-11-20","amount":10,"quantity":1,"extra":true}\r\n\n{"external_key":"B","timestamp":"2026-11-20T10:00:00Z","amount":"5.5","quantity":2,"currency":"USD"}';
    const whole = await read([text]);
    expect(whole).toEqual([
      { brand: undefined, external_key: "A", amount: 10, quantity: 1, currency: undefined, date: "2026-11-20", timestamp: undefined, line: 1, source: "t.ndjson" },
      { brand: undefined, external_key: "B", amount: "5.5", quantity: 2, currency: "USD", date: undefined, timestamp: "2026-11-20T10:00:00Z", line: 3, source: "t.ndjson" },
    ]);
    expect(await read(text.match(/[\s\S]{1,4}/g)!)).toEqual(whole);
  });

  test("bad lines are reported with their line and the rest goes on", async () => {
    const rows = await read(['{"external_key":"A"}\n', "not json\n", "[1,2]\n", "42\n", '{"external_key":"B"}\n']);
    expect(rows.map((r) => [r.line, r.invalid === undefined ? "ok" : r.invalid.slice(0, 20)])).toEqual([
      [1, "ok"],
      [2, "not valid JSON: Unex"],
      [3, "line is not a JSON o"],
      [4, "line is not a JSON o"],
      [5, "ok"],
    ]);
  });

  test("a lone CR ends a line too, as in footfall analyze, also split across chunks", async () => {
    const text = '{"external_key":"A"}\r{"external_key":"B"}\r\r\n{"external_key":"C"}\r';
    const rows = await read([text]);
    expect(rows.map((r) => [r.line, r.external_key, r.invalid])).toEqual([
      [1, "A", undefined],
      [2, "B", undefined],
      [4, "C", undefined],
    ]);
    expect(await read(text.match(/[\s\S]{1,3}/g)!)).toEqual(rows);
  });
});
