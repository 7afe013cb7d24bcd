/**
 * Moved to src/demo/DemoShopResult.ts with the rest of the demo; re-exported here only because
 * test/examples/fixtures.ts still imports them from this path. Delete this file once that import
 * reads "../../src/demo/DemoShopResult.ts".
 *
 * @example
 * const r: DemoRun = { date: "2026-11-16", timeZone: "Asia/Seoul", seed: "1", speed: 900, elapsedMs: 61_000, currency: "KRW" };
 */
export type { DemoRun, DemoShopResult } from "../demo/DemoShopResult.ts";
