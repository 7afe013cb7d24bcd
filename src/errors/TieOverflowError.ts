import { FootfallError, errorGuard } from "./FootfallError.ts";

/**
 * More records share one RTS than the service will return in one page (even at limit 200),
 * so paging by `since` cannot get past them without skipping some. Raised instead of
 * looping forever or silently dropping records.
 *
 * @example
 * const e = new TieOverflowError(101, "0000019a8f3c2e10", 200);
 * e.shopId; // 101
 */
export class TieOverflowError extends FootfallError {
  override name = "TieOverflowError";
  readonly shopId: number;
  /** The RTS whose group of records does not fit in one page. */
  readonly rts: string;
  /** The page size that was tried last. */
  readonly limit: number;

  constructor(shopId: number, rts: string, limit: number) {
    super(`shop ${shopId}: at least ${limit} records share RTS ${rts}, so a page of ${limit} cannot advance past them without skipping records`);
    this.shopId = shopId;
    this.rts = rts;
    this.limit = limit;
  }
}

/**
 * True when `value` is a {@link TieOverflowError}.
 *
 * @example
 * isTieOverflowError(new TieOverflowError(1, "0000000000000001", 200)); // true
 */
export const isTieOverflowError = errorGuard(TieOverflowError, "TieOverflowError");
