import type { DashboardFrame } from "../../src/demo/dashboardText.ts";
import type { ShopLiveSnapshot } from "../../src/demo/ShopLive.ts";

/** One shop's live figures, made up: `n` scales them. */
export const snap = (name: string, n: number, extra: Partial<ShopLiveSnapshot> = {}): ShopLiveSnapshot => ({
  shopId: 100 + n,
  name,
  signals: 10_000 * n,
  invalid: 0,
  lastEventMs: 0,
  inRange: 10 * n,
  visitors: 100 * n,
  passersBy: 1000 * n,
  medianDwellMs: 60_000 * (10 + n),
  zones: { immediate: n, near: 2 * n, far: 3 * n },
  people: { visitors: 80 * n, low: 70 * n, high: 90 * n },
  inside: { inside: 4.5 * n, low: 3 * n, high: 6.5 * n },
  done: false,
  ...extra,
});

/** A dashboard frame of `shops` at 14:05, half the day done. */
export const frame = (shops: readonly ShopLiveSnapshot[]): DashboardFrame => ({
  heading: "2 shops · Mon 2026-11-16 · Asia/Seoul",
  clock: "14:05",
  fraction: 0.5,
  elapsedMs: 31_000,
  shops,
  status: "sales: the day's takings go up at closing time",
});
