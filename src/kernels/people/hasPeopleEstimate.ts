import type { PeopleEstimate } from "./PeopleEstimate.ts";

/**
 * Whether a shop-day has a people estimate that stands: one was made (`people` on) and its
 * `visitors` is finite (the estimator had identity-known visits to learn a burst rate from).
 * The one rule of when people figures are shown — in the `summary` line, the demo's tables and
 * daily.csv, and the people scoring; one made but not standing means people are unknown there
 * (`summaryRecord`), never the MAC-level count.
 *
 * @example
 * hasPeopleEstimate({ visitors: 412 } as PeopleEstimate);        // true
 * hasPeopleEstimate({ visitors: Number.NaN } as PeopleEstimate); // false (no burst rate: people unknown)
 * hasPeopleEstimate(undefined);                                   // false
 */
export function hasPeopleEstimate<P extends Pick<PeopleEstimate, "visitors">>(p: P | undefined): p is P {
  return p !== undefined && Number.isFinite(p.visitors);
}
