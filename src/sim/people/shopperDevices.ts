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
 * A new shopper's phone in the burst model: universal with `universalShare` of the real phones
 * (else of the burst model), see {@link shopperPhone}.
 *
 * @example
 * const o = resolveWorldOptions({ phones: "off" });
 * const b = new ShopBuilder(101, o, { widthM: 16, depthM: 12, doorXM: 8, sensors: [] }, new Set(), 1 << 12, o.macBehaviour);
 * ["universal", "rotating", "stable"].includes(newShopperPhone(createRng(1), b, o.macBehaviour!, undefined).macClass); // true
 */
export function newShopperPhone(rng: Rng, b: ShopBuilder, m: MacBehaviour, real: RealPhones | undefined): Phone {
  return shopperPhone(rng, b, m, real, rng.chance(real?.universalShare ?? m.universalShare));
}

/**
 * A shopper's phone of the class asked for: `universal` with a new vendor MAC, else randomizing.
 * With real phones it replays a capture of that class (`ShopBuilder.realPhone`); without, a
 * randomizing phone rotates with `rotatingShare` or keeps one private MAC a visit.
 *
 * @example
 * const o = resolveWorldOptions({ phones: "real" });
 * const b = new ShopBuilder(101, o, { widthM: 16, depthM: 12, doorXM: 8, sensors: [] }, new Set(), 1 << 12, o.macBehaviour, o.realPhones);
 * shopperPhone(createRng(1), b, o.macBehaviour!, o.realPhones, true).profile!.universal; // true
 */
export function shopperPhone(rng: Rng, b: ShopBuilder, m: MacBehaviour, real: RealPhones | undefined, universal: boolean): Phone {
  if (universal) {
    const mac = b.newMac(rng, PHONE_VENDORS);
    return real !== undefined ? b.realPhone(rng, true, mac) : b.phone(rng, "universal", mac);
  }
  return real !== undefined ? b.realPhone(rng, false, undefined) : b.phone(rng, rng.chance(m.rotatingShare) ? "rotating" : "stable", undefined);
}
