import type { Rng } from "../random/prng.ts";
import type { ExtraDevice, RealPhones } from "../phones/RealPhones.ts";
import type { ShopBuilder } from "../world/ShopBuilder.ts";
import { LAPTOP_VENDORS } from "../phones/vendorOuis.ts";

const EXTRA_DEVICES: readonly ExtraDevice[] = ["laptop", "watch", "tablet"];

/**
 * The devices a person carries besides their phone (real phones): a second with
 * `secondDeviceShare`, a third with `thirdDeviceShare` (only with a second). Each goes where the
 * person goes (`track`, from `start` to `end`, epoch ms), for as long, and is recorded as that
 * person's device (`extraDevice`), never as a person. A laptop probing with its universal MAC
 * (`extraUniversalShare` of the extra devices: Windows' default) carries a laptop Wi-Fi module's
 * vendor (`LAPTOP_VENDORS`, the makers a real room hears) and bursts at `universalBurstsPerMinute`;
 * the others — watches and tablets, which randomize like phones, and laptops that randomize —
 * replay a randomized capture of a real phone. Always the same draws per person, so one person's
 * devices do not shift the next one's.
 *
 * @example
 * const o = resolveWorldOptions({ phones: { secondDeviceShare: 1, thirdDeviceShare: 1 } });
 * const layout = { widthM: 16, depthM: 12, doorXM: 8, sensors: [{ mac: "b8:27:eb:00:00:01", xM: 8, yM: 6 }] };
 * const b = new ShopBuilder(101, o, layout, new Set(), 1 << 16, o.macBehaviour, o.realPhones);
 * carriedDevices(createRng(1), b, o.realPhones!, b.newPerson(), "visitor", [0, 600_000, 8, 3, 8, 3], 0, 600_000);
 * b.visits.length; // 2
 */
export function carriedDevices(
  rng: Rng,
  b: ShopBuilder,
  real: RealPhones,
  person: number,
  kind: "visitor" | "passerby",
  track: number[],
  start: number,
  end: number,
): void {
  const u = rng.next();
  const n = u < real.thirdDeviceShare ? 2 : u < real.secondDeviceShare ? 1 : 0;
  for (let i = 0; i < n; i++) {
    const universal = rng.chance(real.extraUniversalShare);
    const what = universal ? "laptop" : rng.pick(EXTRA_DEVICES);
    const phone = universal ? b.phone(rng, "universal", b.newMac(rng, LAPTOP_VENDORS)) : b.realPhone(rng, false, undefined);
    b.burstVisit(rng, person, phone, kind, track, start, end, false, what);
  }
}
