import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import { sanitizeCause } from "../../src/client/sanitizeCause.ts";

describe("sanitizeCause", () => {
  it("keeps name, redacted message and code, and drops everything else", () => {
    const inner = Object.assign(new Error("connect ECONNREFUSED SECRET"), { code: "ECONNREFUSED", headers: { token: "SECRET" } });
    const outer = Object.assign(new TypeError("fetch failed", { cause: inner }), { request: { token: "SECRET" } });
    const safe = sanitizeCause(outer, (s) => s.replaceAll("SECRET", "[redacted]"));
    expect(safe.name).toBe("TypeError");
    expect(safe.message).toBe("fetch failed");
    const cause = safe.cause as Error & { code?: string };
    expect(cause.message).toBe("connect ECONNREFUSED [redacted]");
    expect(cause.code).toBe("ECONNREFUSED");
    expect(inspect(safe, { depth: 10, showHidden: true })).not.toContain("SECRET");
  });

  it("never stringifies a non-error", () => {
    const weird = { toString: () => "SECRET" };
    expect(sanitizeCause(weird, (s) => s).message).toBe("non-error value (object)");
  });

  it("stops after a few levels of cause", () => {
    let e: Error = new Error("0");
    for (let i = 1; i < 10; i++) e = new Error(String(i), { cause: e });
    let depth = 0;
    for (let c: unknown = sanitizeCause(e, (s) => s); c instanceof Error; c = c.cause) depth++;
    expect(depth).toBe(4);
  });
});
