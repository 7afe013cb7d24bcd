// Code cells of /work/main/notebooks/02-proximity.ipynb, extracted for `deno check` and `deno lint`.

// cell 2
import {
  createClient,
  fitPathLoss,
  signals,
  SignalDecoder,
  defaultProximityZones,
  type PathLossFit,
  type ProximitySlice,
  type Session,
  type Signal,
} from "../src/index.ts";
import { sessionize } from "../src/operators/index.ts";
import { startSimulator } from "../src/sim/index.ts";
import {
  chartMimeBundle,
  proximityZonesChart,
  rssiDistanceChart,
  tableHtml,
  visitTimelineChart,
} from "../src/report/index.ts";
import { filter, lastValueFrom, map, toArray } from "rxjs";

/** Shows a chart (SVG) as a notebook output. */
const show = (svg: string) => Deno.jupyter.display(chartMimeBundle(svg), { raw: true });
/** Shows rows as an HTML table. */
const showTable = (rows: readonly object[], caption: string) => Deno.jupyter.display({ "text/html": tableHtml(rows, { caption }) }, { raw: true });

// One shop, one day, a lighter street than the default so the notebook runs in seconds.
const sim = await startSimulator({ port: 0, seed: 7, world: { shops: 1, days: 1, passersByPerDay: 1500 } });
const world = sim.world;
const shop = world.shops[0]!;
const layout = world.layout(shop.id)!;
const client = createClient({ baseUrl: sim.baseUrl, signalUrl: sim.signalUrl, email: sim.email, token: sim.token });
// The simulated day as a date in the shop's time zone.
const day = new Date(world.startMs).toLocaleDateString("en-CA", { timeZone: shop.timeZone });
// Short names for the sensors, in the order the shop lists them.
const sensorName = new Map(shop.sensors.map((mac, i) => [mac, `S${i + 1}`]));
const nameOf = (mac: string) => sensorName.get(mac) ?? mac;
console.log(`simulator running: ${shop.name} (SHOP ID ${shop.id}), ${shop.sensors.length} sensors, ${world.signalCount(shop.id)} signals`);
await showTable(
  layout.sensors.map((s) => ({ sensor: nameOf(s.mac), mac: s.mac, "x (m)": s.xM, "y (m)": s.yM })),
  `Sensors of ${shop.name} (floor ${layout.widthM} m × ${layout.depthM} m, street side at y = 0)`,
);

// cell 4
const distancesM = [0.5, 1, 1.5, 2, 3, 4, 6, 8, 12, 16];
const survey = shop.sensors.map((mac) => ({ mac, samples: world.surveySamples(shop.id, mac, distancesM, 12) }));
const fits = new Map<string, PathLossFit>(survey.map(({ mac, samples }) => [mac, fitPathLoss(samples)]));
await showTable(
  [
    ...survey.map(({ mac }) => {
      const f = fits.get(mac)!;
      return { sensor: nameOf(mac), "rssiAt1m (dBm)": f.rssiAt1m, "exponent n": f.exponent, "R²": f.rSquared, "σ (dB)": f.residualSigma, samples: f.count };
    }),
    { sensor: "simulator's model", "rssiAt1m (dBm)": world.model.rssiAt1m, "exponent n": world.model.pathLossExponent, "R²": undefined, "σ (dB)": world.model.noiseDb, samples: undefined },
  ],
  "Path-loss fit per sensor",
);

// cell 5
const first = survey[0]!;
const firstFit = fits.get(first.mac)!;
await show(
  rssiDistanceChart(first.samples, firstFit, {
    title: `RSSI against distance, sensor ${nameOf(first.mac)}`,
    zones: defaultProximityZones,
    note: `Site survey: ${first.samples.length} readings at ${distancesM.length} distances; dashed lines are the zone bounds.`,
  }),
);

// cell 7
const calibration = {
  sensors: Object.fromEntries([...fits].map(([mac, f]) => [mac, { rssiAt1m: f.rssiAt1m, exponent: f.exponent }])),
};
const decoder = new SignalDecoder();
// One engine: sessions carry their proximity (closest approach, zone time), and its slices
// (the nearest sensor every 10 s) come out of the same pass through `onSlice`.
const slices: ProximitySlice[] = [];
const sessions: Session[] = await lastValueFrom(
  signals(client, { shopId: shop.id, since: world.startMs, until: world.endMs }).pipe(
    map((raw) => decoder.decode(raw)),
    filter((s): s is Signal => s !== undefined),
    sessionize({ proximity: { calibration }, onSlice: (slice) => slices.push(slice) }),
    toArray(),
  ),
);
console.log(`${slices.length} slices and ${sessions.length} sessions`);

// cell 8
// Device-time per sensor and zone: each slice is one device near one sensor for (end − start) ms.
const zoneTime = new Map<string, { sensor: string; zone: string; ms: number }>();
for (const s of slices) {
  const key = `${s.sensor} ${s.zone}`;
  const row = zoneTime.get(key) ?? { sensor: nameOf(s.sensor), zone: s.zone, ms: 0 };
  row.ms += s.end - s.start;
  zoneTime.set(key, row);
}
const zoneRows = [...zoneTime.values()].sort((a, b) => a.sensor.localeCompare(b.sensor));
await show(proximityZonesChart(zoneRows, { note: `${shop.name}, ${day} (shop time); passers-by outside count as far.` }));

// cell 10
const truth = world.truth(shop.id);
// A visit of 8–30 min seen often (≥ 30 slices) that reached at least three sensors, with the steadiest
// estimate: the fewest changes of nearest sensor per slice.
const candidates = truth
  .filter((v) => v.kind === "visitor" && v.end - v.start >= 8 * 60_000 && v.end - v.start <= 30 * 60_000)
  .map((v) => ({ v, path: slices.filter((s) => s.device === v.device && s.start >= v.start && s.start <= v.end) }))
  .filter((c) => c.path.length >= 30 && new Set(c.path.map((s) => s.sensor)).size >= 3)
  .map((c) => ({ ...c, moves: c.path.reduce((n, s, i) => (i > 0 && s.sensor !== c.path[i - 1]!.sensor ? n + 1 : n), 0) }))
  .sort((a, b) => a.moves / a.path.length - b.moves / b.path.length);
console.log(`${candidates.length} candidate visits; showing the steadiest`);
const chosen = candidates[0]!;
const minutes = (ms: number) => (ms / 60_000).toFixed(1);
await show(
  visitTimelineChart(
    chosen.path.map((s) => ({ time: s.start, sensor: nameOf(s.sensor) })),
    {
      title: `One visit: nearest sensor over time (device ${chosen.v.device})`,
      sensors: shop.sensors.map(nameOf),
      note: `Ground truth: a visitor for ${minutes(chosen.v.end - chosen.v.start)} min; ${chosen.moves} changes of nearest sensor estimated.`,
    },
  ),
);

// cell 11
await sim.close();

export {};
