import { describe, expect, it } from "vitest";
import { HttpError, isHttpError } from "../../src/errors/HttpError.ts";
import { NetworkError, isNetworkError } from "../../src/errors/NetworkError.ts";
import { TimeoutError, isTimeoutError } from "../../src/errors/TimeoutError.ts";
import { BrandNotFoundError, isBrandNotFoundError } from "../../src/errors/BrandNotFoundError.ts";
import { AmbiguousBrandError, isAmbiguousBrandError } from "../../src/errors/AmbiguousBrandError.ts";
import { ShopNotFoundError, isShopNotFoundError } from "../../src/errors/ShopNotFoundError.ts";
import { FootfallError } from "../../src/errors/FootfallError.ts";

const all = [
  [new HttpError({ status: 503, method: "GET", url: "http://x.test/a", bodyExcerpt: "busy", retryAfterMs: 2000 }), isHttpError],
  [new NetworkError({ method: "GET", url: "http://x.test/a", reason: "reset" }), isNetworkError],
  [new TimeoutError({ method: "GET", url: "http://x.test/a", timeoutMs: 10, phase: "body" }), isTimeoutError],
  [new BrandNotFoundError("x", ["a"]), isBrandNotFoundError],
  [new AmbiguousBrandError("a", [{ id: 1, name: "a" }, { id: 2, name: "A" }]), isAmbiguousBrandError],
  [new ShopNotFoundError({ id: 1, name: "a" }, "k"), isShopNotFoundError],
] as const;

describe("client error classes", () => {
  it.each(all)("%s is a FootfallError recognised by its own guard only", (error, guard) => {
    expect(error).toBeInstanceOf(FootfallError);
    expect(guard(error)).toBe(true);
    for (const [other, otherGuard] of all) if (other !== error) expect(otherGuard(error)).toBe(false);
    // A copy from another instance of the package is recognised by name.
    const foreign = Object.assign(new Error(error.message), error, { name: error.name });
    expect(guard(foreign)).toBe(true);
  });

  it("the DOM TimeoutError is not mistaken for ours", () => {
    expect(isTimeoutError(new DOMException("t", "TimeoutError"))).toBe(false);
  });

  it("messages say what happened", () => {
    expect(all[0][0].message).toBe("GET http://x.test/a failed with HTTP 503: busy");
    expect(new HttpError({ status: 401, method: "GET", url: "http://x.test/a", bodyExcerpt: "" }).message).toMatch(/check the e-mail and token/);
    expect(all[2][0].message).toMatch(/within 10 ms \(stalled reading the body\)/);
    expect(all[3][0].message).toBe('no brand named "x"; the account sees 1 brand: "a"');
    expect(all[5][0].message).toMatch(/External Key "k" for brand "a" \(id 1\).*registered with the service operator/);
  });

  it("BrandNotFoundError lists at most 20 names", () => {
    const names = Array.from({ length: 30 }, (_, i) => `b${i}`);
    const e = new BrandNotFoundError("x", names);
    expect(e.known).toHaveLength(20);
    expect(e.message).toMatch(/sees 30 brands: .*"b19", …$/);
  });
});
