import { EXIT_OK, connectionFlags, integerFlag, parseFlags, rtsUnitFlag, type CliIo, type Command } from "./common.ts";
import { fleetDatabase, fleetRedis, fleetServerFlags } from "./fleetSettings.ts";
import { deviceIdFromFlags, privacyFlags, privacyHelp } from "./macKey.ts";
import type { ClientDeps } from "./serviceClient.ts";

const flags = {
  concurrency: { type: "string" },
  shares: { type: "string" },
  "lock-ms": { type: "string" },
  "stalled-ms": { type: "string" },
  name: { type: "string" },
  "rts-unit": { type: "string" },
  ...fleetServerFlags,
  ...privacyFlags,
  ...connectionFlags,
} as const;

const help = `usage: footfall worker [--concurrency N] [options]

Runs fleet jobs (shop-days enqueued by \`footfall fleet backfill\`, live tails started by
\`footfall fleet tail\`) until stopped. SIGTERM or SIGINT: jobs in progress are handed back to the
queue (they run again elsewhere from their checkpoint), then exit 0. Run one or more on each
machine; a worker that dies loses its jobs to the others once its lock expires.

Options:
  --concurrency N   jobs at once [1]; a live tail holds one slot for as long as it runs
  --shares N        split each backfill job's analysis by device over N threads [1]: for one
                    busy shop on spare cores (results the same; a live tail is not split)
  --lock-ms N       job lock, ms: a worker silent this long loses its job [30000]
  --stalled-ms N    how often lost jobs are looked for, ms [30000]
  --name NAME       name in \`fleet status\` and in checkpoint rows [host:pid]
  --rts-unit U      how the service turns a datetime into RTS, which the interface does not
                    publish: epoch ms (the sample's) [ms], s, us or ns; every worker the same

Servers: --redis URL (or FOOTFALL_REDIS_URL), --database URL (or FOOTFALL_DATABASE_URL, a
postgres:// URL; run \`footfall fleet init\` once). Service: --signal-url, --email, --token (or
FOOTFALL_SIGNAL_URL, FOOTFALL_EMAIL, FOOTFALL_TOKEN).

${privacyHelp.replace("Privacy (devices are written", "Privacy (stored sessions and visits identify devices")}
Every worker of one fleet must use the same key and rotation.

Progress lines go to stderr. Exit status: 0 stopped; 2 bad settings (unreachable Redis or
PostgreSQL, a wrong URL, a schema of another version).

Example:
  FOOTFALL_REDIS_URL=redis://127.0.0.1:6379 FOOTFALL_DATABASE_URL=postgres://footfall@127.0.0.1/footfall \\
    footfall worker --concurrency 2`;

/**
 * Builds `footfall worker` over the given client dependencies (default: the real client).
 *
 * @example
 * const status = await workerCommand().run(["--concurrency", "2"], io);
 */
export function workerCommand(deps?: ClientDeps): Command {
  return { summary: "run fleet jobs (shop-days, live tails) until stopped", help, check: (argv) => void parseFlags(argv, flags), run: (argv, io) => runWorker(argv, io, deps) };
}

/**
 * `footfall worker`, as `main` loads it.
 *
 * @example
 * const status = await command.run(["--concurrency", "2"], io);
 */
export const command: Command = workerCommand();

async function runWorker(argv: readonly string[], io: CliIo, deps: ClientDeps | undefined): Promise<number> {
  const { values: all } = parseFlags(argv, flags);
  const { "raw-macs": rawMacs, ...values } = all;
  // Read (or generated) before connecting: a bad key is a usage error, and no MAC is ever stored.
  const device = deviceIdFromFlags({ ...values, "raw-macs": rawMacs }, io, "worker");
  const concurrency = integerFlag("--concurrency", values.concurrency, 1, 1000) ?? 1;
  const shares = integerFlag("--shares", values.shares, 1, 64) ?? 1;
  const lockDurationMs = integerFlag("--lock-ms", values["lock-ms"], 100);
  const stalledIntervalMs = integerFlag("--stalled-ms", values["stalled-ms"], 100);
  const rtsCodec = rtsUnitFlag(values["rts-unit"]);
  const [{ defaultClientDeps, serviceClient }, { createFleetWorker }] = await Promise.all([
    import("./serviceClient.ts"),
    import("../fleet/createFleetWorker.ts"),
  ]);
  // The client's requests are not tied to Ctrl-C: on a stop the worker aborts its jobs itself,
  // then hands them back.
  const client = serviceClient(values, io, deps ?? defaultClientDeps, { name: "worker", uses: "signals", signal: new AbortController().signal });
  const connection = await fleetRedis(values, io, "worker");
  const pool = await fleetDatabase(values, io);
  const log = (line: string): void => void io.stderr.write(`footfall worker: ${line}\n`);
  const w = createFleetWorker({
    connection,
    pool,
    client,
    concurrency,
    shares,
    ...(lockDurationMs === undefined ? {} : { lockDurationMs }),
    ...(stalledIntervalMs === undefined ? {} : { stalledIntervalMs }),
    ...(values.name === undefined ? {} : { name: values.name }),
    log,
    device,
    rtsCodec,
    // Daily pseudonyms do not link across days: new vs repeat is then stored as unavailable.
    linkedAcrossDays: values["pseudonym-rotation"] !== "daily",
  });
  await w.worker.waitUntilReady();
  log(`${w.name} ready (concurrency ${concurrency}${shares > 1 ? `, ${shares} shares` : ""})`);
  await new Promise<void>((resolve) => {
    if (io.signal.aborted) resolve();
    else io.signal.addEventListener("abort", () => resolve(), { once: true });
  });
  log("stopping: handing back jobs in progress");
  await w.close();
  await pool.end();
  log("stopped");
  return EXIT_OK;
}
