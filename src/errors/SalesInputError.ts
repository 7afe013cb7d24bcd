import { FootfallError, errorGuard } from "./FootfallError.ts";

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
export class SalesInputError extends FootfallError {
  override name = "SalesInputError";
  /** File name (or other source label) of the input. */
  readonly source: string;
  /** 1-based line of the problem (1 for header problems, 0 for the file as a whole). */
  readonly line: number;
  /** The missing or duplicated column, when the problem is about one. */
  readonly column?: string;
  /** The reason alone, without the `source:line:` prefix. */
  readonly reason: string;

  constructor(source: string, line: number, reason: string, options?: { column?: string; cause?: unknown }) {
    super(`${source === "" ? "input" : source}${line > 0 ? `:${line}` : ""}: ${reason}`, options?.cause === undefined ? undefined : { cause: options.cause });
    this.source = source;
    this.line = line;
    this.reason = reason;
    if (options?.column !== undefined) this.column = options.column;
  }
}

/**
 * True when `value` is a {@link SalesInputError}.
 *
 * @example
 * isSalesInputError(new SalesInputError("a.csv", 1, "empty file")); // true
 */
export const isSalesInputError = errorGuard(SalesInputError, "SalesInputError");
