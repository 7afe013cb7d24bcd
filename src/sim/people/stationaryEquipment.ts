import { localDayOf, localMidnight } from "../../time/timeZone.ts";
import { MS_HOUR, MS_MIN } from "../../time/durations.ts";
import { createRng, hashSeed, type Rng } from "../random/prng.ts";
import { logUniformRate, medianGapMs, type RealPhones } from "../phones/RealPhones.ts";
import type { ResolvedWorldOptions } from "../world/resolveWorldOptions.ts";
import type { ShopBuilder } from "../world/ShopBuilder.ts";
import type { ShopContext } from "../world/ShopContext.ts";
import { STATIONARY_VENDORS } from "../phones/vendorOuis.ts";
import type { ShopLayout } from "../world/World.ts";

/**
 * The shop's fixed equipment (printers, tills, PCs), `stationaryPerShop` pieces: each a person of
 * the builder (the truth's `stationary` kind) with a universal MAC at a fixed spot in the back
 * half of the floor. With rotation off, or in the burst model without real phones, it probes the
 * whole span every 15–45 s (drawn once per piece, from the shop's equipment stream); with real
 * phones each piece has a stream of its own, a rate of its own, and some are switched on and off
 * with the shop.
 *
 * @example
 * const o = resolveWorldOptions({ rotation: "off", stationaryPerShop: 2, start: 0, timeZone: "UTC" });
 * const layout = { widthM: 16, depthM: 12, doorXM: 8, sensors: [{ mac: "b8:27:eb:00:00:01", xM: 8, yM: 6 }] };
 * const seed: ShopSeed = { id: 101, name: "Cafe Mori Gangnam", brandId: 1, externalKey: "MORI-GN-01", profile: brandProfile(0), startMs: 0, endMs: 86_400_000, usedMacs: new Set() };
 * const shop: ShopContext = { o, index: 0, seed, b: new ShopBuilder(101, o, layout, seed.usedMacs, 1 << 16, undefined), layout, popularity: 1 };
 * stationaryEquipment(shop);
 * shop.b.truth.map((v) => v.kind); // ["stationary", "stationary"]
 */
export function stationaryEquipment(shop: ShopContext): void {
  const { o, index, seed, b, layout } = shop;
  const { widthM, depthM } = layout;
  const m = o.macBehaviour;
  const real = o.realPhones;
  // Stationary equipment: present for the whole span, frequent regular probes.
  const eqRng = createRng(hashSeed(o.seed, "stationary", index));
  for (let k = 0; k < o.stationaryPerShop; k++) {
    const person = b.newPerson();
    if (m === undefined) {
      const device = b.device(b.newMac(eqRng, STATIONARY_VENDORS), eqRng);
      const x = eqRng.uniform(0.5, widthM - 0.5);
      const y = eqRng.uniform(depthM * 0.5, depthM - 0.3);
      b.visit(eqRng, person, device, "stationary", [seed.startMs, seed.endMs, x, y, x, y], seed.startMs, seed.endMs, eqRng.uniform(15_000, 45_000), 0.15);
    } else if (real === undefined) {
      const phone = b.phone(eqRng, "universal", b.newMac(eqRng, STATIONARY_VENDORS), eqRng.uniform(15_000, 45_000));
      const x = eqRng.uniform(0.5, widthM - 0.5);
      const y = eqRng.uniform(depthM * 0.5, depthM - 0.3);
      b.burstVisit(eqRng, person, phone, "stationary", [seed.startMs, seed.endMs, x, y, x, y], seed.startMs, seed.endMs, true);
    } else equipment(createRng(hashSeed(o.seed, "equipment", index, k)), b, real, o, person, layout, seed.startMs, seed.endMs);
  }
}

// One piece of fixed equipment with real phones (a till, a printer, a PC): a universal MAC
// probing at its own rate from `equipmentBurstsPerMinute`, either on all the time or, with
// `equipmentSwitchedShare`, switched on 15–45 min before opening and off 10–30 min after closing
// each local day. Its own stream per piece, so the shop's other draws stay put.
function equipment(rng: Rng, b: ShopBuilder, real: RealPhones, o: ResolvedWorldOptions, person: number, layout: ShopLayout, startMs: number, endMs: number): void {
  const gapMs = medianGapMs(logUniformRate(rng, real.equipmentBurstsPerMinute), 0.15);
  const phone = b.phone(rng, "universal", b.newMac(rng, STATIONARY_VENDORS), gapMs);
  const x = rng.uniform(0.5, layout.widthM - 0.5);
  const y = rng.uniform(layout.depthM * 0.5, layout.depthM - 0.3);
  if (!rng.chance(real.equipmentSwitchedShare)) {
    b.burstVisit(rng, person, phone, "stationary", [startMs, endMs, x, y, x, y], startMs, endMs, true);
    return;
  }
  for (let day = localDayOf(startMs, o.timeZone); day <= localDayOf(endMs - 1, o.timeZone); day++) {
    const midnight = localMidnight(day, o.timeZone);
    const on = Math.max(startMs, Math.round(midnight + o.openingHours[0] * MS_HOUR - rng.uniform(15, 45) * MS_MIN));
    const off = Math.min(endMs, Math.round(midnight + o.openingHours[1] * MS_HOUR + rng.uniform(10, 30) * MS_MIN));
    if (off - on < MS_MIN) continue;
    b.burstVisit(rng, person, phone, "stationary", [on, off, x, y, x, y], on, off, true);
  }
}
