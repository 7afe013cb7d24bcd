import { brandProfile, shopIdentity, type BrandProfile } from "./world/brandProfiles.ts";
import { buildShop } from "./buildShop.ts";
import { createRng, hashSeed } from "./random/prng.ts";
import { rawSignalsOf } from "./world/rawSignalsOf.ts";
import { resolveWorldOptions, worldSpan } from "./world/resolveWorldOptions.ts";
import { MOUNT_HEIGHT_M } from "./world/ShopBuilder.ts";
import { surveySamples } from "./world/surveySamples.ts";
import type {
  OccupancyEvent,
  PathLossModel,
  ShopLayout,
  ShopSignals,
  SimBrand,
  SimShop,
  SimTransaction,
  SensorOutage,
  TruthPersonVisit,
  TruthVisit,
  World,
} from "./world/World.ts";
import type { WorldOptions } from "./world/worldOptions.ts";

// The world's options live in worldOptions.ts; they are exported from here too, where every
// caller of createWorld has always imported them.
export type { WorldOptions, SensorOutageOptions } from "./world/worldOptions.ts";
export { defaultWorldOptions } from "./world/worldOptions.ts";

/**
 * Builds a seeded, deterministic world: brands, shops with sensors, devices moving through
 * a daily arrival profile (visitors, passers-by, staff, stationary equipment), every signal
 * record (log-distance path loss + noise, wall loss outside), the ground truth, and
 * point-of-sale transactions of the visitors who bought something. With `rotation` on, phones
 * probe in bursts and many rotate their randomized MACs (see `MacBehaviour`), and the truth
 * says which person used which MAC (`visits`, `occupancy`).
 * Throws TypeError/RangeError for invalid options.
 *
 * @example
 * const world = createWorld({ seed: 7, shops: 1, openingHours: [10, 13] });
 * const shop = world.shops[0]!;
 * const first = world.rawSignals(shop.id).next().value; // { row_key: "101:…", device_id, rssi, square_mac, ts, local }
 * const rotating = createWorld({ seed: 7, shops: 1, rotation: "realistic" });
 * rotating.visits(101)[0]!.macs.length; // how many MACs the first person used
 */
export function createWorld(options: WorldOptions = {}): World {
  const o = resolveWorldOptions(options);
  const model: PathLossModel = {
    rssiAt1m: o.rssiAt1m,
    pathLossExponent: o.pathLossExponent,
    wallLossDb: o.wallLossDb,
    noiseDb: o.rssiNoiseDb,
    sensitivityDbm: o.sensitivityDbm,
    deviceSpreadDb: o.deviceSpreadDb,
    shadowingDb: o.shadowingDb,
    mountHeightM: MOUNT_HEIGHT_M,
  };
  const [startMs, endMs] = worldSpan(o);

  const brands: SimBrand[] = [];
  const profiles: BrandProfile[] = [];
  for (let b = 0; b < o.brands; b++) {
    const p = brandProfile(b);
    brands.push({ id: b + 1, name: p.name });
    profiles.push(p);
  }

  const shops: SimShop[] = [];
  const layouts: ShopLayout[] = [];
  const tables: ShopSignals[] = [];
  const truths: TruthVisit[][] = [];
  const personVisits: TruthPersonVisit[][] = [];
  const occupancies: OccupancyEvent[][] = [];
  const outages: SensorOutage[][] = [];
  const clockOffsets: Record<string, number>[] = [];
  const sales: SimTransaction[][] = [];
  const usedMacs = new Set<string>();
  const perBrandCount = new Array<number>(o.brands).fill(0);
  for (let s = 0; s < o.shops; s++) {
    const b = s % o.brands;
    const profile = profiles[b]!;
    const nth = ++perBrandCount[b]!;
    const { name, externalKey } = shopIdentity(s, b, nth, profile);
    const built = buildShop(o, s, {
      id: 101 + s,
      name,
      brandId: b + 1,
      externalKey,
      profile,
      startMs,
      endMs,
      usedMacs,
    });
    shops.push(built.shop);
    layouts.push(built.layout);
    tables.push(built.table);
    truths.push(built.truth);
    personVisits.push(built.visits);
    occupancies.push(built.occupancy);
    outages.push(built.outages);
    clockOffsets.push(built.clockOffsets);
    sales.push(built.sales);
  }

  const indexOf = new Map<number, number>(shops.map((shop, i) => [shop.id, i]));
  const at = (shopId: number): number | undefined => indexOf.get(shopId);
  const allTruth = truths.flat();
  const allVisits = personVisits.flat();
  const allOccupancy = occupancies.flat();
  const allOutages = outages.flat();
  const allSales = sales.flat();
  let total = 0;
  for (const t of tables) total += t.count;

  return {
    seed: o.seed,
    brands,
    shops,
    startMs,
    endMs,
    model,
    macBehaviour: o.macBehaviour,
    phones: o.realPhones,
    sensorClockOffsets: (id) => {
      const i = at(id);
      return i === undefined ? {} : clockOffsets[i]!;
    },
    sensorOutages: (id) => {
      if (id === undefined) return allOutages;
      const i = at(id);
      return i === undefined ? [] : outages[i]!;
    },
    shop: (id) => {
      const i = at(id);
      return i === undefined ? undefined : shops[i];
    },
    layout: (id) => {
      const i = at(id);
      return i === undefined ? undefined : layouts[i];
    },
    truth: (id) => {
      if (id === undefined) return allTruth;
      const i = at(id);
      return i === undefined ? [] : truths[i]!;
    },
    visits: (id) => {
      if (id === undefined) return allVisits;
      const i = at(id);
      return i === undefined ? [] : personVisits[i]!;
    },
    occupancy: (id) => {
      if (id === undefined) return allOccupancy;
      const i = at(id);
      return i === undefined ? [] : occupancies[i]!;
    },
    signalCount: (id) => {
      if (id === undefined) return total;
      const i = at(id);
      return i === undefined ? 0 : tables[i]!.count;
    },
    signalTable: (id) => {
      const i = at(id);
      return i === undefined ? undefined : tables[i];
    },
    rawSignals: (id, fromMs = -Infinity, toMs = Infinity) => {
      const i = at(id);
      return rawSignalsOf(i === undefined ? undefined : tables[i], fromMs, toMs);
    },
    transactions: (id) => {
      if (id === undefined) return allSales;
      const i = at(id);
      return i === undefined ? [] : sales[i]!;
    },
    surveySamples: (id, sensorMac, distancesM, perDistance) => {
      const i = at(id);
      if (i === undefined) throw new RangeError(`no shop ${id}`);
      if (!shops[i]!.sensors.includes(sensorMac)) throw new RangeError(`shop ${id} has no sensor ${sensorMac}`);
      if (!Number.isInteger(perDistance) || perDistance < 0) throw new RangeError("perDistance must be a non-negative integer");
      for (const d of distancesM) {
        if (!Number.isFinite(d) || d <= 0) throw new RangeError(`distances must be positive metres, got ${d}`);
      }
      return surveySamples(model, createRng(hashSeed(o.seed, "survey", id, sensorMac, distancesM.join(","), perDistance)), distancesM, perDistance);
    },
  };
}
