import { Writable } from "node:stream";
import type { CliIo } from "../../src/cli/common.ts";

/** The pseudonym key {@link fakeIo} sets unless the test gives its own (hex, 16 bytes). */
export const FAKE_IO_MAC_KEY = "00112233445566778899aabbccddeeff";

/** Options of {@link fakeIo}. */
export interface FakeIoOptions {
  /** Aborted to play Ctrl-C. @default a signal that never aborts */
  readonly signal?: AbortSignal;
  /** Make stdout and stderr look like a 200-column terminal. @default false */
  readonly tty?: boolean;
  /** Called with each chunk written to stdout (e.g. to interrupt after the first lines). */
  readonly onOut?: (chunk: string) => void;
}

/**
 * A {@link CliIo} over in-memory streams, for running a command's `run` in a test;
 * `text.out` and `text.err` collect what it wrote.
 *
 * @example
 * const { io, text } = fakeIo({ FOOTFALL_BASE_URL: sim.baseUrl });
 * expect(await command.run(["--format", "ndjson"], io)).toBe(0);
 */
export function fakeIo(given: Record<string, string | undefined> = {}, options: FakeIoOptions = {}) {
  // A pseudonym key unless the test sets one (or `undefined`): without one the CLI would write a key file in the home.
  const env = { FOOTFALL_MAC_KEY: FAKE_IO_MAC_KEY, ...given };
  const text = { out: "", err: "" };
  const sink = (key: "out" | "err") => {
    const stream = new Writable({
      write(chunk, _encoding, done) {
        text[key] += String(chunk);
        if (key === "out") options.onOut?.(String(chunk));
        done();
      },
    }) as Writable & { isTTY?: boolean; columns?: number };
    if (options.tty === true) {
      stream.isTTY = true;
      stream.columns = 200;
    }
    return stream;
  };
  const io: CliIo = { stdout: sink("out"), stderr: sink("err"), env, signal: options.signal ?? new AbortController().signal };
  return { io, text };
}
