import { FootfallError, errorGuard } from "./FootfallError.ts";

/**
 * The service answered with a status outside 2xx. Carries what is needed to act on it
 * (status, method, URL, a short excerpt of the body, the server's `Retry-After`) and
 * nothing secret: the URL never holds credentials and the excerpt is scrubbed of the
 * token and the e-mail before it gets here.
 *
 * @example
 * const e = new HttpError({ status: 401, method: "GET", url: "http://127.0.0.1:8080/api/v1/brands", bodyExcerpt: "" });
 * e.status; // 401
 * e.message; // "GET http://127.0.0.1:8080/api/v1/brands failed with HTTP 401 (check the e-mail and token)"
 * new HttpError({ status: 301, method: "GET", url: "http://svc/api/v1/brands", bodyExcerpt: "", location: "https://svc/api/v1/brands" }).location; // "https://svc/api/v1/brands"
 */
export class HttpError extends FootfallError {
  override name = "HttpError";
  /** HTTP status code, e.g. `503`. */
  readonly status: number;
  /** Request method, e.g. `"GET"`. */
  readonly method: string;
  /** Request URL, without credentials. */
  readonly url: string;
  /** At most 200 characters of the response body, whitespace collapsed, secrets scrubbed. */
  readonly bodyExcerpt: string;
  /** Server-requested wait from `Retry-After`, in milliseconds, before any cap; absent when none was sent. */
  readonly retryAfterMs?: number;
  /** Where a redirect (3xx) pointed (`Location`, credentials and query removed); absent otherwise. */
  readonly location?: string;

  constructor(init: {
    status: number;
    method: string;
    url: string;
    bodyExcerpt: string;
    retryAfterMs?: number | undefined;
    location?: string | undefined;
  }) {
    const hint =
      init.status === 401 || init.status === 403
        ? " (check the e-mail and token)"
        : init.location !== undefined
          ? ` (a redirect to ${init.location}: footfall does not follow redirects, which would carry the token elsewhere; if that is the service, configure its address)`
          : "";
    const body = init.bodyExcerpt === "" ? "" : `: ${init.bodyExcerpt}`;
    super(`${init.method} ${init.url} failed with HTTP ${init.status}${hint}${body}`);
    this.status = init.status;
    this.method = init.method;
    this.url = init.url;
    this.bodyExcerpt = init.bodyExcerpt;
    if (init.retryAfterMs !== undefined) this.retryAfterMs = init.retryAfterMs;
    if (init.location !== undefined) this.location = init.location;
  }
}

/**
 * True when `value` is an {@link HttpError}.
 *
 * @example
 * isHttpError(new HttpError({ status: 404, method: "GET", url: "http://x/", bodyExcerpt: "" })); // true
 */
export const isHttpError = errorGuard(HttpError, "HttpError");
