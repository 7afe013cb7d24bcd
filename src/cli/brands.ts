import type { Client } from "../client/Client.ts";
import { createClient, type ClientOptions } from "../client/createClient.ts";
import {
  EXIT_FAILED,
  EXIT_OK,
  UsageError,
  connectionFlags,
  connectionSettings,
  formatTable,
  parseFlags,
  parseFormat,
  writeNdjson,
  type CliIo,
  type Command,
} from "./common.ts";

/**
 * What the account commands (`brands`, `shop`) take from outside, so tests can hand in a
 * fake client instead of a service.
 *
 * @example
 * const command = brandsCommand({ createClient: () => myFakeClient });
 */
export interface AccountCommandDeps {
  /** Builds the service client from the connection settings. @default createClient */
  readonly createClient: (options: ClientOptions) => Client;
}

/**
 * Defaults of {@link AccountCommandDeps}: the real client.
 *
 * @example
 * const command = brandsCommand(defaultAccountCommandDeps);
 */
export const defaultAccountCommandDeps: AccountCommandDeps = { createClient };

const flags = {
  format: { type: "string" },
  ...connectionFlags,
} as const;

const help = `usage: footfall brands [--format table|ndjson] [--base-url URL] [--email EMAIL] [--token TOKEN]

Lists the brands your account can see: their id (brand_id) and name (brand_name).
Use it first, to check the account settings and to find the exact brand name that
\`footfall shop\` and \`footfall sales upload\` need.

Flags:
  --format table|ndjson  table (default) for people; ndjson prints one {"id":…,"name":…}
                         object per line for programs
  --base-url URL         {base_url} of the service          (or FOOTFALL_BASE_URL)
  --email EMAIL          e-mail of the account              (or FOOTFALL_EMAIL)
  --token TOKEN          authentication token of the account (or FOOTFALL_TOKEN;
                         prefer the variable: flags are visible to other users in ps)
  -h, --help             this text

No signal URL is needed. Temporary service failures (HTTP 429/5xx, timeouts, dropped
connections) are retried with backoff; each retry is noted on stderr.

Exit status: 0 listed; 1 the service failed or refused (e.g. wrong e-mail or token);
2 bad usage or a missing setting.

Example:
  FOOTFALL_BASE_URL=http://127.0.0.1:8080 FOOTFALL_EMAIL=analyst@footfall.test \\
  FOOTFALL_TOKEN=sim-token footfall brands --format ndjson`;

/**
 * Builds the `footfall brands` command over the given dependencies.
 *
 * @example
 * const status = await brandsCommand().run(["--format", "ndjson"], io);
 */
export function brandsCommand(deps: AccountCommandDeps = defaultAccountCommandDeps): Command {
  return {
    summary: "list the brands the account can see",
    help,
    async run(argv, io) {
      const { values } = parseFlags(argv, flags);
      const format = parseFormat(values.format, ["table", "ndjson"] as const, "table");
      const client = accountClient(values, io, deps, "brands");
      try {
        const brands = await client.listBrands();
        const rows = brands.map((b) => ({ id: b.id, name: b.name }));
        if (format === "ndjson") writeNdjson(io.stdout, rows);
        else {
          io.stdout.write(formatTable(rows, ["id", "name"]));
          if (rows.length === 0) io.stderr.write("footfall brands: the account sees no brands\n");
        }
        return EXIT_OK;
      } catch (error) {
        return reportFailure("brands", error, io);
      }
    },
  };
}

/**
 * `footfall brands`, as `main` loads it.
 *
 * @example
 * const status = await command.run(["--format", "ndjson"], io);
 */
export const command: Command = brandsCommand();

/**
 * A client for the account commands: only `--base-url`, `--email` and `--token` (or their
 * variables) are required. Retries are noted on stderr; Ctrl-C (`io.signal`) cancels.
 * A malformed setting is a {@link UsageError} (exit 2).
 *
 * @example
 * const client = accountClient(values, io, defaultAccountCommandDeps, "shop");
 */
export function accountClient(values: Readonly<Record<string, unknown>>, io: CliIo, deps: AccountCommandDeps, name: string): Client {
  const s = connectionSettings(values, io.env, ["baseUrl", "email", "token"]);
  try {
    return deps.createClient({
      baseUrl: s.baseUrl,
      email: s.email,
      token: s.token,
      signal: io.signal,
      retry: {
        onRetry: (e) =>
          io.stderr.write(`footfall ${name}: ${oneLine(e.error.message)}; retrying in ${(e.delayMs / 1000).toFixed(1)} s\n`),
      },
    });
  } catch (error) {
    // createClient's messages never quote the token, so they can be shown as they are.
    if (error instanceof TypeError || error instanceof RangeError) {
      throw new UsageError(`bad connection setting (--base-url, --email, --token): ${error.message}`);
    }
    throw error;
  }
}

/**
 * Prints one line for a failed command on stderr and returns exit status 1.
 *
 * @example
 * return reportFailure("brands", error, io); // "footfall brands: GET … failed with HTTP 401 (check the e-mail and token)"
 */
export function reportFailure(name: string, error: unknown, io: CliIo): number {
  if (error instanceof UsageError) throw error;
  const message = io.signal.aborted ? "interrupted" : error instanceof Error ? error.message : String(error);
  io.stderr.write(`footfall ${name}: ${oneLine(message)}\n`);
  return EXIT_FAILED;
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, " ");
}
