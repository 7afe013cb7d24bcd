/**
 * Page size the service uses when `limit` is omitted.
 *
 * @example
 * SIGNALS_LIMIT_DEFAULT; // 20
 */
export const SIGNALS_LIMIT_DEFAULT = 20;
/**
 * Largest `limit` the service accepts for the signals list (records per page).
 *
 * @example
 * Math.min(500, SIGNALS_LIMIT_MAX); // 200 (never ask for more)
 */
export const SIGNALS_LIMIT_MAX = 200;

/**
 * Authentication header carrying the account e-mail (names are case-insensitive).
 *
 * @example
 * headers.set(HEADER_EMAIL, "analyst@example.com");
 */
export const HEADER_EMAIL = "x-user-email";
/**
 * Authentication header carrying the account's `authentication_token`.
 *
 * @example
 * headers.set(HEADER_TOKEN, token);
 */
export const HEADER_TOKEN = "x-user-token";

/**
 * Path of the brand list, relative to `{base_url}`.
 *
 * @example
 * brandsPath(); // "/api/v1/brands"
 */
export function brandsPath(): string {
  return "/api/v1/brands";
}

/**
 * Path of the shop-by-External-Key lookup, relative to `{base_url}`.
 * Query parameters `vendor` (brand_name) and `vendor_key` (External Key) go with it.
 *
 * @example
 * shopByExternalKeyPath(3); // "/api/v1/brands/3/shops/external"
 */
export function shopByExternalKeyPath(brandId: number): string {
  return `/api/v1/brands/${encodeURIComponent(String(brandId))}/shops/external`;
}

/**
 * Path of the daily sales upload (POST), relative to `{base_url}`.
 *
 * @example
 * salesStatsDailiesPath(101); // "/api/v1/shops/101/sales_stats_dailies"
 */
export function salesStatsDailiesPath(shopId: number): string {
  return `/api/v1/shops/${encodeURIComponent(String(shopId))}/sales_stats_dailies`;
}

/**
 * Path of the signals list, relative to `{signal_url}`. Query: `since` (RTS), `limit`.
 *
 * @example
 * wifiSignalsPath(101); // "/api/v1/shops/101/wifi_signals"
 */
export function wifiSignalsPath(shopId: number): string {
  return `/api/v1/shops/${encodeURIComponent(String(shopId))}/wifi_signals`;
}

/**
 * Matchers for the four endpoint paths, used by servers (the simulator) to route.
 * Each captures the numeric path parameter as group 1.
 *
 * @example
 * pathPatterns.wifiSignals.exec("/api/v1/shops/101/wifi_signals")?.[1]; // "101"
 */
export const pathPatterns = {
  brands: /^\/api\/v1\/brands\/?$/,
  shopByExternalKey: /^\/api\/v1\/brands\/([^/]+)\/shops\/external\/?$/,
  salesStatsDailies: /^\/api\/v1\/shops\/([^/]+)\/sales_stats_dailies\/?$/,
  wifiSignals: /^\/api\/v1\/shops\/([^/]+)\/wifi_signals\/?$/,
} as const;
