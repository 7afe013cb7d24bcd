import { FootfallError, errorGuard } from "./FootfallError.ts";

/**
 * The request never produced a complete response: connection refused or reset, DNS
 * failure, or the connection dropped while the body was being read. Retryable.
 * `cause` is a sanitized copy of the platform error (name, message, `code`), never the
 * original object, so it cannot carry the request or its headers.
 *
 * @example
 * const e = new NetworkError({ method: "GET", url: "http://127.0.0.1:1/api/v1/brands", reason: "connect ECONNREFUSED" });
 * e.message; // "GET http://127.0.0.1:1/api/v1/brands: network error: connect ECONNREFUSED"
 */
export class NetworkError extends FootfallError {
  override name = "NetworkError";
  /** Request method, e.g. `"GET"`. */
  readonly method: string;
  /** Request URL, without credentials. */
  readonly url: string;

  constructor(init: { method: string; url: string; reason: string; cause?: unknown }) {
    super(
      `${init.method} ${init.url}: network error: ${init.reason}`,
      init.cause === undefined ? undefined : { cause: init.cause },
    );
    this.method = init.method;
    this.url = init.url;
  }
}

/**
 * True when `value` is a {@link NetworkError}.
 *
 * @example
 * isNetworkError(new NetworkError({ method: "GET", url: "http://x/", reason: "reset" })); // true
 */
export const isNetworkError = errorGuard(NetworkError, "NetworkError");
