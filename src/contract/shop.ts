/**
 * A shop as returned by the External Key lookup. `id` is the SHOP ID.
 *
 * @example
 * const shop: Shop = { id: 101, name: "Mori Gangnam" };
 */
export interface Shop {
  /** SHOP ID, the service's identifier. */
  readonly id: number;
  readonly name: string;
}

/**
 * Body of `GET {base_url}/api/v1/brands/:brand_id/shops/external`.
 *
 * @example
 * const body: ShopResponse = { shop: { id: 101, name: "Mori Gangnam" } };
 */
export interface ShopResponse {
  readonly shop: Shop;
}
