/**
 * What a simulated brand sells like: its name and code (the shops' external keys start with it),
 * a typical ticket (KRW), the most items on one receipt, and the share of visitors who buy.
 *
 * @example
 * const cafe: BrandProfile = brandProfile(0);
 * [cafe.name, cafe.ticketKrw, cafe.conversion]; // ["Cafe Mori", 9000, 0.55]
 */
export interface BrandProfile {
  readonly name: string;
  readonly code: string;
  /** A typical receipt, KRW (each receipt is drawn log-normally around it). */
  readonly ticketKrw: number;
  /** Most items on one receipt. */
  readonly maxQty: number;
  /** Share of visitors who buy, 0…1 (unless `WorldOptions.conversion` says otherwise). */
  readonly conversion: number;
}

const BRANDS: readonly BrandProfile[] = [
  { name: "Cafe Mori", code: "MORI", ticketKrw: 9_000, maxQty: 4, conversion: 0.55 },
  { name: "Hanbit Apparel", code: "HANBIT", ticketKrw: 62_000, maxQty: 3, conversion: 0.22 },
  { name: "Blue Arch Books", code: "BLUE", ticketKrw: 21_000, maxQty: 3, conversion: 0.3 },
  { name: "Sol Bakery", code: "SOL", ticketKrw: 12_500, maxQty: 6, conversion: 0.6 },
  { name: "Namu Living", code: "NAMU", ticketKrw: 38_000, maxQty: 3, conversion: 0.18 },
];

const DISTRICTS: readonly (readonly [string, string])[] = [
  ["Gangnam", "GN"], ["Hongdae", "HD"], ["Jamsil", "JS"], ["Myeongdong", "MD"], ["Seongsu", "SS"],
  ["Yeouido", "YD"], ["Itaewon", "IT"], ["Sinchon", "SC"], ["Konkuk", "KK"], ["Mapo", "MP"],
];

/**
 * The profile of brand number `b` (0-based): five named brands, then generic ones ("Brand 6",
 * code "B6", a 30 000 KRW ticket, 30 % buying).
 *
 * @example
 * brandProfile(1).code; // "HANBIT"
 * brandProfile(5).name; // "Brand 6"
 */
export function brandProfile(b: number): BrandProfile {
  return BRANDS[b] ?? { name: `Brand ${b + 1}`, code: `B${b + 1}`, ticketKrw: 30_000, maxQty: 3, conversion: 0.3 };
}

/**
 * The name and external key of the world's shop number `s` (0-based), the `nth` (1-based) of its
 * brand `b`: shops are named after a Seoul district, and a district reused after the first ten
 * shops gets a round number ("Cafe Mori Gangnam 2").
 *
 * @example
 * shopIdentity(0, 0, 1, brandProfile(0)); // { name: "Cafe Mori Gangnam", externalKey: "MORI-GN-01" }
 */
export function shopIdentity(s: number, b: number, nth: number, profile: BrandProfile): { name: string; externalKey: string } {
  const [district, code] = DISTRICTS[(s * 3 + b) % DISTRICTS.length]!;
  const round = Math.floor(s / DISTRICTS.length);
  return {
    name: `${profile.name} ${district}${round > 0 ? ` ${round + 1}` : ""}`,
    externalKey: `${profile.code}-${code}-${String(nth).padStart(2, "0")}`,
  };
}
