import type { Brand } from "../contract/brand.ts";
import { AmbiguousBrandError } from "../errors/AmbiguousBrandError.ts";
import { BrandNotFoundError } from "../errors/BrandNotFoundError.ts";

/**
 * Picks the brand called `name` from a brand list already fetched, so an upload run lists
 * brands once and resolves every brand name locally. Same rule as `Client.findBrand`: the
 * exact name if exactly one brand has it, else the case-insensitive match (Unicode NFC) if
 * exactly one; several equal matches → `AmbiguousBrandError`, none → `BrandNotFoundError`.
 *
 * @example
 * matchBrand([{ id: 1, name: "Cafe Mori" }], "cafe mori"); // { id: 1, name: "Cafe Mori" }
 */
export function matchBrand(brands: readonly Brand[], name: string): Brand {
  const wanted = name.trim();
  const exact = brands.filter((b) => b.name === wanted);
  if (exact.length === 1) return exact[0]!;
  if (exact.length > 1) throw new AmbiguousBrandError(wanted, exact);
  const folded = fold(wanted);
  const loose = brands.filter((b) => fold(b.name) === folded);
  if (loose.length === 1) return loose[0]!;
  if (loose.length > 1) throw new AmbiguousBrandError(wanted, loose);
  throw new BrandNotFoundError(wanted, brands.map((b) => b.name));
}

function fold(text: string): string {
  return text.normalize("NFC").toLowerCase();
}
