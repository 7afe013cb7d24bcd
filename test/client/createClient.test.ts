import { getEventListeners } from "node:events";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createClient, defaultClientOptions, type ClientOptions, type RetryEvent } from "../../src/client/createClient.ts";
import { isHttpError, HttpError } from "../../src/errors/HttpError.ts";
import { isNetworkError } from "../../src/errors/NetworkError.ts";
import { isTimeoutError } from "../../src/errors/TimeoutError.ts";
import { isContractError } from "../../src/errors/ContractError.ts";
import { isShopNotFoundError } from "../../src/errors/ShopNotFoundError.ts";
import { isBrandNotFoundError } from "../../src/errors/BrandNotFoundError.ts";
import { isAmbiguousBrandError } from "../../src/errors/AmbiguousBrandError.ts";
import { BRANDS, SETTINGS, fakeFetch, hang, json, stalledBody, status, type Step } from "./fakeFetch.ts";

/** Retries without jitter, so waits are exact. */
const exact = { randomize: false, minTimeout: 100, maxTimeout: 10_000, factor: 2 } as const;

function client(steps: Step[], options: Partial<ClientOptions> = {}) {
  const fake = fakeFetch(...steps);
  const c = createClient({ ...SETTINGS, fetch: fake.fetch, retry: exact, ...options });
  return { client: c, calls: fake.calls };
}

/** Settles `promise` while running virtual time; returns the outcome without throwing. */
async function settle<T>(promise: Promise<T>): Promise<{ ok: true; value: T } | { ok: false; error: unknown }> {
  const outcome = promise.then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );
  await vi.runAllTimersAsync();
  return outcome;
}

const signal = (rssi: unknown = -60, i = 0) => ({
  row_key: `101:${(0x19a8f3c2e10 + i).toString(16).padStart(16, "0")}`,
  device_id: "f0:18:98:12:34:56",
  rssi,
  square_mac: "b8:27:eb:00:00:01",
  ts: 1763600000016 + i,
  local: false,
});

describe("createClient: options", () => {
  it("has documented defaults", () => {
    expect(defaultClientOptions.maxInFlight).toBe(4);
    expect(defaultClientOptions.retry.retries).toBeGreaterThan(0);
  });

  it.each([
    [{ baseUrl: "not a url" }, TypeError],
    [{ baseUrl: "ftp://x.test" }, TypeError],
    [{ baseUrl: "http://user:pw@x.test" }, TypeError],
    [{ baseUrl: "http://x.test/?a=1" }, TypeError],
    [{ signalUrl: "mailto:x@y" }, TypeError],
    [{ email: "" }, TypeError],
    [{ token: "  " }, TypeError],
    [{ token: "a\nb" }, TypeError],
    [{ timeoutMs: 0 }, RangeError],
    [{ timeoutMs: "5" }, TypeError],
    [{ timeoutMs: 2 ** 31 }, RangeError],
    [{ maxInFlight: 0 }, RangeError],
    [{ maxInFlight: 1.5 }, RangeError],
    [{ retry: { retries: -1 } }, RangeError],
    [{ retry: { factor: 0.5 } }, RangeError],
    [{ retry: { randomize: "yes" } }, TypeError],
    [{ retry: { onRetry: 3 } }, TypeError],
    [{ retry: { retry: 3 } }, TypeError],
    [{ timeout: 5 }, TypeError],
    [{ signal: {} }, TypeError],
  ])("rejects %j eagerly", (bad, type) => {
    expect(() => createClient({ ...SETTINGS, ...(bad as object) } as ClientOptions)).toThrow(type);
  });

  it("accepts Infinity where it makes sense and no signalUrl", () => {
    expect(() =>
      createClient({ baseUrl: SETTINGS.baseUrl, email: "a@b.c", token: "t", timeoutMs: Infinity, maxInFlight: Infinity, retry: { retries: Infinity } }),
    ).not.toThrow();
  });
});

describe("createClient: requests", () => {
  it("sends both auth headers on every request and JSON content type on the POST", async () => {
    const { client: c, calls } = client([json({ brands: BRANDS })]);
    await c.listBrands();
    await c.uploadDailySales(7, { date: "2026-11-20", amount: 1250000, quantity: 87, amount_currency: "KRW" });
    await c.getSignalsPage(7).catch(() => {});
    expect(calls).toHaveLength(3);
    for (const call of calls) {
      expect(call.headers.get("x-user-email")).toBe(SETTINGS.email);
      expect(call.headers.get("x-user-token")).toBe(SETTINGS.token);
    }
    expect(calls[0]!.headers.get("content-type")).toBeNull();
    expect(calls[1]!.method).toBe("POST");
    expect(calls[1]!.headers.get("content-type")).toBe("application/json");
    expect(calls[1]!.url).toBe("http://sales.test/api/v1/shops/7/sales_stats_dailies");
    expect(JSON.parse(calls[1]!.body!)).toEqual({
      sales_stats_daily: { date: "2026-11-20", amount: 1250000, quantity: 87, amount_currency: "KRW" },
    });
  });

  it("sends only the four contract fields of a sales record", async () => {
    const { client: c, calls } = client([status(201)]);
    const record = { date: "2026-02-28", amount: 10.5, quantity: 2, amount_currency: "KRW", note: "x" };
    await c.uploadDailySales(1, record);
    expect(Object.keys(JSON.parse(calls[0]!.body!).sales_stats_daily).sort()).toEqual(["amount", "amount_currency", "date", "quantity"]);
  });

  it.each([
    [{ date: "2026-02-29" }, RangeError],
    [{ date: "2026-13-01" }, RangeError],
    [{ date: "20261120" }, RangeError],
    [{ amount: Number.NaN }, TypeError],
    [{ quantity: 1.5 }, TypeError],
    [{ amount_currency: "krw" }, TypeError],
  ])("rejects a bad sales record %j before sending", async (patch, type) => {
    const { client: c, calls } = client([status(201)]);
    const record = { date: "2024-02-29", amount: 1, quantity: 1, amount_currency: "KRW", ...patch };
    await expect(c.uploadDailySales(1, record)).rejects.toThrow(type);
    expect(calls).toHaveLength(0);
  });

  it("encodes the brand name and External Key in the query, and the ids in the path", async () => {
    const { client: c, calls } = client([json({ shop: { id: 101, name: "Mori Gangnam" } })]);
    const brand = { id: 3, name: "Bakery & Co 모리" };
    const shop = await c.getShopByExternalKey(brand, "GN/001?x=1&y");
    expect(shop).toEqual({ id: 101, name: "Mori Gangnam" });
    const url = new URL(calls[0]!.url);
    expect(url.pathname).toBe("/api/v1/brands/3/shops/external");
    expect(url.searchParams.get("vendor")).toBe(brand.name);
    expect(url.searchParams.get("vendor_key")).toBe("GN/001?x=1&y");
    expect([...url.searchParams.keys()]).toEqual(["vendor", "vendor_key"]);
    // Percent-encoded throughout, spaces as %20: a server that decodes its query with
    // decodeURIComponent alone (no form rule turning `+` into a space) reads the same values.
    const query = url.search.slice(1).split("&").map((pair) => pair.split("=").map(decodeURIComponent));
    expect(query).toEqual([["vendor", brand.name], ["vendor_key", "GN/001?x=1&y"]]);
  });

  it("uses the signal URL with its path prefix, default limit 200, and omits since when not given", async () => {
    const { client: c, calls } = client([json({ signals: [], since: "" })]);
    await c.getSignalsPage(101);
    const url = new URL(calls[0]!.url);
    expect(url.origin + url.pathname).toBe("http://signals.test/prefix/api/v1/shops/101/wifi_signals");
    expect(url.searchParams.get("limit")).toBe("200");
    expect(url.searchParams.has("since")).toBe(false);
  });

  it("takes a trailing /api/v1 on a URL as the version the paths add, not part of the base", async () => {
    const { client: c, calls } = client(
      [json({ signals: [], since: "" }), json({ brands: [] })],
      { baseUrl: "http://sales.test/svc/api/v1/", signalUrl: "http://signals.test/api/v1" },
    );
    await c.getSignalsPage(101);
    await c.listBrands();
    expect(calls.map((call) => new URL(call.url).pathname)).toEqual(["/api/v1/shops/101/wifi_signals", "/svc/api/v1/brands"]);
  });

  it("clamps limit above 200 to 200 and passes since", async () => {
    const { client: c, calls } = client([json({ signals: [], since: "0000019a8f3c2e10" })]);
    const page = await c.getSignalsPage(101, { since: "0000019a8f3c2e10", limit: 5000 });
    const url = new URL(calls[0]!.url);
    expect(url.searchParams.get("limit")).toBe("200");
    expect(url.searchParams.get("since")).toBe("0000019a8f3c2e10");
    expect(page.since).toBe("0000019a8f3c2e10");
  });

  it.each([0, -1, 1.5, Number.NaN])("rejects limit %s with a RangeError and sends nothing", async (limit) => {
    const { client: c, calls } = client([json({ signals: [], since: "" })]);
    await expect(c.getSignalsPage(101, { limit })).rejects.toThrow(RangeError);
    expect(calls).toHaveLength(0);
  });

  it("fills a missing since with the requested one", async () => {
    const { client: c } = client([json({ signals: [signal()] })]);
    const page = await c.getSignalsPage(101, { since: "0000000000000001", limit: 5 });
    expect(page.since).toBe("0000000000000001");
    expect(page.signals).toHaveLength(1);
  });

  it("hands onBody each body it got, as text, before parsing it; not a failed status's", async () => {
    const body = JSON.stringify({ signals: [signal()], since: "" });
    const { client: c } = client([status(500, "busy"), status(200, body.slice(0, 20), { "content-type": "application/json" }), json(JSON.parse(body))], {
      retry: { ...exact, minTimeout: 0, maxTimeout: 0 },
    });
    const seen: string[] = [];
    const page = await c.getSignalsPage(101, { onBody: (text) => void seen.push(text) });
    expect(page.signals).toHaveLength(1);
    // The cut-short body too: the callback sees the text before the parse judges it.
    expect(seen).toEqual([body.slice(0, 20), body]);
    await expect(c.getSignalsPage(101, { onBody: "yes" as unknown as () => void })).rejects.toThrow(TypeError);
  });

  it("needs a signalUrl only for signals", async () => {
    const fake = fakeFetch(json({ brands: BRANDS }));
    const c = createClient({ baseUrl: SETTINGS.baseUrl, email: SETTINGS.email, token: SETTINGS.token, fetch: fake.fetch });
    expect(await c.listBrands()).toEqual(BRANDS);
    await expect(c.getSignalsPage(1)).rejects.toThrow(/signalUrl/);
  });

  it("does not follow redirects (the token would go along)", async () => {
    let redirect: RequestRedirect | undefined;
    const fetchSpy = (async (_url: RequestInfo | URL, init?: RequestInit) => {
      redirect = init?.redirect;
      return new Response("", { status: 302, headers: { location: "http://evil.test/" } });
    }) as typeof fetch;
    const c = createClient({ ...SETTINGS, fetch: fetchSpy, retry: { retries: 0 } });
    const error = await c.listBrands().catch((e: unknown) => e);
    expect(redirect).toBe("manual");
    expect(isHttpError(error) && error.status).toBe(302);
    expect((error as HttpError).location).toBe("http://evil.test/");
  });

  it("names where a redirect points (the usual one: http to https), without its query, so the fix is plain", async () => {
    const fetchSpy = (async (url: RequestInfo | URL) => {
      const https = String(url).replace("http://", "https://");
      return new Response("", { status: 301, headers: { location: `${https}?token=leak` } });
    }) as typeof fetch;
    const c = createClient({ ...SETTINGS, baseUrl: "http://svc.test", fetch: fetchSpy, retry: { retries: 0 } });
    const error = (await c.listBrands().catch((e: unknown) => e)) as HttpError;
    expect(error.location).toBe("https://svc.test/api/v1/brands");
    expect(error.message).toContain("a redirect to https://svc.test/api/v1/brands");
    expect(error.message).not.toContain("leak");
    // Not a redirect: no location.
    const plain = createClient({ ...SETTINGS, fetch: (async () => new Response("{}", { status: 404 })) as typeof fetch, retry: { retries: 0 } });
    expect(((await plain.listBrands().catch((e: unknown) => e)) as HttpError).location).toBeUndefined();
  });
});

describe("createClient: brand and shop lookup", () => {
  it("finds a brand exactly, then case-insensitively", async () => {
    const { client: c } = client([json({ brands: [...BRANDS, { id: 9, name: "cafe mori" }] })]);
    expect(await c.findBrand("cafe mori")).toEqual({ id: 9, name: "cafe mori" });
    expect(await c.findBrand("Cafe Mori")).toEqual({ id: 1, name: "Cafe Mori" });
    expect(await c.findBrand("  TEA HOUSE ")).toEqual({ id: 2, name: "Tea House" });
  });

  it("reads a body in the charset its Content-Type declares (a Korean service on an older stack sends EUC-KR)", async () => {
    // {"brands":[{"id":3,"name":"한빛"}]} in EUC-KR: 한빛 is C7 D1 BA FB there.
    const head = Buffer.from('{"brands":[{"id":3,"name":"', "latin1");
    const tail = Buffer.from('"}]}', "latin1");
    const body = Buffer.concat([head, Buffer.from([0xc7, 0xd1, 0xba, 0xfb]), tail]);
    const respond = (type: string) => new Response(body, { status: 200, headers: { "content-type": type } });
    const euckr = client([respond("application/json; charset=EUC-KR")]);
    expect(await euckr.client.findBrand("한빛")).toEqual({ id: 3, name: "한빛" });
    // Undeclared or unknown: UTF-8, so the name is not found.
    for (const type of ["application/json", "application/json; charset=x-unknown"]) {
      const other = client([respond(type)]);
      expect(isBrandNotFoundError(await other.client.findBrand("한빛").catch((e: unknown) => e))).toBe(true);
    }
  });

  it("finds a brand the service stores with stray spaces or in full-width letters, and returns the service's own name", async () => {
    const { client: c } = client([json({ brands: [{ id: 1, name: "Cafe Mori " }, { id: 2, name: "Ｈａｎｂｉｔ  Apparel" }, { id: 3, name: "한빛 상사" }] })]);
    expect(await c.findBrand("Cafe Mori")).toEqual({ id: 1, name: "Cafe Mori " });
    expect(await c.findBrand("hanbit apparel")).toEqual({ id: 2, name: "Ｈａｎｂｉｔ  Apparel" });
    // Hangul in decomposed form (NFD, as some systems store it) is the same name.
    expect(await c.findBrand("한빛 상사".normalize("NFD"))).toEqual({ id: 3, name: "한빛 상사" });
  });

  it("reports ambiguous and missing brands with typed errors", async () => {
    const { client: c } = client([json({ brands: [...BRANDS, { id: 9, name: "cafe mori" }, { id: 10, name: "Tea House" }] })]);
    const ci = await c.findBrand("CAFE MORI").catch((e: unknown) => e);
    expect(isAmbiguousBrandError(ci) && ci.candidates.map((b) => b.id)).toEqual([1, 9]);
    const twoExact = await c.findBrand("Tea House").catch((e: unknown) => e);
    expect(isAmbiguousBrandError(twoExact) && twoExact.candidates.map((b) => b.id)).toEqual([2, 10]);
    const missing = await c.findBrand("Cafe Mor").catch((e: unknown) => e);
    expect(isBrandNotFoundError(missing)).toBe(true);
    expect((missing as Error).message).toContain('"Cafe Mori"');
  });

  it("turns a 404 of the shop lookup into ShopNotFoundError that mentions registration", async () => {
    const { client: c, calls } = client([status(404, '{"error":"not found"}')]);
    const error = await c.getShopByExternalKey(BRANDS[0]!, "GN-999").catch((e: unknown) => e);
    expect(isShopNotFoundError(error)).toBe(true);
    expect((error as Error).message).toMatch(/registered with the service operator/);
    expect(isHttpError((error as Error).cause) && ((error as Error).cause as HttpError).status).toBe(404);
    expect(calls).toHaveLength(1);
  });

  it("treats a null shop as not found", async () => {
    const { client: c } = client([json({ shop: null })]);
    await expect(c.getShopByExternalKey(BRANDS[0]!, "GN-1")).rejects.toSatisfy(isShopNotFoundError);
  });
});

describe("createClient: contract checks", () => {
  it.each([
    [{ brands: {} }, "brands"],
    [{}, "brands"],
    [{ brands: [{ id: 1, name: "a" }, { id: "2", name: "b" }] }, "brands[1].id"],
    [{ brands: [{ id: 1 }] }, "brands[0].name"],
    [[], ""],
  ])("brands body %j → ContractError at %s", async (body, path) => {
    const { client: c, calls } = client([json(body)]);
    const error = await c.listBrands().catch((e: unknown) => e);
    expect(isContractError(error) && error.path).toBe(path);
    expect(calls).toHaveLength(1);
  });

  it("returns a page whose record has a mistyped field whole: records are the decoder's to reject, not the page's", async () => {
    const signals = [signal(-60, 0), signal(-61, 1), signal(-62, 2), signal("-63", 3)];
    const { client: c } = client([json({ signals, since: "" })]);
    expect((await c.getSignalsPage(101)).signals).toEqual(signals);
  });

  it("names `signals` when it is not an array", async () => {
    const { client: c } = client([json({ signals: { rssi: -60 }, since: "" })]);
    const error = await c.getSignalsPage(101).catch((e: unknown) => e);
    expect(isContractError(error) && error.path).toBe("signals");
  });

  it("rejects a page with more records than the limit", async () => {
    const { client: c } = client([json({ signals: [signal(), signal(-60, 1)], since: "" })]);
    const error = await c.getSignalsPage(101, { limit: 1 }).catch((e: unknown) => e);
    expect(isContractError(error) && error.path).toBe("signals");
  });

  it("an empty 204 is not mistaken for a body cut short", async () => {
    const { client: c, calls } = client([new Response(null, { status: 204 }), json({ brands: [] })]);
    const error = await c.listBrands().catch((e: unknown) => e);
    expect(isContractError(error) && error.path).toBe("");
    expect(calls).toHaveLength(1);
  });

  it("an empty 204 from the signals endpoint is an empty page (some services' \"no records\")", async () => {
    const { client: c, calls } = client([new Response(null, { status: 204 })]);
    expect(await c.getSignalsPage(101, { since: "0000019a9ec06410" })).toEqual({ signals: [], since: "0000019a9ec06410" });
    expect(calls).toHaveLength(1);
  });

  it("an empty 200 that declares Content-Length: 0 is an empty page too; one that declares nothing is retried as cut short", async () => {
    const { client: c, calls } = client([new Response("", { status: 200, headers: { "content-length": "0" } })]);
    expect(await c.getSignalsPage(101, { since: "0000019a9ec06410" })).toEqual({ signals: [], since: "0000019a9ec06410" });
    expect(calls).toHaveLength(1);
    const cut = client([new Response("", { status: 200 }), json({ signals: [], since: "" })]);
    expect((await cut.client.getSignalsPage(101)).signals).toEqual([]);
    expect(cut.calls).toHaveLength(2);
  });

  it("a body that is not JSON is a ContractError and is not retried", async () => {
    const { client: c, calls } = client([status(200, "<html>maintenance</html>", { "content-type": "text/html" })]);
    const error = await c.listBrands().catch((e: unknown) => e);
    expect(isContractError(error) && error.path).toBe("");
    expect((error as Error).message).toContain("not JSON");
    expect(calls).toHaveLength(1);
  });
});

describe("createClient: retries (virtual time)", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("503, 503, 200 → 3 calls and the result", async () => {
    const { client: c, calls } = client([status(503), status(503), json({ brands: BRANDS })]);
    const outcome = await settle(c.listBrands());
    expect(outcome).toEqual({ ok: true, value: BRANDS });
    expect(calls).toHaveLength(3);
    // Exponential without jitter: 100 ms, then 200 ms.
    expect(calls[1]!.at - calls[0]!.at).toBe(100);
    expect(calls[2]!.at - calls[1]!.at).toBe(200);
  });

  it("503 forever → retries + 1 calls, then the HttpError", async () => {
    const { client: c, calls } = client([status(503, "busy")], { retry: { ...exact, retries: 3 } });
    const outcome = await settle(c.listBrands());
    expect(outcome.ok).toBe(false);
    const error = (outcome as { error: unknown }).error;
    expect(isHttpError(error) && error.status).toBe(503);
    expect((error as HttpError).bodyExcerpt).toBe("busy");
    expect(calls).toHaveLength(4);
  });

  it.each([408, 429, 500, 502, 504])("retries %i", async (code) => {
    const { client: c, calls } = client([status(code), json({ brands: [] })]);
    expect(await settle(c.listBrands())).toEqual({ ok: true, value: [] });
    expect(calls).toHaveLength(2);
  });

  it.each([400, 401, 403, 404, 409, 422])("never retries %i", async (code) => {
    const { client: c, calls } = client([status(code), json({ brands: [] })]);
    const outcome = await settle(c.listBrands());
    expect(outcome.ok).toBe(false);
    expect(isHttpError((outcome as { error: unknown }).error)).toBe(true);
    expect(calls).toHaveLength(1);
  });

  it("retries the POST too", async () => {
    const { client: c, calls } = client([status(502), status(200)]);
    const outcome = await settle(c.uploadDailySales(1, { date: "2026-11-20", amount: 1, quantity: 1, amount_currency: "KRW" }));
    expect(outcome.ok).toBe(true);
    expect(calls.map((x) => x.method)).toEqual(["POST", "POST"]);
    expect(calls[1]!.body).toBe(calls[0]!.body);
  });

  it("retries network errors and wraps them in NetworkError", async () => {
    const { client: c, calls } = client([new TypeError("fetch failed", { cause: new Error("connect ECONNREFUSED") }), json({ brands: [] })]);
    expect(await settle(c.listBrands())).toEqual({ ok: true, value: [] });
    expect(calls).toHaveLength(2);
    const { client: c2 } = client([new TypeError("fetch failed")], { retry: { ...exact, retries: 1 } });
    const outcome = await settle(c2.listBrands());
    expect(isNetworkError((outcome as { error: unknown }).error)).toBe(true);
  });

  it("retries a body cut short, then succeeds", async () => {
    const { client: c, calls } = client([status(200, '{"brands":[{"id":1,"na'), json({ brands: BRANDS })]);
    expect(await settle(c.listBrands())).toEqual({ ok: true, value: BRANDS });
    expect(calls).toHaveLength(2);
  });

  it("a body shorter than its Content-Length is retried", async () => {
    const { client: c, calls } = client([status(200, '{"brands":[]}', { "content-length": "400" }), json({ brands: [] })]);
    expect(await settle(c.listBrands())).toEqual({ ok: true, value: [] });
    expect(calls).toHaveLength(2);
  });

  it("a body cut short every time ends in a ContractError after the retries", async () => {
    const { client: c, calls } = client([status(200, '{"signals":[{"row_key":"1:')], { retry: { ...exact, retries: 2 } });
    const outcome = await settle(c.getSignalsPage(1));
    expect(isContractError((outcome as { error: unknown }).error)).toBe(true);
    expect(calls).toHaveLength(3);
  });

  it("Retry-After: 2 waits at least 2 s of virtual time", async () => {
    const { client: c, calls } = client([status(429, "", { "retry-after": "2" }), json({ brands: [] })]);
    const pending = c.listBrands();
    await vi.advanceTimersByTimeAsync(1999);
    expect(calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toHaveLength(2);
    expect(calls[1]!.at - calls[0]!.at).toBeGreaterThanOrEqual(2000);
    await expect(pending).resolves.toEqual([]);
  });

  it("Retry-After as an HTTP date is honoured", async () => {
    const when = new Date(Date.now() + 3000).toUTCString();
    const { client: c, calls } = client([status(503, "", { "retry-after": when }), json({ brands: [] })]);
    expect(await settle(c.listBrands())).toEqual({ ok: true, value: [] });
    // HTTP dates have whole-second resolution.
    expect(calls[1]!.at - calls[0]!.at).toBeGreaterThanOrEqual(2000);
    expect(calls[1]!.at - calls[0]!.at).toBeLessThanOrEqual(3000);
  });

  it("a huge Retry-After waits only the cap", async () => {
    const { client: c, calls } = client([status(503, "", { "retry-after": "86400" }), json({ brands: [] })], {
      retry: { ...exact, maxRetryAfterMs: 5000 },
    });
    const error = await settle(c.listBrands());
    expect(error.ok).toBe(true);
    expect(calls[1]!.at - calls[0]!.at).toBe(5000);
  });

  it("HttpError carries retryAfterMs", async () => {
    const { client: c } = client([status(429, "", { "retry-after": "7" })], { retry: { retries: 0 } });
    const outcome = await settle(c.listBrands());
    expect(((outcome as { error: unknown }).error as HttpError).retryAfterMs).toBe(7000);
  });

  it("stops at the overall deadline", async () => {
    // Waits would be 400 then 800 ms; 400 + 800 > 1000, so the second retry is never started.
    const { client: c, calls } = client([status(503)], { retry: { ...exact, minTimeout: 400, retries: 10, maxRetryTime: 1000 } });
    const outcome = await settle(c.listBrands());
    expect(isHttpError((outcome as { error: unknown }).error)).toBe(true);
    expect(calls).toHaveLength(2);
  });

  it("full jitter keeps each wait within [0, ceiling]", async () => {
    const events: RetryEvent[] = [];
    const { client: c } = client([status(503)], {
      retry: { minTimeout: 100, factor: 2, maxTimeout: 300, retries: 5, randomize: true, onRetry: (e) => events.push(e) },
    });
    await settle(c.listBrands());
    expect(events.map((e) => e.attempt)).toEqual([1, 2, 3, 4, 5]);
    const ceilings = [100, 200, 300, 300, 300];
    events.forEach((e, i) => {
      expect(e.delayMs).toBeGreaterThanOrEqual(0);
      expect(e.delayMs).toBeLessThanOrEqual(ceilings[i]!);
    });
  });

  it("tells onRetry what failed and how long it waits", async () => {
    const events: RetryEvent[] = [];
    const { client: c } = client([status(503), json({ brands: [] })], { retry: { ...exact, retries: 2, onRetry: (e) => events.push(e) } });
    await settle(c.listBrands());
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ method: "GET", url: "http://sales.test/api/v1/brands", attempt: 1, retriesLeft: 2, delayMs: 100 });
    expect(isHttpError(events[0]!.error)).toBe(true);
  });

  it("abort during backoff stops further calls, rejects with the reason, leaves nothing behind", async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on("unhandledRejection", onUnhandled);
    try {
      const { client: c, calls } = client([status(503)], { retry: { ...exact, minTimeout: 10_000 } });
      const ac = new AbortController();
      const pending = c.listBrands({ signal: ac.signal });
      const outcome = pending.then(
        () => "resolved",
        (e: unknown) => e,
      );
      await vi.advanceTimersByTimeAsync(5000);
      expect(calls).toHaveLength(1);
      const reason = new Error("user cancelled");
      ac.abort(reason);
      expect(await outcome).toBe(reason);
      await vi.runAllTimersAsync();
      expect(calls).toHaveLength(1);
      expect(vi.getTimerCount()).toBe(0);
      // Give the process a real turn, so a stray rejection would have been reported.
      vi.useRealTimers();
      await new Promise((r) => setImmediate(r));
      expect(unhandled).toEqual([]);
    } finally {
      process.off("unhandledRejection", onUnhandled);
    }
  });

  it("a client-level signal cancels too, and an aborted one refuses new calls", async () => {
    const ac = new AbortController();
    const { client: c, calls } = client([hang()], { signal: ac.signal });
    const outcome = c.listBrands().catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(10);
    ac.abort("stop");
    expect(await outcome).toBe("stop");
    await expect(c.listBrands()).rejects.toBe("stop");
    expect(calls).toHaveLength(1);
  });

  it("aborts a request in flight even if fetch ignores its signal", async () => {
    const ignoring: Step = () => new Promise<Response>(() => {});
    const { client: c } = client([ignoring]);
    const ac = new AbortController();
    const outcome = c.listBrands({ signal: ac.signal }).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(10);
    ac.abort();
    expect((await outcome as Error).name).toBe("AbortError");
  });

  it("times out waiting for headers", async () => {
    const { client: c, calls } = client([hang()], { timeoutMs: 1000, retry: { retries: 0 } });
    const outcome = await settle(c.listBrands());
    const error = (outcome as { error: unknown }).error;
    expect(isTimeoutError(error) && error.phase).toBe("headers");
    expect(calls).toHaveLength(1);
  });

  it("the timeout covers a body that stalls after the headers, and is retried", async () => {
    const { client: c, calls } = client([stalledBody('{"brands":[')], { timeoutMs: 1000, retry: { ...exact, retries: 1 } });
    const outcome = await settle(c.listBrands());
    const error = (outcome as { error: unknown }).error;
    expect(isTimeoutError(error) && error.phase).toBe("body");
    expect(calls).toHaveLength(2);
  });
});

describe("createClient: maxInFlight", () => {
  it("bounds concurrent requests and queues the rest", async () => {
    let inFlight = 0;
    let peak = 0;
    const releases: (() => void)[] = [];
    const gated: Step = () =>
      new Promise<Response>((resolve) => {
        inFlight++;
        peak = Math.max(peak, inFlight);
        releases.push(() => {
          inFlight--;
          resolve(json({ brands: [] }));
        });
      });
    const { client: c, calls } = client([gated], { maxInFlight: 2 });
    const all = Promise.all(Array.from({ length: 5 }, () => c.listBrands()));
    while (calls.length < 5) {
      await new Promise((r) => setImmediate(r));
      expect(inFlight).toBeLessThanOrEqual(2);
      releases.shift()?.();
    }
    while (releases.length > 0) releases.shift()!();
    await all;
    expect(peak).toBe(2);
  });

  it("a caller waiting for a slot can abort and never sends", async () => {
    const { client: c, calls } = client([hang()], { maxInFlight: 1 });
    const first = new AbortController();
    const firstOutcome = c.listBrands({ signal: first.signal }).catch((e: unknown) => e);
    const queued = new AbortController();
    const queuedOutcome = c.listBrands({ signal: queued.signal }).catch((e: unknown) => e);
    await new Promise((r) => setImmediate(r));
    queued.abort("gave up");
    expect(await queuedOutcome).toBe("gave up");
    first.abort("done");
    expect(await firstOutcome).toBe("done");
    expect(calls).toHaveLength(1);
    // The slot is free again.
    const { client: c2, calls: calls2 } = client([json({ brands: [] })], { maxInFlight: 1 });
    await c2.listBrands();
    expect(calls2).toHaveLength(1);
  });
});

describe("createClient: the client object", () => {
  it("shows a safe summary in JSON and inspect", async () => {
    const c = createClient({ ...SETTINGS, token: "tok-SHOULD-NOT-LEAK", email: "person@example.com" });
    const { inspect } = await import("node:util");
    const json = JSON.stringify(c);
    expect(JSON.parse(json)).toMatchObject({ baseUrl: "http://sales.test", email: "p***@example.com", maxInFlight: 4 });
    for (const text of [json, inspect(c, { depth: 10, showHidden: true }), String(c)]) {
      expect(text).not.toContain("tok-SHOULD-NOT-LEAK");
      expect(text).not.toContain("person@example.com");
    }
  });
});

describe("createClient: signals after many calls", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("leaves no listener on a long-lived caller or client signal, after successes and after retries", async () => {
    const clientAc = new AbortController();
    const callAc = new AbortController();
    const ok = json({ brands: [] });
    // Each client answers 503 once (so one backoff wait), then 200 from then on.
    const { client: c } = client([status(503), ok], { signal: clientAc.signal });
    const { client: bare } = client([status(503), ok]);
    for (let i = 0; i < 3; i++) {
      expect(await settle(c.listBrands({ signal: callAc.signal }))).toEqual({ ok: true, value: [] });
      expect(await settle(c.listBrands())).toEqual({ ok: true, value: [] });
      expect(await settle(bare.listBrands({ signal: callAc.signal }))).toEqual({ ok: true, value: [] });
    }
    expect(getEventListeners(clientAc.signal, "abort")).toHaveLength(0);
    expect(getEventListeners(callAc.signal, "abort")).toHaveLength(0);
    expect(vi.getTimerCount()).toBe(0);
  });
});
