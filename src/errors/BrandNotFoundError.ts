import { FootfallError, errorGuard } from "./FootfallError.ts";

/**
 * No brand visible to the account matches the requested name, neither exactly nor
 * case-insensitively. `known` lists (up to 20 of) the names the account can see, so the
 * user can spot a typo.
 *
 * @example
 * const e = new BrandNotFoundError("Cafe Mor", ["Cafe Mori", "Tea House"]);
 * e.message; // 'no brand named "Cafe Mor"; the account sees 2 brands: "Cafe Mori", "Tea House"'
 */
export class BrandNotFoundError extends FootfallError {
  override name = "BrandNotFoundError";
  /** The name that was asked for. */
  readonly brandName: string;
  /** Names the account can see (at most 20). */
  readonly known: readonly string[];

  constructor(brandName: string, known: readonly string[]) {
    const shown = known.slice(0, 20);
    const list =
      known.length === 0
        ? "the account sees no brands"
        : `the account sees ${known.length} brand${known.length === 1 ? "" : "s"}: ${shown.map((n) => JSON.stringify(n)).join(", ")}${known.length > shown.length ? ", …" : ""}`;
    super(`no brand named ${JSON.stringify(brandName)}; ${list}`);
    this.brandName = brandName;
    this.known = shown;
  }
}

/**
 * True when `value` is a {@link BrandNotFoundError}.
 *
 * @example
 * isBrandNotFoundError(new BrandNotFoundError("x", [])); // true
 */
export const isBrandNotFoundError = errorGuard(BrandNotFoundError, "BrandNotFoundError");
