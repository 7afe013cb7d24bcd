/**
 * The receipt one point-of-sale line stands for: +1 for a sale (amount ≥ 0, a free item
 * included), −1 for a refund (amount < 0), which cancels one receipt.
 *
 * The one refund rule behind every receipts figure (demo summary, hourly chart, daily CSV,
 * notebooks): receipts are what conversion divides by visitors, and a refunded sale did not
 * convert.
 *
 * @param amount the line's amount in major units of its currency (negative for refunds)
 * @throws RangeError when `amount` is not a finite number
 *
 * @example
 * receiptDelta(12_000); // 1
 * receiptDelta(-4_500); // -1
 */
export function receiptDelta(amount: number): 1 | -1 {
  if (typeof amount !== "number" || !Number.isFinite(amount)) throw new RangeError(`amount must be a finite number, got ${String(amount)}`);
  return amount < 0 ? -1 : 1;
}

/**
 * Net receipts of a set of point-of-sale lines (one shop-day, one hour…): sale lines minus
 * refund lines, each refund cancelling one receipt (see {@link receiptDelta}).
 *
 * @param amounts the lines' amounts in major units (negative for refunds)
 * @returns a count; negative only when refunds outnumber sales
 *
 * @example
 * netReceipts([12_000, 8_000, -12_000, 3_500]); // 2
 * netReceipts([]);                              // 0
 */
export function netReceipts(amounts: Iterable<number>): number {
  let receipts = 0;
  for (const amount of amounts) receipts += receiptDelta(amount);
  return receipts;
}
