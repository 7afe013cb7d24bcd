import { FootfallError, errorGuard } from "./FootfallError.ts";

/**
 * A value from the service (or the user) could not be decoded: a malformed RTS,
 * row_key, MAC address or timestamp. `input` holds a short excerpt of what was seen.
 *
 * @example
 * try { parseRowKey("nope"); } catch (e) { if (isDecodeError(e)) console.log(e.field, e.input); }
 */
export class DecodeError extends FootfallError {
  override name = "DecodeError";
  /** What was being decoded, e.g. `"rts"`, `"row_key"`, `"device_id"`. */
  readonly field: string;
  /** Excerpt (≤ 64 characters) of the offending input. */
  readonly input: string;

  constructor(field: string, input: unknown, reason: string) {
    const excerpt = excerptOf(input);
    super(`cannot decode ${field} ${excerpt}: ${reason}`);
    this.field = field;
    this.input = excerpt;
  }
}

function excerptOf(input: unknown): string {
  let text: string;
  try {
    text = typeof input === "string" ? JSON.stringify(input) : String(JSON.stringify(input) ?? typeof input);
  } catch {
    text = typeof input;
  }
  return text.length > 64 ? `${text.slice(0, 61)}...` : text;
}

/**
 * True when `value` is a {@link DecodeError}.
 *
 * @example
 * isDecodeError(new DecodeError("rts", "zz", "not hex")); // true
 */
export const isDecodeError = errorGuard(DecodeError, "DecodeError");
