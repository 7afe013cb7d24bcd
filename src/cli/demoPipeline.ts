/**
 * Moved to src/demo/ (ShopLive.ts, runShopPipeline.ts) with the rest of the demo; re-exported
 * here only because test/examples/fixtures.ts still imports them from this path. Delete this
 * file once that import reads "../../src/demo/…".
 *
 * @example
 * new ShopLive({ id: 101, name: "Cafe Mori Gangnam", sensors: ["b8:27:eb:00:00:01"] }, 86_400_000).snapshot().signals; // 0
 */
export { ShopLive, type ShopLiveSnapshot } from "../demo/ShopLive.ts";
export type { ShopPipelineOptions } from "../demo/runShopPipeline.ts";
