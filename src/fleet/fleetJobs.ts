import type { AnalyzeOptions } from "../analysis/analyze.ts";

/**
 * Name of the BullMQ queue every fleet job goes through (one queue: shop-day and tail jobs share
 * the workers).
 *
 * @example
 * import { Queue } from "bullmq";
 * const queue = new Queue(FLEET_QUEUE, { connection });
 * await queue.getJobCounts("failed");
 * await queue.close();
 */
export const FLEET_QUEUE = "footfall-fleet";

/**
 * Analysis settings a job carries (the JSON-safe part of `AnalyzeOptions`; the time zone is the
 * job's). Every worker analyses a job's records with exactly these.
 *
 * @example
 * const a: FleetAnalyzeOptions = { sessions: { gapMs: 300_000 }, classify: { minDwellMs: 60_000 } };
 */
export type FleetAnalyzeOptions = Pick<AnalyzeOptions, "sessions" | "classify" | "dwell">;

/**
 * A shop-day job: analyse the shop's records of one local day, [sinceMs, untilMs), and commit the
 * results with the day's checkpoint.
 *
 * @example
 * const d: ShopDayJobData = { kind: "day", shopId: 101, day: "2026-11-16", timeZone: "Asia/Seoul", sinceMs: 1795186800000, untilMs: 1795273200000, analyze: {} };
 */
export interface ShopDayJobData {
  readonly kind: "day";
  readonly shopId: number;
  /** Local date, YYYY-MM-DD. */
  readonly day: string;
  /** IANA zone the day is local to. */
  readonly timeZone: string;
  /** Local midnight starting the day, epoch ms. */
  readonly sinceMs: number;
  /** Next local midnight, epoch ms. */
  readonly untilMs: number;
  readonly analyze: FleetAnalyzeOptions;
}

/**
 * A tail job: follow one shop live, day after day, committing each local day when the service's
 * records pass its end. Runs until the tail is stopped; resumes from its checkpoint (the day in
 * progress, stored in PostgreSQL) wherever it runs next.
 *
 * @example
 * const t: TailJobData = { kind: "tail", shopId: 101, timeZone: "Asia/Seoul", pollIntervalMs: 5_000, analyze: {} };
 */
export interface TailJobData {
  readonly kind: "tail";
  readonly shopId: number;
  readonly timeZone: string;
  /** Wait between polls once caught up, ms. */
  readonly pollIntervalMs: number;
  readonly analyze: FleetAnalyzeOptions;
}

/**
 * Data of any fleet job.
 *
 * @example
 * const data: FleetJobData = { kind: "tail", shopId: 101, timeZone: "UTC", pollIntervalMs: 5_000, analyze: {} };
 */
export type FleetJobData = ShopDayJobData | TailJobData | RetainJobData;

/**
 * Job id of a shop-day: the same for the same shop and date, so enqueueing twice adds nothing.
 *
 * @example
 * shopDayJobId(101, "2026-11-16"); // "day-101-2026-11-16"
 */
export function shopDayJobId(shopId: number, day: string): string {
  return `day-${shopId}-${day}`;
}

/**
 * Job id of a shop's tail: one per shop, so at most one tail of a shop exists in the fleet.
 *
 * @example
 * tailJobId(101); // "tail-101"
 */
export function tailJobId(shopId: number): string {
  return `tail-${shopId}`;
}

/**
 * Data of the scheduled retention job (`footfall fleet retain --schedule`): a worker deletes the
 * per-device rows older than `retainDays` days (see `retainFleet`).
 *
 * @example
 * const data: RetainJobData = { kind: "retain", retainDays: 30 };
 */
export interface RetainJobData {
  readonly kind: "retain";
  /** Per-device rows of days older than this are deleted. */
  readonly retainDays: number;
}

/**
 * Id of the BullMQ job scheduler that runs retention: one per fleet, so scheduling again updates it.
 *
 * @example
 * RETAIN_SCHEDULER_ID; // "retain"
 */
export const RETAIN_SCHEDULER_ID = "retain";
