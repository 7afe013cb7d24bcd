import { describe, expect, test } from "vitest";
import type { DailySales } from "../../src/sales/DailyAggregator.ts";
import { uploadSales } from "../../src/sales/uploadSales.ts";
import { fakeClient } from "./fakeClient.ts";

const text = [
  "brand,external_key,date,amount,quantity",
  "Cafe Mori,GN-001,2026-11-20,5000,1",
  "Cafe Mori,GN-001,2026-11-31,5000,1",
  "Cafe Mori,GN-002,2026-11-20,abc,1",
].join("\n");

describe("uploadSales", () => {
  test("onValidated sees every bad row before the first request, so a dead service cannot hide them", async () => {
    const client = fakeClient([{ id: 1, name: "Cafe Mori" }], {});
    const events: string[] = [];
    let validated: DailySales | undefined;
    client.listBrands = async () => {
      events.push("request");
      throw new Error("connect ECONNREFUSED");
    };
    const run = uploadSales(client, { text, name: "pos.csv" }, {
      onValidated: (sales) => {
        events.push("validated");
        validated = sales;
      },
    });
    await expect(run).rejects.toThrow("ECONNREFUSED");
    expect(events).toEqual(["validated", "request"]);
    expect(validated?.rejectedRows.map((r) => [r.source, r.line])).toEqual([["pos.csv", 3], ["pos.csv", 4]]);
    expect(validated?.days.map((d) => d.externalKey)).toEqual(["GN-001"]);
  });

  test("rejects an onValidated that is not a function before reading anything", async () => {
    const client = fakeClient([], {});
    await expect(uploadSales(client, { text }, { onValidated: 1 as unknown as () => void })).rejects.toThrow(TypeError);
    expect(client.calls.listBrands).toBe(0);
  });
});
