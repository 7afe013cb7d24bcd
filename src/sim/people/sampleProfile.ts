import { MS_HOUR, MS_MIN } from "../../time/durations.ts";
import type { Rng } from "../random/prng.ts";

/**
 * `n` instants between local hours [fromH, toH) of the day starting at `midnight`, drawn
 * from a daily profile: a floor of `baseline` plus a lunch peak (~12:45) and a wider evening
 * peak (~18:45), in 5-minute bins. Sorted ascending (epoch ms, fractional).
 *
 * @example
 * const midnight = Date.UTC(2026, 10, 16);
 * const arrivals = sampleProfile(createRng(3), 100, midnight, 10, 22, 0.35);
 * arrivals.length; // 100
 * arrivals.every((t) => t >= midnight + 10 * MS_HOUR && t < midnight + 22 * MS_HOUR); // true
 */
export function sampleProfile(rng: Rng, n: number, midnight: number, fromH: number, toH: number, baseline: number): number[] {
  const binMs = 5 * MS_MIN;
  const from = midnight + fromH * MS_HOUR;
  const bins = Math.max(1, Math.ceil(((toH - fromH) * MS_HOUR) / binMs));
  const cum = new Float64Array(bins);
  let acc = 0;
  for (let k = 0; k < bins; k++) {
    const h = fromH + ((k + 0.5) * binMs) / MS_HOUR;
    const lunch = Math.exp(-0.5 * ((h - 12.75) / 1.1) ** 2);
    const evening = 1.3 * Math.exp(-0.5 * ((h - 18.75) / 1.6) ** 2);
    acc += baseline + lunch + evening;
    cum[k] = acc;
  }
  const span = (toH - fromH) * MS_HOUR;
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const u = rng.next() * acc;
    let lo = 0;
    let hi = bins - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (cum[mid]! <= u) lo = mid + 1;
      else hi = mid;
    }
    const offset = Math.min(span - 1, (lo + rng.next()) * binMs);
    out.push(from + offset);
  }
  out.sort((p, q) => p - q);
  return out;
}
