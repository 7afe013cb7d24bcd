// Code cells of /work/main/notebooks/03-conversion.ipynb, extracted for `deno check` and `deno lint`.

// cell 2
import {
  aggregateDaily,
  Analyzer,
  conversionRate,
  createClient,
  LocalCalendar,
  memoryJournal,
  netReceipts,
  salesStatsDailiesPath,
  scoreAgainstTruth,
  signals,
  uploadDailySales,
  type SalesInputRow,
} from "../src/index.ts";
import { startSimulator } from "../src/sim/index.ts";
import { accuracyChart, chartMimeBundle, conversionChart, tableHtml } from "../src/report/index.ts";
import { ignoreElements, lastValueFrom, tap } from "rxjs";

/** Shows a chart (SVG) as a notebook output. */
const show = (svg: string) => Deno.jupyter.display(chartMimeBundle(svg), { raw: true });
/** Shows rows as an HTML table. */
const showTable = (rows: readonly object[], caption: string) => Deno.jupyter.display({ "text/html": tableHtml(rows, { caption }) }, { raw: true });

// Three shops over two days; a lighter street than the default so the notebook runs in well under a minute.
const sim = await startSimulator({ port: 0, seed: 3, world: { shops: 3, days: 2, passersByPerDay: 1000 } });
const world = sim.world;
const client = createClient({ baseUrl: sim.baseUrl, signalUrl: sim.signalUrl, email: sim.email, token: sim.token });
const shopName = new Map(world.shops.map((s) => [s.id, s.name]));
await showTable(
  world.shops.map((s) => ({ "SHOP ID": s.id, shop: s.name, brand: world.brands.find((b) => b.id === s.brandId)?.name, "External Key": s.externalKey, "time zone": s.timeZone })),
  "The simulated shops (External Keys registered with the service operator)",
);

// cell 4
const transactions = world.transactions();
// Line numbers let each daily total point back at the transactions it was made of.
const rows: SalesInputRow[] = transactions.map((t, i) => ({ ...t, line: i + 1, source: "pos-export" }));
const sales = aggregateDaily(rows);
const journal = memoryJournal();
const report = await uploadDailySales(client, sales, { journal });
console.log(`${transactions.length} transaction lines → ${sales.days.length} shop-days; upload:`, report.counts);
const again = await uploadDailySales(client, sales, { journal });
console.log("second run with the same journal:", again.counts);
await showTable(
  report.days.map((d) => ({ shop: shopName.get(d.shopId ?? -1) ?? d.externalKey, date: d.date, status: d.status, "amount (KRW)": d.amount, quantity: d.quantity })),
  "Upload report: one record per shop-day",
);

// cell 5
// What the service now holds (the simulator's listing extension; the interface itself has no read endpoint).
const headers = { "x-user-email": sim.email, "x-user-token": sim.token };
const stored = (
  await Promise.all(
    world.shops.map(async (s) => {
      const body = (await (await fetch(new URL(salesStatsDailiesPath(s.id), sim.baseUrl), { headers })).json()) as {
        sales_stats_dailies: { date: string; amount: number; quantity: number; amount_currency: string }[];
      };
      return body.sales_stats_dailies.map((r) => ({ shopId: s.id, ...r }));
    }),
  )
).flat();
// An independent check: the local date is the date part of each transaction's local timestamp.
const expected = new Map<string, number>();
for (const t of transactions) {
  const key = `${t.external_key} ${t.timestamp.slice(0, 10)}`;
  expected.set(key, (expected.get(key) ?? 0) + t.amount);
}
await showTable(
  stored.map((r) => {
    const key = `${world.shop(r.shopId)!.externalKey} ${r.date}`;
    return { shop: shopName.get(r.shopId), date: r.date, amount: r.amount, currency: r.amount_currency, quantity: r.quantity, "Σ transactions": expected.get(key), match: expected.get(key) === r.amount ? "yes" : "NO" };
  }),
  "Stored daily records against the sum of the day's transaction lines",
);
if (stored.some((r) => expected.get(`${world.shop(r.shopId)!.externalKey} ${r.date}`) !== r.amount)) throw new Error("a stored total differs from its transactions");

// cell 7
const analyzer = new Analyzer({ timeZone: "Asia/Seoul" });
let recordCount = 0;
for (const shop of world.shops) {
  await lastValueFrom(
    signals(client, { shopId: shop.id, since: world.startMs, until: world.endMs }).pipe(
      tap((record) => {
        recordCount++;
        analyzer.push(record);
      }),
      ignoreElements(),
    ),
    { defaultValue: undefined },
  );
}
const result = analyzer.finish();
console.log(`${recordCount} signal records → ${result.sessions.length} sessions, ${result.days.length} shop-days`);

// cell 9
const lines = new Map(rows.map((r) => [r.line, r]));
const shopByKey = new Map(world.shops.map((s) => [s.externalKey, s]));
const conversion = sales.days.map((d) => {
  const shop = shopByKey.get(d.externalKey)!;
  // The library's refund rule, as in the demo: each refund line cancels one receipt.
  const receipts = netReceipts(d.rows.map((ref) => Number(lines.get(ref.line)!.amount)));
  const visitors = result.days.find((v) => v.shopId === shop.id && v.label === d.date)?.visitors ?? 0;
  return { shop: shop.name, date: d.date, visitors, receipts, amount: d.amount };
});
await showTable(
  conversion.map((c) => {
    // The library's zero-visitor rule: no visitors → conversion not available, never 0 % or NaN.
    const rate = conversionRate(c.receipts, c.visitors);
    return { ...c, conversion: rate === undefined ? "n/a" : `${(100 * rate).toFixed(1)} %`, "KRW per visitor": c.visitors === 0 ? "n/a" : Math.round(c.amount / c.visitors) };
  }),
  "Sales joined with visitors",
);
await show(conversionChart(conversion, { note: "Receipts ÷ unique visitors detected from Wi-Fi signals; amounts in KRW." }));

// cell 11
const truth = world.truth();
const score = scoreAgainstTruth(result.sessions, truth, { timeZone: "Asia/Seoul" });
// The library's instant → local-date mapping, the one the analytics and the sales upload use.
const seoul = new LocalCalendar("Asia/Seoul");
const localDate = (ms: number) => seoul.dateOf(ms);
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? Number.NaN : s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
// Short labels: the shop's district and the month-day.
const district = (shopId: number) => (shopName.get(shopId) ?? String(shopId)).split(" ").at(-1)!;
const accuracyRows = score.shopDays.flatMap((sd) => {
  const name = `${district(sd.shopId)} ${sd.date.slice(5)}`;
  const day = result.days.find((d) => d.shopId === sd.shopId && d.label === sd.date);
  const trueOfDay = truth.filter((t) => t.shop === sd.shopId && localDate(t.start) === sd.date);
  const truePassers = new Set(trueOfDay.filter((t) => t.kind === "passerby").map((t) => t.device)).size;
  const trueDwellMin = median(trueOfDay.filter((t) => t.kind === "visitor").map((t) => (t.end - t.start) / 60_000));
  return [
    { label: `${name} · visitors`, estimated: sd.detectedVisitors, truth: sd.truthVisitors },
    { label: `${name} · passers-by`, estimated: day?.passersBy ?? 0, truth: truePassers },
    { label: `${name} · median dwell (min)`, estimated: Number(((day?.dwell.medianMs ?? Number.NaN) / 60_000).toFixed(1)), truth: Number(trueDwellMin.toFixed(1)) },
  ];
});
await show(accuracyChart(accuracyRows, { tolerancePct: 10, note: "Passers-by: unique devices of true passers-by that day; dwell: median over true visitors vs detected visits." }));

// cell 12
await showTable(
  [
    { measure: "visitor precision / recall / F1", value: `${score.visitor.precision.toFixed(3)} / ${score.visitor.recall.toFixed(3)} / ${score.visitor.f1.toFixed(3)}` },
    { measure: "passer-by precision / recall / F1", value: `${score.passerby.precision.toFixed(3)} / ${score.passerby.recall.toFixed(3)} / ${score.passerby.f1.toFixed(3)}` },
    { measure: "visitor count error, mean |relative| over shop-days", value: `${(100 * score.meanAbsCountError).toFixed(1)} %` },
    { measure: "visitor count error, all shop-days together", value: `${(100 * score.totalCountError).toFixed(1)} %` },
    { measure: "dwell error of matched visitors, median |detected − true|", value: `${(score.medianAbsDwellErrorMs / 60_000).toFixed(1)} min (${score.dwellMatched} visitors)` },
    { measure: "dwell bias, median (detected − true)", value: `${(score.medianDwellErrorMs / 60_000).toFixed(1)} min` },
  ],
  "Classification and dwell against ground truth",
);
await showTable(
  (["visitor", "passerby", "staff", "stationary"] as const).map((kind) => ({ "true kind": kind, ...score.confusion[kind] })),
  "Confusion: true kind (rows) → detected kind (columns)",
);

// cell 13
await sim.close();

export {};
