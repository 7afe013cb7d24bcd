import { countedTruthCsv } from "../sim/truth/countedTruthCsv.ts";
import type { World } from "../sim/world/World.ts";
import type { CountedTruth } from "../truth/CountedTruth.ts";
import { mergeTruth } from "../truth/mergeTruth.ts";
import { parseTruth } from "../truth/parseTruth.ts";

/**
 * What a door counter at each of `shopIds` counts over `[fromMs, toMs)`: the people inside, as a
 * site would export them (the simulator's counted-truth CSV, read as `footfall calibrate` reads
 * one), merged into one counted truth. The counts the demo calibrates on (`demoCalibration`).
 *
 * @param world the simulated world (its door counter)
 * @param shopIds the shops counted (SHOP IDs)
 * @param fromMs start of the count, epoch ms
 * @param toMs end of the count, epoch ms
 * @example
 * const open = world.startMs + 10 * 3_600_000;
 * doorCount(world, [world.shops[0]!.id], open, open + 2 * 3_600_000).segments.length > 0; // true
 */
export function doorCount(world: World, shopIds: readonly number[], fromMs: number, toMs: number): CountedTruth {
  return mergeTruth(shopIds.map((shopId) => parseTruth(countedTruthCsv(world, shopId, fromMs, toMs, { shape: "inside" }), `door counter, shop ${shopId}`)));
}
