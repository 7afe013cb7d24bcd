import { vendorOf } from "../../codec/oui.ts";

// Vendors (the IEEE registry's names, lowercased, matched as prefixes) whose universal MACs are
// mostly phones: a person's own device.
const PHONE_MAKERS = ["apple", "samsung", "lg electronics", "google", "xiaomi", "huawei", "guangdong oppo", "vivo mobile", "oneplus", "motorola", "sony mobile", "hmd global", "nokia", "zte", "realme", "honor device", "fairphone"];

/**
 * Longest stay, ms, for a phone maker's universal MAC to count as its owner's phone: a shopper's
 * visit is minutes to an hour; a device of the same makers that stays for hours is a laptop or a
 * tablet on a desk, like any other universal device.
 */
export const PHONE_STAY_MS = 2 * 3_600_000;

/**
 * How much of a person an identity-known universal-MAC device is: 1 when its vendor makes phones
 * (IEEE OUI list, `vendorOf`) and it stayed less than {@link PHONE_STAY_MS} — an older phone, or one
 * whose owner turned randomization off, is its owner's —, else `share` (the yardstick's
 * `universalPersonShare`): laptops, PCs, tills, and phones of persons already counted through their
 * randomized bursts are devices, not persons.
 *
 * @param mac a universal MAC, any common notation
 * @param stayMs the device's estimated stay, ms
 * @param share the weight of any other universal device (0…1)
 * @example
 * universalPersonWeight("f0:76:6f:00:00:01", 1_200_000, 0.25); // 1 (Apple, 20 min)
 * universalPersonWeight("dc:fb:48:68:be:e4", 1_200_000, 0.25); // 0.25 (Intel)
 */
export function universalPersonWeight(mac: string, stayMs: number, share: number): number {
  if (!(stayMs < PHONE_STAY_MS)) return share;
  const vendor = vendorOf(mac)?.toLowerCase();
  return vendor !== undefined && PHONE_MAKERS.some((p) => vendor.startsWith(p)) ? 1 : share;
}
