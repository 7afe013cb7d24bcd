import { FootfallError, errorGuard } from "./FootfallError.ts";

/**
 * More than one brand matches the requested name at the same level (several exact
 * matches, or no exact match and several case-insensitive ones). Resolving it by guess
 * could upload sales to the wrong brand, so the caller must pick by id.
 *
 * @example
 * const e = new AmbiguousBrandError("cafe mori", [{ id: 1, name: "Cafe Mori" }, { id: 2, name: "CAFE MORI" }]);
 * e.candidates.length; // 2
 */
export class AmbiguousBrandError extends FootfallError {
  override name = "AmbiguousBrandError";
  /** The name that was asked for. */
  readonly brandName: string;
  /** The brands that matched equally well. */
  readonly candidates: readonly { readonly id: number; readonly name: string }[];

  constructor(brandName: string, candidates: readonly { readonly id: number; readonly name: string }[]) {
    const list = candidates.map((b) => `${JSON.stringify(b.name)} (id ${b.id})`).join(", ");
    super(`brand name ${JSON.stringify(brandName)} is ambiguous: ${candidates.length} brands match: ${list}`);
    this.brandName = brandName;
    this.candidates = candidates.map((b) => ({ id: b.id, name: b.name }));
  }
}

/**
 * True when `value` is an {@link AmbiguousBrandError}.
 *
 * @example
 * isAmbiguousBrandError(new AmbiguousBrandError("x", [])); // true
 */
export const isAmbiguousBrandError = errorGuard(AmbiguousBrandError, "AmbiguousBrandError");
