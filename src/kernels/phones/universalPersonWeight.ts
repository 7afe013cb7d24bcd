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
 * How much of a person an identity-known universal-MAC device is: 1 when it stayed less than
 * {@link PHONE_STAY_MS} and either probed on a timer (`onTimer`: a phone left in one mode does —
 * the real captures' universal-MAC phones probed every 5 s, 15 s or 2 min to within 1 % —, a
 * laptop in use does not) or its vendor makes phones (IEEE OUI list, `vendorOf`): an older phone,
 * or one whose owner turned randomization off, is its owner's. Else `share` (the yardstick's
 * `universalPersonShare`): laptops, PCs, tills, and phones of persons already counted through
 * their randomized bursts are devices, not persons. A machine on a timer that stays for hours is
 * stationary (`isPeriodicProber`), not a visit at all.
 *
 * @param mac a universal MAC, any common notation
 * @param stayMs the device's estimated stay, ms
 * @param share the weight of any other universal device (0…1)
 * @param onTimer whether its probes came on a timer
 * @example
 * universalPersonWeight("f0:76:6f:00:00:01", 1_200_000, 0.25); // 1 (Apple, 20 min)
 * universalPersonWeight("dc:fb:48:68:be:e4", 1_200_000, 0.25); // 0.25 (Intel)
 * universalPersonWeight("dc:fb:48:68:be:e4", 1_200_000, 0.25, true); // 1 (on a timer for a visit)
 */
export function universalPersonWeight(mac: string, stayMs: number, share: number, onTimer = false): number {
  if (!(stayMs < PHONE_STAY_MS)) return share;
  if (onTimer) return 1;
  const vendor = vendorOf(mac)?.toLowerCase();
  return vendor !== undefined && PHONE_MAKERS.some((p) => vendor.startsWith(p)) ? 1 : share;
}
