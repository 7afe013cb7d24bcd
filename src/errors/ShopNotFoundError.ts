import { FootfallError, errorGuard } from "./FootfallError.ts";

/**
 * The service knows no shop for this brand and External Key (it answered 404, or a
 * `null` shop). Usually the key was never registered: External Keys must be given to the
 * service operator, with the shop's name, before any lookup or sales upload can work.
 *
 * @example
 * const e = new ShopNotFoundError({ id: 3, name: "Cafe Mori" }, "GN-999");
 * e.externalKey; // "GN-999"
 */
export class ShopNotFoundError extends FootfallError {
  override name = "ShopNotFoundError";
  /** The brand the lookup was made under. */
  readonly brand: { readonly id: number; readonly name: string };
  /** The External Key that was looked up. */
  readonly externalKey: string;

  constructor(brand: { readonly id: number; readonly name: string }, externalKey: string, options?: { cause?: unknown }) {
    super(
      `no shop with External Key ${JSON.stringify(externalKey)} for brand ${JSON.stringify(brand.name)} (id ${brand.id}); ` +
        "External Keys must be registered with the service operator (key and shop name) before they can be used",
      options,
    );
    this.brand = { id: brand.id, name: brand.name };
    this.externalKey = externalKey;
  }
}

/**
 * True when `value` is a {@link ShopNotFoundError}.
 *
 * @example
 * isShopNotFoundError(new ShopNotFoundError({ id: 1, name: "b" }, "k")); // true
 */
export const isShopNotFoundError = errorGuard(ShopNotFoundError, "ShopNotFoundError");
