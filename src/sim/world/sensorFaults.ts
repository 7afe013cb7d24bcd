import { localDayOf, localMidnight } from "../../time/timeZone.ts";
import { MS_HOUR, MS_MIN } from "../../time/durations.ts";
import { createRng, hashSeed } from "../random/prng.ts";
import type { ResolvedWorldOptions } from "./resolveWorldOptions.ts";
import type { ShopBuilder } from "./ShopBuilder.ts";
import type { ShopSeed } from "./ShopContext.ts";
import type { SensorOutage } from "./World.ts";

/**
 * What is wrong with a shop's sensors, told to its builder `b`: outages (`sensorOutages`), clocks
 * that run ahead or behind (`sensorClockSkewMs`) and batched uploads (`sensorUploadEveryMs`).
 * Each is drawn from random streams of its own (seeded by the shop's `index`), so a world without
 * them is the world it always was. Returns the outages (sorted by start) and the clock offsets
 * (sensor MAC → whole ms ahead), the truth `World.sensorOutages` and `sensorClockOffsets` give.
 *
 * @example
 * const o = resolveWorldOptions({ rotation: "off", sensorClockSkewMs: 5000 });
 * const [startMs, endMs] = worldSpan(o);
 * const layout = { widthM: 16, depthM: 12, doorXM: 8, sensors: [{ mac: "b8:27:eb:00:00:01", xM: 8, yM: 6 }] };
 * const seed: ShopSeed = { id: 101, name: "Cafe Mori Gangnam", brandId: 1, externalKey: "MORI-GN-01", profile: brandProfile(0), startMs, endMs, usedMacs: new Set() };
 * const b = new ShopBuilder(101, o, layout, seed.usedMacs, 1 << 12, undefined);
 * const { outages, clockOffsets } = sensorFaults(o, 0, seed, ["b8:27:eb:00:00:01"], b);
 * outages.length; // 0
 * Math.abs(clockOffsets["b8:27:eb:00:00:01"]!) <= 5000; // true
 */
export function sensorFaults(
  o: ResolvedWorldOptions,
  index: number,
  seed: ShopSeed,
  sensorMacs: readonly string[],
  b: ShopBuilder,
): { outages: SensorOutage[]; clockOffsets: Record<string, number> } {
  const nSensors = sensorMacs.length;
  // Sensor outages, from their own random streams so that a world without them is unchanged.
  const outages: SensorOutage[] = [];
  if (o.sensorOutages !== undefined) {
    const { perSensorDay, minutes } = o.sensorOutages;
    const spanMs = (o.openingHours[1] - o.openingHours[0]) * MS_HOUR;
    for (let day = localDayOf(seed.startMs, o.timeZone); day <= localDayOf(seed.endMs - 1, o.timeZone); day++) {
      const opens = localMidnight(day, o.timeZone) + o.openingHours[0] * MS_HOUR;
      for (let k = 0; k < nSensors; k++) {
        const r = createRng(hashSeed(o.seed, "outage", index, day, k));
        if (!r.chance(perSensorDay)) continue;
        const length = Math.min(spanMs, Math.round(r.uniform(minutes[0], minutes[1]) * MS_MIN));
        const from = opens + Math.round(r.next() * (spanMs - length));
        outages.push({ shop: seed.id, sensor: sensorMacs[k]!, from, to: from + length });
        b.loseDuring(k, from, from + length);
      }
    }
    outages.sort((x, y) => x.from - y.from);
  }
  // Sensor clocks, from their own random stream: whole ms, so a record's ts stays an integer.
  const clockOffsets: Record<string, number> = {};
  if (o.sensorClockSkewMs > 0) {
    const r = createRng(hashSeed(o.seed, "clocks", index));
    for (let k = 0; k < nSensors; k++) {
      const offset = Math.round(r.uniform(-o.sensorClockSkewMs, o.sensorClockSkewMs));
      clockOffsets[sensorMacs[k]!] = offset;
      b.clockAhead(k, offset);
    }
  }

  // Sensor uploads, from their own random stream (a phase each), so nothing else changes.
  if (o.sensorUploadEveryMs > 0) {
    const r = createRng(hashSeed(o.seed, "uploads", index));
    for (let k = 0; k < nSensors; k++) b.uploadEvery(k, o.sensorUploadEveryMs, Math.floor(r.next() * o.sensorUploadEveryMs));
  }
  return { outages, clockOffsets };
}
