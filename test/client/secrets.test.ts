import { inspect } from "node:util";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createClient, type ClientOptions, type RetryEvent } from "../../src/client/createClient.ts";
import { fakeFetch, hang, json, stalledBody, status, type Step } from "./fakeFetch.ts";

const TOKEN = "tok-CANARY-7f3a9c1e";
const EMAIL = "canary.person@example.org";
/** Every form a leak could take. */
const FORBIDDEN = [TOKEN, encodeURIComponent(TOKEN), EMAIL, EMAIL.toUpperCase(), encodeURIComponent(EMAIL), "canary.person"];

/** Every rendering of a value a user or logger might produce. */
function renderings(value: unknown): string[] {
  const out = [inspect(value, { depth: 10, showHidden: true }), inspect(value, { depth: 10 }), JSON.stringify(value) ?? ""];
  if (value instanceof Error) {
    out.push(value.message, String(value), value.stack ?? "");
    let cause: unknown = value.cause;
    for (let i = 0; i < 10 && cause !== undefined; i++) {
      out.push(inspect(cause, { depth: 10, showHidden: true }), JSON.stringify(cause) ?? "");
      if (cause instanceof Error) out.push(cause.message, String(cause), cause.stack ?? "");
      cause = cause instanceof Error ? cause.cause : undefined;
    }
  }
  return out;
}

function expectClean(value: unknown): void {
  for (const text of renderings(value)) {
    for (const secret of FORBIDDEN) expect(text).not.toContain(secret);
  }
}

/** A body that echoes the credentials back, as a careless server might. */
const ECHO = `{"error":"invalid token ${TOKEN} for ${EMAIL}","hdr":"${encodeURIComponent(EMAIL)}"}`;

/** A fetch error whose message and cause carry the request, headers included. */
function leakyFetchError(): Error {
  const request = { headers: { "x-user-token": TOKEN, "x-user-email": EMAIL } };
  const inner = Object.assign(new Error(`socket hang up sending ${TOKEN}`), { code: "ECONNRESET", request });
  return Object.assign(new TypeError(`fetch failed for ${EMAIL}`, { cause: inner }), { request });
}

const cases: [string, Step[], (c: ReturnType<typeof createClient>) => Promise<unknown>][] = [
  ["HttpError 401 echoing the credentials", [status(401, ECHO)], (c) => c.listBrands()],
  ["HttpError 503 after retries", [status(503, ECHO)], (c) => c.listBrands()],
  ["HttpError on the POST", [status(400, ECHO)], (c) => c.uploadDailySales(1, { date: "2026-11-20", amount: 1, quantity: 1, amount_currency: "KRW" })],
  ["NetworkError from a leaky fetch error", [leakyFetchError()], (c) => c.listBrands()],
  ["NetworkError from a thrown non-error", [() => Promise.reject({ token: TOKEN })], (c) => c.listBrands()],
  ["TimeoutError (headers)", [hang()], (c) => c.listBrands()],
  ["TimeoutError (body)", [stalledBody(`{"echo":"${TOKEN}`)], (c) => c.listBrands()],
  ["ContractError: not JSON", [status(200, `<html>${TOKEN} ${EMAIL}</html>`)], (c) => c.listBrands()],
  ["ContractError: cut short", [status(200, `{"brands":[{"id":1,"name":"${TOKEN}`)], (c) => c.listBrands()],
  ["ContractError: bad field", [json({ brands: [{ id: TOKEN, name: EMAIL }] })], (c) => c.listBrands()],
  ["ContractError: bad signals page", [json({ signals: { row_key: TOKEN, device_id: EMAIL }, since: TOKEN })], (c) => c.getSignalsPage(1)],
  ["BrandNotFoundError", [json({ brands: [{ id: 1, name: "Cafe Mori" }] })], (c) => c.findBrand("Nope")],
  ["ShopNotFoundError", [status(404, ECHO)], (c) => c.getShopByExternalKey({ id: 1, name: "Cafe Mori" }, "GN-1")],
  ["abort", [hang()], (c) => c.listBrands({ signal: AbortSignal.abort() })],
];

describe("secrets never leak", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it.each(cases)("%s", async (_name, steps, call) => {
    const events: RetryEvent[] = [];
    const fake = fakeFetch(...steps);
    const options: ClientOptions = {
      baseUrl: "http://svc.test",
      signalUrl: "http://svc.test",
      email: EMAIL,
      token: TOKEN,
      fetch: fake.fetch,
      timeoutMs: 1000,
      retry: { retries: 2, minTimeout: 10, onRetry: (e) => events.push(e) },
    };
    const client = createClient(options);
    const outcome = call(client).then(
      () => undefined,
      (error: unknown) => error,
    );
    await vi.runAllTimersAsync();
    const error = await outcome;
    expect(error).toBeInstanceOf(Error);
    expectClean(error);
    expectClean(client);
    for (const event of events) expectClean(event);
    // The credentials did go out, in the headers where they belong.
    if (fake.calls.length > 0) expect(fake.calls[0]!.headers.get("x-user-token")).toBe(TOKEN);
  });

  it("masks the e-mail where it is shown", () => {
    const client = createClient({ baseUrl: "http://svc.test", email: EMAIL, token: TOKEN });
    expect(inspect(client)).toContain("c***@example.org");
  });

  it.each([
    [{ token: `${TOKEN}\n` + "x" }],
    [{ token: `${TOKEN} bad` }],
    [{ email: `${EMAIL}\u0000` }],
    [{ baseUrl: `http://u:${TOKEN}@svc.test` }],
    [{ baseUrl: `svc.test/${TOKEN}` }],
    [{ signalUrl: `http://svc.test/?token=${TOKEN}` }],
  ])("option errors do not echo secrets: %#", (patch) => {
    let caught: unknown;
    try {
      createClient({ baseUrl: "http://svc.test", email: EMAIL, token: TOKEN, ...patch });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(TypeError);
    expectClean(caught);
  });
});
