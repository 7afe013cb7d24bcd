import type { OccupancyEvent } from "../world/World.ts";

/**
 * Options of {@link meanOccupancy}.
 *
 * @example
 * const options: MeanOccupancyOptions = { kinds: ["visitor"] };
 */
export interface MeanOccupancyOptions {
  /** Which people count. @default ["visitor", "staff"] */
  readonly kinds?: readonly OccupancyEvent["kind"][];
}

/**
 * Defaults of {@link MeanOccupancyOptions}.
 *
 * @example
 * defaultMeanOccupancy.kinds; // ["visitor", "staff"]
 */
export const defaultMeanOccupancy = Object.freeze({ kinds: Object.freeze(["visitor", "staff"] as const) });

/**
 * The true mean number of people inside over [startMs, endMs), exactly: the time integral of
 * the running sum of enter (+1) / leave (−1) events over the interval, divided by its length
 * (a person inside from s to e counts for |[s, e) ∩ [startMs, endMs)|). Pass one shop's events
 * (`world.occupancy(shopId)`); their order does not matter. Units: people; times epoch ms.
 * Throws RangeError unless startMs < endMs are finite.
 *
 * @example
 * const events = world.occupancy(101);
 * const noon = Date.parse("2026-11-16T12:00:00+09:00");
 * meanOccupancy(events, noon, noon + 15 * 60_000); // e.g. 7.4 people on average from 12:00 to 12:15
 * meanOccupancy(events, noon, noon + 15 * 60_000, { kinds: ["visitor"] }); // shoppers only
 */
export function meanOccupancy(events: readonly OccupancyEvent[], startMs: number, endMs: number, options: MeanOccupancyOptions = {}): number {
  if (!Number.isFinite(startMs) || !Number.isFinite(endMs)) throw new RangeError("startMs and endMs must be finite epoch ms");
  if (!(startMs < endMs)) throw new RangeError(`startMs must be before endMs, got [${startMs}, ${endMs})`);
  const kinds = options.kinds ?? defaultMeanOccupancy.kinds;
  if (!Array.isArray(kinds)) throw new TypeError("kinds must be an array of visitor / staff");
  const counted = new Set<string>(kinds);
  let area = 0;
  for (const e of events) {
    if (!counted.has(e.kind) || e.ms >= endMs) continue;
    // From its instant (or the interval's start) to the interval's end: a matched enter/leave
    // pair leaves exactly the overlap of the stay with the interval.
    area += e.delta * (endMs - Math.max(e.ms, startMs));
  }
  return area / (endMs - startMs);
}
