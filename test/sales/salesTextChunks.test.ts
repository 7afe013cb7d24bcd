import { describe, expect, it } from "vitest";
import { salesTextChunks } from "../../src/sales/salesTextChunks.ts";
import { readSales } from "../../src/sales/readSalesRows.ts";

async function textOf(chunks: Iterable<string | Uint8Array>): Promise<string> {
  let out = "";
  for await (const t of salesTextChunks(chunks, "chunks")) out += t;
  return out;
}

/** "한빛" in CP949 (EUC-KR), as Korean Excel saves a "CSV". */
const HANBIT_CP949 = Buffer.from([0xc7, 0xd1, 0xba, 0xfb]);

describe("salesTextChunks", () => {
  const csv = "brand,external_key,date,amount,quantity\n한빛,HB-01,2026-11-16,\"1,250,000\",3\n";

  it("reads UTF-8 with or without a BOM, and a character split across chunks", async () => {
    const bytes = Buffer.from(csv, "utf8");
    expect(await textOf([bytes])).toBe(csv);
    expect(await textOf([Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), bytes])])).toBe(csv);
    const at = bytes.indexOf(0xed) + 1; // inside 한's three bytes
    expect(await textOf([bytes.subarray(0, at), bytes.subarray(at)])).toBe(csv);
  });

  it("reads a file that is not UTF-8 as CP949 (Korean Excel's CSV), and UTF-16 by its byte order mark (Excel's Unicode Text)", async () => {
    const [before, after] = csv.split("한빛") as [string, string];
    const cp949 = Buffer.concat([Buffer.from(before, "latin1"), HANBIT_CP949, Buffer.from(after, "latin1")]);
    expect(await textOf([cp949])).toBe(csv);
    // Cut anywhere, the same text.
    for (const at of [1, before.length + 1, before.length + 3, cp949.length - 1]) expect(await textOf([cp949.subarray(0, at), cp949.subarray(at)])).toBe(csv);
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(csv.replaceAll(",", "\t"), "utf16le")]);
    expect(await textOf([utf16])).toBe(csv.replaceAll(",", "\t"));
  });

  it("reads a UTF-8 file with one bad byte as UTF-8 (one replacement character), not as CP949", async () => {
    const bytes = Buffer.concat([Buffer.from("brand,x\n한빛,", "utf8"), Buffer.from([0xff]), Buffer.from(",상사\n", "utf8")]);
    expect(await textOf([bytes])).toBe("brand,x\n한빛,\ufffd,상사\n");
  });

  it("decides at the first byte that is not ASCII, however far into the file (ASCII reads alike)", async () => {
    const ascii = "external_key,date,amount,quantity,brand\n" + "HB-01,2026-11-16,1000,1,Hanbit\n".repeat(5_000);
    const file = Buffer.concat([Buffer.from(ascii, "latin1"), Buffer.from("HB-01,2026-11-16,1000,1,", "latin1"), HANBIT_CP949, Buffer.from("\n", "latin1")]);
    expect(file.length).toBeGreaterThan(100_000);
    const chunks: Buffer[] = [];
    for (let i = 0; i < file.length; i += 4096) chunks.push(file.subarray(i, i + 4096));
    expect(await textOf(chunks)).toBe(`${ascii}HB-01,2026-11-16,1000,1,한빛\n`);
  });

  it("passes text through, and reads a CP949 tab file end to end into rows", async () => {
    expect(await textOf(["a,b\n", "c"])).toBe("a,b\nc");
    const tsv = Buffer.concat([Buffer.from("brand\texternal_key\tdate\tamount\tquantity\n", "latin1"), HANBIT_CP949, Buffer.from("\tHB-01\t2026-11-16\t1000\t1\n", "latin1")]);
    const rows = await readSales([tsv], { name: "kr.csv" });
    expect(rows).toEqual([expect.objectContaining({ brand: "한빛", external_key: "HB-01", amount: "1000", line: 2 })]);
  });
});
