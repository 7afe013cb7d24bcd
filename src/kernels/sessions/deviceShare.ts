import { fnv1a } from "../../stats/fnv1a.ts";

/**
 * The share of a device split (`AnalyzerShard`) that a device's sessions are built in: the MAC's
 * FNV-1a hash, modulo the number of shares. Every session of a device is in one share, whatever
 * the shop or day.
 *
 * @example
 * deviceShare("f0:18:98:12:34:56", 1); // 0
 */
export function deviceShare(device: string, shares: number): number {
  return fnv1a(device) % shares;
}
