import { millisToRts } from "../../codec/rts.ts";
import { canonicalRts, spellRts, type RtsSpelling } from "../../codec/rtsSpelling.ts";
import { isEpochUnit } from "../../codec/inferEpochUnit.ts";
import { firstMillisOf, rtsOfMillis } from "./serviceRts.ts";
import { isCurrencyCode } from "../../contract/currencies.ts";
import { HEADER_EMAIL, HEADER_TOKEN, SIGNALS_LIMIT_DEFAULT, SIGNALS_LIMIT_MAX, pathPatterns } from "../../contract/paths.ts";
import type { BrandsResponse } from "../../contract/brand.ts";
import type { SalesStatsDaily } from "../../contract/salesStatsDaily.ts";
import type { ShopResponse } from "../../contract/shop.ts";
import { createWorld, type WorldOptions } from "../createWorld.ts";
import { countedTruthCsv } from "../truth/countedTruthCsv.ts";
import { epochDayOfDate } from "../../time/calendarDate.ts";
import { localMidnight } from "../../time/timeZone.ts";
import { BytesResponse } from "./BytesResponse.ts";
import { nextUpload } from "../world/nextUpload.ts";
import { PageEncoder } from "./PageEncoder.ts";
import { createRng, hashSeed, type Rng } from "../random/prng.ts";
import { SalesStore } from "./SalesStore.ts";
import type { ShopSignals, World } from "../world/World.ts";

/**
 * Seeded fault injection for reliability tests. Each API request draws once: with
 * probability `failRate` it fails (500 or 503, before any effect), else with probability
 * `throttleRate` it is throttled (429 with `Retry-After`), else it is served and a
 * successful body is cut mid-JSON with probability `truncateRate` (after any effect).
 *
 * @example
 * const faults: FaultOptions = { failRate: 0.05, throttleRate: 0.05, truncateRate: 0.02, latencyMs: 20 };
 */
export interface FaultOptions {
  /** Share of API requests answered 500 or 503 (half each). @default 0 */
  readonly failRate?: number;
  /** Share of API requests answered 429 with `Retry-After`. @default 0 */
  readonly throttleRate?: number;
  /** Delay before every API response, ms. @default 0 */
  readonly latencyMs?: number;
  /** Share of successful API responses whose body is cut mid-JSON. @default 0 */
  readonly truncateRate?: number;
  /** `Retry-After` of throttled responses, seconds. @default 1 */
  readonly retryAfterS?: number;
  /**
   * Share of signal records served broken — a field `null`, absent, of another type or out of
   * range (`BROKEN_KINDS`) — as a flaky sensor or a sloppy serialiser sends them. Stored broken:
   * the same records, broken alike, on every request. A client reports each once and reads on.
   * @default 0
   */
  readonly malformedRate?: number;
}

/**
 * Options of the simulator (handler and server).
 *
 * @example
 * const options: SimulatorOptions = { seed: 7, world: { shops: 2 }, faults: { failRate: 0.1 } };
 */
export interface SimulatorOptions {
  /** Seed of the world (unless `world` sets its own) and of the faults. @default 1 */
  readonly seed?: number | string;
  /** World shape, or an already built world to serve. @default {} (the default world) */
  readonly world?: WorldOptions | World;
  /** Account e-mail expected in `x-user-email` (compared case-insensitively). @default "analyst@footfall.test" */
  readonly email?: string;
  /** Account token expected in `x-user-token`. @default "sim-token" */
  readonly token?: string;
  /** Live mode: signals are visible once simulated time reaches them; simulated time runs `speed`× real time from `liveStart`. `undefined`: everything is visible at once. @default undefined */
  readonly speed?: number | undefined;
  /** Simulated time when the handler is created (live mode), epoch ms. @default world.startMs */
  readonly liveStart?: number | undefined;
  /** Real-time clock in epoch ms (inject a fake one to test live mode). @default Date.now */
  readonly clock?: () => number;
  /** Seeded faults. @default {} (none) */
  readonly faults?: FaultOptions;
  /** Directory persisting sales across restarts (atomic temp-file + rename). @default undefined (memory only) */
  readonly dataDir?: string | undefined;
  /** Whether `since` includes records at exactly that RTS (the spec's reading) or only later ones. @default "inclusive" */
  readonly sinceMode?: "inclusive" | "exclusive";
  /** Unit of the `ts` field. @default "ms" */
  readonly tsUnit?: "s" | "ms" | "us" | "ns";
  /**
   * Unit the RTS counts (in `row_key`, and what `since` is read as): how the service turns a
   * datetime into RTS, which the interface does not publish. With seconds, every record of a
   * second shares one RTS. @default "ms"
   */
  readonly rtsUnit?: "s" | "ms" | "us" | "ns";
  /**
   * How the RTS is spelled in `row_key`: lowercase hex (the interface's sample) or uppercase
   * (`%016X`). With either, `since` is read as a key-value store reads a scan start: hex digits
   * of either case, compared as a string with the RTS as the service spells it — so a `since`
   * in another spelling answers what such a store would (a lowercase "0000019a…" lies after
   * every "0000019B…"), not what was meant. @default "lower"
   */
  readonly rtsCase?: "lower" | "upper";
  /**
   * Whether the RTS is padded with zeros to 16 digits (the interface's sample) or written as
   * the value's own hex digits (`n.toString(16)`: "19a9ec06410"); `since` is compared with it as
   * a string either way (see `rtsCase`). @default true
   */
  readonly rtsPadded?: boolean;
  /**
   * Serve `ts` as a JSON string of its digits (`"ts":"1763600000016"`), as services that
   * serialise 64-bit integers as strings do (JavaScript clients would round them otherwise).
   * @default false
   */
  readonly tsQuoted?: boolean;
  /**
   * Live mode: each sensor uploads what it heard every this many ms of simulated time (each
   * sensor at its own seeded phase), so a record becomes visible up to this long after it was
   * collected — after later records of other sensors, behind a cursor that has passed its RTS.
   * Real sensors upload in batches; a tail stays `settleMs` (≥ this) behind the newest data
   * not to miss them. 0: every record is visible the moment it is collected.
   * @default 0
   */
  readonly uploadEveryMs?: number;
  /**
   * The most records a page holds whatever `limit` asks for. The spec promises only "at most
   * `limit`", so a service may serve fewer before the end of its data: a number caps every page
   * (a service stricter than the documented maximum of 200), `[min, max]` draws each page's
   * size (seeded by the shop and the page's first record, so asking again gives the same page),
   * as a service that cuts pages at its own storage or time boundaries. A client that takes a
   * short page for the end of the data stops early. `undefined`: pages are `limit` long.
   * @default undefined
   */
  readonly pageSize?: number | readonly [number, number] | undefined;
}

/**
 * Defaults of {@link SimulatorOptions} (the account a client needs to talk to a default simulator).
 *
 * @example
 * const headers = { "x-user-email": defaultSimulatorOptions.email, "x-user-token": defaultSimulatorOptions.token };
 */
export const defaultSimulatorOptions = {
  seed: 1,
  email: "analyst@footfall.test",
  token: "sim-token",
  sinceMode: "inclusive",
  tsUnit: "ms",
  rtsUnit: "ms",
  rtsCase: "lower",
  rtsPadded: true,
  tsQuoted: false,
  uploadEveryMs: 0,
  faults: { failRate: 0, throttleRate: 0, latencyMs: 0, truncateRate: 0, retryAfterS: 1, malformedRate: 0 },
} as const;

/**
 * Which base address's endpoints a request may reach (`startSimulator` splits them when `signalPort` is set).
 *
 * @example
 * const sim = createSimHandler({ world: { shops: 1 } });
 * const headers = { "x-user-email": sim.email, "x-user-token": sim.token };
 * (await sim.handlePart(new Request("http://sim/api/v1/brands", { headers }), "signal")).status; // 404 (brands live on base_url)
 * (await sim.handlePart(new Request("http://sim/api/v1/brands", { headers }), "base")).status; // 200
 */
export type SimPart = "all" | "base" | "signal";

/**
 * The simulator as a function from Request to Response: no sockets, so tests and clients
 * can call it directly (`fetch` is a drop-in for the global one).
 *
 * @example
 * const sim = createSimHandler({ world: { shops: 1 } });
 * const res = await sim.fetch("http://sim/api/v1/brands", { headers: { "x-user-email": sim.email, "x-user-token": sim.token } });
 */
export interface SimHandler {
  /** Serves one request (every endpoint of both base addresses, and `/__sim/*`). */
  handle(request: Request): Promise<Response>;
  /** Serves one request restricted to one base address's endpoints (others → 404). */
  handlePart(request: Request, part: SimPart): Promise<Response>;
  /** fetch-compatible entry point, for injecting into a client. */
  readonly fetch: (input: string | URL | Request, init?: RequestInit) => Promise<Response>;
  readonly world: World;
  readonly email: string;
  /** The account token (not enumerable, so it stays out of JSON and inspect output). */
  readonly token: string;
  /** Current simulated time in live mode (epoch ms), `undefined` when everything is visible. */
  simNow(): number | undefined;
  /** Resolves when every sales write so far is on disk. */
  flush(): Promise<void>;
}

const JSON_TYPE = "application/json; charset=utf-8";

/**
 * Creates the simulator's request handler over a seeded world: the four endpoints of the
 * service interface exactly, the sales listing extension, `/__sim/world` and
 * `/__sim/truth` (`?shop=ID`, `&view=macs` per-MAC rows (default), `visits` per-person visits
 * with every MAC used, `occupancy` enter/leave events) and `/__sim/counted` (the people a door
 * counter would count, as counted-truth CSV: `?shop=ID&since=…&until=…&shape=inside|daily
 * &segment_minutes=15`, see `countedTruthCsv`), with auth, validation, live mode and seeded faults.
 * Throws TypeError/RangeError for invalid options.
 *
 * @example
 * const sim = createSimHandler({ seed: 7, world: { shops: 1, openingHours: [10, 12] } });
 * const headers = { "x-user-email": sim.email, "x-user-token": sim.token };
 * const page = await (await sim.fetch("http://sim/api/v1/shops/101/wifi_signals?limit=200", { headers })).json();
 */
export function createSimHandler(options: SimulatorOptions = {}): SimHandler {
  const o = resolve(options);
  const world = isWorld(options.world)
    ? options.world
    : createWorld({ ...(options.seed !== undefined ? { seed: options.seed } : {}), ...(options.world ?? {}) });
  const faultRng = createRng(hashSeed(options.seed ?? world.seed, "faults"));
  const store = new SalesStore(o.dataDir);
  const clock = o.clock;
  const realStart = clock();
  const liveStart = o.liveStart ?? world.startMs;
  const simNow = (): number | undefined => (o.speed === undefined ? undefined : liveStart + (clock() - realStart) * o.speed);
  const state: State = { o, world, store, faultRng, simNow, pages: new PageEncoder({ unit: o.tsUnit, rtsUnit: o.rtsUnit, spelling: o.rtsSpelling, quoteTs: o.tsQuoted, malformedRate: o.faults.malformedRate, seed: hashSeed(options.seed ?? world.seed, "malformed") }), seed: options.seed ?? world.seed, uploadPhases: new Map() };

  const handlePart = (request: Request, part: SimPart): Promise<Response> => serve(state, request, part);
  const handle = (request: Request): Promise<Response> => serve(state, request, "all");
  const handler = {
    handle,
    handlePart,
    fetch: (input: string | URL | Request, init?: RequestInit) => handle(new Request(input, init)),
    world,
    email: o.email,
    simNow,
    flush: () => store.flush(),
  };
  Object.defineProperty(handler, "token", { value: o.token, enumerable: false });
  return handler as SimHandler;
}

interface Resolved {
  readonly email: string;
  readonly token: string;
  readonly speed: number | undefined;
  readonly liveStart: number | undefined;
  readonly clock: () => number;
  readonly faults: Required<FaultOptions>;
  readonly dataDir: string | undefined;
  readonly sinceMode: "inclusive" | "exclusive";
  readonly tsUnit: "s" | "ms" | "us" | "ns";
  readonly rtsUnit: "s" | "ms" | "us" | "ns";
  readonly rtsSpelling: Readonly<RtsSpelling>;
  readonly tsQuoted: boolean;
  readonly uploadEveryMs: number;
  /** Page sizes drawn from [min, max]; [Infinity, Infinity] when pages are `limit` long. */
  readonly pageSize: readonly [number, number];
}

interface State {
  readonly o: Resolved;
  readonly world: World;
  readonly store: SalesStore;
  readonly faultRng: Rng;
  readonly simNow: () => number | undefined;
  readonly pages: PageEncoder;
  /** Seed of the sensors' upload phases. */
  readonly seed: number | string;
  /** Per shop, each sensor's upload phase (ms in 0…uploadEveryMs), by sensor index. */
  readonly uploadPhases: Map<number, Float64Array>;
}

function isWorld(value: unknown): value is World {
  return typeof value === "object" && value !== null && typeof (value as World).signalTable === "function";
}

function resolve(options: SimulatorOptions): Resolved {
  if (options === null || typeof options !== "object") throw new TypeError("simulator options must be an object");
  const d = defaultSimulatorOptions;
  const email = options.email ?? d.email;
  const token = options.token ?? d.token;
  if (typeof email !== "string" || email === "") throw new TypeError("email must be a non-empty string");
  if (typeof token !== "string" || token === "") throw new TypeError("token must be a non-empty string");
  const speed = options.speed;
  if (speed !== undefined && (typeof speed !== "number" || !Number.isFinite(speed) || speed <= 0)) {
    throw new RangeError("speed must be a positive finite number");
  }
  if (options.liveStart !== undefined && !Number.isFinite(options.liveStart)) throw new RangeError("liveStart must be epoch ms");
  const clock = options.clock ?? Date.now;
  if (typeof clock !== "function") throw new TypeError("clock must be a function returning epoch ms");
  const faults = { ...d.faults, ...stripUndefined(options.faults ?? {}) };
  for (const key of ["failRate", "throttleRate", "truncateRate", "malformedRate"] as const) {
    const v = faults[key];
    if (typeof v !== "number" || !(v >= 0 && v <= 1)) throw new RangeError(`faults.${key} must be in 0…1`);
  }
  if (faults.failRate + faults.throttleRate > 1) throw new RangeError("faults.failRate + faults.throttleRate must be ≤ 1");
  if (typeof faults.latencyMs !== "number" || !(faults.latencyMs >= 0) || !Number.isFinite(faults.latencyMs)) {
    throw new RangeError("faults.latencyMs must be a non-negative number");
  }
  if (!Number.isInteger(faults.retryAfterS) || faults.retryAfterS < 0) throw new RangeError("faults.retryAfterS must be a non-negative integer");
  const sinceMode = options.sinceMode ?? d.sinceMode;
  if (sinceMode !== "inclusive" && sinceMode !== "exclusive") throw new RangeError('sinceMode must be "inclusive" or "exclusive"');
  const tsUnit = options.tsUnit ?? d.tsUnit;
  if (!isEpochUnit(tsUnit)) throw new RangeError('tsUnit must be "s", "ms", "us" or "ns"');
  const rtsUnit = options.rtsUnit ?? d.rtsUnit;
  if (!isEpochUnit(rtsUnit)) throw new RangeError('rtsUnit must be "s", "ms", "us" or "ns"');
  const rtsCase = options.rtsCase ?? d.rtsCase;
  if (rtsCase !== "lower" && rtsCase !== "upper") throw new RangeError('rtsCase must be "lower" or "upper"');
  const rtsPadded = options.rtsPadded ?? d.rtsPadded;
  if (typeof rtsPadded !== "boolean") throw new TypeError("rtsPadded must be a boolean");
  const rtsSpelling = Object.freeze({ upper: rtsCase === "upper", padded: rtsPadded });
  const tsQuoted = options.tsQuoted ?? d.tsQuoted;
  if (typeof tsQuoted !== "boolean") throw new TypeError("tsQuoted must be a boolean");
  if (options.dataDir !== undefined && (typeof options.dataDir !== "string" || options.dataDir === "")) {
    throw new TypeError("dataDir must be a non-empty string");
  }
  const uploadEveryMs = options.uploadEveryMs ?? d.uploadEveryMs;
  if (typeof uploadEveryMs !== "number" || !(uploadEveryMs >= 0) || !Number.isFinite(uploadEveryMs)) {
    throw new RangeError("uploadEveryMs must be a non-negative number of ms");
  }
  const pageSize = resolvePageSize(options.pageSize);
  return { email, token, speed, liveStart: options.liveStart, clock, faults, dataDir: options.dataDir, sinceMode, tsUnit, rtsUnit, rtsSpelling, tsQuoted, uploadEveryMs, pageSize };
}

function resolvePageSize(value: SimulatorOptions["pageSize"]): readonly [number, number] {
  if (value === undefined) return [Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY];
  const [min, max] = typeof value === "number" ? [value, value] : Array.isArray(value) && value.length === 2 ? value : [Number.NaN, Number.NaN];
  if (!Number.isInteger(min) || !Number.isInteger(max) || min < 1 || max < min) {
    throw new RangeError(`pageSize must be a whole number ≥ 1 or [min, max] with 1 ≤ min ≤ max, got ${JSON.stringify(value)}`);
  }
  return [min, max];
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) if (v !== undefined) out[k] = v;
  return out as Partial<T>;
}

// ---------------------------------------------------------------------------------------
// Routing

async function serve(state: State, request: Request, part: SimPart): Promise<Response> {
  let url: URL;
  try {
    url = new URL(request.url);
  } catch {
    return error(400, "malformed request URL");
  }
  const auth = authenticate(state.o, request.headers);
  if (auth !== undefined) return auth;

  const path = url.pathname;
  if (path === "/__sim/world") return only(request, "GET", () => simWorld(state));
  if (path === "/__sim/truth") return only(request, "GET", () => simTruth(state, url));
  if (path === "/__sim/counted") return only(request, "GET", () => simCounted(state, url));

  const base = part !== "signal";
  const signal = part !== "base";
  let m: RegExpExecArray | null;
  let route: (() => Promise<Response> | Response) | undefined;
  let method = "GET";
  if (base && pathPatterns.brands.test(path)) route = () => brands(state);
  else if (base && (m = pathPatterns.shopByExternalKey.exec(path)) !== null) {
    const id = m[1]!;
    route = () => shopByExternalKey(state, id, url);
  } else if (base && (m = pathPatterns.salesStatsDailies.exec(path)) !== null) {
    const id = m[1]!;
    method = request.method === "GET" ? "GET" : "POST";
    route = request.method === "GET" ? () => listSales(state, id) : () => postSales(state, id, request);
  } else if (signal && (m = pathPatterns.wifiSignals.exec(path)) !== null) {
    const id = m[1]!;
    route = () => signals(state, id, url);
  }
  if (route === undefined) return error(404, `no such endpoint: ${path}`);
  const allowed = pathPatterns.salesStatsDailies.test(path) ? "GET, POST" : "GET";
  if (request.method !== method) return error(405, `method ${request.method} not allowed`, { allow: allowed });
  return withFaults(state, route);
}

async function only(request: Request, method: string, run: () => Response): Promise<Response> {
  if (request.method !== method) return error(405, `method ${request.method} not allowed`, { allow: method });
  return run();
}

function authenticate(o: Resolved, headers: Headers): Response | undefined {
  const email = headers.get(HEADER_EMAIL);
  const token = headers.get(HEADER_TOKEN);
  if (email === null || email === "") return error(401, `missing ${HEADER_EMAIL} header`);
  if (token === null || token === "") return error(401, `missing ${HEADER_TOKEN} header`);
  // One message for either mismatch, so a caller cannot probe which half was right.
  if (email.trim().toLowerCase() !== o.email.toLowerCase() || token !== o.token) return error(401, "invalid credentials");
  return undefined;
}

async function withFaults(state: State, route: () => Promise<Response> | Response): Promise<Response> {
  const f = state.o.faults;
  const rng = state.faultRng;
  // Always four draws per request, so one request's outcome never shifts the next one's.
  const u = rng.next();
  const kind = rng.next();
  const cutDraw = rng.next();
  const cutAt = rng.next();
  if (f.latencyMs > 0) await new Promise((r) => setTimeout(r, f.latencyMs));
  if (u < f.failRate) {
    return kind < 0.5
      ? error(500, "simulated internal server error", { "x-sim-fault": "fail" })
      : error(503, "simulated service unavailable", { "x-sim-fault": "fail" });
  }
  if (u < f.failRate + f.throttleRate) {
    return error(429, "simulated rate limit", { "retry-after": String(f.retryAfterS), "x-sim-fault": "throttle" });
  }
  const response = await route();
  if (response.ok && cutDraw < f.truncateRate) {
    const text = await response.text();
    // Cut strictly inside the text: a strict prefix of a JSON object never parses.
    const at = Math.max(1, Math.min(text.length - 1, Math.floor(text.length * (0.1 + 0.8 * cutAt))));
    const headers = new Headers(response.headers);
    headers.set("x-sim-fault", "truncate");
    headers.delete("content-length");
    return new Response(text.slice(0, at), { status: response.status, headers });
  }
  return response;
}

// ---------------------------------------------------------------------------------------
// Endpoints

function brands(state: State): Response {
  const body: BrandsResponse = { brands: state.world.brands.map((b) => ({ id: b.id, name: b.name })) };
  return json(200, body);
}

function shopByExternalKey(state: State, brandText: string, url: URL): Response {
  const vendor = url.searchParams.get("vendor");
  const key = url.searchParams.get("vendor_key");
  if (vendor === null || vendor === "") return error(400, "missing query parameter vendor", {}, "vendor");
  if (key === null || key === "") return error(400, "missing query parameter vendor_key", {}, "vendor_key");
  const brandId = parseId(brandText);
  const brand = brandId === undefined ? undefined : state.world.brands.find((b) => b.id === brandId);
  if (brand === undefined) return error(404, `no brand ${decodeSafe(brandText)}`);
  if (vendor !== brand.name) return error(404, `vendor ${JSON.stringify(vendor)} is not the name of brand ${brand.id}`);
  const shop = state.world.shops.find((s) => s.brandId === brand.id && s.externalKey === key);
  if (shop === undefined) return error(404, `brand ${brand.id} has no shop with External Key ${JSON.stringify(key)}`);
  const body: ShopResponse = { shop: { id: shop.id, name: shop.name } };
  return json(200, body);
}

function listSales(state: State, shopText: string): Response {
  const id = parseId(shopText);
  if (id === undefined || state.world.shop(id) === undefined) return error(404, `no shop ${decodeSafe(shopText)}`);
  return json(200, { sales_stats_dailies: state.store.list(id) });
}

async function postSales(state: State, shopText: string, request: Request): Promise<Response> {
  const id = parseId(shopText);
  if (id === undefined || state.world.shop(id) === undefined) return error(404, `no shop ${decodeSafe(shopText)}`);
  const type = request.headers.get("content-type") ?? "";
  if (!/^application\/json\s*(;|$)/i.test(type.trim())) {
    return error(415, "Content-Type must be application/json");
  }
  let body: unknown;
  try {
    body = JSON.parse(await request.text());
  } catch {
    return error(400, "body is not valid JSON", {}, "");
  }
  const checked = validateSales(body);
  if (typeof checked === "string") return error(400, `invalid ${checked}`, {}, checked.split(":")[0]!);
  const replaced = await state.store.put(id, checked);
  return json(replaced ? 200 : 201, { sales_stats_daily: checked });
}

/** The validated record, or `"<field>: <reason>"`. */
function validateSales(body: unknown): SalesStatsDaily | string {
  if (!isObject(body)) return "body: expected a JSON object";
  const r = body["sales_stats_daily"];
  if (!isObject(r)) return "sales_stats_daily: expected an object";
  const { date, amount, quantity, amount_currency: currency } = r;
  if (date === undefined) return "sales_stats_daily.date: missing";
  if (typeof date !== "string" || epochDayOfDate(date) === undefined) return "sales_stats_daily.date: expected a real date as YYYY-MM-DD";
  if (amount === undefined) return "sales_stats_daily.amount: missing";
  if (typeof amount !== "number" || !Number.isFinite(amount)) return "sales_stats_daily.amount: expected a finite number";
  if (amount < 0) return "sales_stats_daily.amount: must not be negative";
  if (quantity === undefined) return "sales_stats_daily.quantity: missing";
  if (typeof quantity !== "number" || !Number.isSafeInteger(quantity)) return "sales_stats_daily.quantity: expected an integer";
  if (quantity < 0) return "sales_stats_daily.quantity: must not be negative";
  if (currency === undefined) return "sales_stats_daily.amount_currency: missing";
  if (typeof currency !== "string") return "sales_stats_daily.amount_currency: expected a string";
  if (!isCurrencyCode(currency)) return "sales_stats_daily.amount_currency: not an active ISO 4217 code";
  return { date, amount, quantity, amount_currency: currency };
}

function signals(state: State, shopText: string, url: URL): Response {
  const id = parseId(shopText);
  const table = id === undefined ? undefined : state.world.signalTable(id);
  if (table === undefined) return error(404, `no shop ${decodeSafe(shopText)}`);
  const sinceAll = url.searchParams.getAll("since");
  const limitAll = url.searchParams.getAll("limit");
  if (sinceAll.length > 1) return error(400, "since given more than once", {}, "since");
  if (limitAll.length > 1) return error(400, "limit given more than once", {}, "limit");
  const since = sinceAll[0];
  const limitText = limitAll[0];
  if (since !== undefined && !/^[0-9a-fA-F]{1,16}$/.test(since)) return error(400, "since must be an RTS: hexadecimal digits", {}, "since");
  let limit = SIGNALS_LIMIT_DEFAULT;
  if (limitText !== undefined) {
    limit = /^[0-9]{1,4}$/.test(limitText) ? Number(limitText) : NaN;
    if (!(limit >= 1 && limit <= SIGNALS_LIMIT_MAX)) {
      return error(400, `limit must be an integer from 1 to ${SIGNALS_LIMIT_MAX}`, {}, "limit");
    }
  }
  const from = since === undefined ? 0 : firstServedIndex(state, table, since);
  const [minSize, maxSize] = state.o.pageSize;
  if (minSize < limit) limit = Math.min(limit, minSize === maxSize ? minSize : minSize + (hashSeed(state.seed, "page", id!, from) % (maxSize - minSize + 1)));
  const now = state.simNow();
  const visible = now === undefined ? table.count : table.upperBound(Math.floor(now));
  const runs = state.o.uploadEveryMs > 0 && now !== undefined ? uploadedRuns(state, table, from, visible, limit, now) : [from, Math.min(from + limit, visible)];
  const body = state.pages.pageOfRuns(table, runs, since ?? millisToRts(0));
  return new BytesResponse(body, { status: 200, headers: { "content-type": JSON_TYPE } });
}

// Where a page asked for with `since` starts: at the first record whose RTS, as the service
// spells it, is at or after `since` (after it when exclusive) as a string — a key-value store's
// scan by bytes. For a `since` in the service's own padded spelling that is the numeric order,
// read without building a key per step.
function firstServedIndex(state: State, table: ShopSignals, since: string): number {
  const { rtsUnit, rtsSpelling } = state.o;
  const exclusive = state.o.sinceMode === "exclusive";
  const rts = canonicalRts(since);
  if (rtsSpelling.padded && rts !== undefined && spellRts(rts, rtsSpelling) === since) return table.lowerBound(firstMillisOf(rts, rtsUnit, exclusive));
  // Keys of one width order as their times do (a world's RTS never changes its digit count).
  let lo = 0;
  let hi = table.count;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const key = spellRts(rtsOfMillis(table.time[mid]!, rtsUnit), rtsSpelling);
    if (exclusive ? key > since : key >= since) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

// Records [from, visible) that their sensors have uploaded by `now`, at most `limit`, as runs
// (`from, end` pairs) of consecutive rows. A sensor uploads at its phase + k · uploadEveryMs, so a
// record collected at t is visible from the first upload at or after t: everything collected at
// least one upload period ago is, and only the last period is thinned out.
function uploadedRuns(state: State, table: ShopSignals, from: number, visible: number, limit: number, now: number): number[] {
  const every = state.o.uploadEveryMs;
  let phases = state.uploadPhases.get(table.shopId);
  if (phases === undefined) {
    phases = new Float64Array(table.sensors.length);
    for (let k = 0; k < phases.length; k++) phases[k] = hashSeed(state.seed, "upload", table.shopId, k) % every;
    state.uploadPhases.set(table.shopId, phases);
  }
  const uploaded = Math.max(from, Math.min(visible, table.upperBound(now - every)));
  const runs = [from, Math.min(from + limit, uploaded)];
  let n = runs[1]! - from;
  for (let i = uploaded; i < visible && n < limit; i++) {
    const phase = phases[table.sensor[i]!]!;
    const t = table.time[i]!;
    if (nextUpload(t, phase, every) > now) continue;
    if (runs[runs.length - 1] === i) runs[runs.length - 1] = i + 1;
    else runs.push(i, i + 1);
    n++;
  }
  return runs;
}

function simWorld(state: State): Response {
  const w = state.world;
  return json(200, {
    brands: w.brands.map((b) => ({ id: b.id, name: b.name })),
    shops: w.shops.map((s) => ({ id: s.id, name: s.name, brandId: s.brandId, externalKey: s.externalKey, timeZone: s.timeZone, sensors: s.sensors })),
    // How the phones chose MACs, so a client knows whether a MAC can be taken for a person (null: rotation off).
    macBehaviour: w.macBehaviour ?? null,
    // The real-phone parameters, only when `phones` is on (a world without them answers as it always did).
    ...(w.phones !== undefined ? { phones: w.phones } : {}),
    // The radio model the RSSI were drawn from (path loss, noise, shadowing).
    model: w.model,
    // Truth about the sensors: when each heard nothing (WorldOptions.sensorOutages).
    sensorOutages: w.sensorOutages(),
    sensorClockOffsets: Object.fromEntries(w.shops.map((s) => [s.id, w.sensorClockOffsets(s.id)])),
  });
}

function simTruth(state: State, url: URL): Response {
  const shopText = url.searchParams.get("shop");
  const view = url.searchParams.get("view") ?? "macs";
  if (view !== "macs" && view !== "visits" && view !== "occupancy") return error(400, "view must be macs, visits or occupancy", {}, "view");
  let id: number | undefined;
  if (shopText !== null) {
    id = parseId(shopText);
    if (id === undefined) return error(400, "shop must be a SHOP ID (decimal integer)", {}, "shop");
    if (state.world.shop(id) === undefined) return error(404, `no shop ${id}`);
  }
  const rows: readonly object[] = view === "macs" ? state.world.truth(id) : view === "visits" ? state.world.visits(id) : state.world.occupancy(id);
  let out = "";
  for (const row of rows) out += `${JSON.stringify(row)}\n`;
  return new Response(out, { status: 200, headers: { "content-type": "application/x-ndjson; charset=utf-8" } });
}

// A simulator extra, not the service interface: the world's people as a door counter serves them
// (counted-truth CSV), so calibration and scoring can be run against the simulator as against a
// shop with a counter. `since`/`until` default to the world's span.
function simCounted(state: State, url: URL): Response {
  const shopText = url.searchParams.get("shop");
  if (shopText === null) return error(400, "missing query parameter shop", {}, "shop");
  const id = parseId(shopText);
  if (id === undefined) return error(400, "shop must be a SHOP ID (decimal integer)", {}, "shop");
  const shop = state.world.shop(id);
  if (shop === undefined) return error(404, `no shop ${id}`);
  const shape = url.searchParams.get("shape") ?? "inside";
  if (shape !== "inside" && shape !== "daily") return error(400, "shape must be inside or daily", {}, "shape");
  const since = instantOf(url.searchParams.get("since"), shop.timeZone, state.world.startMs);
  if (since === undefined) return error(400, "since must be ISO 8601 with an offset, YYYY-MM-DD (the shop's local day) or epoch ms", {}, "since");
  const until = instantOf(url.searchParams.get("until"), shop.timeZone, state.world.endMs);
  if (until === undefined) return error(400, "until must be ISO 8601 with an offset, YYYY-MM-DD (the shop's local day) or epoch ms", {}, "until");
  if (!(since < until)) return error(400, "since must be before until", {}, "until");
  const minutesText = url.searchParams.get("segment_minutes");
  const segmentMinutes = minutesText === null ? undefined : /^[0-9]{1,4}(\.[0-9]+)?$/.test(minutesText) ? Number(minutesText) : NaN;
  if (segmentMinutes !== undefined && !(segmentMinutes > 0 && segmentMinutes <= 1440)) return error(400, "segment_minutes must be a number of minutes in (0, 1440]", {}, "segment_minutes");
  let csv: string;
  try {
    csv = countedTruthCsv(state.world, id, since, until, { shape, ...(segmentMinutes !== undefined ? { segmentMinutes } : {}) });
  } catch (e) {
    if (e instanceof RangeError) return error(400, e.message);
    throw e;
  }
  return new Response(csv, { status: 200, headers: { "content-type": "text/csv; charset=utf-8" } });
}

// An instant given as ISO 8601 with an offset (or Z), a local date (its midnight in the shop's
// zone) or epoch ms digits; `fallback` when absent, undefined when unreadable. An ISO time without
// an offset is refused: read in the server's zone it would name another instant.
function instantOf(text: string | null, timeZone: string, fallback: number): number | undefined {
  if (text === null || text === "") return fallback;
  if (/^[0-9]{1,15}$/.test(text)) return Number(text);
  // An unencoded "+09:00" arrives as " 09:00" (a query string's "+" is a space): read it as meant.
  text = text.replace(/ (\d{2}:\d{2})$/, "+$1");
  const day = epochDayOfDate(text);
  if (day !== undefined) return localMidnight(day, timeZone);
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/.test(text)) return undefined;
  const ms = Date.parse(text);
  return Number.isFinite(ms) ? ms : undefined;
}

// ---------------------------------------------------------------------------------------
// Helpers

function parseId(text: string): number | undefined {
  if (!/^[0-9]{1,15}$/.test(text)) return undefined;
  return Number(text);
}

function decodeSafe(text: string): string {
  try {
    return JSON.stringify(decodeURIComponent(text));
  } catch {
    return JSON.stringify(text);
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": JSON_TYPE } });
}

function error(status: number, message: string, headers: Record<string, string> = {}, field?: string): Response {
  const body: { error: string; field?: string } = { error: message };
  if (field !== undefined) body.field = field;
  return new Response(JSON.stringify(body), { status, headers: { "content-type": JSON_TYPE, ...headers } });
}
