import { MS_MIN } from "../../time/durations.ts";
import { formatLocal } from "../../time/formatLocal.ts";
import type { Rng } from "../random/prng.ts";
import type { ShopSeed } from "../world/ShopContext.ts";
import type { SimTransaction } from "../world/World.ts";

/**
 * A sales line and its time, epoch ms (the shop's lines are sorted by it before they are kept).
 *
 * @example
 * const line: TimedTransaction = { ms: 0, t: { brand: "Cafe Mori", external_key: "MORI-GN-01", timestamp: "1970-01-01T09:00:00+09:00", amount: 9000, quantity: 1 } };
 */
export interface TimedTransaction {
  readonly ms: number;
  readonly t: SimTransaction;
}

/**
 * What a visitor who buys leaves at the till, appended to `out`: one receipt (two in 12 % of
 * cases) 0.5–3 min before leaving (`end`, epoch ms), of 1 + ~Exp items up to the brand's
 * `maxQty`, its amount log-normal around the brand's ticket (KRW, whole hundreds, at least
 * 1000); 3 % of receipts are refunded 20–240 min later the same day (before `close`). Lines
 * outside the world's span are dropped; times are written in local time at `offsetMinutes`.
 *
 * @example
 * const seed: ShopSeed = { id: 101, name: "Cafe Mori Gangnam", brandId: 1, externalKey: "MORI-GN-01", profile: brandProfile(0), startMs: 0, endMs: 86_400_000, usedMacs: new Set() };
 * const out: TimedTransaction[] = [];
 * purchases(createRng(1), seed, 36_000_000, 37_200_000, 79_200_000, 540, out);
 * out[0]!.t.external_key; // "MORI-GN-01"
 */
export function purchases(
  rng: Rng,
  seed: ShopSeed,
  start: number,
  end: number,
  close: number,
  offsetMinutes: number,
  out: TimedTransaction[],
): void {
  const receipts = rng.chance(0.12) ? 2 : 1;
  for (let k = 0; k < receipts; k++) {
    const ms = Math.max(start, end - Math.round(rng.uniform(0.5, 3) * MS_MIN));
    const quantity = 1 + Math.min(seed.profile.maxQty - 1, Math.floor(rng.exponential(0.8)));
    const amount = Math.max(1000, Math.round((rng.logNormal(seed.profile.ticketKrw, 0.45) * (0.6 + 0.4 * quantity)) / 100) * 100);
    if (ms < seed.startMs || ms >= seed.endMs) continue;
    out.push({ ms, t: { brand: seed.profile.name, external_key: seed.externalKey, timestamp: formatLocal(ms, offsetMinutes, "iso"), amount, quantity } });
    // A few lines come back later the same day as a refund.
    if (rng.chance(0.03)) {
      const back = ms + Math.round(rng.uniform(20, 240) * MS_MIN);
      if (back < close && back < seed.endMs) {
        out.push({ ms: back, t: { brand: seed.profile.name, external_key: seed.externalKey, timestamp: formatLocal(back, offsetMinutes, "iso"), amount: -amount, quantity: -quantity } });
      }
    }
  }
}
