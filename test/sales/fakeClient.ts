import type { CallOptions, Client } from "../../src/client/Client.ts";
import type { Brand } from "../../src/contract/brand.ts";
import type { SalesStatsDaily } from "../../src/contract/salesStatsDaily.ts";
import type { Shop } from "../../src/contract/shop.ts";
import { HttpError } from "../../src/errors/HttpError.ts";
import { ShopNotFoundError } from "../../src/errors/ShopNotFoundError.ts";

/** An in-memory Client for unit tests: counts calls and keeps the last record per shop-day. */
export interface FakeClient extends Client {
  readonly calls: { listBrands: number; findBrand: number; getShop: string[]; upload: { shopId: number; record: SalesStatsDaily }[] };
  /** shopId → date → last record posted. */
  readonly stored: Map<number, Map<string, SalesStatsDaily>>;
  /** Makes the next uploads for these shop ids fail with HTTP 503. */
  failShops: Set<number>;
}

export function fakeClient(
  brands: readonly Brand[],
  shops: Readonly<Record<string, Shop>>, // key `${brandId}/${externalKey}`
  hooks: { beforeUpload?: (shopId: number, record: SalesStatsDaily, options?: CallOptions) => Promise<void> | void } = {},
): FakeClient {
  const calls: FakeClient["calls"] = { listBrands: 0, findBrand: 0, getShop: [], upload: [] };
  const stored = new Map<number, Map<string, SalesStatsDaily>>();
  const client: FakeClient = {
    calls,
    stored,
    failShops: new Set(),
    async listBrands(options) {
      options?.signal?.throwIfAborted();
      calls.listBrands++;
      return brands;
    },
    async findBrand() {
      calls.findBrand++;
      throw new Error("the uploader should match brands locally");
    },
    async getShopByExternalKey(brand, externalKey, options) {
      options?.signal?.throwIfAborted();
      calls.getShop.push(`${brand.id}/${externalKey}`);
      const shop = shops[`${brand.id}/${externalKey}`];
      if (shop === undefined) throw new ShopNotFoundError(brand, externalKey);
      return shop;
    },
    async uploadDailySales(shopId, record, options) {
      options?.signal?.throwIfAborted();
      await hooks.beforeUpload?.(shopId, record, options);
      options?.signal?.throwIfAborted();
      if (client.failShops.has(shopId)) {
        throw new HttpError({ status: 503, method: "POST", url: `/api/v1/shops/${shopId}/sales_stats_dailies`, bodyExcerpt: "" });
      }
      calls.upload.push({ shopId, record });
      let days = stored.get(shopId);
      if (days === undefined) stored.set(shopId, (days = new Map()));
      days.set(record.date, record);
    },
    async getSignalsPage() {
      throw new Error("not used");
    },
  };
  return client;
}
