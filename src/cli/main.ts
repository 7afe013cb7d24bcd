#!/usr/bin/env node
import { realpathSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { EXIT_FAILED, EXIT_USAGE, OutputClosedError, UsageError, oneLine, type CliIo } from "./common.ts";
import { loadCommand } from "./loadCommand.ts";

const usage = `usage: footfall <command> [flags]

commands:
  demo      live demo on the embedded simulator (npm start)
  sim       serve the whole service interface locally
  brands    list brands
  shop      resolve a shop by brand and External Key
  signals   backfill or tail a shop's signal records
  analyze   people (visitors, inside), sessions, dwell and proximity from signals
  calibrate fit people calibrations on counted people (--truth)
  sales     upload daily sales totals
  worker    run fleet jobs (many shops on many machines) until stopped
  fleet     enqueue shop-days and live tails, status, stored results

Connection settings: --base-url/FOOTFALL_BASE_URL, --signal-url/FOOTFALL_SIGNAL_URL,
--email/FOOTFALL_EMAIL, --token/FOOTFALL_TOKEN. Every command has --help.
Exit status: 0 all done, 1 something failed or was rejected, 2 bad usage.`;

/**
 * Runs `footfall` with the given arguments; resolves to the exit status.
 *
 * @example
 * const status = await main(["brands", "--help"], io);
 */
export async function main(argv: readonly string[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    (name === undefined ? io.stderr : io.stdout).write(`${usage}\n`);
    return name === undefined ? EXIT_USAGE : 0;
  }
  const command = await loadCommand(name);
  if (command === undefined) {
    io.stderr.write(`footfall: unknown command ${JSON.stringify(name)} (see footfall --help)\n`);
    return EXIT_USAGE;
  }
  if (rest.includes("--help") || rest.includes("-h")) {
    io.stdout.write(`${command.help}\n`);
    return 0;
  }
  try {
    return await command.run(rest, io);
  } catch (error) {
    // The reader of stdout went away (`| head`): stopping was asked for, not a failure to report.
    if (io.signal.reason instanceof OutputClosedError) return EXIT_FAILED;
    // One line, whatever the message: scripts grep it, people read it.
    const message = oneLine(error instanceof Error ? error.message : String(error));
    io.stderr.write(`footfall ${name}: ${message}\n`);
    return error instanceof UsageError ? EXIT_USAGE : EXIT_FAILED;
  }
}

// Compare real paths: npx runs us through a symlink in node_modules/.bin, and a path with
// spaces is percent-encoded in import.meta.url.
const isEntry = process.argv[1] !== undefined && realpathOrSelf(process.argv[1]) === realpathOrSelf(fileURLToPath(import.meta.url));
if (isEntry) {
  const controller = new AbortController();
  process.once("SIGINT", () => controller.abort());
  process.once("SIGTERM", () => controller.abort());
  // Node ignores SIGPIPE, so a closed pipe is an EPIPE error on stdout, which unhandled would end
  // the process with a stack trace: the command stops instead, as a Unix filter does.
  process.stdout.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code !== "EPIPE") throw error;
    if (!controller.signal.aborted) controller.abort(new OutputClosedError());
    // Also when the command had finished and only its last writes were still being flushed.
    process.exitCode = EXIT_FAILED;
  });
  const io: CliIo = { stdout: process.stdout, stderr: process.stderr, env: process.env, signal: controller.signal };
  main(process.argv.slice(2), io).then(
    (status) => {
      if (!(controller.signal.reason instanceof OutputClosedError)) process.exitCode = status;
    },
    (error: unknown) => {
      process.stderr.write(`footfall: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exitCode = EXIT_FAILED;
    },
  );
}

function realpathOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
