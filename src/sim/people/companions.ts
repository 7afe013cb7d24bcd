import { clamp } from "../random/clamp.ts";
import { carriedDevices } from "./carriedDevices.ts";
import { MS_MIN } from "../../time/durations.ts";
import type { Rng } from "../random/prng.ts";
import type { ShopContext } from "../world/ShopContext.ts";
import type { ShopDay } from "../world/shopDay.ts";
import { newShopperMac, newShopperPhone } from "./shopperDevices.ts";

/**
 * 1–3 companions of a visitor (`WorldOptions.groupShare`), drawn from the day's group stream
 * `rng`: each arrives within 20 s of the visitor (`start`, epoch ms), walks beside them (a fixed
 * offset within a metre, kept inside the floor) along their `track`, and leaves within a minute
 * of them (`end`), with a new phone of their own, and buys nothing. A companion is a visitor
 * in the truth.
 *
 * @example
 * const o = resolveWorldOptions({ rotation: "off", start: 0, timeZone: "UTC" });
 * const layout = { widthM: 16, depthM: 12, doorXM: 8, sensors: [{ mac: "b8:27:eb:00:00:01", xM: 8, yM: 6 }] };
 * const seed: ShopSeed = { id: 101, name: "Cafe Mori Gangnam", brandId: 1, externalKey: "MORI-GN-01", profile: brandProfile(0), startMs: 0, endMs: 86_400_000, usedMacs: new Set() };
 * const shop: ShopContext = { o, index: 0, seed, b: new ShopBuilder(101, o, layout, seed.usedMacs, 1 << 16, undefined), layout, popularity: 1 };
 * const track = visitorTrack(createRng(2), layout, 40_000_000, 41_200_000);
 * companions(createRng(1), shop, shopDay(shop, 0, 0), track, 40_000_000, 41_200_000);
 * shop.b.visits.every((v) => v.kind === "visitor"); // true
 */
export function companions(rng: Rng, shop: ShopContext, day: ShopDay, track: readonly number[], start: number, end: number): void {
  const { o, b, layout } = shop;
  const { clip, devRng } = day;
  const m = o.macBehaviour;
  const real = o.realPhones;
  const k = rng.int(1, 3);
  for (let i = 0; i < k; i++) {
    const dx = rng.uniform(-1, 1);
    const dy = rng.uniform(-1, 1);
    const beside = track.map((v, j) => {
      const field = j % 6;
      if (field === 2 || field === 4) return clamp(v + dx, 0.2, layout.widthM - 0.2);
      if (field === 3 || field === 5) return clamp(v + dy, 0.2, layout.depthM - 0.2);
      return v;
    });
    const from = clip(Math.round(start + rng.uniform(-20_000, 20_000)));
    const to = clip(Math.round(end + rng.uniform(-60_000, 60_000)));
    if (to - from < MS_MIN) continue;
    const person = b.newPerson();
    if (m === undefined) b.visit(rng, person, b.device(newShopperMac(rng, b, o.randomizedShare), rng), "visitor", beside, from, to, b.phoneGap(rng), 0.5);
    else {
      b.burstVisit(rng, person, newShopperPhone(rng, b, m, real), "visitor", beside, from, to, rng.chance(m.associatedShare));
      if (real !== undefined && devRng !== undefined) carriedDevices(devRng, b, real, person, "visitor", beside, from, to);
    }
  }
}
