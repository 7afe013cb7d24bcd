import type { BrandProfile } from "./brandProfiles.ts";
import type { ResolvedWorldOptions } from "./resolveWorldOptions.ts";
import type { ShopBuilder } from "./ShopBuilder.ts";
import type { ShopLayout } from "./World.ts";

/**
 * What one shop of a world is built from: who it is (id, name, brand, external key, the brand's
 * profile), the world's span (epoch ms) and the MACs already used in the world (every MAC is
 * unique across shops).
 *
 * @example
 * const seed: ShopSeed = { id: 101, name: "Cafe Mori Gangnam", brandId: 1, externalKey: "MORI-GN-01", profile: brandProfile(0), startMs: 0, endMs: 86_400_000, usedMacs: new Set() };
 */
export interface ShopSeed {
  readonly id: number;
  readonly name: string;
  readonly brandId: number;
  readonly externalKey: string;
  readonly profile: BrandProfile;
  readonly startMs: number;
  readonly endMs: number;
  readonly usedMacs: Set<string>;
}

/**
 * One shop while it is built, as the parts of the builder (staff, equipment, visitors,
 * passers-by) see it: the world's options, the shop's index in the world (every random stream of
 * the shop is seeded with it), its seed, the builder that records its signals and truth, its
 * floor, and how busy it is (a factor drawn once, 0.7–1.3).
 *
 * @example
 * const o = resolveWorldOptions({ rotation: "off" });
 * const layout = { widthM: 16, depthM: 12, doorXM: 8, sensors: [{ mac: "b8:27:eb:00:00:01", xM: 8, yM: 6 }] };
 * const seed: ShopSeed = { id: 101, name: "Cafe Mori Gangnam", brandId: 1, externalKey: "MORI-GN-01", profile: brandProfile(0), startMs: 0, endMs: 86_400_000, usedMacs: new Set() };
 * const shop: ShopContext = { o, index: 0, seed, b: new ShopBuilder(101, o, layout, seed.usedMacs, 1 << 12, undefined), layout, popularity: 1 };
 */
export interface ShopContext {
  readonly o: ResolvedWorldOptions;
  /** The shop's index in the world, 0-based: part of the seed of every random stream of the shop. */
  readonly index: number;
  readonly seed: ShopSeed;
  readonly b: ShopBuilder;
  readonly layout: ShopLayout;
  /** How busy the shop is: visitors and passers-by are scaled by it (0.7–1.3). */
  readonly popularity: number;
}
