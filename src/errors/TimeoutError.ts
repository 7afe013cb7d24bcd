import { FootfallError } from "./FootfallError.ts";

/**
 * One attempt took longer than `timeoutMs`. The timeout covers the whole exchange:
 * waiting for the headers and reading the body to its end. Retryable.
 *
 * @example
 * const e = new TimeoutError({ method: "GET", url: "http://127.0.0.1:8080/api/v1/brands", timeoutMs: 30000, phase: "body" });
 * e.message; // "GET http://127.0.0.1:8080/api/v1/brands: no complete response within 30000 ms (stalled reading the body)"
 */
export class TimeoutError extends FootfallError {
  override name = "TimeoutError";
  /** Request method, e.g. `"GET"`. */
  readonly method: string;
  /** Request URL, without credentials. */
  readonly url: string;
  /** The per-attempt limit that was exceeded, in milliseconds. */
  readonly timeoutMs: number;
  /** Where the time ran out: before the headers arrived, or while reading the body. */
  readonly phase: "headers" | "body";

  constructor(init: { method: string; url: string; timeoutMs: number; phase: "headers" | "body" }) {
    const where = init.phase === "body" ? "stalled reading the body" : "no response headers";
    super(`${init.method} ${init.url}: no complete response within ${init.timeoutMs} ms (${where})`);
    this.method = init.method;
    this.url = init.url;
    this.timeoutMs = init.timeoutMs;
    this.phase = init.phase;
  }
}

/**
 * True when `value` is a {@link TimeoutError}. Note: this is footfall's class, not the
 * DOM `TimeoutError` DOMException.
 *
 * @example
 * isTimeoutError(new TimeoutError({ method: "GET", url: "http://x/", timeoutMs: 1, phase: "headers" })); // true
 */
export function isTimeoutError(value: unknown): value is TimeoutError {
  // The name alone would also match the platform's DOMException "TimeoutError", so a copy
  // from another package instance must also carry our `timeoutMs` field.
  return (
    value instanceof TimeoutError ||
    (value instanceof Error && value.name === "TimeoutError" && typeof (value as { timeoutMs?: unknown }).timeoutMs === "number")
  );
}
