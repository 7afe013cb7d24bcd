import { carriedDevices } from "./carriedDevices.ts";
import { clamp } from "../random/clamp.ts";
import { MS_MIN } from "../../time/durations.ts";
import { poisson } from "../random/poisson.ts";
import { sampleProfile } from "./sampleProfile.ts";
import type { ShopContext } from "../world/ShopContext.ts";
import type { ShopDay } from "../world/shopDay.ts";
import { newShopperMac, newShopperPhone } from "./shopperDevices.ts";
import { passerTrack } from "./tracks.ts";

/**
 * A shop's passers-by of one day, drawn from the day's stream after its visitors: street traffic
 * outside the street-side wall from 1.5 h before opening to 1 h after closing, a Poisson number
 * (`passersByPerDay` × the shop's popularity × the day's factor), `lingerShare` of them stopping
 * at the window for 40 s to 20 min; each a new person with a new device (and, with real phones,
 * the devices they carry besides, from the day's device stream).
 *
 * @example
 * const o = resolveWorldOptions({ rotation: "off", passersByPerDay: 200, start: 0, timeZone: "UTC" });
 * const layout = { widthM: 16, depthM: 12, doorXM: 8, sensors: [{ mac: "b8:27:eb:00:00:01", xM: 8, yM: 6 }] };
 * const seed: ShopSeed = { id: 101, name: "Cafe Mori Gangnam", brandId: 1, externalKey: "MORI-GN-01", profile: brandProfile(0), startMs: 0, endMs: 86_400_000, usedMacs: new Set() };
 * const shop: ShopContext = { o, index: 0, seed, b: new ShopBuilder(101, o, layout, seed.usedMacs, 1 << 18, undefined), layout, popularity: 1 };
 * dayPassersBy(shop, shopDay(shop, 0, 0));
 * shop.b.truth.every((v) => v.kind === "passerby"); // true
 */
export function dayPassersBy(shop: ShopContext, d: ShopDay): void {
  const { o, b, layout, popularity } = shop;
  const { rng: dayRng, midnight, dayFactor, clip, devRng } = d;
  const [openH, closeH] = o.openingHours;
  const m = o.macBehaviour;
  const real = o.realPhones;
  // Passers-by: street traffic outside the wall, from before opening to after closing.
  const nPassers = poisson(dayRng, o.passersByPerDay * popularity * dayFactor);
  const walks = sampleProfile(dayRng, nPassers, midnight, Math.max(0, openH - 1.5), Math.min(24, closeH + 1), 0.6);
  for (const at of walks) {
    const linger = dayRng.chance(o.lingerShare) ? Math.round(clamp(dayRng.logNormal(3 * MS_MIN, 0.6), 40_000, 20 * MS_MIN)) : 0;
    const start = clip(Math.round(at));
    const track = passerTrack(dayRng, layout, start, linger);
    const end = clip(track[track.length - 5]!);
    if (end - start < 2_000) continue;
    const person = b.newPerson();
    if (m === undefined) b.visit(dayRng, person, b.device(newShopperMac(dayRng, b, o.randomizedShare), dayRng), "passerby", track, start, end, b.phoneGap(dayRng), 0.5);
    else {
      b.burstVisit(dayRng, person, newShopperPhone(dayRng, b, m, real), "passerby", track, start, end, false);
      if (devRng !== undefined) carriedDevices(devRng, b, real!, person, "passerby", track, start, end);
    }
  }
}
