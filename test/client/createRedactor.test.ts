import { describe, expect, it } from "vitest";
import { createRedactor } from "../../src/client/createRedactor.ts";
import { maskEmail } from "../../src/client/maskEmail.ts";

describe("maskEmail", () => {
  it.each([
    ["alice@example.com", "a***@example.com"],
    ["a@b.c", "a***@b.c"],
    ["nobody", "n***"],
  ])("%s → %s", (email, masked) => {
    expect(maskEmail(email)).toBe(masked);
  });
});

describe("createRedactor", () => {
  const redact = createRedactor("t0k$en+/=", "Bob.Smith@Example.com");
  it("removes the token and masks the e-mail, in plain and URL-encoded forms, any case", () => {
    const text = `t0k$en+/= ${encodeURIComponent("t0k$en+/=")} bob.smith@example.com ${encodeURIComponent("Bob.Smith@Example.com")}`;
    expect(redact(text)).toBe("[redacted] [redacted] B***@Example.com B***@Example.com");
  });
  it("leaves other text alone", () => {
    expect(redact("nothing to see")).toBe("nothing to see");
  });
});
