import { clamp } from "../random/clamp.ts";
import { freshMac } from "../phones/freshMac.ts";
import type { Rng } from "../random/prng.ts";
import type { ResolvedWorldOptions } from "./resolveWorldOptions.ts";
import { SENSOR_VENDORS } from "../phones/vendorOuis.ts";
import type { ShopLayout } from "./World.ts";

/**
 * A shop's floor, drawn from the shop's stream `rng`: width and depth within ±20 % of
 * `shopSizeM` (metres, to 0.1 m), its sensors (a fresh MAC each, added to `usedMacs`) spread
 * across the width at 30–75 % of the depth, and the door on the street-side wall. Returns the
 * layout and the sensors' MACs in sensor order.
 *
 * @example
 * const { layout, sensorMacs } = drawShopLayout(createRng(1), { shopSizeM: [16, 12], sensorsPerShop: 3 }, new Set());
 * [layout.sensors.length, sensorMacs.length]; // [3, 3]
 */
export function drawShopLayout(
  rng: Rng,
  o: Pick<ResolvedWorldOptions, "shopSizeM" | "sensorsPerShop">,
  usedMacs: Set<string>,
): { layout: ShopLayout; sensorMacs: string[] } {
  const [meanW, meanD] = o.shopSizeM;
  const widthM = round1(meanW * rng.uniform(0.8, 1.2));
  const depthM = round1(meanD * rng.uniform(0.8, 1.2));
  const nSensors = typeof o.sensorsPerShop === "number" ? o.sensorsPerShop : rng.int(o.sensorsPerShop[0], o.sensorsPerShop[1]);
  const sensorMacs: string[] = [];
  const sensorPos: { mac: string; xM: number; yM: number }[] = [];
  for (let k = 0; k < nSensors; k++) {
    const mac = freshMac(rng, SENSOR_VENDORS, usedMacs);
    sensorMacs.push(mac);
    sensorPos.push({
      mac,
      xM: round1(clamp((widthM * (k + 0.5)) / nSensors + rng.uniform(-1, 1), 0.5, widthM - 0.5)),
      yM: round1(depthM * rng.uniform(0.3, 0.75)),
    });
  }
  const layout: ShopLayout = { widthM, depthM, doorXM: round1(widthM * rng.uniform(0.3, 0.7)), sensors: sensorPos };
  return { layout, sensorMacs };
}

function round1(v: number): number {
  return Math.round(v * 10) / 10;
}
