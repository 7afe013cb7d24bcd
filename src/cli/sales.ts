import { SingleBar } from "cli-progress";
import { CURRENCY_MINOR_DIGITS } from "../contract/currencies.ts";
import { uploadSales, type UploadSalesOptions } from "../sales/uploadSales.ts";
import type { SalesReport, SalesReportRow } from "../sales/uploadDailySales.ts";
import type { RowRef } from "../sales/SalesInputRow.ts";
import {
  EXIT_FAILED,
  EXIT_OK,
  UsageError,
  connectionFlags,
  connectionSettings,
  formatTable,
  oneLine,
  parseFlags,
  parseFormat,
  timeZoneFlag,
  writeNdjson,
  type CliIo,
  type Command,
} from "./common.ts";
import { defaultClientDeps, serviceClient, type ClientDeps } from "./serviceClient.ts";

const flags = {
  brand: { type: "string" },
  tz: { type: "string" },
  currency: { type: "string" },
  "dry-run": { type: "boolean" },
  journal: { type: "string" },
  force: { type: "boolean" },
  sum: { type: "boolean" },
  format: { type: "string" },
  concurrency: { type: "string" },
  ...connectionFlags,
} as const;

const help = `usage: footfall sales upload FILE... [--brand NAME] [--tz ZONE] [--currency CODE]
         [--dry-run] [--journal FILE] [--force] [--sum] [--format table|ndjson]
         [--concurrency N] [--base-url URL] [--email EMAIL] [--token TOKEN]

Uploads sales as ONE record per shop and day (the service overwrites a shop-day on every
post, so per-transaction posts would lose data). Files are CSV (header row, RFC 4180
quoting; comma, or semicolon, tab or pipe as the header shows) or NDJSON (.ndjson/.jsonl), in
UTF-8 (with or without BOM), UTF-16 with a BOM, or CP949 as Korean Excel saves them, with
columns:

  external_key  the shop's External Key (registered with the service operator first)
  amount        money in major units (12000, 19.99, or as a spreadsheet formats it:
                ₩1,250,000, 1,250,000원, $1,250.50); negative for refunds
  quantity      items (integer); negative for returns
  date          YYYY-MM-DD: the row is that day's total, or
  timestamp     ISO 8601, or as a spreadsheet shows it (2026-11-16 9:05, 2026-11-16 오후 2:30:00):
                the row is one transaction, added into its local day
  brand         optional; else --brand
  currency      optional ISO 4217 code; else --currency (default KRW)

Other columns are ignored. Several files are added together (a day may span files).

Flags:
  --brand NAME          brand of rows without a brand column
  --tz ZONE             the shops' IANA time zone for timestamps with an offset
                        (default Asia/Seoul: 00:30 KST counts for that KST day)
  --currency CODE       currency of rows without one (default KRW)
  --sum                 daily-total files: add up several rows for one shop-day
                        (without it they are rejected: they would overwrite each other)
  --dry-run             resolve brands and shops and print the totals; post nothing
  --journal FILE        record of what was stored (default: <first FILE>.journal.json);
                        a re-run skips shop-days stored with the same totals, resumes a
                        crashed run, and resends days whose totals changed
  --force               resend every day even if the journal says it is unchanged
  --format table|ndjson report on stdout: table (default) or one JSON object per shop-day
  --concurrency N       shop lookups / uploads in flight (default 4)
  --base-url URL        {base_url} of the service          (or FOOTFALL_BASE_URL)
  --email EMAIL         e-mail of the account              (or FOOTFALL_EMAIL)
  --token TOKEN         authentication token of the account (or FOOTFALL_TOKEN)
  -h, --help            this text

Rejected rows and days are explained on stderr with their file and line; a progress bar
is shown on stderr when it is a terminal.

Exit status: 0 everything uploaded (or unchanged); 1 something was rejected or failed;
2 bad usage.

Example:
  footfall sales upload november.csv --brand "Cafe Mori" --dry-run`;

/**
 * Builds the `footfall sales` command over the given dependencies.
 *
 * @example
 * const status = await salesCommand().run(["upload", "sales.csv", "--brand", "Cafe Mori"], io);
 */
export function salesCommand(deps: ClientDeps = defaultClientDeps): Command {
  return {
    summary: "upload daily sales totals (one record per shop and day, with a journal)",
    help,
    check: (argv) => void salesArgv(argv),
    async run(argv, io) {
      const { values, files } = salesArgv(argv);
      const format = parseFormat(values.format, ["table", "ndjson"] as const, "table");
      const options = uploadOptions(values);
      const settings = connectionSettings(values, io.env, ["baseUrl", "email", "token"]);

      let bar: SingleBar | undefined;
      let retries = 0;
      const client = serviceClient(values, io, deps, {
        name: "sales",
        uses: "base",
        onRetry: () => {
          retries++;
          return bar !== undefined; // the bar shows progress; a retry line would tear it
        },
      });

      let report: SalesReport;
      // Input problems known before any request; the final report leaves these out.
      const reported = new Set<string>();
      try {
        report = await uploadSales(client, files, {
          ...options,
          journalScope: settings.baseUrl.replace(/\/+$/, ""),
          signal: io.signal,
          // Every bad row and day goes out before the network is touched, so an unreachable
          // service cannot hide them.
          onValidated: (sales) => {
            for (const r of sales.rejectedRows) io.stderr.write(`footfall sales: ${where([r])}: rejected row: ${oneLine(r.reason)}\n`);
            for (const d of sales.rejectedDays) {
              reported.add(dayKey(d));
              io.stderr.write(`footfall sales: ${where(d.rows)}: rejected ${d.brand} / ${d.externalKey} ${d.date}: ${oneLine(d.reason)}\n`);
            }
          },
          onProgress: (p) => {
            if (io.stderr.isTTY !== true) return;
            if (bar === undefined) {
              bar = new SingleBar({ stream: io.stderr, format: "sales {bar} {value}/{total} shop-days", hideCursor: true, clearOnComplete: true });
              bar.start(p.total, 0);
            }
            bar.update(p.done);
          },
        });
      } catch (error) {
        bar?.stop();
        const message = io.signal.aborted ? "interrupted (the journal keeps what was stored; run again to resume)" : error instanceof Error ? error.message : String(error);
        io.stderr.write(`footfall sales: ${oneLine(message)}\n`);
        return EXIT_FAILED;
      }
      bar?.stop();

      writeDiagnostics(report, io, reported);
      const rows = report.days.map(outputRow);
      if (format === "ndjson") writeNdjson(io.stdout, rows);
      else io.stdout.write(formatTable(tableRows(rows), ["status", "brand", "external_key", "shop_id", "date", "amount", "currency", "quantity", "reason"]));
      const c = report.counts;
      io.stderr.write(
        `footfall sales: ${options.dryRun === true ? `dry run, ${c.planned} to upload` : `${c.uploaded} uploaded`}, ${c.unchanged} unchanged, ` +
          `${c.rejected} rejected, ${c.failed} failed shop-day(s); ${c.rejectedRows} row(s) rejected` +
          `${retries > 0 ? `; ${retries} request(s) retried` : ""}${report.journal === undefined ? "" : `; journal ${report.journal}`}\n`,
      );
      return report.ok ? EXIT_OK : EXIT_FAILED;
    },
  };
}

/**
 * `footfall sales`, as `main` loads it.
 *
 * @example
 * const status = await command.run(["upload", "pos.csv", "--dry-run"], io);
 */
export const command: Command = salesCommand();

// The flags, the subcommand and the files, as both `check` and `run` read them.
function salesArgv(argv: readonly string[]) {
  const { values, positionals } = parseFlags(argv, flags, true);
  const [sub, ...files] = positionals;
  if (sub !== "upload") throw new UsageError(sub === undefined ? "missing subcommand: footfall sales upload FILE..." : `unknown subcommand ${JSON.stringify(sub)} (expected upload)`);
  if (files.length === 0) throw new UsageError("missing FILE: footfall sales upload FILE...");
  return { values, files };
}

function uploadOptions(values: Readonly<Record<string, unknown>>): UploadSalesOptions {
  const brand = values.brand as string | undefined;
  if (brand !== undefined && brand.trim() === "") throw new UsageError("--brand must not be empty");
  const timeZone = timeZoneFlag(values.tz as string | undefined);
  const currency = (values.currency as string | undefined)?.trim().toUpperCase();
  if (currency !== undefined && !CURRENCY_MINOR_DIGITS.has(currency)) throw new UsageError(`--currency must be an ISO 4217 code such as KRW, got ${JSON.stringify(values.currency)}`);
  let concurrency: number | undefined;
  if (values.concurrency !== undefined) {
    concurrency = Number(values.concurrency);
    if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 64) throw new UsageError("--concurrency must be an integer from 1 to 64");
  }
  const journal = values.journal as string | undefined;
  if (journal !== undefined && journal === "") throw new UsageError("--journal must not be empty");
  return {
    ...(brand === undefined ? {} : { brand }),
    timeZone,
    ...(currency === undefined ? {} : { currency }),
    ...(concurrency === undefined ? {} : { concurrency }),
    ...(journal === undefined ? {} : { journal }),
    dryRun: values["dry-run"] === true,
    force: values.force === true,
    sum: values.sum === true,
  };
}

interface OutputRow {
  readonly status: string;
  readonly brand: string;
  readonly external_key: string;
  readonly shop_id: number | null;
  readonly date: string;
  readonly amount: number | null;
  readonly amount_currency: string | null;
  readonly quantity: number | null;
  readonly rows: number;
  readonly reason?: string;
  readonly note?: string;
}

function outputRow(r: SalesReportRow): OutputRow {
  return {
    status: r.status,
    brand: r.brand,
    external_key: r.externalKey,
    shop_id: r.shopId ?? null,
    date: r.date,
    amount: r.amount ?? null,
    amount_currency: r.currency ?? null,
    quantity: r.quantity ?? null,
    rows: r.rows.length,
    ...(r.reason === undefined ? {} : { reason: r.reason }),
    ...(r.note === undefined ? {} : { note: r.note }),
  };
}

// Amounts as text exact to the currency's minor unit (formatTable would print every fraction
// with 2 decimals), right-aligned by hand because formatTable aligns text left.
function tableRows(rows: readonly OutputRow[]): Record<string, unknown>[] {
  const amounts = rows.map((r) => {
    const digits = r.amount_currency === null ? undefined : CURRENCY_MINOR_DIGITS.get(r.amount_currency);
    return r.amount === null ? "" : digits === undefined ? String(r.amount) : r.amount.toFixed(digits);
  });
  const width = Math.max("amount".length, ...amounts.map((a) => a.length));
  return rows.map((r, i) => ({ ...r, currency: r.amount_currency ?? "", amount: amounts[i]!.padStart(width), reason: r.reason ?? r.note ?? "" }));
}

// What the service run added: days rejected or failed at resolution or upload (the input's own
// problems were written before it started), and the journal.
function writeDiagnostics(report: SalesReport, io: CliIo, reported: ReadonlySet<string>): void {
  for (const d of report.days) {
    if (d.status !== "rejected" && d.status !== "failed") continue;
    if (d.shopId === undefined && reported.has(dayKey(d))) continue;
    io.stderr.write(`footfall sales: ${where(d.rows)}: ${d.status} ${d.brand} / ${d.externalKey} ${d.date}: ${oneLine(d.reason ?? "")}\n`);
  }
  if (report.journalError !== undefined) io.stderr.write(`footfall sales: journal not written: ${oneLine(report.journalError)}\n`);
}

function dayKey(d: { readonly brand: string; readonly externalKey: string; readonly date: string }): string {
  return `${d.brand}\u0001${d.externalKey}\u0001${d.date}`;
}

// "a.csv:3,7,9" (at most 10 lines per file shown, so a busy day stays one readable line).
function where(rows: readonly RowRef[]): string {
  const bySource = new Map<string, number[]>();
  for (const r of rows) {
    const lines = bySource.get(r.source);
    if (lines === undefined) bySource.set(r.source, [r.line]);
    else lines.push(r.line);
  }
  const parts: string[] = [];
  for (const [source, lines] of bySource) {
    const shown = lines.slice(0, 10).join(",");
    const label = lines.length === 1 && lines[0] === 0 ? source : `${source}:${shown}${lines.length > 10 ? `,… (${lines.length} lines)` : ""}`;
    parts.push(label);
  }
  return parts.join(" ") || "input";
}
