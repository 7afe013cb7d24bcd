import { zoneOffsetMinutes } from "../../time/timeZone.ts";
import { carriedDevices } from "./carriedDevices.ts";
import { clamp } from "../random/clamp.ts";
import { companions } from "./companions.ts";
import { MS_HOUR, MS_MIN } from "../../time/durations.ts";
import { poisson } from "../random/poisson.ts";
import { createRng, hashSeed } from "../random/prng.ts";
import { purchases, type TimedTransaction } from "./purchases.ts";
import { sampleProfile } from "./sampleProfile.ts";
import type { Phone } from "../world/ShopBuilder.ts";
import type { ShopContext } from "../world/ShopContext.ts";
import type { ShopDay } from "../world/shopDay.ts";
import { shopperPhone } from "./shopperDevices.ts";
import { visitorTrack } from "./tracks.ts";
import { PHONE_VENDORS } from "../phones/vendorOuis.ts";

/**
 * Universal-MAC visitors who may come back on a later day (a randomized MAC cannot be
 * recognised): by MAC with rotation off, by phone in the burst model. One per shop, kept across
 * its days; {@link dayVisitors} adds to it and draws from it.
 *
 * @example
 * const returning: ReturningDevices = { macs: [], phones: [] };
 */
export interface ReturningDevices {
  readonly macs: { person: number; mac: string }[];
  readonly phones: { person: number; phone: Phone }[];
}

/**
 * A shop's visitors of one day, drawn from the day's stream: a Poisson number (`visitorsPerDay`
 * × the shop's popularity × the day's factor) arriving through the opening hours with lunch and
 * evening peaks, each staying ~14 min (log-normal; 4 % ~90 min; 3 min to 4 h, × the day's dwell
 * factor) with a new device or a returning one, walking a visitor track; with real phones, the
 * devices they carry besides; buyers' receipts appended to `sales`; with `groupShare`, their
 * companions (from the day's group stream).
 *
 * @example
 * const o = resolveWorldOptions({ rotation: "off", visitorsPerDay: 50, start: 0, timeZone: "UTC" });
 * const layout = { widthM: 16, depthM: 12, doorXM: 8, sensors: [{ mac: "b8:27:eb:00:00:01", xM: 8, yM: 6 }] };
 * const seed: ShopSeed = { id: 101, name: "Cafe Mori Gangnam", brandId: 1, externalKey: "MORI-GN-01", profile: brandProfile(0), startMs: 0, endMs: 86_400_000, usedMacs: new Set() };
 * const shop: ShopContext = { o, index: 0, seed, b: new ShopBuilder(101, o, layout, seed.usedMacs, 1 << 18, undefined), layout, popularity: 1 };
 * const sales: TimedTransaction[] = [];
 * dayVisitors(shop, shopDay(shop, 0, 0), { macs: [], phones: [] }, sales);
 * shop.b.truth.length > 20; // true
 */
export function dayVisitors(shop: ShopContext, d: ShopDay, returning: ReturningDevices, sales: TimedTransaction[]): void {
  const { o, index, seed, b, layout, popularity } = shop;
  const { day, firstDay, rng: dayRng, midnight, open, close, dayFactor, dwellFactor, clip, devRng } = d;
  const [openH, closeH] = o.openingHours;
  const m = o.macBehaviour;
  const real = o.realPhones;
  const returningPool = returning.macs;
  const returningPhones = returning.phones;
  // Visitors: arrivals through the opening hours with lunch and evening peaks.
  const visitorRate = o.visitorsPerDay * popularity * dayFactor;
  const nVisitors = poisson(dayRng, visitorRate * ((close - open) / ((closeH - openH) * MS_HOUR)));
  const arrivals = sampleProfile(dayRng, nVisitors, midnight, openH, closeH - 3 / 60, 0.35);
  const conversion = o.conversion ?? seed.profile.conversion;
  // Companions draw from a stream of their own, so the day's own draws stay as without them.
  const groupRng = createRng(hashSeed(o.seed, "groups", index, day));
  const dayOffset = zoneOffsetMinutes(o.timeZone, open);
  for (const arrival of arrivals) {
    const longStay = dayRng.chance(0.04);
    let dwell = (longStay ? dayRng.logNormal(90 * MS_MIN, 0.4) : dayRng.logNormal(14 * MS_MIN, 0.65)) * dwellFactor;
    dwell = clamp(dwell, 3 * MS_MIN, 4 * MS_HOUR);
    let start = Math.round(arrival);
    let end = Math.min(start + Math.round(dwell), close + 15 * MS_MIN);
    if (end - start < 3 * MS_MIN) start = end - 3 * MS_MIN;
    start = clip(start);
    end = clip(end);
    if (end - start < MS_MIN) continue;
    let heard: number;
    let track: number[]; // drawn after the phone, as before groups: companions walk it too
    if (m === undefined) {
      let mac: string;
      let person: number;
      if (dayRng.chance(o.randomizedShare)) [mac, person] = [b.newMac(dayRng, "local"), b.newPerson()];
      else if (returningPool.length > 0 && day > firstDay && dayRng.chance(o.returningShare)) ({ mac, person } = dayRng.pick(returningPool));
      else {
        [mac, person] = [b.newMac(dayRng, PHONE_VENDORS), b.newPerson()];
        returningPool.push({ person, mac });
      }
      const device = b.device(mac, dayRng);
      track = visitorTrack(dayRng, layout, start, end);
      heard = b.visit(dayRng, person, device, "visitor", track, start, end, b.phoneGap(dayRng), 0.5);
    } else {
      let phone: Phone;
      let person: number;
      if (!dayRng.chance(real?.universalShare ?? m.universalShare)) [phone, person] = [shopperPhone(dayRng, b, m, real, false), b.newPerson()];
      else if (returningPhones.length > 0 && day > firstDay && dayRng.chance(o.returningShare)) ({ phone, person } = dayRng.pick(returningPhones));
      else {
        [phone, person] = [shopperPhone(dayRng, b, m, real, true), b.newPerson()];
        returningPhones.push({ person, phone });
      }
      const associated = dayRng.chance(m.associatedShare);
      track = visitorTrack(dayRng, layout, start, end);
      heard = b.burstVisit(dayRng, person, phone, "visitor", track, start, end, associated);
      if (devRng !== undefined) carriedDevices(devRng, b, real!, person, "visitor", track, start, end);
    }
    if (heard > 0 && dayRng.chance(conversion)) {
      purchases(dayRng, seed, start, end, close, dayOffset, sales);
    }
    if (o.groupShare > 0 && groupRng.chance(o.groupShare)) companions(groupRng, shop, d, track, start, end);
  }
}
