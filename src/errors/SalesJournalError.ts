import { FootfallError, errorGuard } from "./FootfallError.ts";

/**
 * The sales upload journal exists but cannot be used (not JSON, not a footfall journal, or
 * an unknown version). It is not overwritten, because it is the record of what was already
 * uploaded; fix it, move it away, or point `--journal` at another file.
 *
 * @example
 * const e = new SalesJournalError("sales.csv.journal.json", "not valid JSON");
 * e.message; // "sales journal sales.csv.journal.json: not valid JSON"
 */
export class SalesJournalError extends FootfallError {
  override name = "SalesJournalError";
  /** Path (or label) of the journal. */
  readonly location: string;

  constructor(location: string, reason: string, options?: { cause?: unknown }) {
    super(`sales journal ${location}: ${reason}`, options);
    this.location = location;
  }
}

/**
 * True when `value` is a {@link SalesJournalError}.
 *
 * @example
 * isSalesJournalError(new SalesJournalError("j.json", "bad")); // true
 */
export const isSalesJournalError = errorGuard(SalesJournalError, "SalesJournalError");
