// Code cells of /work/main/notebooks/01-quickstart.ipynb, extracted for `deno check` and `deno lint`.

// cell 2
import { analyze, createClient, signals, type RawSignal } from "../src/index.ts";
import { classifyVisits, countVisits, decodeSignals, sessionize } from "../src/operators/index.ts";
import { startSimulator } from "../src/sim/index.ts";
import {
  chartMimeBundle,
  dwellHistogram,
  hourlyChart,
  randomizedShareChart,
  tableHtml,
} from "../src/report/index.ts";
import { lastValueFrom, toArray } from "rxjs";

/** Shows a chart (SVG) as a notebook output. */
const show = (svg: string) => Deno.jupyter.display(chartMimeBundle(svg), { raw: true });
/** Shows rows as an HTML table. */
const showTable = (rows: readonly object[], caption: string) => Deno.jupyter.display({ "text/html": tableHtml(rows, { caption }) }, { raw: true });

// A seeded world: one shop, one day, a lighter street than the default so this runs in seconds.
const sim = await startSimulator({ port: 0, seed: 1, world: { shops: 1, days: 1, passersByPerDay: 1500 } });
const world = sim.world;
const shop = world.shops[0]!;
const day = new Date(world.startMs).toLocaleDateString("en-CA", { timeZone: shop.timeZone });
console.log(`simulator running: ${world.brands.length} brands, ${world.shops.length} shop, ${shop.name} (SHOP ID ${shop.id}, ${shop.timeZone}), ${day}`);

// cell 4
const client = createClient({ baseUrl: sim.baseUrl, signalUrl: sim.signalUrl, email: sim.email, token: sim.token });
const pages = { count: 0 };
const records: RawSignal[] = await lastValueFrom(
  signals(client, { shopId: shop.id, since: world.startMs, until: world.endMs, onProgress: () => void pages.count++ }).pipe(toArray()),
);
console.log(`${records.length} records in ${pages.count} pages (the simulator holds ${world.signalCount(shop.id)})`);
records[0];

// cell 6
const result = await analyze(records, { timeZone: shop.timeZone });
const summary = result.days[0]!;
const minutes = (ms: number) => (Number.isFinite(ms) ? `${(ms / 60_000).toFixed(1)} min` : "–");
const percent = (x: number) => (Number.isFinite(x) ? `${(100 * x).toFixed(1)} %` : "–");
await showTable(
  [
    { measure: "visitors (unique devices that visited)", value: summary.visitors },
    { measure: "visits (sessions)", value: summary.visits },
    { measure: "passers-by (unique devices)", value: summary.passersBy },
    { measure: "capture rate (visitors ÷ devices)", value: percent(summary.captureRate) },
    { measure: "new / repeat visitors (universal MACs)", value: `${summary.newVisitors} / ${summary.repeatVisitors}` },
    { measure: "randomized-MAC visitors", value: summary.randomized.visitors },
    { measure: "staff / stationary devices (left out)", value: `${summary.staff} / ${summary.stationary}` },
    { measure: "median dwell of visits", value: minutes(summary.dwell.medianMs) },
    { measure: "90th percentile dwell", value: minutes(summary.dwell.p90Ms) },
    { measure: "visitor RSSI threshold used", value: `${summary.visitorRssi} dBm` },
  ],
  `${shop.name}, ${summary.label}`,
);

// cell 8
// Local hour of each window, from its label (e.g. "2026-11-16T14:00+09:00").
const hourOf = (label: string) => Number(label.slice(11, 13));
await show(
  hourlyChart(
    result.hours.map((h) => ({ hour: hourOf(h.label), visitors: h.visitors, passersBy: h.passersBy })),
    { title: `Visitors and passers-by per hour, ${shop.name}`, note: `${day}, hours in shop time (${shop.timeZone}); a device seen in two hours counts in both.` },
  ),
);

// cell 9
await show(
  dwellHistogram(summary.dwell.buckets, {
    title: `How long visitors stay, ${shop.name}`,
    note: `Dwell = first to last signal of a visit plus the device's typical probe interval; ${day}.`,
  }),
);

// cell 10
await show(
  randomizedShareChart(
    [
      { group: "visitors", series: "randomized", count: summary.randomized.visitors },
      { group: "visitors", series: "universal", count: summary.universal.visitors },
      { group: "passers-by", series: "randomized", count: summary.randomized.passersBy },
      { group: "passers-by", series: "universal", count: summary.universal.passersBy },
    ],
    { note: "Randomized MACs change between visits, so they cannot be recognised as repeat visitors." },
  ),
);

// cell 12
const streamed = await lastValueFrom(
  signals(client, { shopId: shop.id, since: world.startMs, until: world.endMs }).pipe(
    decodeSignals(),
    sessionize(),
    classifyVisits({ timeZone: shop.timeZone }),
    countVisits({ window: "day", timeZone: shop.timeZone }),
    toArray(),
  ),
);
const fromStream = streamed[0]!;
console.log(`operators: ${fromStream.visitors} visitors, ${fromStream.passersBy} passers-by; analyze: ${summary.visitors} visitors, ${summary.passersBy} passers-by`);
if (fromStream.visitors !== summary.visitors || fromStream.passersBy !== summary.passersBy) {
  throw new Error("the operators and analyze disagree");
}

// cell 13
await sim.close();

export {};
