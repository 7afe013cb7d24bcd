/**
 * Conversion of a shop and period: receipts ÷ visitors, as a fraction (0.12 = 12 %), or
 * `undefined` — "not available" — when there were no visitors, or their number is unknown (`NaN`:
 * a people estimate that could not be made, see `summaryRecord`).
 *
 * The one rule for every table, chart, CSV and notebook: with no visitors a rate is not 0 % (the
 * sales did happen) and not ∞; `undefined` makes each caller say so ("n/a" in tables and charts,
 * an empty CSV cell) instead of passing on a fake 0 or a `NaN` that prints as "NaN %".
 * Receipts are net of refunds (see `netReceipts` in the sales area), so the rate can exceed 1
 * when visitors were under-counted, and is negative only when refunds outnumber sales.
 *
 * @param receipts net receipts of the period (a count; finite)
 * @param visitors unique visitors of the same shop and period (a count or an estimate; ≥ 0; `NaN` when unknown)
 * @returns receipts per visitor, a fraction; `undefined` when `visitors` is 0 or `NaN`
 * @throws RangeError when `receipts` is not finite or `visitors` is negative or infinite
 *
 * @example
 * conversionRate(57, 420); // 0.1357142857142857
 * conversionRate(12, 0);   // undefined (no visitors: not available)
 * conversionRate(12, NaN); // undefined (visitors unknown: not available)
 */
export function conversionRate(receipts: number, visitors: number): number | undefined {
  if (typeof receipts !== "number" || !Number.isFinite(receipts)) throw new RangeError(`receipts must be a finite number, got ${String(receipts)}`);
  if (Number.isNaN(visitors)) return undefined;
  if (typeof visitors !== "number" || !Number.isFinite(visitors) || visitors < 0) {
    throw new RangeError(`visitors must be a finite number ≥ 0, got ${String(visitors)}`);
  }
  return visitors === 0 ? undefined : receipts / visitors;
}
