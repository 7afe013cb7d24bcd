/**
 * A brand as listed by `GET {base_url}/api/v1/brands`.
 *
 * @example
 * const brand: Brand = { id: 1, name: "Cafe Mori" };
 */
export interface Brand {
  /** brand_id. */
  readonly id: number;
  /** brand_name; also the `vendor` query value of the shop lookup. */
  readonly name: string;
}

/**
 * Body of `GET {base_url}/api/v1/brands`.
 *
 * @example
 * const body: BrandsResponse = { brands: [{ id: 1, name: "Cafe Mori" }] };
 */
export interface BrandsResponse {
  readonly brands: readonly Brand[];
}
