import { MultiBar, Presets, type SingleBar } from "cli-progress";
import { dashboardLines, type DashboardFrame } from "./dashboardText.ts";

/**
 * The live dashboard on a terminal: cli-progress's MultiBar redraws the lines in place (cut to
 * the terminal width, cursor hidden), one "bar" per line; the day's progress is a real bar.
 * Construct it only when the stream is a terminal.
 *
 * @example
 * const dash = new TerminalDashboard(process.stderr, frame.shops.length);
 * dash.update(frame);
 * dash.stop();
 */
export class TerminalDashboard {
  readonly #multi: MultiBar;
  readonly #title: SingleBar;
  readonly #day: SingleBar;
  readonly #lines: SingleBar[] = [];
  readonly #stream: NodeJS.WritableStream & { columns?: number };

  constructor(stream: NodeJS.WritableStream & { columns?: number }, shopCount: number) {
    this.#stream = stream;
    this.#multi = new MultiBar(
      { stream, hideCursor: true, linewrap: false, fps: 5, forceRedraw: true, clearOnComplete: false, gracefulExit: false, barsize: 36, autopadding: false },
      Presets.shades_classic,
    );
    const text = { format: (_o: unknown, _p: unknown, payload: { text?: string }) => payload.text ?? "" };
    this.#title = this.#multi.create(1, 0, { text: "" }, text);
    this.#day = this.#multi.create(1000, 0, { clock: "--:--", elapsed: "0 s" }, { format: "  day {bar} {clock}  {percentage} %  ·  {elapsed}" });
    const count = 1 + shopCount + (shopCount > 1 ? 1 : 0) + 2;
    for (let i = 0; i < count; i++) this.#lines.push(this.#multi.create(1, 0, { text: "" }, text));
  }

  update(frame: DashboardFrame): void {
    this.#title.update(0, { text: `\x1b[1mfootfall demo\x1b[0m  ·  ${frame.heading}` });
    this.#day.update(Math.round(1000 * Math.min(1, Math.max(0, frame.fraction))), { clock: frame.clock, elapsed: `${Math.round(frame.elapsedMs / 1000)} s` });
    const lines = dashboardLines(frame, this.#stream.columns ?? 120);
    this.#lines.forEach((bar, i) => bar.update(0, { text: lines[i] ?? "" }));
  }

  /** Prints a line above the dashboard (kept in the scrollback). */
  log(line: string): void {
    this.#multi.log(`${line}\n`);
  }

  /** Draws the last frame and gives the terminal back (cursor, line wrapping). */
  stop(): void {
    this.#multi.stop();
  }
}
