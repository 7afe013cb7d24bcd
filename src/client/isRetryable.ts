import { isHttpError } from "../errors/HttpError.ts";
import { isNetworkError } from "../errors/NetworkError.ts";
import { isTimeoutError } from "../errors/TimeoutError.ts";

/**
 * HTTP statuses worth another attempt: the request may well succeed later.
 *
 * @example
 * RETRYABLE_STATUSES.has(503); // true
 * RETRYABLE_STATUSES.has(404); // false
 */
export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([408, 429, 500, 502, 503, 504]);

const transient = new WeakSet<object>();

/**
 * Marks an error (a `ContractError` for a body that was cut short) as a transport fault
 * that {@link isRetryable} should accept, without changing its class.
 *
 * @example
 * const e = markTransient(new Error("cut short"));
 * isRetryable(e); // true
 */
export function markTransient<E extends object>(error: E): E {
  transient.add(error);
  return error;
}

/**
 * True when a failed request is worth retrying: a {@link NetworkError}, a
 * {@link TimeoutError}, a body that was cut short, or an {@link HttpError} with status
 * 408, 429, 500, 502, 503 or 504. Every other 4xx (and any other status) is final: the
 * same request would fail the same way. Contract violations and aborts are final too.
 *
 * @example
 * import { HttpError } from "footfall";
 * isRetryable(new HttpError({ status: 503, method: "GET", url: "http://x/", bodyExcerpt: "" })); // true
 * isRetryable(new HttpError({ status: 401, method: "GET", url: "http://x/", bodyExcerpt: "" })); // false
 */
export function isRetryable(error: unknown): boolean {
  if (isNetworkError(error) || isTimeoutError(error)) return true;
  if (isHttpError(error)) return RETRYABLE_STATUSES.has(error.status);
  return typeof error === "object" && error !== null && transient.has(error);
}
