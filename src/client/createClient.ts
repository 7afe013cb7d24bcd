import pRetry from "p-retry";
import type { Brand } from "../contract/brand.ts";
import type { Shop } from "../contract/shop.ts";
import type { SalesStatsDaily, SalesStatsDailyRequest } from "../contract/salesStatsDaily.ts";
import type { SignalsResponse } from "../contract/rawSignal.ts";
import {
  HEADER_EMAIL,
  HEADER_TOKEN,
  SIGNALS_LIMIT_MAX,
  brandsPath,
  salesStatsDailiesPath,
  shopByExternalKeyPath,
  wifiSignalsPath,
} from "../contract/paths.ts";
import { ContractError } from "../errors/ContractError.ts";
import { HttpError, isHttpError } from "../errors/HttpError.ts";
import { NetworkError } from "../errors/NetworkError.ts";
import { ShopNotFoundError } from "../errors/ShopNotFoundError.ts";
import { TimeoutError } from "../errors/TimeoutError.ts";
import { rejectUnknownKeys } from "../options/rejectUnknownKeys.ts";
import type { CallOptions, Client, SignalsPageRequest } from "./Client.ts";
import { AttemptGuard } from "./AttemptGuard.ts";
import { backoffDelay } from "./backoffDelay.ts";
import { createRedactor } from "./createRedactor.ts";
import { createSemaphore, type Semaphore } from "./createSemaphore.ts";
import { isRetryable, markTransient } from "./isRetryable.ts";
import { isTruncatedJson } from "./isTruncatedJson.ts";
import { linkSignals } from "./linkSignals.ts";
import { matchBrand } from "./matchBrand.ts";
import { maskEmail } from "./maskEmail.ts";
import { parseRetryAfter } from "./parseRetryAfter.ts";
import { sanitizeCause } from "./sanitizeCause.ts";
import { sleep } from "./sleep.ts";
import { validateBrandsResponse } from "./validateBrandsResponse.ts";
import { validateShopResponse } from "./validateShopResponse.ts";
import { validateSignalsResponse } from "./validateSignalsResponse.ts";

/**
 * What the `onRetry` hook is told before the client waits and tries again.
 * Everything here is safe to log: the URL carries no credentials and `error` is one of
 * footfall's typed errors, scrubbed of the token and e-mail.
 *
 * @example
 * const onRetry = (e: RetryEvent) => console.error(`${e.method} ${e.url}: ${e.error.message}; retry in ${e.delayMs} ms`);
 */
export interface RetryEvent {
  /** Request method, e.g. `"GET"`. */
  readonly method: string;
  /** Request URL, without credentials. */
  readonly url: string;
  /** The attempt that just failed, 1-based. */
  readonly attempt: number;
  /** Retries still allowed, counting the one about to be made (the deadline may end them sooner). */
  readonly retriesLeft: number;
  /** How long the client now waits before the next attempt, in milliseconds. */
  readonly delayMs: number;
  /** Why the attempt failed: `HttpError`, `NetworkError`, `TimeoutError` or a cut-short `ContractError`. */
  readonly error: Error;
}

/**
 * Retry policy, shaped like p-retry's options (which run the loop underneath), with two
 * differences: `randomize` means *full jitter* (a uniform fraction of the backoff) rather
 * than p-retry's ×1–2 spread, and `maxRetryAfterMs` caps how long a server's
 * `Retry-After` can make the client wait.
 *
 * Retried: network errors, timeouts, bodies cut short, HTTP 408/429/500/502/503/504.
 * Never retried: any other status, contract violations, aborts.
 *
 * @example
 * createClient({ ...settings, retry: { retries: 8, maxRetryTime: 300_000, onRetry: (e) => console.error(e.error.message) } });
 */
export interface RetryOptions {
  /** Retries after the first attempt (so at most `retries + 1` requests). Integer ≥ 0 or `Infinity`. @default 4 */
  readonly retries?: number | undefined;
  /** Backoff ceiling before the first retry, in ms. @default 500 */
  readonly minTimeout?: number | undefined;
  /** Largest backoff ceiling between two attempts, in ms. @default 20000 */
  readonly maxTimeout?: number | undefined;
  /** Growth of the backoff ceiling per retry. @default 2 */
  readonly factor?: number | undefined;
  /**
   * Overall deadline in ms, counted from the start of the first attempt: no retry is
   * started (or waited for) that would begin after it. An attempt already running may
   * still take up to `timeoutMs`, so the worst case is `maxRetryTime + timeoutMs`.
   * @default 120000
   */
  readonly maxRetryTime?: number | undefined;
  /**
   * Longest wait a `Retry-After` header (seconds or HTTP date) can impose, in ms; a larger
   * value is cut to this. The wait is never shorter than the backoff. @default 30000
   */
  readonly maxRetryAfterMs?: number | undefined;
  /** Full jitter: wait a uniformly random fraction of the backoff ceiling. @default true */
  readonly randomize?: boolean | undefined;
  /**
   * Called before each wait-and-retry, e.g. to log it. If it throws, the call fails with
   * that error (as in p-retry), so keep it simple.
   */
  readonly onRetry?: ((event: RetryEvent) => void) | undefined;
}

/**
 * Options of {@link createClient}. Everything except the URLs and credentials has a
 * default in {@link defaultClientOptions}; all are checked when the client is created.
 *
 * @example
 * const options: ClientOptions = { baseUrl: "https://sales.example.com", signalUrl: "https://signals.example.com", email: "ops@example.com", token: "…" };
 */
export interface ClientOptions {
  /**
   * `{base_url}` of the service (brands, shops, sales): absolute http(s) URL, no credentials,
   * query or fragment. A trailing `/api/v1` is taken as the version the paths add, not doubled.
   */
  readonly baseUrl: string | URL;
  /**
   * `{signal_url}` of the service (signals; a trailing `/api/v1` as for `baseUrl`). Optional so a client used only for brands,
   * shops and sales need not know it; `getSignalsPage` then fails with a TypeError.
   */
  readonly signalUrl?: string | URL | undefined;
  /** Account e-mail, sent as `x-user-email`. Masked (`a***@example.com`) in anything the library prints. */
  readonly email: string;
  /** Account `authentication_token`, sent as `x-user-token`. Kept private; never printed. */
  readonly token: string;
  /** The `fetch` to use (inject one for tests or proxies). @default globalThis.fetch */
  readonly fetch?: typeof fetch | undefined;
  /** Limit for one attempt, in ms, covering the headers *and* the whole body. `Infinity` disables it. @default 30000 */
  readonly timeoutMs?: number | undefined;
  /** Retry policy; see {@link RetryOptions}. */
  readonly retry?: RetryOptions | undefined;
  /**
   * Most requests this client has on the wire at once; further calls queue (FIFO), so a
   * large backfill or upload cannot flood the service. Integer ≥ 1 or `Infinity`. @default 4
   */
  readonly maxInFlight?: number | undefined;
  /** Cancels every call of this client (in flight, queued or waiting to retry), e.g. on Ctrl-C. */
  readonly signal?: AbortSignal | undefined;
}

/**
 * Defaults of {@link ClientOptions} and {@link RetryOptions}. With them one call makes at
 * most 5 requests over at most about 2.5 minutes.
 *
 * @example
 * defaultClientOptions.retry.retries; // 4
 */
export const defaultClientOptions = Object.freeze({
  timeoutMs: 30_000,
  maxInFlight: 4,
  retry: Object.freeze({
    retries: 4,
    minTimeout: 500,
    maxTimeout: 20_000,
    factor: 2,
    maxRetryTime: 120_000,
    maxRetryAfterMs: 30_000,
    randomize: true,
  }),
});

interface ResolvedRetry {
  retries: number;
  minTimeout: number;
  maxTimeout: number;
  factor: number;
  maxRetryTime: number;
  maxRetryAfterMs: number;
  randomize: boolean;
  onRetry: ((event: RetryEvent) => void) | undefined;
}

const CLIENT_KEYS = new Set(["baseUrl", "signalUrl", "email", "token", "fetch", "timeoutMs", "retry", "maxInFlight", "signal"]);
const RETRY_KEYS = new Set(["retries", "minTimeout", "maxTimeout", "factor", "maxRetryTime", "maxRetryAfterMs", "randomize", "onRetry"]);
const BODY_EXCERPT_CHARS = 200;
const MAX_TIMER_MS = 2_147_483_647;
const INSPECT = Symbol.for("nodejs.util.inspect.custom");
/** Stateless between calls (no `stream` option), so one decoder serves every request. */
const utf8 = new TextDecoder();
/** Decoders of the other charsets services declared, by label (`undefined`: not one TextDecoder knows). */
const decoders = new Map<string, TextDecoder | undefined>();

/**
 * The decoder of a body: the charset its `Content-Type` declares when there is one TextDecoder
 * knows — JSON ought to be UTF-8, but a Korean service on an older stack may send EUC-KR, and
 * its brand names would otherwise not match — else UTF-8.
 */
function decoderOf(contentType: string | null): TextDecoder {
  const label = contentType === null ? undefined : /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(contentType)?.[1]?.toLowerCase();
  if (label === undefined || label === "utf-8" || label === "utf8") return utf8;
  if (!decoders.has(label)) {
    let decoder: TextDecoder | undefined;
    try {
      decoder = new TextDecoder(label);
    } catch {
      decoder = undefined; // an unknown label: read as UTF-8
    }
    // A handful of labels at most from a real service; a service inventing them gets no cache.
    if (decoders.size < 16) decoders.set(label, decoder);
    return decoder ?? utf8;
  }
  return decoders.get(label) ?? utf8;
}

/**
 * Creates a typed client for the four endpoints of the service. Every request carries
 * both auth headers, is bounded by `timeoutMs`, counted against `maxInFlight`, retried
 * per `retry` and checked against the contract. Errors are footfall's typed classes
 * (`HttpError`, `NetworkError`, `TimeoutError`, `ContractError`, `BrandNotFoundError`,
 * `AmbiguousBrandError`, `ShopNotFoundError`); an abort rejects with the signal's reason.
 * Bad options throw a TypeError or RangeError here, before any request.
 *
 * Redirects are not followed (an `HttpError` with the 3xx status results): following
 * one would send the token to wherever `Location` points.
 *
 * Call methods on the client (`client.listBrands()`), not detached from it.
 *
 * @example
 * import { createClient } from "footfall";
 * import { startSimulator } from "footfall/sim";
 * const sim = await startSimulator({ port: 0 }); // or your service's URLs and credentials
 * const client = createClient({ baseUrl: sim.baseUrl, signalUrl: sim.signalUrl, email: sim.email, token: sim.token });
 * const brand = await client.findBrand("Cafe Mori");
 * const shop = await client.getShopByExternalKey(brand, "MORI-GN-01");
 * const page = await client.getSignalsPage(shop.id, { limit: 200 });
 * page.signals.length; // 200
 * await sim.close();
 */
export function createClient(options: ClientOptions): Client {
  return new FootfallClient(options);
}

interface RequestSpec {
  readonly method: "GET" | "POST";
  readonly url: string;
  readonly body?: string;
}

/** Per-call state shared by the attempts of one call. */
interface CallState {
  /** performance.now() when the first attempt got its slot; the deadline counts from here. */
  start: number | undefined;
}

class FootfallClient implements Client {
  readonly #baseUrl: string;
  readonly #signalUrl: string | undefined;
  readonly #email: string;
  readonly #token: string;
  readonly #fetch: typeof fetch;
  readonly #timeoutMs: number;
  readonly #maxInFlight: number;
  readonly #retry: ResolvedRetry;
  readonly #signal: AbortSignal | undefined;
  readonly #slots: Semaphore;
  readonly #redact: (text: string) => string;

  constructor(options: ClientOptions) {
    if (typeof options !== "object" || options === null) throw new TypeError("Expected `options` to be an object.");
    rejectUnknownKeys(options, CLIENT_KEYS, "createClient options");
    this.#baseUrl = serviceUrl("baseUrl", options.baseUrl);
    this.#signalUrl = options.signalUrl === undefined ? undefined : serviceUrl("signalUrl", options.signalUrl);
    this.#email = credential("email", options.email, /^[\x20-\x7e]+$/);
    this.#token = credential("token", options.token, /^[\x21-\x7e]+$/);
    const fetchImpl = options.fetch ?? globalThis.fetch;
    if (typeof fetchImpl !== "function") throw new TypeError("Expected `fetch` to be a function (no global fetch found).");
    this.#fetch = fetchImpl;
    this.#timeoutMs = numberOption("timeoutMs", options.timeoutMs ?? defaultClientOptions.timeoutMs, { min: 1, infinity: true });
    // Timers wrap around above 2^31−1 ms and would fire at once.
    if (Number.isFinite(this.#timeoutMs) && this.#timeoutMs > MAX_TIMER_MS) {
      throw new RangeError(`Expected \`timeoutMs\` to be ≤ ${MAX_TIMER_MS} (about 24 days) or Infinity.`);
    }
    this.#maxInFlight = numberOption("maxInFlight", options.maxInFlight ?? defaultClientOptions.maxInFlight, {
      min: 1,
      infinity: true,
      integer: true,
    });
    this.#retry = resolveRetry(options.retry);
    if (options.signal !== undefined && !isAbortSignal(options.signal)) throw new TypeError("Expected `signal` to be an AbortSignal.");
    this.#signal = options.signal;
    this.#slots = createSemaphore(this.#maxInFlight);
    this.#redact = createRedactor(this.#token, this.#email);
  }

  /** `GET {base_url}/api/v1/brands`, checked against the contract. */
  async listBrands(options?: CallOptions): Promise<readonly Brand[]> {
    const url = `${this.#baseUrl}${brandsPath()}`;
    return this.#call({ method: "GET", url }, options, (text, res) => validateBrandsResponse(this.#json(text, res, url), url).brands);
  }

  /**
   * The brand called `name`: the exact match if there is exactly one; otherwise the
   * case-insensitive match (after Unicode NFC normalisation) if there is exactly one.
   * Several equal matches → `AmbiguousBrandError`; none → `BrandNotFoundError` listing the
   * names the account can see. Surrounding whitespace in `name` is ignored.
   */
  async findBrand(name: string, options?: CallOptions): Promise<Brand> {
    if (typeof name !== "string" || name.trim() === "") throw new TypeError("Expected brand `name` to be a non-empty string.");
    return matchBrand(await this.listBrands(options), name);
  }

  /**
   * `GET {base_url}/api/v1/brands/:brand_id/shops/external?vendor=<brand name>&vendor_key=<key>`.
   * A 404 (or a `null` shop) becomes `ShopNotFoundError`, whose message reminds that
   * External Keys must be registered with the service operator first; the HttpError is
   * its `cause`.
   */
  async getShopByExternalKey(brand: Brand, externalKey: string, options?: CallOptions): Promise<Shop> {
    if (typeof brand !== "object" || brand === null || !Number.isSafeInteger(brand.id) || typeof brand.name !== "string") {
      throw new TypeError("Expected `brand` to be a Brand ({ id: integer, name: string }), e.g. from findBrand().");
    }
    if (typeof externalKey !== "string" || externalKey === "") throw new TypeError("Expected `externalKey` to be a non-empty string.");
    // encodeURIComponent, not URLSearchParams: that writes a space as `+`, which only form-style
    // query parsers read back as a space; `%20` every parser does (a brand name has spaces).
    const query = `vendor=${encodeURIComponent(brand.name)}&vendor_key=${encodeURIComponent(externalKey)}`;
    const url = `${this.#baseUrl}${shopByExternalKeyPath(brand.id)}?${query}`;
    let body;
    try {
      body = await this.#call({ method: "GET", url }, options, (text, res) => validateShopResponse(this.#json(text, res, url), url));
    } catch (error) {
      if (isHttpError(error) && error.status === 404) throw new ShopNotFoundError(brand, externalKey, { cause: error });
      throw error;
    }
    if (body === null) throw new ShopNotFoundError(brand, externalKey);
    return body.shop;
  }

  /**
   * `POST {base_url}/api/v1/shops/:shop_id/sales_stats_dailies` with
   * `{ "sales_stats_daily": { date, amount, quantity, amount_currency } }` (only those four
   * fields are sent). Resolves once the service answers 2xx; its body is not interpreted
   * (the spec does not show it).
   *
   * Retried like a GET, on purpose: a daily record *overwrites* the same shop-day, so a
   * repeat after a lost response stores the same figures, never a double count.
   *
   * The record is checked first (TypeError/RangeError): `date` a real `YYYY-MM-DD` day,
   * `amount` a finite number, `quantity` an integer, `amount_currency` three capital letters.
   */
  async uploadDailySales(shopId: number, record: SalesStatsDaily, options?: CallOptions): Promise<void> {
    checkShopId(shopId);
    const payload: SalesStatsDailyRequest = { sales_stats_daily: checkRecord(record) };
    const url = `${this.#baseUrl}${salesStatsDailiesPath(shopId)}`;
    await this.#call({ method: "POST", url, body: JSON.stringify(payload) }, options, () => undefined);
  }

  /**
   * `GET {signal_url}/api/v1/shops/{shop_id}/wifi_signals?since=…&limit=…`, every record's
   * field types checked. `limit` defaults to 200 (the service maximum, fewest round trips);
   * a larger value is clamped to 200 because the service never returns more; below 1 or
   * not an integer is a RangeError. `since` is omitted from the query when not given.
   */
  async getSignalsPage(shopId: number, request: SignalsPageRequest = {}): Promise<SignalsResponse> {
    checkShopId(shopId);
    if (this.#signalUrl === undefined) throw new TypeError("This client has no `signalUrl`; pass one to createClient to read signals.");
    const { since, limit: asked = SIGNALS_LIMIT_MAX } = request;
    if (since !== undefined && (typeof since !== "string" || since === "")) throw new TypeError("Expected `since` to be a non-empty RTS string.");
    if (typeof asked !== "number" || !Number.isInteger(asked) || asked < 1) {
      throw new RangeError(`Expected \`limit\` to be an integer ≥ 1, got ${String(asked)}.`);
    }
    const limit = Math.min(asked, SIGNALS_LIMIT_MAX);
    const query = new URLSearchParams();
    if (since !== undefined) query.set("since", since);
    query.set("limit", String(limit));
    const url = `${this.#signalUrl}${wifiSignalsPath(shopId)}?${query}`;
    const onBody = request.onBody;
    if (onBody !== undefined && typeof onBody !== "function") throw new TypeError("Expected `onBody` to be a function.");
    return this.#call({ method: "GET", url }, request, (text, res) => {
      onBody?.(text);
      // 204 No Content is how some services say "no records", and a 200 that declares an empty
      // body (`Content-Length: 0`, Express's `res.end()`) too: an empty page, not a bad body. An
      // empty 200 that declares nothing could be a body cut short, and is retried as one.
      return validateSignalsResponse(text === "" && isDeclaredEmpty(res) ? { signals: [] } : this.#json(text, res, url), limit, since ?? "", url);
    });
  }

  /** Safe summary for `JSON.stringify(client)`: URLs, masked e-mail, limits; never the token. */
  toJSON(): { baseUrl: string; signalUrl: string | null; email: string; timeoutMs: number; maxInFlight: number } {
    return {
      baseUrl: this.#baseUrl,
      signalUrl: this.#signalUrl ?? null,
      email: maskEmail(this.#email),
      timeoutMs: this.#timeoutMs,
      maxInFlight: this.#maxInFlight,
    };
  }

  /** `util.inspect` / `console.log` show the same safe summary. */
  [INSPECT](_depth: number, options: unknown, inspect: (value: unknown, options: unknown) => string): string {
    return `FootfallClient ${inspect(this.toJSON(), options)}`;
  }

  /**
   * One call: the first attempt runs bare; only after it fails does p-retry take over (with
   * our own backoff wait inside `shouldRetry`). Nearly every call succeeds at once, and a
   * backfill makes thousands of them, so the success path skips p-retry's set-up and the
   * signal linking it would need; the retry sequence is unchanged because p-retry is
   * handed the first failure as its own first attempt.
   */
  async #call<T>(spec: RequestSpec, options: CallOptions | undefined, decode: (text: string, res: Response) => T): Promise<T> {
    const theirs = options?.signal;
    if (theirs !== undefined && !isAbortSignal(theirs)) throw new TypeError("Expected `signal` to be an AbortSignal.");
    const own = this.#signal;
    // A second controller only when there really are two signals to follow.
    const link = own !== undefined && theirs !== undefined ? linkSignals([own, theirs]) : undefined;
    const signal = link !== undefined ? link.signal : (own ?? theirs);
    const state: CallState = { start: undefined };
    try {
      if (signal?.aborted) throw signal.reason;
      let result: T;
      try {
        result = await this.#attempt(spec, signal, state, decode);
      } catch (error) {
        if (signal?.aborted) throw error; // turned into the abort reason below
        return await this.#retryAfter(spec, signal, state, decode, error);
      }
      if (signal?.aborted) throw signal.reason;
      return result;
    } catch (error) {
      // An abort wins over whatever the attempt was failing with, and keeps its own reason
      // (p-retry would wrap a non-Error reason in a TypeError).
      if (signal?.aborted) throw signal.reason;
      throw error;
    } finally {
      link?.dispose();
    }
  }

  /** The retry loop after a failed first attempt: p-retry replays `failure` as attempt 1. */
  #retryAfter<T>(
    spec: RequestSpec,
    signal: AbortSignal | undefined,
    state: CallState,
    decode: (text: string, res: Response) => T,
    failure: unknown,
  ): Promise<T> {
    const retry = this.#retry;
    let replay = true;
    return pRetry(
      () => {
        if (replay) {
          replay = false;
          throw failure;
        }
        return this.#attempt(spec, signal, state, decode);
      },
      {
        retries: retry.retries,
        // p-retry's own delay is switched off: it has no full jitter and no Retry-After,
        // so the wait happens in shouldRetry, which p-retry only calls when a retry is allowed.
        minTimeout: 0,
        maxTimeout: 0,
        maxRetryTime: Number.POSITIVE_INFINITY,
        signal,
        shouldRetry: async ({ error, attemptNumber, retriesLeft, retriesConsumed }) => {
          if (signal?.aborted || !isRetryable(error)) return false;
          const delayMs = this.#delayFor(error, retriesConsumed);
          const elapsed = performance.now() - (state.start ?? performance.now());
          // A retry that could only start after the deadline is not worth waiting for.
          if (elapsed + delayMs > retry.maxRetryTime) return false;
          retry.onRetry?.({ method: spec.method, url: spec.url, attempt: attemptNumber, retriesLeft, delayMs, error });
          await sleep(delayMs, signal);
          return true;
        },
      },
    );
  }

  #delayFor(error: Error, retriesConsumed: number): number {
    const r = this.#retry;
    const backoff = backoffDelay(retriesConsumed, r);
    const asked = isHttpError(error) ? error.retryAfterMs : undefined;
    return asked === undefined ? backoff : Math.max(backoff, Math.min(asked, r.maxRetryAfterMs));
  }

  /** One request: a slot, a timer over headers and body, typed errors, then `decode`. */
  async #attempt<T>(
    spec: RequestSpec,
    callSignal: AbortSignal | undefined,
    state: CallState,
    decode: (text: string, res: Response) => T,
  ): Promise<T> {
    if (callSignal?.aborted) throw callSignal.reason;
    const slots = this.#slots;
    // The uncontended path takes its slot without a promise.
    if (!slots.tryAcquire()) await slots.acquire(callSignal);
    state.start ??= performance.now();
    const guard = new AttemptGuard(callSignal, this.#timeoutMs);
    let phase: "headers" | "body" = "headers";
    let response: Response;
    let text: string;
    let bytes: number;
    try {
      // The caller may have aborted while this attempt waited for its slot.
      if (guard.signal.aborted) throw guard.signal.reason;
      // Built per request and handed only to fetch, so nothing long-lived holds the token.
      const headers: Record<string, string> = { accept: "application/json", [HEADER_EMAIL]: this.#email, [HEADER_TOKEN]: this.#token };
      const init: RequestInit = { method: spec.method, headers, signal: guard.signal, redirect: "manual" };
      if (spec.body !== undefined) {
        headers["content-type"] = "application/json";
        init.body = spec.body;
      }
      const fetchImpl = this.#fetch;
      response = await guard.race(fetchImpl(spec.url, init));
      phase = "body";
      // Bytes, not text(): the byte count is what a cut-short body is judged by.
      const buffer = await guard.race(response.arrayBuffer());
      bytes = buffer.byteLength;
      text = decoderOf(response.headers.get("content-type")).decode(buffer);
    } catch (error) {
      if (callSignal?.aborted) throw callSignal.reason;
      if (guard.timedOut) throw new TimeoutError({ method: spec.method, url: spec.url, timeoutMs: this.#timeoutMs, phase });
      const cause = sanitizeCause(error, this.#redact);
      // undici says only "fetch failed"; the useful part ("connect ECONNREFUSED …") is in the causes.
      const chain: string[] = [];
      for (let c: unknown = cause; c instanceof Error; c = c.cause) if (c.message !== "") chain.push(c.message);
      const detail = chain.join(": ") || cause.name;
      const reason = phase === "body" ? `connection failed while reading the body: ${detail}` : detail;
      throw new NetworkError({ method: spec.method, url: spec.url, reason, cause });
    } finally {
      guard.dispose();
      slots.release();
    }
    if (response.status < 200 || response.status > 299) {
      throw new HttpError({
        status: response.status,
        method: spec.method,
        url: spec.url,
        bodyExcerpt: this.#excerpt(text),
        retryAfterMs: parseRetryAfter(response.headers.get("retry-after")),
        location: response.status >= 300 && response.status < 400 ? redirectTarget(response.headers.get("location"), spec.url) : undefined,
      });
    }
    // A body shorter than its declared length was cut in transit, whatever it contains.
    const declared = response.headers.get("content-encoding") === null ? Number(response.headers.get("content-length") ?? NaN) : NaN;
    if (bytes < declared) {
      throw markTransient(new ContractError("", `body cut short: ${bytes} of ${declared} bytes`, { url: spec.url }));
    }
    return decode(text, response);
  }

  /** JSON.parse with the failure classified: cut short (retryable) or simply not JSON (final). */
  #json(text: string, response: Response, url: string): unknown {
    try {
      return JSON.parse(text);
    } catch (error) {
      // The SyntaxError quotes the body, which could echo a header back: keep only a scrubbed copy.
      const cause = sanitizeCause(error, this.#redact);
      // A 204 has no body by definition, so an empty one there is not a transport fault.
      if (response.status !== 204 && isTruncatedJson(text)) {
        throw markTransient(new ContractError("", `body cut short (unterminated JSON after ${text.length} characters)`, { url, cause }));
      }
      const type = response.headers.get("content-type") ?? "no content type";
      throw new ContractError("", `not JSON (${type}): ${this.#excerpt(text)}`, { url, cause });
    }
  }

  #excerpt(text: string): string {
    const flat = this.#redact(text).replace(/\s+/g, " ").trim();
    return flat.length > BODY_EXCERPT_CHARS ? `${flat.slice(0, BODY_EXCERPT_CHARS - 1)}…` : flat;
  }
}

/** A response that says it has no body: 204, or a `Content-Length: 0` not about a compressed body. */
function isDeclaredEmpty(res: Response): boolean {
  return res.status === 204 || (res.headers.get("content-length") === "0" && res.headers.get("content-encoding") === null);
}

/** A redirect's target for a message: resolved against the request, credentials and query dropped (they could hold secrets); `undefined` without one. */
function redirectTarget(location: string | null, from: string): string | undefined {
  if (location === null || location === "") return undefined;
  try {
    const url = new URL(location, from);
    return `${url.origin}${url.pathname}`;
  } catch {
    return undefined;
  }
}

function serviceUrl(name: string, value: unknown): string {
  if (!(typeof value === "string" || value instanceof URL)) throw new TypeError(`Expected \`${name}\` to be a URL string.`);
  let url: URL;
  try {
    url = new URL(String(value));
  } catch {
    // The value is not echoed: a mistyped setting can hold a credential.
    throw new TypeError(`Expected \`${name}\` to be an absolute http(s) URL.`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new TypeError(`Expected \`${name}\` to use http or https, got ${url.protocol}`);
  }
  if (url.username !== "" || url.password !== "") {
    throw new TypeError(`\`${name}\` must not contain credentials; pass \`email\` and \`token\` instead.`);
  }
  if (url.search !== "" || url.hash !== "") throw new TypeError(`\`${name}\` must not have a query or fragment.`);
  // `{base_url}/api/v1/…`: a URL given with the version already on it (as one copies it from an
  // endpoint) would double it, so a trailing `/api/v1` is the version, not part of the base.
  return `${url.origin}${url.pathname.replace(/\/+$/, "").replace(/\/api\/v1$/, "")}`;
}

function credential(name: "email" | "token", value: unknown, allowed: RegExp): string {
  if (typeof value !== "string" || value.trim() === "") throw new TypeError(`Expected \`${name}\` to be a non-empty string.`);
  const trimmed = value.trim();
  // Checked here because fetch's own "invalid header value" error could quote the value.
  if (!allowed.test(trimmed)) {
    throw new TypeError(`\`${name}\` contains characters that cannot be sent in an HTTP header (printable ASCII only).`);
  }
  return trimmed;
}

function numberOption(name: string, value: unknown, rule: { min: number; infinity?: boolean; integer?: boolean }): number {
  if (typeof value !== "number" || Number.isNaN(value)) {
    throw new TypeError(`Expected \`${name}\` to be a number${rule.infinity ? " or Infinity" : ""}.`);
  }
  if (value === Number.POSITIVE_INFINITY) {
    if (rule.infinity) return value;
    throw new RangeError(`Expected \`${name}\` to be a finite number.`);
  }
  if (rule.integer && !Number.isInteger(value)) throw new RangeError(`Expected \`${name}\` to be an integer, got ${value}.`);
  if (value < rule.min) throw new RangeError(`Expected \`${name}\` to be ≥ ${rule.min}, got ${value}.`);
  return value;
}

function resolveRetry(options: RetryOptions | undefined): ResolvedRetry {
  const d = defaultClientOptions.retry;
  if (options === undefined) return { ...d, onRetry: undefined };
  if (typeof options !== "object" || options === null) throw new TypeError("Expected `retry` to be an object.");
  rejectUnknownKeys(options, RETRY_KEYS, "retry option");
  const randomize = options.randomize ?? d.randomize;
  if (typeof randomize !== "boolean") throw new TypeError("Expected `retry.randomize` to be a boolean.");
  const onRetry = options.onRetry;
  if (onRetry !== undefined && typeof onRetry !== "function") throw new TypeError("Expected `retry.onRetry` to be a function.");
  return {
    retries: numberOption("retry.retries", options.retries ?? d.retries, { min: 0, infinity: true, integer: true }),
    minTimeout: numberOption("retry.minTimeout", options.minTimeout ?? d.minTimeout, { min: 0 }),
    maxTimeout: numberOption("retry.maxTimeout", options.maxTimeout ?? d.maxTimeout, { min: 0, infinity: true }),
    factor: numberOption("retry.factor", options.factor ?? d.factor, { min: 1 }),
    maxRetryTime: numberOption("retry.maxRetryTime", options.maxRetryTime ?? d.maxRetryTime, { min: 0, infinity: true }),
    maxRetryAfterMs: numberOption("retry.maxRetryAfterMs", options.maxRetryAfterMs ?? d.maxRetryAfterMs, { min: 0, infinity: true }),
    randomize,
    onRetry,
  };
}

function isAbortSignal(value: unknown): value is AbortSignal {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as AbortSignal).aborted === "boolean" &&
    typeof (value as AbortSignal).addEventListener === "function"
  );
}

function checkShopId(shopId: unknown): asserts shopId is number {
  if (typeof shopId !== "number") throw new TypeError("Expected `shopId` to be a number (the SHOP ID).");
  if (!Number.isSafeInteger(shopId) || shopId < 0) throw new RangeError(`Expected \`shopId\` to be a non-negative integer, got ${shopId}.`);
}

const DAYS_IN_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function checkRecord(record: SalesStatsDaily): SalesStatsDaily {
  if (typeof record !== "object" || record === null) throw new TypeError("Expected `record` to be a SalesStatsDaily object.");
  const { date, amount, quantity, amount_currency } = record;
  if (typeof date !== "string") throw new TypeError("Expected `record.date` to be a YYYY-MM-DD string.");
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  const year = Number(m?.[1]);
  const month = Number(m?.[2]);
  const day = Number(m?.[3]);
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const maxDay = month === 2 && !leap ? 28 : (DAYS_IN_MONTH[month - 1] ?? 0);
  if (m === null || month < 1 || month > 12 || day < 1 || day > maxDay) {
    throw new RangeError(`Expected \`record.date\` to be a real day as YYYY-MM-DD, got ${JSON.stringify(date)}.`);
  }
  if (typeof amount !== "number" || !Number.isFinite(amount)) throw new TypeError("Expected `record.amount` to be a finite number.");
  if (typeof quantity !== "number" || !Number.isSafeInteger(quantity)) throw new TypeError("Expected `record.quantity` to be an integer.");
  if (typeof amount_currency !== "string" || !/^[A-Z]{3}$/.test(amount_currency)) {
    throw new TypeError(`Expected \`record.amount_currency\` to be a 3-letter currency code such as "KRW".`);
  }
  return { date, amount, quantity, amount_currency };
}
