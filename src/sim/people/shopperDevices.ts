import type { MacBehaviour } from "../phones/MacBehaviour.ts";
import type { Rng } from "../random/prng.ts";
import type { RealPhones } from "../phones/RealPhones.ts";
import type { Phone, ShopBuilder } from "../world/ShopBuilder.ts";
import { PHONE_VENDORS } from "../phones/vendorOuis.ts";

// The phone a new shopper (a passer-by, a visitor's companion: never a returning device) brings.

/**
 * A new shopper's MAC with rotation off: a random locally administered one (re-randomized per
 * visit) with `randomizedShare`, else a phone vendor's.
 *
 * @example
 * const o = resolveWorldOptions({ rotation: "off" });
 * const b = new ShopBuilder(101, o, { widthM: 16, depthM: 12, doorXM: 8, sensors: [] }, new Set(), 1 << 12, undefined);
 * isLocallyAdministered(newShopperMac(createRng(1), b, 1)); // true
 */
export function newShopperMac(rng: Rng, b: ShopBuilder, randomizedShare: number): string {
  return rng.chance(randomizedShare) ? b.newMac(rng, "local") : b.newMac(rng, PHONE_VENDORS);
}

/**
 * A new shopper's phone in the burst model: universal (`universalShare` of the real phones, else
 * of the burst model), else rotating (`rotatingShare`) or keeping one private MAC.
 *
 * @example
 * const o = resolveWorldOptions({ phones: "off" });
 * const b = new ShopBuilder(101, o, { widthM: 16, depthM: 12, doorXM: 8, sensors: [] }, new Set(), 1 << 12, o.macBehaviour);
 * ["universal", "rotating", "stable"].includes(newShopperPhone(createRng(1), b, o.macBehaviour!, undefined).macClass); // true
 */
export function newShopperPhone(rng: Rng, b: ShopBuilder, m: MacBehaviour, real: RealPhones | undefined): Phone {
  return rng.chance(real?.universalShare ?? m.universalShare) ? b.phone(rng, "universal", b.newMac(rng, PHONE_VENDORS)) : b.phone(rng, rng.chance(m.rotatingShare) ? "rotating" : "stable", undefined);
}
