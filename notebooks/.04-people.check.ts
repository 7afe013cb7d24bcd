// Code cells of /work/main/notebooks/04-people.ipynb, extracted for `deno check` and `deno lint`.

// cell 2
import { analyze, scorePeople, type AnalyzeResult } from "../src/index.ts";
import { createWorld, peopleTruth } from "../src/sim/index.ts";
import { chartMimeBundle, occupancyChart, peopleVsMacsChart, tableHtml } from "../src/report/index.ts";

/** Shows a chart (SVG) as a notebook output. */
const show = (svg: string) => Deno.jupyter.display(chartMimeBundle(svg), { raw: true });
/** Shows rows as an HTML table. */
const showTable = (rows: readonly object[], caption: string) => Deno.jupyter.display({ "text/html": tableHtml(rows, { caption }) }, { raw: true });
const int = (n: number) => (Number.isFinite(n) ? Math.round(n).toLocaleString("en") : "–");
const pct = (x: number) => (Number.isFinite(x) ? `${x >= 0 ? "+" : ""}${(100 * x).toFixed(1)} %` : "–");

// Two shops, one day, phones rotating their MACs as published captures show.
const world = createWorld({ seed: 4, shops: 2, days: 1, rotation: "realistic" });
const mac = world.macBehaviour!;
console.log(
  `${world.signalCount().toLocaleString("en")} signals; phones: ${(100 * mac.universalShare).toFixed(0)} % universal MACs, ` +
    `${(100 * mac.rotatingShare).toFixed(0)} % of the others rotating`,
);

// cell 4
const results: AnalyzeResult[] = [];
// `liveOccupancy`: also the occupancy as a live view saw it, interval by interval (see below).
for (const shop of world.shops) results.push(await analyze(world.rawSignals(shop.id), { timeZone: shop.timeZone, proximity: false, liveOccupancy: true }));
const estimates = results.flatMap((r) => r.people);
const days = results.flatMap((r) => r.days);
// The person-level truth: people who came inside (one per person, however many MACs their phone used) and the
// true mean number inside per interval.
const score = scorePeople(estimates, peopleTruth(world));
const shopName = new Map(world.shops.map((s) => [s.id, s.name]));

// cell 6
await showTable(
  score.days.map((d) => {
    const macs = days.find((x) => x.shopId === d.shopId && x.start === d.start)!;
    const p = estimates.find((x) => x.shopId === d.shopId && x.start === d.start)!;
    return {
      shop: shopName.get(d.shopId),
      date: d.label,
      "people present": d.truth,
      "people counted": int(d.visitors),
      "90 % interval": `${int(d.visitorsLow)}–${int(d.visitorsHigh)}`,
      "holds the truth": d.covered ? "yes" : "NO",
      error: pct(d.error),
      "MAC visitors": macs.visitors,
      "MAC error": pct(macs.visitors / d.truth - 1),
      "known visitors": p.knownVisitors,
      "MACs heard": macs.uniqueDevices,
      "people heard (est.)": int(p.visitors + p.passersBy),
    };
  }),
  "Visitors per shop-day: people counted (estimate) and MAC addresses, against the people present",
);
await show(
  peopleVsMacsChart(
    score.days.map((d) => ({
      label: `${shopName.get(d.shopId)} ${d.label.slice(5)}`,
      people: d.visitors,
      peopleLow: d.visitorsLow,
      peopleHigh: d.visitorsHigh,
      macs: days.find((x) => x.shopId === d.shopId && x.start === d.start)!.visitors,
      truth: d.truth,
    })),
    { title: "Visitors: people vs MAC addresses", note: "Truth: the simulator's people who came inside that day." },
  ),
);
await show(
  peopleVsMacsChart(
    estimates.map((p) => ({
      label: `${shopName.get(p.shopId)} ${p.label.slice(5)}`,
      people: p.visitors + p.passersBy,
      macs: days.find((x) => x.shopId === p.shopId && x.start === p.start)!.uniqueDevices,
    })),
    { title: "Everyone heard: people vs MAC addresses", what: "people heard", subtitle: "Visitors and passers-by: estimated people against the distinct MAC addresses heard" },
  ),
);

// cell 7
await showTable(
  [
    { measure: "visitors, all shop-days: (counted − present) ÷ present", value: pct(score.totalError) },
    { measure: "visitors, mean |error| per shop-day", value: `${(100 * score.meanAbsError).toFixed(1)} %` },
    { measure: "shop-days whose 90 % interval holds the truth", value: `${score.covered} of ${score.days.length}` },
    { measure: "occupancy per 15 min: mean |estimate − truth| ÷ mean occupancy", value: `${(100 * score.occupancyMae).toFixed(1)} %` },
    { measure: "occupancy intervals whose band holds the true mean", value: `${score.intervalsCovered} of ${score.intervals}` },
  ],
  "The people estimate against the truth (scorePeople)",
);

// cell 9
for (const [i, d] of score.days.entries()) {
  const p = estimates.find((x) => x.shopId === d.shopId && x.start === d.start)!;
  const shop = world.shop(d.shopId)!;
  await show(
    occupancyChart(
      p.occupancy.map((o, k) => ({ ...o, truth: d.trueInside[k]! })),
      {
        timeZone: shop.timeZone,
        title: `${shop.name}: people inside, ${d.label}`,
        note: `Band: the estimate's 90 % interval; it holds the true mean in ${d.intervalsCovered} of ${p.occupancy.length} intervals (MAE ${(100 * d.occupancyMae).toFixed(1)} % of the mean).`,
      },
    ),
  );
  if (i === 0) console.log(`${shop.name}: burst rate ${p.burstsPerMinute.toFixed(2)} per phone-minute, W = ${(p.meanDwellMs / 60_000).toFixed(1)} min, ${p.linkedSessions} visitor sessions set aside as pieces of rotating phones' visits`);
}

// cell 11
const truth = peopleTruth(world);
const liveRows = score.days.map((d) => {
  const live = results.flatMap((r) => r.liveOccupancy).filter((o) => o.shopId === d.shopId && o.start >= d.start && o.start < d.end);
  let abs = 0;
  let sum = 0;
  let held = 0;
  for (const o of live) {
    const t = truth.inside(o.shopId, o.start, o.end);
    abs += Number.isNaN(o.inside) ? t : Math.abs(o.inside - t);
    sum += t;
    if (o.insideLow <= t && t <= o.insideHigh) held++;
  }
  const last = live.at(-1)!;
  return {
    shop: shopName.get(d.shopId),
    date: d.label,
    "occupancy MAE, final": `${(100 * d.occupancyMae).toFixed(1)} %`,
    "occupancy MAE, live": `${((100 * abs) / sum).toFixed(1)} %`,
    "live bands holding the truth": `${held} of ${live.length}`,
    "people so far at the end": int(last.today.visitors),
    "final people": int(d.visitors),
  };
});
await showTable(liveRows, "Occupancy per 15 min as a live view saw it, against the final estimate (both against the truth)");
const first = score.days[0]!;
const firstShop = world.shop(first.shopId)!;
const firstLive = results.flatMap((r) => r.liveOccupancy).filter((o) => o.shopId === first.shopId && o.start >= first.start && o.start < first.end);
const drawn = firstLive.filter((o) => [o.inside, o.insideLow, o.insideHigh, o.outside].every(Number.isFinite));
await show(
  occupancyChart(
    // An interval emitted before two visits gave a burst rate and its spread is unknown (NaN) or
    // unbounded above: left out of the chart.
    drawn.map((o) => ({ ...o, truth: truth.inside(o.shopId, o.start, o.end) })),
    {
      timeZone: firstShop.timeZone,
      title: `${firstShop.name}: people inside as the day went on, ${first.label}`,
      note: `Each interval as it was emitted when the watermark passed its end, from the day so far; band: its 90 % interval (${firstLive.length - drawn.length} early intervals without a burst rate and its spread yet, not drawn).`,
    },
  ),
);

export {};
