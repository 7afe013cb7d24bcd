import type { Shop, ShopResponse } from "../contract/shop.ts";
import { ContractError } from "../errors/ContractError.ts";
import { describeMismatch as describe, isObject } from "./describeMismatch.ts";

/**
 * Checks a parsed shop-by-External-Key body against the contract: an object whose
 * `shop` is `{ id: integer, name: string }` (extra fields allowed). A `shop` of `null`
 * is passed through as `null` so the caller can report "not found" rather than a
 * contract violation. Throws a {@link ContractError} naming the bad field, e.g. `shop.id`.
 *
 * @param url  included in the error message (must already be free of secrets)
 *
 * @example
 * validateShopResponse({ shop: { id: 101, name: "Mori Gangnam" } })?.shop.id; // 101
 * validateShopResponse({ shop: null }); // null
 */
export function validateShopResponse(body: unknown, url?: string): ShopResponse | null {
  const opts = url === undefined ? undefined : { url };
  if (!isObject(body)) throw new ContractError("", "expected a JSON object", opts);
  const shop = (body as { shop?: unknown }).shop;
  if (shop === null) return null;
  if (!isObject(shop)) throw new ContractError("shop", describe("an object", shop), opts);
  const { id, name } = shop as Partial<Record<keyof Shop, unknown>>;
  if (!Number.isSafeInteger(id)) throw new ContractError("shop.id", describe("an integer", id), opts);
  if (typeof name !== "string") throw new ContractError("shop.name", describe("a string", name), opts);
  return body as unknown as ShopResponse;
}
