import {
  EXIT_OK,
  UsageError,
  connectionFlags,
  formatTable,
  parseFlags,
  parseFormat,
  writeNdjson,
  type Command,
} from "./common.ts";
import { defaultClientDeps, reportFailure, serviceClient, type ClientDeps } from "./serviceClient.ts";

const flags = {
  brand: { type: "string" },
  key: { type: "string" },
  format: { type: "string" },
  ...connectionFlags,
} as const;

const help = `usage: footfall shop --brand NAME --key KEY [--format table|ndjson]
                    [--base-url URL] [--email EMAIL] [--token TOKEN]

Resolves one of your shops, given its brand and your own External Key for it, to the
service's SHOP ID: the id that sales uploads and signal reads use. Run it to check a
key before uploading sales.

External Keys are yours, not the service's: each must be registered with the service
operator (the key and the shop's name) before it can be looked up. An unknown key
usually means it was never registered, or it changed without telling the operator.

Flags:
  --brand NAME           brand name as \`footfall brands\` lists it (an exact match is
                         preferred; otherwise a case-insensitive one is accepted)
  --key KEY              the shop's External Key
  --format table|ndjson  table (default) for people; ndjson prints one {"id":…,"name":…}
                         line for programs
  --base-url URL         {base_url} of the service          (or FOOTFALL_BASE_URL)
  --email EMAIL          e-mail of the account              (or FOOTFALL_EMAIL)
  --token TOKEN          authentication token of the account (or FOOTFALL_TOKEN;
                         prefer the variable: flags are visible to other users in ps)
  -h, --help             this text

No signal URL is needed. Temporary service failures are retried with backoff; each
retry is noted on stderr.

Exit status: 0 found; 1 unknown or ambiguous brand, unknown key, or a service failure;
2 bad usage or a missing setting.

Example:
  footfall shop --brand "Cafe Mori" --key GN-001 --format ndjson`;

/**
 * Builds the `footfall shop` command over the given dependencies.
 *
 * @example
 * const status = await shopCommand().run(["--brand", "Cafe Mori", "--key", "GN-001"], io);
 */
export function shopCommand(deps: ClientDeps = defaultClientDeps): Command {
  return {
    summary: "resolve a shop by brand and External Key",
    help,
    check: (argv) => void parseFlags(argv, flags),
    async run(argv, io) {
      const { values } = parseFlags(argv, flags);
      const format = parseFormat(values.format, ["table", "ndjson"] as const, "table");
      const brandName = values.brand?.trim();
      const key = values.key;
      if (brandName === undefined || brandName === "") throw new UsageError("--brand NAME is required (see footfall brands)");
      if (key === undefined || key === "") throw new UsageError("--key KEY (the shop's External Key) is required");
      const client = serviceClient(values, io, deps, { name: "shop", uses: "base" });
      try {
        const brand = await client.findBrand(brandName);
        const shop = await client.getShopByExternalKey(brand, key);
        const row = { id: shop.id, name: shop.name };
        if (format === "ndjson") writeNdjson(io.stdout, [row]);
        else io.stdout.write(formatTable([row], ["id", "name"]));
        return EXIT_OK;
      } catch (error) {
        return reportFailure("shop", error, io);
      }
    },
  };
}

/**
 * `footfall shop`, as `main` loads it.
 *
 * @example
 * const status = await command.run(["--brand", "Cafe Mori", "--key", "MORI-GN-01"], io);
 */
export const command: Command = shopCommand();
