export type { Brand, BrandsResponse } from "./brand.ts";
export type { Shop, ShopResponse } from "./shop.ts";
export type { SalesStatsDaily, SalesStatsDailyRequest } from "./salesStatsDaily.ts";
export type { RawSignal, SignalsResponse } from "./rawSignal.ts";
export {
  SIGNALS_LIMIT_DEFAULT,
  SIGNALS_LIMIT_MAX,
  HEADER_EMAIL,
  HEADER_TOKEN,
  brandsPath,
  shopByExternalKeyPath,
  salesStatsDailiesPath,
  wifiSignalsPath,
  pathPatterns,
} from "./paths.ts";
export { CURRENCY_MINOR_DIGITS, isCurrencyCode } from "./currencies.ts";
