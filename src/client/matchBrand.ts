import type { Brand } from "../contract/brand.ts";
import { AmbiguousBrandError } from "../errors/AmbiguousBrandError.ts";
import { BrandNotFoundError } from "../errors/BrandNotFoundError.ts";

/**
 * Picks the brand called `name` from a brand list already fetched, so an upload run lists
 * brands once and resolves every brand name locally; `Client.findBrand` uses it too. The
 * exact name if exactly one brand has it, else the one whose {@link foldBrandName} form is
 * the same (case, width and spacing aside) if exactly one; several equal matches →
 * `AmbiguousBrandError`, none → `BrandNotFoundError`. The brand returned is the service's, so
 * its own spelling of the name is what the shop lookup sends.
 *
 * @example
 * matchBrand([{ id: 1, name: "Cafe Mori" }], "cafe mori"); // { id: 1, name: "Cafe Mori" }
 */
export function matchBrand(brands: readonly Brand[], name: string): Brand {
  const wanted = name.trim();
  const exact = brands.filter((b) => b.name === wanted);
  if (exact.length === 1) return exact[0]!;
  if (exact.length > 1) throw new AmbiguousBrandError(wanted, exact);
  const folded = foldBrandName(wanted);
  const loose = brands.filter((b) => foldBrandName(b.name) === folded);
  if (loose.length === 1) return loose[0]!;
  if (loose.length > 1) throw new AmbiguousBrandError(wanted, loose);
  throw new BrandNotFoundError(wanted, brands.map((b) => b.name));
}

/**
 * The form brand names are compared in when no exact match decides: Unicode NFKC (full-width
 * letters and other compatibility forms as their plain ones), lower case, white space trimmed
 * and runs of it as one space — a brand the service stores as "Cafe Mori " is still found as
 * "Cafe Mori". Also the key under which sales rows of one brand are added up, so "Cafe Mori"
 * and "cafe  mori" rows of one shop-day make one total.
 *
 * @example
 * foldBrandName(" Cafe  MORI "); // "cafe mori"
 * foldBrandName("Ｃａｆｅ Mori"); // "cafe mori"
 */
export function foldBrandName(text: string): string {
  return text.normalize("NFKC").toLowerCase().trim().replace(/\s+/g, " ");
}
