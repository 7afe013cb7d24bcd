import { conversionRate } from "../kernels/visits/conversionRate.ts";
import { accuracyChart, type AccuracyRow } from "./accuracyChart.ts";
import { chartTheme } from "./chartTheme.ts";
import { conversionChart, type ConversionRow } from "./conversionChart.ts";
import { dwellHistogram, type DwellBucketCount } from "./dwellHistogram.ts";
import { hourlyChart, type HourlyRow } from "./hourlyChart.ts";
import { occupancyChart, type OccupancyRow } from "./occupancyChart.ts";
import { peopleVsMacsChart, type PeopleVsMacsRow } from "./peopleVsMacsChart.ts";
import { isSmallCount } from "../kernels/visits/isSmallCount.ts";
import { proximityZonesChart, type ZoneTimeRow } from "./proximityZonesChart.ts";
import { randomizedShareChart, type ShareRow } from "./randomizedShareChart.ts";
import { escapeHtml } from "./tableHtml.ts";

/**
 * How well one shop's figures match the ground truth (the simulator's, or a manual count).
 *
 * @example
 * const a: ReportShopAccuracy = { truthVisitors: 470, truthMedianDwellMs: 960_000 };
 */
export interface ReportShopAccuracy {
  /** True unique visitors of the day. */
  readonly truthVisitors: number;
  /** True median dwell of the visitors, ms (`NaN` when there were none). */
  readonly truthMedianDwellMs: number;
  /** People who came inside (the person-level truth the people estimate is scored on), when known. */
  readonly truthPeople?: number;
}

/**
 * People, not MACs: one shop-day's estimate of people (`PeopleEstimate`, as the `summary` line
 * of `footfall analyze` rounds it), shown as the headline beside the MAC-level counts.
 *
 * @example
 * const p: ReportPeople = { visitors: 518, visitorsLow: 362, visitorsHigh: 675, passersBy: 5968, captureRate: 0.08 };
 */
export interface ReportPeople {
  /** Estimated people who came inside. */
  readonly visitors: number;
  /** Lower end of its interval (90 %). */
  readonly visitorsLow: number;
  /** Upper end of its interval. */
  readonly visitorsHigh: number;
  /** Estimated people heard only outside. */
  readonly passersBy: number;
  /** visitors ÷ (visitors + passers-by), 0…1. */
  readonly captureRate: number;
}

/**
 * One shop-day of the report: plain numbers, as the analytics produced them.
 *
 * @example
 * const shop: ReportShop = {
 *   id: 101, name: "Cafe Mori Gangnam", visitors: 480, visits: 492, passersBy: 4900, uniqueDevices: 5380,
 *   captureRate: 0.089, medianDwellMs: 1_020_000, dwellBuckets: [{ bucket: "<5 min", count: 40 }],
 *   receipts: 250, amount: 2_400_000, hourly: [{ hour: 10, visitors: 12, passersBy: 200, sales: 5 }],
 *   zones: [{ sensor: "b8:27:eb:00:00:01", zone: "near", ms: 3_600_000 }], devices: { universal: 3000, randomized: 2380 },
 * };
 */
export interface ReportShop {
  /** SHOP ID. */
  readonly id: number;
  readonly name: string;
  /** Unique visitor devices. */
  readonly visitors: number;
  /** Visitor sessions. */
  readonly visits: number;
  /** Unique devices that only passed by. */
  readonly passersBy: number;
  /** Unique visitor and passer-by devices. */
  readonly uniqueDevices: number;
  /** visitors ÷ unique devices, 0…1 (`NaN` without devices). */
  readonly captureRate: number;
  /** Median dwell of visits, ms (`NaN` without visits). */
  readonly medianDwellMs: number;
  /** Visits per dwell bucket, in bucket order. */
  readonly dwellBuckets: readonly DwellBucketCount[];
  /** Receipts of the day (sales lines net of refunds); absent when sales are unknown. */
  readonly receipts?: number | undefined;
  /** Sales amount of the day in the report's currency; absent when unknown. */
  readonly amount?: number | undefined;
  /** Per hour of the day (shop time): visitors, passers-by and receipts. */
  readonly hourly: readonly HourlyRow[];
  /** Device-time per sensor and proximity zone. */
  readonly zones: readonly ZoneTimeRow[];
  /** Unique devices by kind of MAC address. */
  readonly devices: { readonly universal: number; readonly randomized: number };
  /** Ground truth of the shop-day, when known. */
  readonly accuracy?: ReportShopAccuracy | undefined;
  /**
   * The estimate of people: when given, visitors, capture rate and conversion are shown from it
   * (the MAC-level counts above stay beside it). @default undefined (MAC-level figures only)
   */
  readonly people?: ReportPeople | undefined;
  /** Occupancy intervals of the day (estimated people inside with its interval, outside, truth). @default [] */
  readonly occupancy?: readonly OccupancyRow[] | undefined;
}

/**
 * Overall accuracy against ground truth, as scored by the analytics (`scoreAgainstTruth`).
 *
 * @example
 * const a: ReportAccuracy = { totalCountError: 0.02, medianAbsDwellErrorMs: 41_000, visitorF1: 0.96, passerbyF1: 0.99 };
 */
export interface ReportAccuracy {
  /** |Σ detected − Σ true| ÷ Σ true visitors. */
  readonly totalCountError: number;
  /**
   * Dwell error, ms: the median |detected − true| dwell of recognised visitors (MAC-level); with
   * `people`, the mean |estimated − true median dwell| per shop-day of the people estimate.
   */
  readonly medianAbsDwellErrorMs: number;
  /** F1 of the visitor class. */
  readonly visitorF1: number;
  /** F1 of the passer-by class. */
  readonly passerbyF1: number;
  /** True median dwell of all true visitors, ms (`NaN` when there were none). */
  readonly truthMedianDwellMs?: number;
  /** The people estimate against the truth (`scorePeople`), when both are known. */
  readonly people?: ReportPeopleAccuracy | undefined;
}

/**
 * How the people estimate did against the truth over all shop-days (from `scorePeople`).
 *
 * @example
 * const a: ReportPeopleAccuracy = { totalError: -0.03, covered: 5, days: 5, occupancyMae: 0.12 };
 */
export interface ReportPeopleAccuracy {
  /** (Σ estimate − Σ truth) ÷ Σ truth. */
  readonly totalError: number;
  /** Shop-days whose interval held the truth. */
  readonly covered: number;
  /** Shop-days scored. */
  readonly days: number;
  /** Occupancy mean absolute error as a share of the mean occupancy. */
  readonly occupancyMae: number;
  /** (Σ MAC visitors − Σ truth) ÷ Σ truth: what counting MAC addresses would have reported, beside the people counted. */
  readonly macError?: number;
}

/**
 * Everything {@link htmlReport} shows: one local day of one or more shops.
 *
 * @example
 * const input: HtmlReportInput = { date: "2026-11-16", timeZone: "Asia/Seoul", shops: [shop] };
 */
export interface HtmlReportInput {
  /** Page title. @default "footfall — a day in the shops" */
  readonly title?: string;
  /** Local day, `YYYY-MM-DD`. */
  readonly date: string;
  /** IANA time zone of the shops. */
  readonly timeZone: string;
  /** ISO 4217 code of the amounts. @default "KRW" */
  readonly currency?: string;
  readonly shops: readonly ReportShop[];
  /** Median dwell of all visits of all shops, ms. @default the shops' medians weighted by visits */
  readonly medianDwellMs?: number;
  /** Signal records read from the service (for the introduction). */
  readonly signals?: number;
  /** Sensors in the shops (for the introduction). */
  readonly sensors?: number;
  /** Overall accuracy, when ground truth is known. */
  readonly accuracy?: ReportAccuracy | undefined;
  /** Shown as a warning banner, e.g. "Interrupted at 14:05: figures cover the day until then." */
  readonly partial?: string | undefined;
  /** Facts for the footer (label → value), e.g. seed, speed, run time. */
  readonly facts?: readonly { readonly label: string; readonly value: string }[];
  /** Paragraphs for the "How to read this" box. @default a few lines on the definitions */
  readonly notes?: readonly string[];
  /**
   * `--min-count K`: an hour whose visitors or passers-by number 1 to K − 1 (per shop, and summed
   * over all shops) is drawn as suppressed, with no bar. @default 0 (nothing suppressed)
   */
  readonly minCount?: number;
}

/**
 * Defaults of {@link HtmlReportInput}.
 *
 * @example
 * htmlReport({ ...input, notes: [...defaultHtmlReport.notes, "Shop 3 opened late."] });
 */
export const defaultHtmlReport = Object.freeze({
  title: "footfall — a day in the shops",
  currency: "KRW",
  notes: Object.freeze([
    "A visitor is a device whose session lasted at least a minute and came close enough to a sensor (smoothed RSSI) to be inside the shop; everyone else the sensors heard only passed by. Staff and equipment are left out.",
    "Capture rate = visitors ÷ all devices heard (visitors and passers-by). Conversion = receipts ÷ visitors.",
    "Phones that hide behind randomized (locally administered) MAC addresses get a new address per visit, so they cannot be recognised when they come back.",
    "People, not MACs: many phones draw a new randomized MAC address at almost every probe burst, so counting addresses overcounts devices and undercounts visits. Where the page shows people, visitors, capture rate and conversion are estimates of people with a 90 % interval (from phones whose address held across their visit, plus burst rates for the rest); the MAC-level counts stay beside them. Dwell comes from phones whose address held across the visit.",
  ]),
});

/**
 * A self-contained HTML page for one day of shops: headline figures, then charts (visitors and
 * sales per hour, conversion, dwell histogram, randomized vs universal MACs, proximity zones per
 * sensor, accuracy against ground truth) and a table per shop. Charts are the footfall chart
 * functions' SVG (Observable Plot), inlined; styles are inline CSS with the system font. The
 * page loads nothing: no script, font, image, stylesheet or any URL — it opens offline, from a
 * mail attachment or a file share, exactly as written.
 *
 * @example
 * import { writeFile } from "node:fs/promises";
 * await writeFile("report.html", htmlReport({ date: "2026-11-16", timeZone: "Asia/Seoul", shops: [shop] }));
 */
export function htmlReport(input: HtmlReportInput): string {
  checkInput(input);
  const currency = input.currency ?? defaultHtmlReport.currency;
  const title = input.title ?? defaultHtmlReport.title;
  const money = moneyFormat(currency);
  const shops = input.shops;
  const t = totals(shops, input.medianDwellMs);

  const body: string[] = [];
  body.push(`<header><div class="eyebrow">footfall report · ${escapeHtml(input.date)} · ${escapeHtml(input.timeZone)}</div>`);
  body.push(`<h1>${escapeHtml(title)}</h1>`);
  body.push(`<p class="lede">${escapeHtml(intro(input, t))}</p></header>`);
  if (input.partial) body.push(`<div class="banner">${escapeHtml(input.partial)}</div>`);

  body.push(`<section class="tiles">${kpiTiles(t, input.accuracy, money).join("")}</section>`);

  const overview: string[] = [];
  const minCount = input.minCount ?? 0;
  if (!Number.isInteger(minCount) || minCount < 0) throw new RangeError(`htmlReport: minCount must be an integer ≥ 0, got ${String(minCount)}`);
  const suppressedLabel = `<${minCount}`;
  const hourly = suppressHours(sumHourly(shops), minCount);
  overview.push(card(hourlyChart(hourly, { title: "When people came", subtitle: "Devices (MAC addresses) heard per hour, all shops (stacked: visitors + passers-by)", suppressedLabel })));
  if (t.hasSales) overview.push(card(hourlyChart(hourly, { passersBy: false, title: "Did buying follow the visitors?", height: 260, suppressedLabel })));
  if (t.hasSales) {
    // Amounts stay out of the bar labels (they are in the tiles and the table): long labels
    // would run past the chart's right edge.
    overview.push(
      card(
        conversionChart(shops.map((s): ConversionRow => ({ shop: s.name, date: input.date, visitors: headlineVisitors(s), receipts: s.receipts ?? 0 })), {
          title: "What the footfall was worth",
          ...(t.people ? { note: "Conversion = receipts ÷ people who came in (the estimate)." } : {}),
        }),
      ),
    );
  }
  overview.push(card(dwellHistogram(sumBuckets(shops), { title: "How long visitors stayed" })));
  overview.push(
    card(
      randomizedShareChart(
        shops.flatMap((s): ShareRow[] => [
          { series: "universal", count: s.devices.universal, group: s.name },
          { series: "randomized", count: s.devices.randomized, group: s.name },
        ]),
        { title: "Who can be recognised again", subtitle: "Unique devices per shop by kind of MAC address" },
      ),
    ),
  );
  const withPeople = shops.filter((s) => s.people !== undefined);
  if (withPeople.length > 0) {
    const truthOf = (s: ReportShop): { truth?: number } => (s.accuracy?.truthPeople === undefined ? {} : { truth: s.accuracy.truthPeople });
    overview.push(
      card(
        peopleVsMacsChart(
          withPeople.map((s): PeopleVsMacsRow => ({ label: s.name, people: s.people!.visitors, peopleLow: s.people!.visitorsLow, peopleHigh: s.people!.visitorsHigh, macs: s.visitors, ...truthOf(s) })),
          { title: "People, not MAC addresses: visitors", what: "visitors" },
        ),
      ),
    );
    // Passers-by are unknown (NaN) where no universal-MAC passer-by gave their scale: such a shop
    // has no "everyone heard" figure to draw.
    const heard = withPeople.filter((s) => Number.isFinite(s.people!.passersBy));
    if (heard.length > 0) {
      overview.push(
        card(
          peopleVsMacsChart(
            heard.map((s): PeopleVsMacsRow => ({ label: s.name, people: s.people!.visitors + s.people!.passersBy, macs: s.uniqueDevices })),
            {
              title: "People, not MAC addresses: everyone heard",
              what: "people heard",
              subtitle: "Visitors and passers-by: estimated people against the distinct MAC addresses heard",
            },
          ),
        ),
      );
    }
  }
  const accuracyRows = accuracyRowsOf(shops, t.medianDwellMs, input.accuracy);
  if (accuracyRows.length > 0) {
    overview.push(
      card(
        accuracyChart(accuracyRows, {
          title: "How close to the truth",
          subtitle: "Visitors per shop and median dwell: (estimated − truth) ÷ truth",
          note: "Truth: the simulator's record of who was really where.",
        }),
      ),
    );
  }
  body.push(`<h2>All shops</h2><section class="grid">${overview.join("")}</section>`);

  body.push(`<h2>Shop by shop</h2>`);
  body.push(shopTable(shops, money, t.hasSales));
  for (const s of shops) body.push(shopSection({ ...s, hourly: suppressHours(s.hourly, minCount) }, input.date, input.timeZone, money, suppressedLabel));

  const notes = input.notes ?? defaultHtmlReport.notes;
  if (notes.length > 0) body.push(`<section class="notes"><h2>How to read this</h2>${notes.map((n) => `<p>${escapeHtml(n)}</p>`).join("")}</section>`);
  const facts = input.facts ?? [];
  body.push(
    `<footer>${facts.map((f) => `<span><b>${escapeHtml(f.label)}</b> ${escapeHtml(f.value)}</span>`).join("")}` +
      `<span>Made by footfall with Observable Plot; this page loads nothing from anywhere.</span></footer>`,
  );

  return (
    `<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n` +
    `<meta name="viewport" content="width=device-width, initial-scale=1">\n` +
    `<title>${escapeHtml(title)} · ${escapeHtml(input.date)}</title>\n<style>${CSS}</style>\n</head>\n` +
    `<body><main>\n${body.join("\n")}\n</main></body>\n</html>\n`
  );
}

// ---------------------------------------------------------------------------------------

interface Totals {
  /** The headline visitors: people where estimated, else MAC-level. */
  readonly visitors: number;
  /** MAC-level visitors. */
  readonly macVisitors: number;
  /** Headline passers-by (people where estimated). */
  readonly headlinePassersBy: number;
  /** Whether any shop's visitors are an estimate of people. */
  readonly people: boolean;
  readonly visits: number;
  readonly passersBy: number;
  readonly uniqueDevices: number;
  readonly receipts: number;
  readonly amount: number;
  readonly hasSales: boolean;
  readonly medianDwellMs: number;
}

// People where the shop has an estimate, else the MAC-level count: the one headline rule of the page.
function headlineVisitors(s: ReportShop): number {
  return s.people?.visitors ?? s.visitors;
}

function headlineCapture(s: ReportShop): number {
  return s.people?.captureRate ?? s.captureRate;
}

function totals(shops: readonly ReportShop[], medianDwellMs: number | undefined): Totals {
  let visitors = 0;
  let macVisitors = 0;
  let headlinePassersBy = 0;
  let visits = 0;
  let passersBy = 0;
  let uniqueDevices = 0;
  let receipts = 0;
  let amount = 0;
  for (const s of shops) {
    visitors += headlineVisitors(s);
    macVisitors += s.visitors;
    headlinePassersBy += s.people?.passersBy ?? s.passersBy;
    visits += s.visits;
    passersBy += s.passersBy;
    uniqueDevices += s.uniqueDevices;
    receipts += s.receipts ?? 0;
    amount += s.amount ?? 0;
  }
  const hasSales = shops.length > 0 && shops.every((s) => s.receipts !== undefined);
  // The median of all visits is not derivable from per-shop medians; without it the tile shows
  // the visit-weighted mean of them, labelled as typical.
  let weighted = 0;
  let weight = 0;
  for (const s of shops) {
    if (Number.isFinite(s.medianDwellMs) && s.visits > 0) {
      weighted += s.medianDwellMs * s.visits;
      weight += s.visits;
    }
  }
  const median = medianDwellMs ?? (weight > 0 ? weighted / weight : Number.NaN);
  const people = shops.some((s) => s.people !== undefined);
  return { visitors, macVisitors, headlinePassersBy, people, visits, passersBy, uniqueDevices, receipts, amount, hasSales, medianDwellMs: median };
}

function intro(input: HtmlReportInput, t: Totals): string {
  const n = input.shops.length;
  const heard = input.signals !== undefined ? `${int(input.signals)} Wi-Fi signals` : "Wi-Fi signals";
  const who = t.people
    ? `an estimated ${int(t.visitors)} people who came in (${int(t.macVisitors)} visitor MAC addresses) and ${int(t.headlinePassersBy)} who passed by`
    : `${int(t.visitors)} visitors and ${int(t.passersBy)} passers-by`;
  const sensors = input.sensors !== undefined ? ` from ${int(input.sensors)} sensors` : "";
  return (
    `footfall turned ${heard}${sensors} in ${n} shop${n === 1 ? "" : "s"} into ${who}${t.hasSales ? `, and joined them with ${int(t.receipts)} receipts from the tills` : ""}. ` +
    `Everything below is computed from the service's signal records; nothing is sampled.`
  );
}

function kpiTiles(t: Totals, accuracy: ReportAccuracy | undefined, money: Intl.NumberFormat): string[] {
  const tiles = [
    t.people
      ? tile("Visitors", int(t.visitors), `people (estimate); ${int(t.macVisitors)} visitor MAC addresses`)
      : tile("Visitors", int(t.visitors), `${int(t.visits)} visits`),
    t.people
      ? tile("Capture rate", pct(t.visitors + t.headlinePassersBy > 0 ? t.visitors / (t.visitors + t.headlinePassersBy) : Number.NaN), `of ${int(t.visitors + t.headlinePassersBy)} people heard (${int(t.uniqueDevices)} MACs)`)
      : tile("Capture rate", pct(t.uniqueDevices > 0 ? t.visitors / t.uniqueDevices : Number.NaN), `of ${int(t.uniqueDevices)} devices heard`),
    tile("Typical dwell", minutes(t.medianDwellMs), "median visit"),
  ];
  if (t.hasSales) {
    tiles.push(tile("Conversion", rateText(conversionRate(t.receipts, t.visitors)), `${int(t.receipts)} receipts`));
    tiles.push(tile("Sales", compact(money, t.amount), t.visitors > 0 ? `${money.format(t.amount / t.visitors)} per visitor` : "no visitors"));
  }
  if (accuracy?.people !== undefined) {
    const p = accuracy.people;
    tiles.push(
      tile(
        "People counted",
        `${p.totalError >= 0 ? "+" : ""}${pct(p.totalError, 1)}`,
        `vs people present; the 90 % interval held the truth on ${p.covered} of ${p.days} shop-day${p.days === 1 ? "" : "s"}; occupancy off by ${pct(p.occupancyMae, 0)} of its mean`,
        Math.abs(p.totalError) <= 0.1 && p.covered === p.days ? "good" : "warn",
      ),
    );
  }
  if (accuracy?.people?.macError !== undefined) {
    // Beside the people counted, what a reader would have had from counting MAC addresses.
    const p = accuracy.people;
    tiles.push(
      tile(
        "Counting MACs instead",
        `${p.macError! >= 0 ? "+" : ""}${pct(p.macError!, 1)}`,
        `vs people present, as a MAC-level tool would count them (phones rotate their MACs); dwell of people off by ${seconds(accuracy.medianAbsDwellErrorMs)}`,
        Math.abs(p.macError!) > Math.abs(p.totalError) ? "" : "warn",
      ),
    );
  } else if (accuracy !== undefined) {
    tiles.push(
      tile("Accuracy", `F1 ${accuracy.visitorF1.toFixed(3)}`, `visitor count off by ${pct(accuracy.totalCountError, 1)}, dwell by ${seconds(accuracy.medianAbsDwellErrorMs)}`, accuracy.visitorF1 >= 0.9 ? "good" : "warn"),
    );
  }
  return tiles;
}

function tile(label: string, value: string, detail: string, tone = ""): string {
  return `<div class="tile ${tone}"><div class="label">${escapeHtml(label)}</div><div class="value">${escapeHtml(value)}</div><div class="detail">${escapeHtml(detail)}</div></div>`;
}

function card(svg: string): string {
  return `<figure class="card">${inlineSvg(svg)}</figure>`;
}

/**
 * Inline SVG needs no namespace declarations in HTML (the parser puts `<svg>` in the SVG
 * namespace), so they are dropped: the page then holds no URL at all, not even a namespace name.
 */
function inlineSvg(svg: string): string {
  return svg.replace(/\sxmlns(?::\w+)?="[^"]*"/g, "");
}

// Hours with a small count of people (either series) are marked suppressed; summed hours are
// judged on their sums, so a total of several shops can show what each shop alone could not.
function suppressHours(rows: readonly HourlyRow[], minCount: number): HourlyRow[] {
  return rows.map((r) => (isSmallCount(r.visitors, minCount) || isSmallCount(r.passersBy, minCount) ? { ...r, suppressed: true } : r));
}

function sumHourly(shops: readonly ReportShop[]): HourlyRow[] {
  const byHour = new Map<string | number, { visitors: number; passersBy: number; sales: number; hasSales: boolean }>();
  for (const s of shops) {
    for (const r of s.hourly) {
      let acc = byHour.get(r.hour);
      if (acc === undefined) byHour.set(r.hour, (acc = { visitors: 0, passersBy: 0, sales: 0, hasSales: false }));
      acc.visitors += r.visitors;
      acc.passersBy += r.passersBy;
      if (r.sales !== undefined) {
        acc.sales += r.sales;
        acc.hasSales = true;
      }
    }
  }
  return [...byHour].map(([hour, a]) => ({ hour, visitors: a.visitors, passersBy: a.passersBy, ...(a.hasSales ? { sales: a.sales } : {}) }));
}

function sumBuckets(shops: readonly ReportShop[]): DwellBucketCount[] {
  const out: { bucket: string; count: number }[] = [];
  for (const s of shops) {
    for (const b of s.dwellBuckets) {
      const acc = out.find((o) => o.bucket === b.bucket);
      if (acc === undefined) out.push({ bucket: b.bucket, count: b.count });
      else acc.count += b.count;
    }
  }
  return out;
}

function accuracyRowsOf(shops: readonly ReportShop[], medianDwellMs: number, accuracy: ReportAccuracy | undefined): AccuracyRow[] {
  const rows: AccuracyRow[] = [];
  for (const s of shops) {
    if (s.accuracy === undefined) continue;
    if (s.people !== undefined && s.accuracy.truthPeople !== undefined) {
      // People against people present, and the MAC-level count against the same people: the gap is what rotation costs.
      rows.push({ label: `${s.name} · people`, estimated: s.people.visitors, truth: s.accuracy.truthPeople });
      rows.push({ label: `${s.name} · MACs`, estimated: s.visitors, truth: s.accuracy.truthPeople });
    } else {
      rows.push({ label: s.name, estimated: s.visitors, truth: s.accuracy.truthVisitors });
    }
  }
  const truthDwell = accuracy?.truthMedianDwellMs;
  if (truthDwell !== undefined && Number.isFinite(truthDwell) && Number.isFinite(medianDwellMs)) {
    rows.push({ label: "median dwell (min)", estimated: round1(medianDwellMs / 60_000), truth: round1(truthDwell / 60_000) });
  }
  return rows;
}

function shopTable(shops: readonly ReportShop[], money: Intl.NumberFormat, hasSales: boolean): string {
  const people = shops.some((s) => s.people !== undefined);
  const head = [
    "Shop",
    "Visitors",
    ...(people ? ["MAC visitors"] : []),
    "Passers-by",
    "Capture",
    "Median dwell",
    ...(hasSales ? ["Receipts", "Conversion", "Sales", "Per visitor"] : []),
    people ? "People present" : "True visitors",
  ];
  const rows = shops.map((s) => {
    const visitors = headlineVisitors(s);
    const cells = [
      escapeHtml(s.name),
      s.people === undefined ? int(s.visitors) : `${int(s.people.visitors)} [${int(s.people.visitorsLow)}–${upper(s.people.visitorsHigh)}]`,
      ...(people ? [int(s.visitors)] : []),
      int(s.people?.passersBy ?? s.passersBy),
      pct(headlineCapture(s)),
      minutes(s.medianDwellMs),
      ...(hasSales
        ? [
            int(s.receipts ?? 0),
            rateText(conversionRate(s.receipts ?? 0, visitors)),
            money.format(s.amount ?? 0),
            visitors > 0 ? money.format((s.amount ?? 0) / visitors) : "–",
          ]
        : []),
      s.accuracy === undefined ? "–" : int(people ? (s.accuracy.truthPeople ?? Number.NaN) : s.accuracy.truthVisitors),
    ];
    return `<tr>${cells.map((c, i) => `<td${i === 0 ? "" : ' class="num"'}>${i === 0 ? c : escapeHtml(c)}</td>`).join("")}</tr>`;
  });
  return `<div class="tablewrap"><table><thead><tr>${head.map((h, i) => `<th${i === 0 ? "" : ' class="num"'}>${escapeHtml(h)}</th>`).join("")}</tr></thead><tbody>${rows.join("")}</tbody></table></div>`;
}

function shopSection(s: ReportShop, date: string, timeZone: string, money: Intl.NumberFormat, suppressedLabel: string): string {
  const facts = [
    s.people === undefined
      ? `${int(s.visitors)} visitors`
      : `${int(s.people.visitors)} visitors [${int(s.people.visitorsLow)}–${upper(s.people.visitorsHigh)}] (${int(s.visitors)} visitor MACs)`,
    `${int(s.people?.passersBy ?? s.passersBy)} passers-by`,
    `capture ${pct(headlineCapture(s))}`,
    `median dwell ${minutes(s.medianDwellMs)}`,
    ...(s.receipts !== undefined ? [`${int(s.receipts)} receipts`, money.format(s.amount ?? 0)] : []),
  ];
  const charts = [
    s.receipts !== undefined
      ? card(hourlyChart(s.hourly, { passersBy: false, title: `${s.name}: visitors and receipts per hour`, height: 240, suppressedLabel }))
      : card(hourlyChart(s.hourly, { title: `${s.name}: devices per hour`, height: 240, suppressedLabel })),
  ];
  if (s.occupancy !== undefined && s.occupancy.length > 0) {
    charts.push(card(occupancyChart(s.occupancy, { timeZone, title: `${s.name}: people inside`, height: 240 })));
  }
  if (s.zones.length > 0) {
    charts.push(card(proximityZonesChart(s.zones, { title: `${s.name}: where people stood`, subtitle: "Device-minutes nearest each sensor, by estimated distance (immediate < 1 m, near < 4 m, far)" })));
  }
  return (
    `<section class="shop" id="shop-${s.id}"><h3>${escapeHtml(s.name)} <span class="muted">· shop ${s.id} · ${escapeHtml(date)}</span></h3>` +
    `<p class="facts">${facts.map(escapeHtml).join(" · ")}</p><div class="grid">${charts.join("")}</div></section>`
  );
}

function checkInput(input: HtmlReportInput): void {
  if (typeof input !== "object" || input === null) throw new TypeError("htmlReport: expected an input object");
  if (typeof input.date !== "string" || !/^\d{4}-\d{2}-\d{2}$/.test(input.date)) throw new TypeError(`htmlReport: date must be YYYY-MM-DD, got ${String(input.date)}`);
  if (typeof input.timeZone !== "string" || input.timeZone === "") throw new TypeError("htmlReport: timeZone must be a non-empty string");
  if (!Array.isArray(input.shops)) throw new TypeError("htmlReport: shops must be an array");
  for (const s of input.shops) {
    if (typeof s?.name !== "string") throw new TypeError("htmlReport: every shop needs a name");
    for (const key of ["visitors", "visits", "passersBy", "uniqueDevices"] as const) {
      const v = s[key];
      if (typeof v !== "number" || !(v >= 0)) throw new RangeError(`htmlReport: ${s.name}: ${key} must be a count ≥ 0, got ${String(v)}`);
    }
  }
}

function moneyFormat(currency: string): Intl.NumberFormat {
  try {
    return new Intl.NumberFormat("en", { style: "currency", currency, maximumFractionDigits: currency === "KRW" || currency === "JPY" ? 0 : 2 });
  } catch {
    throw new RangeError(`htmlReport: currency must be an ISO 4217 code, got ${currency}`);
  }
}

/** Millions and up in compact form (₩29.87M), so a headline figure fits its tile. */
function compact(money: Intl.NumberFormat, amount: number): string {
  if (Math.abs(amount) < 1e6) return money.format(amount);
  const o = money.resolvedOptions();
  return new Intl.NumberFormat("en", { style: "currency", currency: o.currency, notation: "compact", maximumFractionDigits: 2 }).format(amount);
}

const int = (n: number): string => (Number.isFinite(n) ? Math.round(n).toLocaleString("en") : "–");
/** An interval's upper bound: "?" when nothing bounds it (Infinity), as the CLI's tables show it. */
const upper = (n: number): string => (n === Number.POSITIVE_INFINITY ? "?" : int(n));
const pct = (x: number, digits = 1): string => (Number.isFinite(x) ? `${(100 * x).toFixed(digits)} %` : "–");
// No visitors: conversion is not available (conversionRate's rule), shown as "n/a".
const rateText = (rate: number | undefined): string => (rate === undefined ? "n/a" : pct(rate));
const minutes = (ms: number): string => (Number.isFinite(ms) ? `${(ms / 60_000).toFixed(1)} min` : "–");
const seconds = (ms: number): string => (Number.isFinite(ms) ? `${Math.round(ms / 1000)} s` : "–");
const round1 = (x: number): number => Math.round(x * 10) / 10;

const c = chartTheme;
const CSS = `
*{box-sizing:border-box}
body{margin:0;background:#f4f6f8;color:${c.ink};font-family:${c.fontFamily};font-size:15px;line-height:1.5}
main{max-width:1540px;margin:0 auto;padding:32px 28px 48px}
header{margin-bottom:20px}
.eyebrow{color:${c.muted};font-size:13px;letter-spacing:.04em;text-transform:uppercase}
h1{font-size:30px;line-height:1.2;margin:6px 0 8px}
h2{font-size:20px;margin:36px 0 14px}
h3{font-size:17px;margin:0 0 4px}
.lede{max-width:900px;font-size:16px;color:#30363d;margin:0}
.muted{color:${c.muted};font-weight:400}
.banner{background:#fff8c5;border:1px solid #d4a72c;border-radius:8px;padding:10px 14px;margin:12px 0}
.tiles{display:grid;grid-template-columns:repeat(auto-fit,minmax(200px,1fr));gap:14px}
.tile{background:#fff;border-radius:10px;padding:14px 18px;box-shadow:0 1px 2px rgba(31,35,40,.08),0 0 0 1px rgba(31,35,40,.06);border-top:4px solid ${c.color.visitors}}
.tile.good{border-top-color:#1a7f37}
.tile.warn{border-top-color:${c.color.sales}}
.tile .label{color:${c.muted};font-size:13px;text-transform:uppercase;letter-spacing:.04em}
.tile .value{font-size:30px;font-weight:650;font-variant-numeric:tabular-nums;margin:2px 0}
.tile .detail{color:${c.muted};font-size:13px}
.grid{display:grid;grid-template-columns:repeat(auto-fit,minmax(620px,1fr));gap:16px;align-items:start}
.card{margin:0;background:#fff;border-radius:10px;padding:8px;box-shadow:0 1px 2px rgba(31,35,40,.08),0 0 0 1px rgba(31,35,40,.06);overflow:hidden}
.card svg{display:block;max-width:100%;height:auto;margin:0 auto}
.tablewrap{overflow-x:auto;background:#fff;border-radius:10px;box-shadow:0 1px 2px rgba(31,35,40,.08),0 0 0 1px rgba(31,35,40,.06);margin-bottom:22px}
table{border-collapse:collapse;width:100%;font-size:14px}
th,td{padding:8px 12px;border-bottom:1px solid ${c.grid};text-align:left;white-space:nowrap}
th{font-size:12px;text-transform:uppercase;letter-spacing:.04em;color:${c.muted};font-weight:600}
td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}
tbody tr:last-child td{border-bottom:0}
.shop{margin:26px 0}
.facts{color:#30363d;margin:0 0 12px}
.notes{max-width:900px;color:#30363d}
.notes p{margin:6px 0}
footer{margin-top:36px;padding-top:14px;border-top:1px solid ${c.grid};color:${c.muted};font-size:13px;display:flex;flex-wrap:wrap;gap:6px 22px}
footer b{color:${c.ink};font-weight:600}
@media (max-width:700px){main{padding:18px 12px}.grid{grid-template-columns:1fr}}
`;
