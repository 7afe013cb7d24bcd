import { MS_PER_DAY } from "../time/calendarDate.ts";
import { localDayOf } from "../time/timeZone.ts";
import { dayPassersBy } from "./people/dayPassersBy.ts";
import { dayVisitors, type ReturningDevices } from "./people/dayVisitors.ts";
import { drawShopLayout } from "./world/drawShopLayout.ts";
import { createRng, hashSeed } from "./random/prng.ts";
import type { TimedTransaction } from "./people/purchases.ts";
import type { ResolvedWorldOptions } from "./world/resolveWorldOptions.ts";
import { sensorFaults } from "./world/sensorFaults.ts";
import { ShopBuilder } from "./world/ShopBuilder.ts";
import type { ShopContext, ShopSeed } from "./world/ShopContext.ts";
import { shopDay } from "./world/shopDay.ts";
import { hireStaff, staffShifts } from "./people/shopStaff.ts";
import { stationaryEquipment } from "./people/stationaryEquipment.ts";
import type { OccupancyEvent, SensorOutage, ShopLayout, ShopSignals, SimShop, SimTransaction, TruthPersonVisit, TruthVisit } from "./world/World.ts";

/**
 * One shop of a world, built: what `World` answers for it.
 *
 * @example
 * const built: BuiltShop = buildShop(resolveWorldOptions({ rotation: "off", visitorsPerDay: 20, passersByPerDay: 50 }), 0, { id: 101, name: "Cafe Mori Gangnam", brandId: 1, externalKey: "MORI-GN-01", profile: brandProfile(0), startMs: 1_763_218_800_000, endMs: 1_763_305_200_000, usedMacs: new Set() });
 */
export interface BuiltShop {
  readonly shop: SimShop;
  readonly layout: ShopLayout;
  readonly table: ShopSignals;
  readonly outages: SensorOutage[];
  readonly clockOffsets: Record<string, number>;
  readonly truth: TruthVisit[];
  readonly visits: TruthPersonVisit[];
  readonly occupancy: OccupancyEvent[];
  readonly sales: SimTransaction[];
}

/**
 * Builds the world's shop number `index` (0-based) from `seed`: its floor and sensors and how busy
 * it is (the shop's stream), what is wrong with its sensors, its staff and equipment, then day by
 * day the staff's shifts, the visitors and the passers-by (the day's stream, in that order), and
 * the truth, signals and sales that follow. Every part draws from streams seeded by the world's
 * seed, `index` and (per day) the day, so the same options and seed give the same shop, bit for
 * bit, and a part that is switched off leaves the others' draws as they were.
 *
 * @example
 * const o = resolveWorldOptions({ rotation: "off", visitorsPerDay: 20, passersByPerDay: 50 });
 * const [startMs, endMs] = worldSpan(o);
 * const built = buildShop(o, 0, { id: 101, name: "Cafe Mori Gangnam", brandId: 1, externalKey: "MORI-GN-01", profile: brandProfile(0), startMs, endMs, usedMacs: new Set() });
 * built.table.count === createWorld({ rotation: "off", visitorsPerDay: 20, passersByPerDay: 50, shops: 1 }).signalCount(101); // true
 */
export function buildShop(o: ResolvedWorldOptions, index: number, seed: ShopSeed): BuiltShop {
  const rng = createRng(hashSeed(o.seed, "shop", index));
  const { layout, sensorMacs } = drawShopLayout(rng, o, seed.usedMacs);
  const popularity = rng.uniform(0.7, 1.3);
  const days = Math.max(1, Math.round((seed.endMs - seed.startMs) / MS_PER_DAY));
  const estimate = Math.ceil(days * (o.visitorsPerDay * 60 + o.passersByPerDay * 6 + o.staffPerShop * 2500 + o.stationaryPerShop * 8000) * popularity);
  const m = o.macBehaviour;
  // Bursts put several frames on each channel: a burst-model shop holds a few times more records.
  const b = new ShopBuilder(seed.id, o, layout, seed.usedMacs, m === undefined ? estimate : 3 * estimate, m, o.realPhones);
  const { outages, clockOffsets } = sensorFaults(o, index, seed, sensorMacs, b);

  const shop: SimShop = {
    id: seed.id,
    name: seed.name,
    brandId: seed.brandId,
    externalKey: seed.externalKey,
    timeZone: o.timeZone,
    sensors: sensorMacs,
  };
  const context: ShopContext = { o, index, seed, b, layout, popularity };
  const staff = hireStaff(context);
  stationaryEquipment(context);

  const sales: TimedTransaction[] = [];
  const returning: ReturningDevices = { macs: [], phones: [] };
  const firstDay = localDayOf(seed.startMs, o.timeZone);
  const lastDay = localDayOf(seed.endMs - 1, o.timeZone);
  for (let day = firstDay; day <= lastDay; day++) {
    const d = shopDay(context, day, firstDay);
    staffShifts(context, d, staff);
    dayVisitors(context, d, returning, sales);
    dayPassersBy(context, d);
  }

  b.truth.sort((p, q) => p.start - q.start || p.end - q.end || (p.device < q.device ? -1 : p.device > q.device ? 1 : 0));
  sales.sort((p, q) => p.ms - q.ms);
  b.visits.sort((p, q) => p.start - q.start || p.end - q.end || p.visit - q.visit);
  return {
    shop,
    layout,
    table: b.cols.finish(seed.id, b.devices, sensorMacs),
    outages,
    clockOffsets,
    truth: b.truth,
    visits: b.visits,
    occupancy: b.occupancy(),
    sales: sales.map((s) => s.t),
  };
}
