import { localMidnight } from "../../time/timeZone.ts";
import { MS_HOUR } from "../../time/durations.ts";
import { createRng, hashSeed, type Rng } from "../random/prng.ts";
import type { ShopContext } from "./ShopContext.ts";

/**
 * One local day of a shop while it is built: the day's random stream (staff shifts, visitors and
 * passers-by draw from it, in that order), its times (epoch ms), how busy it is, and the stream of
 * the devices people carry besides their phone, which visitors and passers-by share.
 *
 * @example
 * const o = resolveWorldOptions({ rotation: "off", timeZone: "UTC", start: 0 });
 * const layout = { widthM: 16, depthM: 12, doorXM: 8, sensors: [{ mac: "b8:27:eb:00:00:01", xM: 8, yM: 6 }] };
 * const seed: ShopSeed = { id: 101, name: "Cafe Mori Gangnam", brandId: 1, externalKey: "MORI-GN-01", profile: brandProfile(0), startMs: 0, endMs: 86_400_000, usedMacs: new Set() };
 * const shop: ShopContext = { o, index: 0, seed, b: new ShopBuilder(101, o, layout, seed.usedMacs, 1 << 12, undefined), layout, popularity: 1 };
 * const day: ShopDay = shopDay(shop, 0, 0);
 * [day.open, day.close, day.dayFactor]; // [36000000, 79200000, 1]
 */
export interface ShopDay {
  /** The local day, days since 1970-01-01. */
  readonly day: number;
  /** The world's first local day (returning devices come back on later days only). */
  readonly firstDay: number;
  /** The day's random stream. */
  readonly rng: Rng;
  readonly midnight: number;
  /** Opening and closing time, epoch ms. */
  readonly open: number;
  readonly close: number;
  /** Weekends ×1.3, Fridays ×1.1, other days ×1: visitors and passers-by are scaled by it. */
  readonly dayFactor: number;
  /** Every visitor's dwell this day is scaled by it (`WorldOptions.dwellDayVariation`; 1 without). */
  readonly dwellFactor: number;
  /** A time limited to the world's span. */
  readonly clip: (v: number) => number;
  /** The stream of the devices people carry besides their phone; undefined without real phones. */
  readonly devRng: Rng | undefined;
}

/**
 * The {@link ShopDay} of `shop` on local day `day`. Every stream it creates is seeded by the
 * shop and the day, and none is drawn from here but `dwellFactor`'s own, so creating it draws
 * nothing from any stream a part of the shop uses.
 *
 * @example
 * const o = resolveWorldOptions({ rotation: "off", start: "2026-11-21" }); // a Saturday
 * const layout = { widthM: 16, depthM: 12, doorXM: 8, sensors: [{ mac: "b8:27:eb:00:00:01", xM: 8, yM: 6 }] };
 * const [startMs, endMs] = worldSpan(o);
 * const seed: ShopSeed = { id: 101, name: "Cafe Mori Gangnam", brandId: 1, externalKey: "MORI-GN-01", profile: brandProfile(0), startMs, endMs, usedMacs: new Set() };
 * const shop: ShopContext = { o, index: 0, seed, b: new ShopBuilder(101, o, layout, seed.usedMacs, 1 << 12, undefined), layout, popularity: 1 };
 * shopDay(shop, epochDayOfDate("2026-11-21")!, epochDayOfDate("2026-11-21")!).dayFactor; // 1.3
 */
export function shopDay(shop: ShopContext, day: number, firstDay: number): ShopDay {
  const { o, index, seed } = shop;
  const [openH, closeH] = o.openingHours;
  const rng = createRng(hashSeed(o.seed, "day", index, day));
  const midnight = localMidnight(day, o.timeZone);
  const dow = (((day + 4) % 7) + 7) % 7; // 1970-01-01 was a Thursday; 0 = Sunday
  return {
    day,
    firstDay,
    rng,
    midnight,
    open: midnight + openH * MS_HOUR,
    close: midnight + closeH * MS_HOUR,
    dayFactor: dow === 0 || dow === 6 ? 1.3 : dow === 5 ? 1.1 : 1,
    // Its own stream: the day's draws (and so its people and MACs) stay those of a world without it.
    dwellFactor: o.dwellDayVariation > 0 ? Math.exp(o.dwellDayVariation * createRng(hashSeed(o.seed, "dwellDay", index, day)).normal()) : 1,
    clip: (v: number): number => Math.min(seed.endMs, Math.max(seed.startMs, v)),
    // Devices people carry besides their phone, from a stream of their own (only with real phones).
    devRng: o.realPhones === undefined || o.macBehaviour === undefined ? undefined : createRng(hashSeed(o.seed, "devices", index, day)),
  };
}
