import { errorGuard } from "./FootfallError.ts";
import { InputLineError } from "./InputLineError.ts";

/**
 * A sales file cannot be used as a whole: a required column is missing from its header, the
 * header is empty, or the CSV structure breaks (an unclosed quote) so that no row after that
 * point can be trusted. Problems with single rows are not thrown; they are reported as
 * rejected rows and the other rows go on.
 *
 * @example
 * const e = new SalesInputError("sales.csv", 1, 'missing column "quantity"', { column: "quantity" });
 * e.message; // 'sales.csv:1: missing column "quantity"'
 */
export class SalesInputError extends InputLineError {
  override name = "SalesInputError";
}

/**
 * True when `value` is a {@link SalesInputError}.
 *
 * @example
 * isSalesInputError(new SalesInputError("a.csv", 1, "empty file")); // true
 */
export const isSalesInputError = errorGuard(SalesInputError, "SalesInputError");
