import { errorGuard } from "./FootfallError.ts";
import { InputLineError } from "./InputLineError.ts";

/**
 * A counted-truth file (people counted by hand or by a door counter, for `footfall calibrate
 * --truth`) cannot be used. Unlike a sales file, a truth file is rejected as a whole on its first
 * problem: a calibration fitted on half a file, or on rows that contradict each other, would be
 * wrong without anyone noticing, and a truth file is small enough to fix and give again. The CLI
 * maps this error to exit code 2 (bad usage).
 *
 * Thrown for: no header or a required column missing, a header that is neither truth shape, an
 * unparsable time or date, a time without a UTC offset, `end` not after `start`, a negative or
 * non-number count, a `shop_id` that is not a whole number, a row with the wrong number of
 * fields, two rows claiming different counts for the same shop and moment (or day), a file
 * with no data rows, and a file that cannot be read.
 *
 * @example
 * const e = new TruthInputError("a.truth.csv", 3, "end 2024-03-14T13:00:00+01:00 is not after start 2024-03-14T14:00:00+01:00");
 * e.message; // "a.truth.csv:3: end 2024-03-14T13:00:00+01:00 is not after start 2024-03-14T14:00:00+01:00"
 * e.line; // 3
 */
export class TruthInputError extends InputLineError {
  override name = "TruthInputError";
}

/**
 * True when `value` is a {@link TruthInputError} (also one thrown by another copy of the package).
 *
 * @example
 * isTruthInputError(new TruthInputError("a.truth.csv", 1, "empty file")); // true
 * isTruthInputError(new Error("a.truth.csv:1: empty file")); // false
 */
export const isTruthInputError = errorGuard(TruthInputError, "TruthInputError");
