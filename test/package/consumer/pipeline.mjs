// A package user's first program, run by check:package against the packed tarball from a scratch
// folder, under Node and under Deno: every entry point is imported by its package name, so this
// exercises package.json `exports`, the compiled dist/ and the dependencies as published.
// Plain JavaScript and no direct rxjs import, so both runtimes run it as is with only
// `footfall` installed.
import { analyze, createClient, signals, vendorOf } from "footfall";
import { classifyVisits, countVisits, decodeSignals, sessionize } from "footfall/operators";
import { hourlyChart } from "footfall/report";
import { startSimulator } from "footfall/sim";

const HOUR_MS = 3_600_000;
const runtime = typeof globalThis.Deno === "object" ? "deno" : "node";

/** Collects an observable's values, failing on its error. */
function collect(observable) {
  return new Promise((resolve, reject) => {
    const values = [];
    observable.subscribe({ next: (v) => values.push(v), error: reject, complete: () => resolve(values) });
  });
}

/** Throws with `message` unless `ok`: this script's only way to fail the check. */
function check(ok, message) {
  if (!ok) throw new Error(`check:package (${runtime}): ${message}`);
}

const sim = await startSimulator({ port: 0, seed: 1, world: { shops: 1, days: 1, passersByPerDay: 1500 } });
try {
  const client = createClient({ baseUrl: sim.baseUrl, signalUrl: sim.signalUrl, email: sim.email, token: sim.token });
  const shopId = sim.world.shops[0].id;
  // One afternoon hour (the day starts at local midnight), when the shop is open and busy.
  const since = sim.world.startMs + 14 * HOUR_MS;
  const records = await collect(signals(client, { shopId, since, until: since + HOUR_MS }));
  check(records.length > 0, "the source delivered no records");

  const invalid = [];
  const [counts] = await collect(
    signals(client, { shopId, since, until: since + HOUR_MS }).pipe(
      decodeSignals({ shopId, onInvalid: (bad) => invalid.push(bad) }),
      sessionize(),
      classifyVisits(),
      countVisits({ window: "day" }),
    ),
  );
  check(invalid.length === 0, `${invalid.length} records were invalid`);
  check(counts !== undefined && counts.visitors > 0, `the operators counted no visitors: ${JSON.stringify(counts)}`);

  const { days } = await analyze(records);
  check(days.length === 1 && days[0].visitors > 0, `analyze found no visitors: ${JSON.stringify(days)}`);

  // The IEEE registry as the build packed it (MA-L, MA-M under a subdivided block, a non-ASCII name).
  check(vendorOf("f0:18:98:12:34:56") === "Apple, Inc.", `vendorOf(Apple's prefix) = ${vendorOf("f0:18:98:12:34:56")}`);
  check(vendorOf("10:06:48:1a:bc:de") === "KYTRONICS", `vendorOf(an MA-M prefix) = ${vendorOf("10:06:48:1a:bc:de")}`);
  check(vendorOf("30:42:25:00:00:01") === "BURG-W\u00c4CHTER KG", `vendorOf(a non-ASCII name) = ${vendorOf("30:42:25:00:00:01")}`);

  const svg = hourlyChart([{ hour: 14, visitors: days[0].visitors, passersBy: days[0].passersBy }]);
  check(svg.startsWith("<svg"), "hourlyChart returned no SVG");

  console.log(
    `check:package (${runtime}): ${records.length} records, ${counts.visitors} visitors (operators), ` +
      `${days[0].visitors} visitors (analyze), ${svg.length} B chart`,
  );
} finally {
  await sim.close();
}
