import type { Brand, BrandsResponse } from "../contract/brand.ts";
import { ContractError } from "../errors/ContractError.ts";
import { describeMismatch as describe, isObject } from "./describeMismatch.ts";

/**
 * Checks a parsed `GET /api/v1/brands` body against the contract: an object whose
 * `brands` is an array of `{ id: integer, name: string }` (`null` reads as no brands, as for
 * a signals page: a serialiser's empty list). Extra fields are allowed (the
 * spec says other brand fields exist but are not shown). Returns the body typed; throws
 * a {@link ContractError} naming the first bad field, e.g. `brands[2].name`.
 *
 * @param url  included in the error message (must already be free of secrets)
 *
 * @example
 * validateBrandsResponse({ brands: [{ id: 1, name: "Cafe Mori" }] }).brands[0]!.name; // "Cafe Mori"
 * validateBrandsResponse({ brands: null }).brands.length;                              // 0
 */
export function validateBrandsResponse(body: unknown, url?: string): BrandsResponse {
  const opts = url === undefined ? undefined : { url };
  if (!isObject(body)) throw new ContractError("", "expected a JSON object", opts);
  const page = body as { brands?: unknown };
  if (page.brands === null) page.brands = [];
  const brands = page.brands;
  if (!Array.isArray(brands)) throw new ContractError("brands", describe("an array", brands), opts);
  for (let i = 0; i < brands.length; i++) {
    const b: unknown = brands[i];
    if (!isObject(b)) throw new ContractError(`brands[${i}]`, describe("an object", b), opts);
    const { id, name } = b as Partial<Record<keyof Brand, unknown>>;
    if (!Number.isSafeInteger(id)) throw new ContractError(`brands[${i}].id`, describe("an integer", id), opts);
    if (typeof name !== "string") throw new ContractError(`brands[${i}].name`, describe("a string", name), opts);
  }
  return body as unknown as BrandsResponse;
}
