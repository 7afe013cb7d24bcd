import { describe, expect, test } from "vitest";
import { readCsvRows } from "../../src/sales/readCsvRows.ts";
import { isSalesInputError } from "../../src/errors/SalesInputError.ts";
import type { SalesInputRow } from "../../src/sales/SalesInputRow.ts";

async function* chunksOf(text: string, size: number): AsyncGenerator<string> {
  for (let i = 0; i < text.length; i += size) yield text.slice(i, i + size);
}

async function read(text: string, options: { brand?: string; size?: number } = {}): Promise<SalesInputRow[]> {
  const rows: SalesInputRow[] = [];
  const { size = 7, ...rest } = options;
  for await (const row of readCsvRows(chunksOf(text, size), { source: "t.csv", ...rest })) rows.push(row);
  return rows;
}

async function failure(text: string, options: { brand?: string } = {}): Promise<unknown> {
  try {
    await read(text, options);
  } catch (error) {
    return error;
  }
  throw new Error("expected a SalesInputError");
}

describe("readCsvRows", () => {
  test("BOM, quoted fields with commas, quotes and line breaks, CRLF; lines are where rows start", async () => {
    const text =
      "\uFEFFBrand,External_Key,note,timestamp,amount,quantity\r\n" +
      'Cafe Mori,GN-001,"a, b",2026-11-20T00:30:00+09:00,12000,2\r\n' +
      '"Cafe, Mori","GN-""7""","line one\r\nline two\nline three",2026-11-20T10:00:00+09:00,"3,000",1\r\n' +
      "\r\n" +
      "Cafe Mori,GN-002,,2026-11-20T11:00:00+09:00,5000,1";
    const rows = await read(text);
    expect(rows.map((r) => r.line)).toEqual([2, 3, 7]);
    expect(rows[0]).toMatchObject({ brand: "Cafe Mori", external_key: "GN-001", amount: "12000", quantity: "2", source: "t.csv" });
    expect(rows[1]).toMatchObject({ brand: "Cafe, Mori", external_key: 'GN-"7"', amount: "3,000" });
    expect(rows[2]).toMatchObject({ external_key: "GN-002", timestamp: "2026-11-20T11:00:00+09:00" });
    // the unknown "note" column is not carried
    expect(Object.values(rows[1]!)).not.toContain("line one\r\nline two\nline three");
  });

  test("a semicolon, tab or pipe file (as spreadsheets export where the decimal mark is a comma) reads like a comma one", async () => {
    const comma = await read('external_key,date,amount,quantity,note\nGN-001,2026-11-20,12000,2,"a; b"\nGN-002,2026-11-20,5000,1,x', { brand: "X" });
    for (const d of [";", "\t", "|"]) {
      const text = `\uFEFF"external_key"${d}date${d}amount${d}quantity${d}note\r\nGN-001${d}2026-11-20${d}12000${d}2${d}"a; b"\r\nGN-002${d}2026-11-20${d}5000${d}1${d}x`;
      for (const size of [1, 3, 1000]) expect(await read(text, { brand: "X", size })).toEqual(comma);
    }
    // A comma file whose text has semicolons stays a comma file.
    const notes = await read("external_key,date,amount,quantity,note\nGN-001,2026-11-20,12000,2,a;b;c\n", { brand: "X" });
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatchObject({ external_key: "GN-001", amount: "12000" });
  });

  test("the same rows whatever the chunking", async () => {
    const text = 'external_key,date,amount,quantity\nA,2026-11-20,"1\n0",1\n\nB,2026-11-21,20,2\n';
    const expected = await read(text, { brand: "X", size: 1000 });
    for (const size of [1, 2, 3, 5, 11]) expect(await read(text, { brand: "X", size })).toEqual(expected);
    expect(expected.map((r) => r.line)).toEqual([2, 5]);
  });

  test("a row with the wrong number of fields is reported, the others go on", async () => {
    const rows = await read("external_key,date,amount,quantity\nA,2026-11-20,10\nB,2026-11-20,20,2\n", { brand: "X" });
    expect(rows[0]).toEqual({ line: 2, source: "t.csv", invalid: "row has 3 fields, the header has 4" });
    expect(rows[1]).toMatchObject({ line: 3, external_key: "B" });
  });

  test("a missing required column names the column", async () => {
    for (const [header, column] of [
      ["brand,external_key,date,amount", "quantity"],
      ["brand,date,amount,quantity", "external_key"],
      ["brand,external_key,date,quantity", "amount"],
      ["brand,external_key,amount,quantity", "date"],
      ["external_key,date,amount,quantity", "brand"],
    ] as const) {
      const error = await failure(`${header}\nx,y,z,w\n`);
      expect(isSalesInputError(error), header).toBe(true);
      expect(error).toMatchObject({ column, line: 1, source: "t.csv" });
      expect(String((error as Error).message)).toContain(`"${column}"`);
    }
    // with a default brand the brand column may be left out
    expect(await read("external_key,date,amount,quantity\nA,2026-11-20,1,1\n", { brand: "X" })).toHaveLength(1);
  });

  test("an empty file, a duplicated column and broken quoting are whole-file errors", async () => {
    expect(await failure("")).toMatchObject({ name: "SalesInputError", reason: "empty file: no header row" });
    expect(await failure("brand,external_key,date,amount,quantity,Amount\n")).toMatchObject({ column: "amount" });
    const broken = await failure('brand,external_key,date,amount,quantity\nX,A,2026-11-20,"10,1\nX,B,2026-11-20,5,1\n');
    expect(broken).toMatchObject({ name: "SalesInputError" });
    expect((broken as Error).message).toMatch(/not valid CSV/);
  });
});
