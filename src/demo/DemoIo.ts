/**
 * Where the demo writes and what stops it: the summary goes to `stdout`, the dashboard (drawn in
 * place when both streams are terminals, else plain progress lines) and messages to `stderr`;
 * aborting `signal` (Ctrl-C) ends the day early, and the report still covers what was read. The
 * CLI's io is one.
 *
 * @example
 * const demoIo: DemoIo = { stdout: process.stdout, stderr: process.stderr, signal: new AbortController().signal };
 */
export interface DemoIo {
  readonly stdout: NodeJS.WritableStream & { isTTY?: boolean };
  readonly stderr: NodeJS.WritableStream & { isTTY?: boolean };
  readonly signal: AbortSignal;
}
