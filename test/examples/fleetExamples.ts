/**
 * Files under src/ whose `@example`s talk to the fleet's servers (a BullMQ queue on Redis, the
 * results in PostgreSQL): test/examples.test.ts leaves exactly these to
 * test/fleet/examples.test.ts, which starts its own redis-server and PostgreSQL (like the other
 * fleet tests, test/fleet/fleetServers.ts) and gives them the fixtures `connection`, `pool`,
 * `redisUrl`, `databaseUrl` … (test/examples/fleetFixtures.ts). Named one by one; the fleet's
 * other files (localDays.ts, redactUrl.ts, analyzeShopDay.ts: no server) stay in the examples test.
 */
export const FLEET_EXAMPLES: readonly string[] = [
  "cli/fleet.ts",
  "cli/fleetSettings.ts",
  "cli/worker.ts",
  "fleet/claimFence.ts",
  "fleet/commitShopDay.ts",
  "fleet/createFleetWorker.ts",
  "fleet/enqueueBackfill.ts",
  "fleet/enqueueTails.ts",
  "fleet/fleetCalibrations.ts",
  "fleet/fleetJobs.ts",
  "fleet/fleetSchema.ts",
  "fleet/fleetStatus.ts",
  "fleet/index.ts",
  "fleet/openFleetDatabase.ts",
  "fleet/openFleetRedis.ts",
  "fleet/readFleetResults.ts",
  "fleet/retainFleet.ts",
  "fleet/storeLiveOccupancy.ts",
  "fleet/waitForJobs.ts",
];

/** Why they are left to the fleet test (printed by test/examples.test.ts). */
export const FLEET_EXAMPLES_REASON = "their examples need Redis and PostgreSQL: test/fleet/examples.test.ts runs them against servers of its own";
