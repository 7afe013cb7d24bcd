import type { Client } from "../client/Client.ts";
import { createClient, type ClientOptions, type RetryEvent } from "../client/createClient.ts";
import { EXIT_FAILED, UsageError, connectionSettings, oneLine, type CliIo } from "./common.ts";

/**
 * What a service command takes from outside, so tests can hand in a fake client or one over
 * an injected fetch.
 *
 * @example
 * const command = brandsCommand({ createClient: () => myFakeClient });
 */
export interface ClientDeps {
  /** Builds the service client from the connection settings. @default createClient */
  readonly createClient: (options: ClientOptions) => Client;
}

/**
 * Defaults of {@link ClientDeps}: the real client.
 *
 * @example
 * const command = brandsCommand(defaultClientDeps);
 */
export const defaultClientDeps: ClientDeps = { createClient };

/** How a command uses the service. */
export interface ServiceClientOptions {
  /** Subcommand name for messages, e.g. `"brands"`. */
  readonly name: string;
  /**
   * Which address the command talks to: `"base"` (brands, shops, sales) needs `--base-url`;
   * `"signals"` needs `--signal-url`. Either way `--email` and `--token` are required and
   * nothing else is.
   */
  readonly uses: "base" | "signals";
  /** Cancels every request; defaults to `io.signal` (Ctrl-C). */
  readonly signal?: AbortSignal;
  /**
   * Called on each retry. Return `true` when it has reported the retry itself (e.g. on a
   * progress bar); otherwise one line goes to stderr.
   */
  readonly onRetry?: (event: RetryEvent) => boolean | void;
}

/**
 * The client for a CLI command, built from flags and the environment with only the settings
 * that command uses. Retries are noted on stderr; a malformed setting is a
 * {@link UsageError} (exit 2) — createClient's messages never quote the token.
 *
 * @example
 * const client = serviceClient(values, io, deps, { name: "brands", uses: "base" });
 */
export function serviceClient(
  values: Readonly<Record<string, unknown>>,
  io: CliIo,
  deps: ClientDeps,
  options: ServiceClientOptions,
): Client {
  const { name, uses, onRetry } = options;
  const settings = connectionSettings(values, io.env, uses === "base" ? ["baseUrl", "email", "token"] : ["signalUrl", "email", "token"]);
  try {
    return deps.createClient({
      // A signals-only command never calls the base endpoints; the client wants a base URL all the same.
      baseUrl: settings.baseUrl ?? settings.signalUrl!,
      ...(settings.signalUrl === undefined ? {} : { signalUrl: settings.signalUrl }),
      email: settings.email,
      token: settings.token,
      signal: options.signal ?? io.signal,
      retry: {
        onRetry: (e) => {
          if (onRetry?.(e) === true) return;
          io.stderr.write(`footfall ${name}: ${oneLine(e.error.message)}; retrying in ${(e.delayMs / 1000).toFixed(1)} s\n`);
        },
      },
    });
  } catch (error) {
    if (error instanceof TypeError || error instanceof RangeError) {
      const flags = uses === "base" ? "--base-url, --email, --token" : "--signal-url, --email, --token";
      throw new UsageError(`bad connection setting (${flags}): ${error.message}`);
    }
    throw error;
  }
}

/**
 * Prints one line for a failed command on stderr and returns exit status 1; usage errors
 * pass through (exit 2).
 *
 * @example
 * return reportFailure("brands", error, io); // "footfall brands: GET … failed with HTTP 401 …"
 */
export function reportFailure(name: string, error: unknown, io: CliIo): number {
  if (error instanceof UsageError) throw error;
  const message = io.signal.aborted ? "interrupted" : error instanceof Error ? error.message : String(error);
  io.stderr.write(`footfall ${name}: ${oneLine(message)}\n`);
  return EXIT_FAILED;
}
