import { createWorld, type WorldOptions } from "../../../src/sim/createWorld.ts";
import type { World } from "../../../src/sim/world/World.ts";

/** A small world (2 shops, 3 opening hours, light traffic) so tests stay fast. */
export const smallWorldOptions: WorldOptions = {
  seed: 7,
  brands: 2,
  shops: 2,
  openingHours: [10, 13],
  visitorsPerDay: 40,
  passersByPerDay: 300,
  staffPerShop: 2,
  stationaryPerShop: 1,
};

let cached: World | undefined;

/** The shared small world (built once per test file). */
export function smallWorld(): World {
  cached ??= createWorld(smallWorldOptions);
  return cached;
}

/** Auth headers for a simulator's account. */
export function authHeaders(sim: { email: string; token: string }): Record<string, string> {
  return { "x-user-email": sim.email, "x-user-token": sim.token };
}
