import type { Rng } from "../random/prng.ts";
import type { VendorOuis } from "./vendorOuis.ts";

/**
 * A MAC nobody in the world has used yet (recorded in `usedMacs`): universal, with a prefix
 * drawn from `vendors` by weight, or `"local"`: locally administered (bit 0x02 set) and
 * unicast (bit 0x01 clear), like the private addresses of iOS and Android.
 *
 * @example
 * const used = new Set<string>();
 * const mac = freshMac(createRng(1), "local", used); // e.g. "5a:12:9c:00:41:7e"
 * used.has(mac); // true
 */
export function freshMac(rng: Rng, vendors: readonly VendorOuis[] | "local", usedMacs: Set<string>): string {
  for (;;) {
    let mac: string;
    if (vendors === "local") {
      // Locally administered (0x02 set), unicast (0x01 clear), like iOS/Android private addresses.
      mac = [(rng.int(0, 255) & 0xfc) | 0x02, rng.int(0, 255), rng.int(0, 255), rng.int(0, 255), rng.int(0, 255), rng.int(0, 255)]
        .map(hex2)
        .join(":");
    } else {
      mac = `${pickVendorPrefix(rng, vendors)}:${hex2(rng.int(0, 255))}:${hex2(rng.int(0, 255))}:${hex2(rng.int(0, 255))}`;
    }
    if (!usedMacs.has(mac)) {
      usedMacs.add(mac);
      return mac;
    }
  }
}

function pickVendorPrefix(rng: Rng, vendors: readonly VendorOuis[]): string {
  let total = 0;
  for (const v of vendors) total += v.weight;
  let u = rng.next() * total;
  for (const v of vendors) {
    u -= v.weight;
    if (u < 0) return rng.pick(v.prefixes);
  }
  return rng.pick(vendors[vendors.length - 1]!.prefixes);
}

function hex2(n: number): string {
  return n < 16 ? `0${n.toString(16)}` : n.toString(16);
}

