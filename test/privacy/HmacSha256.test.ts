import { createHmac } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { HmacSha256 } from "../../src/privacy/HmacSha256.ts";

describe("HmacSha256", () => {
  it("is node:crypto's HMAC-SHA-256, for any key and text (property)", () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 0, maxLength: 130 }), fc.array(fc.oneof(fc.string({ maxLength: 70, unit: "binary-ascii" }), fc.string({ maxLength: 70, unit: "binary" })), { minLength: 1, maxLength: 8 }), (key, texts) => {
        const hmac = new HmacSha256(key);
        for (const text of texts) expect(hmac.hex(text, 64)).toBe(createHmac("sha256", key).update(text).digest("hex"));
      }),
      { numRuns: 300 },
    );
  });

  it("hashes MAC addresses and dates of every length up to the block's, and cuts the digest to the digits asked", () => {
    const key = Uint8Array.from({ length: 32 }, (_, i) => i * 7);
    const hmac = new HmacSha256(key);
    // 55 bytes is the longest message of one block; 56 and more take node:crypto's path.
    for (let n = 0; n <= 60; n++) {
      const text = "a4:5e:60:00:00:01-2026-11-16-0123456789abcdefghijklmnopqrstuvwxyz".slice(0, n);
      expect(hmac.hex(text, 32)).toBe(createHmac("sha256", key).update(text).digest("hex").slice(0, 32));
    }
    expect(hmac.hex("é", 16)).toBe(createHmac("sha256", key).update("é").digest("hex").slice(0, 16));
  });

  it("keeps each key's own states: keys used in turn (a day's key beside the key) hash as each alone", () => {
    const keys = [Uint8Array.from({ length: 16 }, (_, i) => i), Uint8Array.from({ length: 32 }, (_, i) => 255 - i)];
    const hmacs = keys.map((k) => new HmacSha256(k));
    for (let n = 0; n < 6; n++) {
      const k = n % 2;
      const text = `a4:5e:60:00:00:0${n}`;
      expect(hmacs[k]!.hex(text, 64)).toBe(createHmac("sha256", keys[k]!).update(text).digest("hex"));
    }
  });
});
