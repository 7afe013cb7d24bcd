import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { netReceipts, receiptDelta } from "../../src/sales/netReceipts.ts";

describe("receiptDelta", () => {
  it("counts a sale (a free item too) as one receipt and a refund as one cancelled", () => {
    expect(receiptDelta(12_000)).toBe(1);
    expect(receiptDelta(0)).toBe(1);
    expect(receiptDelta(-0.01)).toBe(-1);
  });

  it("rejects amounts that are not finite numbers", () => {
    expect(() => receiptDelta(Number.NaN)).toThrow(RangeError);
    expect(() => receiptDelta("12" as unknown as number)).toThrow(RangeError);
  });
});

describe("netReceipts", () => {
  it("is sale lines minus refund lines", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -50_000, max: 50_000 })), (amounts) => {
        const refunds = amounts.filter((a) => a < 0).length;
        expect(netReceipts(amounts)).toBe(amounts.length - 2 * refunds);
      }),
    );
  });

  it("reads any iterable, once", () => {
    function* lines() {
      yield 5_000;
      yield -5_000;
      yield 7_000;
    }
    expect(netReceipts(lines())).toBe(1);
  });
});
