/**
 * Moved to src/demo/dashboardText.ts with the rest of the demo; re-exported here only because
 * test/examples/fixtures.ts still imports it from this path. Delete this file once that import
 * reads "../../src/demo/dashboardText.ts".
 *
 * @example
 * const f: DashboardFrame = { heading: "1 shop", clock: "14:05", fraction: 0.52, elapsedMs: 31_000, shops: [], status: "sales: at closing time" };
 */
export type { DashboardFrame } from "../demo/dashboardText.ts";
