import type { Pool } from "pg";

/**
 * Claims a unit of work (a shop-day, or a shop's tail) for the caller: raises its epoch and
 * returns the new value. Only a commit carrying the newest epoch is accepted
 * ({@link commitShopDay}), so a worker that was paused past its BullMQ lock, while the job ran
 * again elsewhere, can no longer overwrite the newer results.
 *
 * @example
 * const epoch = await claimFence(pool, 101, "day:2026-11-16"); // 1, then 2 for the next claim
 */
export async function claimFence(pool: Pool, shopId: number, scope: string): Promise<number> {
  const r = await pool.query<{ epoch: string }>(
    `INSERT INTO footfall_fences (shop_id, scope, epoch) VALUES ($1, $2, 1)
     ON CONFLICT (shop_id, scope) DO UPDATE SET epoch = footfall_fences.epoch + 1 RETURNING epoch`,
    [shopId, scope],
  );
  return Number(r.rows[0]!.epoch);
}

/**
 * Fence scope of a shop-day job (its local date).
 *
 * @example
 * dayScope("2026-11-16"); // "day:2026-11-16"
 */
export function dayScope(day: string): string {
  return `day:${day}`;
}
