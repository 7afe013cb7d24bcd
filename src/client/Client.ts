import type { Brand } from "../contract/brand.ts";
import type { Shop } from "../contract/shop.ts";
import type { SalesStatsDaily } from "../contract/salesStatsDaily.ts";
import type { SignalsResponse } from "../contract/rawSignal.ts";

/**
 * Per-call options every client method takes.
 *
 * @example
 * const ac = new AbortController();
 * await client.listBrands({ signal: ac.signal });
 */
export interface CallOptions {
  /** Cancels this call: the request in flight and any pending retry wait. */
  readonly signal?: AbortSignal;
}

/**
 * One signals page request.
 *
 * @example
 * const req: SignalsPageRequest = { since: "0000019a8f3c2e10", limit: 200 };
 */
export interface SignalsPageRequest extends CallOptions {
  /** RTS to start from; omitted → the service's own default. */
  readonly since?: string;
  /** Records per page, 1…200. @default 200 */
  readonly limit?: number;
  /**
   * Called with a successful response's body text just before it is parsed, so a caller can act
   * on the text while the page is parsed: the source reads the last `row_key` from it and sends
   * its next request then. Called again for each attempt that gets a body; must not throw. A
   * client may ignore it (the source then sends its next request once the page is parsed).
   */
  readonly onBody?: (text: string) => void;
}

/**
 * A typed client for the four endpoints of the service (see `createClient`).
 * The source, the sales uploader and the CLI depend only on this interface, so tests and
 * users can substitute their own.
 *
 * @example
 * const brands = await client.listBrands();
 * const shop = await client.getShopByExternalKey(brands[0]!, "MORI-GN-01");
 */
export interface Client {
  /** `GET {base_url}/api/v1/brands`. */
  listBrands(options?: CallOptions): Promise<readonly Brand[]>;
  /**
   * The brand called `name`: exact match first, then case-insensitive.
   * Throws `BrandNotFoundError` when none matches, `AmbiguousBrandError` when several do.
   */
  findBrand(name: string, options?: CallOptions): Promise<Brand>;
  /** `GET {base_url}/api/v1/brands/:brand_id/shops/external?vendor=…&vendor_key=…`. */
  getShopByExternalKey(brand: Brand, externalKey: string, options?: CallOptions): Promise<Shop>;
  /**
   * `POST {base_url}/api/v1/shops/:shop_id/sales_stats_dailies`. Retried like a GET: a daily
   * record overwrites the same shop-day, so sending it twice is harmless.
   */
  uploadDailySales(shopId: number, record: SalesStatsDaily, options?: CallOptions): Promise<void>;
  /** `GET {signal_url}/api/v1/shops/{shop_id}/wifi_signals?since=…&limit=…`, checked against the contract. */
  getSignalsPage(shopId: number, request?: SignalsPageRequest): Promise<SignalsResponse>;
}
