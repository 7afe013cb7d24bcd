import { FootfallError } from "./FootfallError.ts";

/**
 * A problem at a line of an input file a user gave (a sales export, a counted-truth file): the
 * file, the 1-based line and the reason, with a message `file:line: reason` that editors and
 * terminals turn into a link. The base of `SalesInputError` and `TruthInputError`, which say what
 * the file was for.
 *
 * @example
 * const e = new InputLineError("counts.csv", 4, "negative people");
 * e.message; // "counts.csv:4: negative people"
 */
export class InputLineError extends FootfallError {
  override name = "InputLineError";
  /** File name (or other source label) of the input, as the caller gave it. */
  readonly source: string;
  /** 1-based line of the problem (the header's line for header problems, 0 for the file as a whole). */
  readonly line: number;
  /** The column the problem is about, when it is about one. */
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
