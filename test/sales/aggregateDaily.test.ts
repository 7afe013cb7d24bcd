import { describe, expect, test } from "vitest";
import fc from "fast-check";
import { aggregateDaily } from "../../src/sales/aggregateDaily.ts";
import { DailyAggregator } from "../../src/sales/DailyAggregator.ts";
import { readDailySales } from "../../src/sales/uploadSales.ts";
import type { SalesInputRow } from "../../src/sales/SalesInputRow.ts";

const tx = (external_key: string, timestamp: string, amount: string | number, quantity: string | number, extra: Partial<SalesInputRow> = {}): SalesInputRow => ({
  external_key, timestamp, amount, quantity, ...extra,
});

describe("aggregateDaily", () => {
  test("transactions add up per shop and KST day, midnight boundary and refunds included", () => {
    const { days, rejectedRows, rejectedDays } = aggregateDaily(
      [
        tx("GN-001", "2026-11-19T14:59:59Z", "1000", "1"), // 23:59:59 KST on the 19th
        tx("GN-001", "2026-11-19T15:00:00Z", "12000", "2"), // 00:00 KST on the 20th
        tx("GN-001", "2026-11-20T00:30:00+09:00", "3000", "1"), // 00:30 KST, previous UTC day
        tx("GN-001", "2026-11-20T13:00:00+09:00", "-2000", "-1"), // refund
        tx("GN-001", "2026-11-20 23:59", "500", "1"), // local wall time
        tx("GN-002", "2026-11-20T10:00:00+09:00", "7000", "3"),
      ],
      { brand: "Cafe Mori" },
    );
    expect(rejectedRows).toEqual([]);
    expect(rejectedDays).toEqual([]);
    expect(days.map((d) => [d.externalKey, d.date, d.amount, d.quantity, d.currency, d.kind])).toEqual([
      ["GN-001", "2026-11-19", 1000, 1, "KRW", "transactions"],
      ["GN-001", "2026-11-20", 12000 + 3000 - 2000 + 500, 2 + 1 - 1 + 1, "KRW", "transactions"],
      ["GN-002", "2026-11-20", 7000, 3, "KRW", "transactions"],
    ]);
    expect(days[1]!.rows.map((r) => r.line)).toEqual([2, 3, 4, 5]);
  });

  test("brand spellings that differ only in case add into one shop-day", () => {
    const { days } = aggregateDaily([
      tx("GN-001", "2026-11-20T10:00:00+09:00", "12000", "2", { brand: "Cafe Mori" }),
      tx("GN-001", "2026-11-20T13:00:00+09:00", "-2000", "-1", { brand: "cafe mori" }),
      tx("GN-001", "2026-11-20T14:00:00+09:00", "500", "1", { brand: "CAFE MORI" }),
    ]);
    expect(days.map((d) => [d.brand, d.brandNames, d.amount, d.quantity])).toEqual([["Cafe Mori", ["Cafe Mori", "cafe mori", "CAFE MORI"], 10500, 2]]);
  });

  test("the timeZone option moves the day boundary; a function gives each shop its zone", () => {
    const rows = [tx("A", "2026-11-19T23:30:00Z", "1", "1"), tx("B", "2026-11-19T23:30:00Z", "1", "1")];
    expect(aggregateDaily(rows, { brand: "X", timeZone: "UTC" }).days.map((d) => d.date)).toEqual(["2026-11-19", "2026-11-19"]);
    const perShop = aggregateDaily(rows, { brand: "X", timeZone: (_b, key) => (key === "A" ? "America/New_York" : "Asia/Tokyo") });
    expect(perShop.days.map((d) => [d.externalKey, d.date])).toEqual([["A", "2026-11-19"], ["B", "2026-11-20"]]);
    // `tz`, the option's former name, still works; both at once is a mistake.
    expect(aggregateDaily(rows, { brand: "X", tz: "UTC" }).days).toEqual(aggregateDaily(rows, { brand: "X", timeZone: "UTC" }).days);
    expect(() => aggregateDaily([], { tz: "UTC", timeZone: "UTC" })).toThrow(TypeError);
  });

  test("money is exact in minor units; more decimals than the currency has are rejected", () => {
    const rows = Array.from({ length: 10 }, (_, i) => tx("US-1", `2026-11-20T1${i}:00:00Z`, "0.10", "1", { currency: "USD" }));
    rows.push(tx("US-1", "2026-11-20T12:30:00Z", "0.105", "1", { currency: "USD", line: 99 }));
    rows.push(tx("BH-1", "2026-11-20T12:30:00Z", "1.234", "1", { currency: "bhd" }));
    rows.push(tx("KR-1", "2026-11-20T12:30:00Z", "100.5", "1"));
    const { days, rejectedRows } = aggregateDaily(rows, { brand: "X", timeZone: "UTC" });
    expect(days.map((d) => [d.externalKey, d.amount, d.amountMinor, d.currency])).toEqual([
      ["BH-1", 1.234, 1234, "BHD"],
      ["US-1", 1, 100, "USD"],
    ]);
    expect(rejectedRows).toEqual([
      { source: "", line: 99, reason: "amount 0.105 has more decimals than USD allows (2)" },
      { source: "", line: 13, reason: "amount 100.5 has more decimals than KRW allows (0)" },
    ]);
  });

  test("every bad value is reported with its line; valid rows still count", () => {
    const rows: SalesInputRow[] = [
      { external_key: "A", date: "2026-11-20", amount: "100", quantity: "1", line: 2 },
      { external_key: "A", date: "2026-02-30", amount: "100", quantity: "1", line: 3 },
      { external_key: "A", date: "2026-11-21", amount: "abc", quantity: "1", line: 4 },
      { external_key: "A", date: "2026-11-22", amount: "100", quantity: "1.5", line: 5 },
      { external_key: "A", date: "2026-11-23", amount: "100", quantity: "1", currency: "XYZ", line: 6 },
      { date: "2026-11-24", amount: "100", quantity: "1", line: 7 },
      { external_key: "A", amount: "100", quantity: "1", line: 8 },
      { external_key: "A", date: "2026-11-25", timestamp: "2026-11-25T10:00:00Z", amount: "1", quantity: "1", line: 9 },
      { external_key: "A", timestamp: "soon", amount: "1", quantity: "1", line: 10 },
      { external_key: "A", date: "2026-11-26", amount: "1", quantity: "x", line: 11, brand: "" },
      { line: 12, invalid: "row has 3 fields, the header has 4" },
      { external_key: "B", date: "2026-11-20", amount: "-5", quantity: "1", line: 13 },
    ];
    const { days, rejectedRows, rejectedDays } = aggregateDaily(rows, { brand: "X" });
    expect(days.map((d) => [d.externalKey, d.date, d.amount])).toEqual([["A", "2026-11-20", 100]]);
    expect(rejectedRows.map((r) => [r.line, r.reason])).toEqual([
      [3, 'date "2026-02-30" is not a real calendar date (YYYY-MM-DD)'],
      [4, 'amount "abc" is not a number'],
      [5, 'quantity "1.5" is not an integer'],
      [6, 'unknown currency "XYZ" (expected an ISO 4217 code such as KRW)'],
      [7, "external_key is missing"],
      [8, "date (daily total) or timestamp (transaction) is missing"],
      [9, "has both date and timestamp: a row is either a daily total or a transaction"],
      [10, 'timestamp "soon" is not a valid ISO 8601 date-time (YYYY-MM-DDThh:mm[:ss][±hh:mm or Z])'],
      [11, 'quantity "x" is not a number'],
      [12, "row has 3 fields, the header has 4"],
    ]);
    expect(rejectedDays).toEqual([
      { brand: "X", externalKey: "B", date: "2026-11-20", reason: "daily total amount is negative (-5 KRW)", rows: [{ source: "", line: 13 }] },
    ]);
  });

  test("a day whose rows were partly rejected still counts its valid rows and lists the missing ones", () => {
    const { days, rejectedRows } = aggregateDaily(
      [
        tx("A", "2026-11-20T10:00:00+09:00", "1000", "1", { line: 2 }),
        tx("A", "2026-11-20T11:00:00+09:00", "12k", "1", { line: 3 }),
        tx("A", "2026-11-21T11:00:00+09:00", "500", "1", { line: 4 }),
      ],
      { brand: "X" },
    );
    expect(rejectedRows.map((r) => r.line)).toEqual([3]);
    expect(days.map((d) => [d.date, d.amount, d.missingRows?.map((r) => r.line)])).toEqual([
      ["2026-11-20", 1000, [3]],
      ["2026-11-21", 500, undefined],
    ]);
  });

  test("a row without brand and no brand option is rejected with a hint", () => {
    const { rejectedRows } = aggregateDaily([{ external_key: "A", date: "2026-11-20", amount: "1", quantity: "1" }]);
    expect(rejectedRows[0]!.reason).toMatch(/no brand: add a brand column or give the brand option/);
  });

  test("negative daily totals, mixed currencies and mixed kinds reject the whole shop-day", () => {
    const { days, rejectedDays } = aggregateDaily(
      [
        tx("A", "2026-11-20T10:00:00+09:00", "1000", "1"),
        tx("A", "2026-11-20T11:00:00+09:00", "-3000", "-1"), // refund larger than the day's sales
        tx("B", "2026-11-20T10:00:00+09:00", "1000", "1"),
        tx("B", "2026-11-20T11:00:00+09:00", "1000", "-2"), // more returns than sales
        tx("C", "2026-11-20T10:00:00+09:00", "1000", "1"),
        tx("C", "2026-11-20T11:00:00+09:00", "10", "1", { currency: "USD" }),
        tx("D", "2026-11-20T10:00:00+09:00", "1000", "1"),
        { external_key: "D", date: "2026-11-20", amount: "1000", quantity: "1" },
        tx("E", "2026-11-20T10:00:00+09:00", "1000", "1"),
      ],
      { brand: "X" },
    );
    expect(days.map((d) => d.externalKey)).toEqual(["E"]);
    expect(rejectedDays.map((d) => [d.externalKey, d.reason])).toEqual([
      ["A", "daily total amount is negative (-2000 KRW)"],
      ["B", "daily total quantity is negative (-1)"],
      ["C", "mixed currencies in one shop-day: KRW, USD"],
      ["D", "mixes 1 daily-total row(s) with 1 transaction(s); give one or the other"],
    ]);
  });

  test("two daily-total rows for one shop-day are an error unless sum is set", () => {
    const rows: SalesInputRow[] = [
      { external_key: "A", date: "2026-11-20", amount: "100", quantity: "1" },
      { external_key: "A", date: "2026-11-20", amount: "50", quantity: "2" },
      { external_key: "A", date: "2026-11-21", amount: "70", quantity: "3" },
    ];
    const strict = aggregateDaily(rows, { brand: "X" });
    expect(strict.days.map((d) => d.date)).toEqual(["2026-11-21"]);
    expect(strict.rejectedDays[0]!.reason).toMatch(/2 daily-total rows for the same shop-day would overwrite each other/);
    expect(strict.rejectedDays[0]!.rows.map((r) => r.line)).toEqual([1, 2]);
    const summed = aggregateDaily(rows, { brand: "X", sum: true });
    expect(summed.days.map((d) => [d.date, d.amount, d.quantity, d.kind])).toEqual([["2026-11-20", 150, 3, "daily"], ["2026-11-21", 70, 3, "daily"]]);
  });

  test("bad options fail eagerly", () => {
    expect(() => aggregateDaily([], { currency: "ZZZ" })).toThrow(RangeError);
    expect(() => aggregateDaily([], { timeZone: "Nowhere/City" })).toThrow(RangeError);
    expect(() => aggregateDaily([], { tz: "Nowhere/City" })).toThrow(RangeError);
    expect(() => aggregateDaily([], { brand: " " })).toThrow(TypeError);
  });

  test("streaming with DailyAggregator gives the same as aggregateDaily", () => {
    const rows = [tx("A", "2026-11-20T10:00:00+09:00", "1000", "1"), tx("A", "2026-11-21T10:00:00+09:00", "5", "1")];
    const agg = new DailyAggregator({ brand: "X" });
    for (const row of rows) agg.add(row);
    expect(agg.finish()).toEqual(aggregateDaily(rows, { brand: "X" }));
  });
});

// --- property: any split of the same transactions into files or orders → the same daily totals ---

interface Tx {
  readonly key: string;
  readonly ms: number;
  readonly amount: number;
  readonly quantity: number;
}

const START = Date.parse("2026-11-19T12:00:00Z");
const txArb: fc.Arbitrary<Tx> = fc.record({
  key: fc.constantFrom("GN-001", "GN-002", "HD-7"),
  // three days around KST midnights, to the second
  ms: fc.integer({ min: 0, max: 3 * 86_400 }).map((s) => START + s * 1000),
  amount: fc.integer({ min: -5_000, max: 50_000 }),
  quantity: fc.integer({ min: -2, max: 5 }),
});

function csvOf(txs: readonly Tx[]): string {
  const lines = txs.map((t) => `Cafe Mori,${t.key},${new Date(t.ms).toISOString()},${t.amount},${t.quantity}`);
  return `brand,external_key,timestamp,amount,quantity\n${lines.join("\n")}\n`;
}

function ndjsonOf(txs: readonly Tx[]): string {
  return txs.map((t) => JSON.stringify({ brand: "Cafe Mori", external_key: t.key, timestamp: new Date(t.ms).toISOString().replace("Z", "+00:00"), amount: t.amount, quantity: t.quantity })).join("\n");
}

// Hand computation, independent of the code under test: KST is UTC+9 with no DST.
function expectedTotals(txs: readonly Tx[]): Map<string, { amount: number; quantity: number }> {
  const out = new Map<string, { amount: number; quantity: number }>();
  for (const t of txs) {
    const key = `${t.key} ${new Date(t.ms + 9 * 3_600_000).toISOString().slice(0, 10)}`;
    const cur = out.get(key) ?? { amount: 0, quantity: 0 };
    out.set(key, { amount: cur.amount + t.amount, quantity: cur.quantity + t.quantity });
  }
  return out;
}

function outcome(sales: Awaited<ReturnType<typeof readDailySales>>): Map<string, string> {
  const out = new Map<string, string>();
  for (const d of sales.days) out.set(`${d.externalKey} ${d.date}`, `${d.amount}/${d.quantity}`);
  for (const d of sales.rejectedDays) out.set(`${d.externalKey} ${d.date}`, `rejected: ${d.reason}`);
  return out;
}

test("property: any split into files (CSV or NDJSON) and any order gives the same daily totals", async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(txArb, { minLength: 1, maxLength: 40 }),
      fc.array(fc.nat(), { minLength: 0, maxLength: 4 }),
      fc.infiniteStream(fc.boolean()),
      fc.integer(),
      async (txs, cuts, formats, seed) => {
        // shuffle deterministically by seed, then cut into files
        const shuffled = txs.map((t, i) => ({ t, k: Math.imul(i + 1, 2654435761 ^ seed) >>> 0 })).sort((a, b) => a.k - b.k).map((x) => x.t);
        const points = [...new Set(cuts.map((c) => c % (shuffled.length + 1)))].sort((a, b) => a - b);
        const files: { text: string; name: string }[] = [];
        let from = 0;
        for (const p of [...points, shuffled.length]) {
          const part = shuffled.slice(from, p);
          from = p;
          if (part.length === 0) continue;
          const asCsv = formats.next().value;
          files.push({ text: asCsv ? csvOf(part) : ndjsonOf(part), name: `part${files.length}.${asCsv ? "csv" : "ndjson"}` });
        }
        const whole = await readDailySales({ text: csvOf(txs), name: "all.csv" });
        const split = await readDailySales(files);
        expect(outcome(split)).toEqual(outcome(whole));
        expect(split.rejectedRows).toEqual([]);
        // and the valid totals equal the hand computation
        const expected = expectedTotals(txs);
        for (const d of whole.days) expect(expected.get(`${d.externalKey} ${d.date}`)).toEqual({ amount: d.amount, quantity: d.quantity });
        for (const [key, v] of expected) {
          const valid = v.amount >= 0 && v.quantity >= 0;
          expect(whole.days.some((d) => `${d.externalKey} ${d.date}` === key), key).toBe(valid);
        }
      },
    ),
    { numRuns: 60 },
  );
});
