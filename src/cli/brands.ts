import { EXIT_OK, connectionFlags, formatTable, parseFlags, parseFormat, writeNdjson, type Command } from "./common.ts";
import { defaultClientDeps, reportFailure, serviceClient, type ClientDeps } from "./serviceClient.ts";

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
export function brandsCommand(deps: ClientDeps = defaultClientDeps): Command {
  return {
    summary: "list the brands the account can see",
    help,
    check: (argv) => void parseFlags(argv, flags),
    async run(argv, io) {
      const { values } = parseFlags(argv, flags);
      const format = parseFormat(values.format, ["table", "ndjson"] as const, "table");
      const client = serviceClient(values, io, deps, { name: "brands", uses: "base" });
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
