import type { DwellStats } from "../visits/dwellStats.ts";
import { hasPeopleEstimate } from "./hasPeopleEstimate.ts";
import type { PeopleEstimate } from "./PeopleEstimate.ts";

/**
 * The dwell of a shop-day (ms): with a people estimate (`hasPeopleEstimate`) the identity-known
 * visits' dwell (`PeopleEstimate.dwell`), else the MAC-level dwell of the visitor sessions. Only
 * a visit seen whole under one MAC has a dwell — under rotation every visitor session is a piece
 * of a visit, so the MAC-level median reads minutes for visits of twenty. The one rule behind the
 * `summary` line's `dwell` and the demo's dwell columns.
 *
 * @example
 * const mac = dwellStats([60_000, 120_000]);         // pieces of visits
 * const people = { visitors: 12, dwell: dwellStats([1_380_000]) } as PeopleEstimate;
 * shopDayDwell(mac, people).medianMs;    // 1380000 (23 min)
 * shopDayDwell(mac, undefined).medianMs; // 90000
 */
export function shopDayDwell(macDwell: DwellStats, people: Pick<PeopleEstimate, "visitors" | "dwell"> | undefined): DwellStats {
  return hasPeopleEstimate(people) ? people.dwell : macDwell;
}
