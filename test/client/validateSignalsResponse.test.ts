import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { validateSignalsResponse } from "../../src/client/validateSignalsResponse.ts";
import { validateShopResponse } from "../../src/client/validateShopResponse.ts";
import { validateBrandsResponse } from "../../src/client/validateBrandsResponse.ts";
import { ContractError } from "../../src/errors/ContractError.ts";

const record = fc.record({
  row_key: fc.string(),
  device_id: fc.string(),
  rssi: fc.integer({ min: -120, max: 0 }),
  square_mac: fc.string(),
  ts: fc.integer({ min: 0 }),
  local: fc.boolean(),
});

const wrong: Record<string, unknown[]> = {
  row_key: [1, null, undefined, {}],
  device_id: [1, false, undefined],
  rssi: ["-60", -60.5, null, Number.NaN],
  square_mac: [null, 3],
  ts: ["1763600000016", 1.5, null],
  local: ["false", 0, null],
};

function pathOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    if (error instanceof ContractError) return error.path;
    throw error;
  }
  return undefined;
}

describe("validateSignalsResponse", () => {
  it("accepts well-typed pages unchanged", () => {
    fc.assert(
      fc.property(fc.array(record, { maxLength: 20 }), (signals) => {
        const body = { signals, since: "0000000000000001" };
        expect(validateSignalsResponse(body, 200)).toBe(body);
      }),
    );
  });

  it("leaves records to the decoder: a wrongly typed field does not fail the page", () => {
    fc.assert(
      fc.property(
        fc.array(record, { minLength: 1, maxLength: 10 }),
        fc.nat(),
        fc.constantFrom(...Object.keys(wrong)),
        fc.nat(),
        (signals, at, field, pick) => {
          const i = at % signals.length;
          const values = wrong[field]!;
          const bad = { ...signals[i], [field]: values[pick % values.length] };
          const page = { signals: signals.map((s, j) => (j === i ? bad : s)), since: "" };
          expect(validateSignalsResponse(page).signals).toEqual(page.signals);
        },
      ),
    );
  });

  it("reads `signals: null` as an empty page (a serialiser's empty list)", () => {
    expect(validateSignalsResponse({ signals: null, since: "0000000000000001" }).signals).toEqual([]);
  });

  it.each([
    [null, ""],
    [{ since: "" }, "signals"],
    [{ signals: {} }, "signals"],
    [{ signals: [], since: 5 }, "since"],
  ])("%j → %j", (body, path) => {
    expect(pathOf(() => validateSignalsResponse(body))).toBe(path);
  });

  it("extra fields are allowed", () => {
    const body = { signals: [{ row_key: "1:0000000000000001", device_id: "a", rssi: -1, square_mac: "b", ts: 1, local: true, extra: 1 }], since: "", more: 1 };
    expect(validateSignalsResponse(body).signals).toHaveLength(1);
  });
});

describe("validateShopResponse / validateBrandsResponse", () => {
  it.each([
    [{ shop: { id: 1.5, name: "x" } }, "shop.id"],
    [{ shop: { id: 1 } }, "shop.name"],
    [{ shop: [] }, "shop"],
    ["x", ""],
  ])("shop %j → %j", (body, path) => {
    expect(pathOf(() => validateShopResponse(body))).toBe(path);
  });

  it("reads `brands: null` as no brands", () => {
    expect(validateBrandsResponse({ brands: null }).brands).toEqual([]);
  });

  it("passes a null shop through", () => {
    expect(validateShopResponse({ shop: null })).toBeNull();
  });

  it("brands: the error message names path and url", () => {
    expect(() => validateBrandsResponse({ brands: [{ id: 1, name: 2 }] }, "http://x.test/api/v1/brands")).toThrow(
      "response field brands[0].name: expected a string, got number 2 (http://x.test/api/v1/brands)",
    );
  });
});
