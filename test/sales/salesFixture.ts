import type { SalesStatsDaily } from "../../src/contract/salesStatsDaily.ts";
import type { World } from "../../src/sim/world/World.ts";

/**
 * The fixture: transactions of four shops over four KST days, written by hand around the
 * KST midnight (15:00Z), with a refund, a local time without offset, a foreign offset and
 * milliseconds. `expected` is worked out by hand from the comments, not by footfall.
 */
export function salesFixture(sim: { readonly world: World }) {
  const w = sim.world;
  const [b0, b1] = w.brands;
  const ofBrand = (id: number) => w.shops.filter((s) => s.brandId === id);
  const [A, B] = ofBrand(b0!.id);
  const [C, D] = ofBrand(b1!.id);
  const rows: [string, string, string, number, number][] = [
    // brand, external_key, timestamp, amount, quantity     → KST day
    [b0!.name, A!.externalKey, "2026-11-16T23:59:59+09:00", 10000, 2], // 11-16
    [b0!.name, A!.externalKey, "2026-11-16T15:00:00Z", 5000, 1], // 00:00 KST → 11-17
    [b0!.name, A!.externalKey, "2026-11-16T15:30:00Z", 3000, 1], // 00:30 KST → 11-17 (UTC day 11-16)
    [b0!.name, A!.externalKey, "2026-11-17T12:00:00+09:00", -2000, -1], // refund → 11-17
    [b0!.name, A!.externalKey, "2026-11-18 09:15:00", 7000, 3], // local, no offset → 11-18
    [b0!.name, B!.externalKey, "2026-11-16T14:59:59Z", 1200, 1], // 23:59:59 KST → 11-16
    [b0!.name, B!.externalKey, "2026-11-17T00:00:00+09:00", 800, 2], // 11-17
    [b1!.name, C!.externalKey, "2026-11-17T10:00:00+09:00", 45000, 4], // 11-17
    [b1!.name, C!.externalKey, "2026-11-17T21:00:00-05:00", 500, 1], // 02:00Z 11-18 = 11:00 KST → 11-18
    [b1!.name, C!.externalKey, "2026-11-18T14:59:00.500Z", 100, 1], // 23:59 KST → 11-18
    [b1!.name, D!.externalKey, "2026-11-18T15:00:00Z", 9900, 9], // 00:00 KST → 11-19
  ];
  const csv = `brand,external_key,timestamp,amount,quantity,cashier\n${rows.map((r) => `"${r[0]}",${r[1]},${r[2]},${r[3]},${r[4]},"Kim, J."`).join("\n")}\n`;
  const expected = new Map<number, SalesStatsDaily[]>([
    [A!.id, [
      { date: "2026-11-16", amount: 10000, quantity: 2, amount_currency: "KRW" },
      { date: "2026-11-17", amount: 6000, quantity: 1, amount_currency: "KRW" }, // 5000 + 3000 − 2000; 1 + 1 − 1
      { date: "2026-11-18", amount: 7000, quantity: 3, amount_currency: "KRW" },
    ]],
    [B!.id, [
      { date: "2026-11-16", amount: 1200, quantity: 1, amount_currency: "KRW" },
      { date: "2026-11-17", amount: 800, quantity: 2, amount_currency: "KRW" },
    ]],
    [C!.id, [
      { date: "2026-11-17", amount: 45000, quantity: 4, amount_currency: "KRW" },
      { date: "2026-11-18", amount: 600, quantity: 2, amount_currency: "KRW" },
    ]],
    [D!.id, [{ date: "2026-11-19", amount: 9900, quantity: 9, amount_currency: "KRW" }]],
  ]);
  return { csv, expected, shopDays: 8 };
}

