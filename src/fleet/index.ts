/**
 * The fleet's public pieces, for users who embed them (a `footfall/fleet` entry point, so that
 * importing `footfall` does not load BullMQ, ioredis or pg): open the servers, create the schema,
 * enqueue shop-days and tails, run workers, set shops' people calibrations, read results and status.
 *
 * @example
 * import { openFleetRedis, openFleetDatabase, initFleetSchema, enqueueBackfill, createFleetWorker } from "footfall/fleet";
 * const connection = await openFleetRedis(redisUrl); // e.g. "redis://127.0.0.1:6379"
 * const pool = await openFleetDatabase(databaseUrl); // e.g. "postgres://footfall@127.0.0.1/footfall"
 * await initFleetSchema(pool);
 * const worker = createFleetWorker({ connection, pool, client });
 * await enqueueBackfill(connection, { shops: [101], sinceMs, untilMs, timeZone: "Asia/Seoul" });
 * // … when done
 * await worker.close();
 * await pool.end();
 *
 * @module footfall/fleet
 */
export { analyzeShopDay, type AnalyzeShopDayOptions, type ShopDayAnalysis } from "./analyzeShopDay.ts";
export { claimFence, dayScope } from "./claimFence.ts";
export { commitShopDay, sessionId, type ShopDayCommit } from "./commitShopDay.ts";
export { createFleetWorker, defaultFleetWorker, type FleetWorker, type FleetWorkerOptions } from "./createFleetWorker.ts";
export { addJobs, backfillJobs, defaultEnqueueBackfill, enqueueBackfill, type BackfillJob, type EnqueueBackfillOptions } from "./enqueueBackfill.ts";
export { defaultEnqueueTails, enqueueTails, stopTails, type EnqueueTailsOptions } from "./enqueueTails.ts";
export {
  FLEET_QUEUE,
  shopDayJobId,
  tailJobId,
  type FleetAnalyzeOptions,
  type FleetJobData,
  type ShopDayJobData,
  type TailJobData,
} from "./fleetJobs.ts";
export {
  clearFleetCalibrations,
  fleetCalibrations,
  setFleetCalibrations,
  shopCalibration,
  type CalibrationSet,
  type StoredCalibration,
} from "./fleetCalibrations.ts";
export { FLEET_SCHEMA_SQL, FLEET_SCHEMA_VERSION, assertFleetSchema, initFleetSchema } from "./fleetSchema.ts";
export { fleetStatus, type FleetStatus } from "./fleetStatus.ts";
export { localDays, type LocalDay } from "./localDays.ts";
export { defaultOpenFleetDatabase, openFleetDatabase, type OpenFleetDatabaseOptions } from "./openFleetDatabase.ts";
export { openFleetRedis } from "./openFleetRedis.ts";
export { defaultReadFleetResults, readFleetResults, type ReadFleetResultsOptions } from "./readFleetResults.ts";
export { redactUrl } from "./redactUrl.ts";
export { liveLine, storeLiveOccupancy, type LiveLine } from "./storeLiveOccupancy.ts";
export { defaultWaitForJobs, waitForJobs, type JobsProgress, type WaitForJobsOptions } from "./waitForJobs.ts";
export { FleetSettingsError, isFleetSettingsError } from "../errors/FleetSettingsError.ts";
export { FencedCommitError, isFencedCommitError } from "../errors/FencedCommitError.ts";
export type { RetainFleetOptions, RetainFleetResult, ScheduleRetentionOptions } from "./retainFleet.ts";
export { retainFleet, defaultRetainFleet, scheduleRetention } from "./retainFleet.ts";
