import { MS_HOUR, MS_MIN } from "../../time/durations.ts";
import { createRng, hashSeed } from "../random/prng.ts";
import type { Phone } from "../world/ShopBuilder.ts";
import type { ShopContext } from "../world/ShopContext.ts";
import type { ShopDay } from "../world/shopDay.ts";
import { staffTrack } from "./tracks.ts";
import { PHONE_VENDORS } from "../phones/vendorOuis.ts";

/** Share of staff shifts whose phone is on the shop's Wi-Fi (burst model): staff use it all day. */
const STAFF_ASSOCIATED_SHARE = 0.6;

/**
 * A member of a shop's staff: a person with one device kept every day, and a shift (0 early,
 * 1 late, 2 the whole day). With rotation off the device probes every `gap` ms (jittered);
 * in the burst model it is `phone`.
 *
 * @example
 * const member: StaffMember = { person: 0, device: 0, gap: 30_000, shift: 2, phone: undefined };
 */
export interface StaffMember {
  readonly person: number;
  /** The device index of its MAC in the builder. */
  readonly device: number;
  /** Mean probe gap, ms, with rotation off (0 in the burst model). */
  readonly gap: number;
  readonly shift: number;
  readonly phone: Phone | undefined;
}

/**
 * The shop's staff, `staffPerShop` of them, drawn from the shop's staff stream: each a person of
 * the shop's builder with one fixed device, the same every day (a share use a fixed private
 * address), and shifts dealt in turn.
 *
 * @example
 * const o = resolveWorldOptions({ rotation: "off", staffPerShop: 4 });
 * const layout = { widthM: 16, depthM: 12, doorXM: 8, sensors: [{ mac: "b8:27:eb:00:00:01", xM: 8, yM: 6 }] };
 * const seed: ShopSeed = { id: 101, name: "Cafe Mori Gangnam", brandId: 1, externalKey: "MORI-GN-01", profile: brandProfile(0), startMs: 0, endMs: 86_400_000, usedMacs: new Set() };
 * const shop: ShopContext = { o, index: 0, seed, b: new ShopBuilder(101, o, layout, seed.usedMacs, 1 << 12, undefined), layout, popularity: 1 };
 * hireStaff(shop).map((m) => m.shift); // [0, 1, 2, 0]
 */
export function hireStaff(shop: ShopContext): StaffMember[] {
  const { o, index, b } = shop;
  const m = o.macBehaviour;
  // Staff: one fixed device each, the same every day (a share use a fixed private address).
  const staff: StaffMember[] = [];
  const staffRng = createRng(hashSeed(o.seed, "staff", index));
  for (let k = 0; k < o.staffPerShop; k++) {
    const person = b.newPerson();
    if (m === undefined) {
      const mac = b.newMac(staffRng, staffRng.chance(o.randomizedShare / 2) ? "local" : PHONE_VENDORS);
      staff.push({ person, device: b.device(mac, staffRng), gap: b.phoneGap(staffRng), shift: k % 3, phone: undefined });
    } else {
      // Staff phones live on the shop's Wi-Fi: universal, or one private address kept for that network.
      const universal = staffRng.chance(m.staffUniversalShare);
      const mac = b.newMac(staffRng, universal ? PHONE_VENDORS : "local");
      // With real phones a staff phone probes as a captured phone does, with its one MAC.
      const phone = o.realPhones !== undefined ? b.realPhone(staffRng, universal, mac) : b.phone(staffRng, universal ? "universal" : "stable", mac);
      staff.push({ person, device: phone.fixedDevice, gap: 0, shift: k % 3, phone });
    }
  }
  return staff;
}

/**
 * The staff's shifts of one day, drawn from the day's stream: each member works with chance 0.8,
 * early (from 40 min before opening, 7.5 h), late (7.5 h up to 25 min after closing) or the whole
 * day, each end ±10 min, a shift over 4 h with a 25–60 min break away from the shop in 60 % of
 * cases; each part is a visit of the member's device along a staff track.
 *
 * @example
 * const o = resolveWorldOptions({ rotation: "off", staffPerShop: 3, start: 0, timeZone: "UTC" });
 * const layout = { widthM: 16, depthM: 12, doorXM: 8, sensors: [{ mac: "b8:27:eb:00:00:01", xM: 8, yM: 6 }] };
 * const seed: ShopSeed = { id: 101, name: "Cafe Mori Gangnam", brandId: 1, externalKey: "MORI-GN-01", profile: brandProfile(0), startMs: 0, endMs: 86_400_000, usedMacs: new Set() };
 * const shop: ShopContext = { o, index: 0, seed, b: new ShopBuilder(101, o, layout, seed.usedMacs, 1 << 16, undefined), layout, popularity: 1 };
 * staffShifts(shop, shopDay(shop, 0, 0), hireStaff(shop));
 * shop.b.truth.every((v) => v.kind === "staff"); // true
 */
export function staffShifts(shop: ShopContext, day: ShopDay, staff: readonly StaffMember[]): void {
  const { b, layout } = shop;
  const { rng: dayRng, open, close, clip } = day;
  // Staff shifts: early, late or full, most days, with an optional break away from the shop.
  for (const member of staff) {
    if (!dayRng.chance(0.8)) continue;
    let from: number;
    let to: number;
    if (member.shift === 0) [from, to] = [open - 40 * MS_MIN, open + 7.5 * MS_HOUR];
    else if (member.shift === 1) [from, to] = [close - 7.5 * MS_HOUR, close + 25 * MS_MIN];
    else [from, to] = [open - 30 * MS_MIN, close + 20 * MS_MIN];
    from = Math.round(from + 10 * MS_MIN * dayRng.normal());
    to = Math.round(to + 10 * MS_MIN * dayRng.normal());
    const parts: [number, number][] = [];
    if (to - from > 4 * MS_HOUR && dayRng.chance(0.6)) {
      const breakAt = Math.round(from + (to - from) * dayRng.uniform(0.35, 0.65));
      const breakEnd = breakAt + Math.round(dayRng.uniform(25, 60) * MS_MIN);
      parts.push([from, breakAt], [breakEnd, to]);
    } else parts.push([from, to]);
    for (const [a0, z0] of parts) {
      const a = clip(a0);
      const z = clip(z0);
      if (z - a < MS_MIN) continue;
      if (member.phone === undefined) b.visit(dayRng, member.person, member.device, "staff", staffTrack(dayRng, layout, a, z), a, z, member.gap, 0.5);
      else b.burstVisit(dayRng, member.person, member.phone, "staff", staffTrack(dayRng, layout, a, z), a, z, dayRng.chance(STAFF_ASSOCIATED_SHARE));
    }
  }
}
