import type { SalesStatsDaily } from "../contract/salesStatsDaily.ts";

/**
 * A stable fingerprint of a daily record: SHA-256 (Web Crypto, so Node and Deno alike) over
 * the canonical JSON array `[date, amount, quantity, amount_currency]`, written
 * `sha256:<hex>`. Two records hash equal exactly when they would post the same figures, which
 * is what "unchanged" means to the journal.
 *
 * @example
 * await hashSalesRecord({ date: "2026-11-20", amount: 25000, quantity: 3, amount_currency: "KRW" }); // "sha256:edcd57b7bcb2ad5ae02e717d076083b8370c925dad7fa4f9fadc33380c10a532"
 */
export async function hashSalesRecord(record: SalesStatsDaily): Promise<string> {
  const canonical = JSON.stringify([record.date, record.amount, record.quantity, record.amount_currency]);
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(canonical)));
  let hex = "";
  for (let i = 0; i < digest.length; i++) hex += digest[i]!.toString(16).padStart(2, "0");
  return `sha256:${hex}`;
}
