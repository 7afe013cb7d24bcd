import { performance } from "node:perf_hooks";
import { TZDate } from "@date-fns/tz";
import { plainLine, type DashboardFrame } from "./dashboardText.ts";
import type { DemoIo } from "./DemoIo.ts";
import type { DemoTimeline } from "./demoTimeline.ts";
import { localClock } from "./localTime.ts";
import type { ShopLive } from "./ShopLive.ts";
import { TerminalDashboard } from "./TerminalDashboard.ts";

/**
 * Options of {@link LiveView}.
 *
 * @example
 * const options: LiveViewOptions = { heading: "1 shop", lives: [live], day: demoTimeline({ dayStartMs, dayEndMs, openMs, closeMs }), simNow, timeZone: "Asia/Seoul", t0, status: () => "sales: at closing time" };
 */
export interface LiveViewOptions {
  /** The dashboard's heading line (shops, day, hours, speed, seed). */
  readonly heading: string;
  /** The shops' live state, one per shop. */
  readonly lives: readonly ShopLive[];
  /** How simulated time runs. */
  readonly day: DemoTimeline;
  /** The simulated clock now, epoch ms. */
  readonly simNow: () => number;
  /** IANA time zone of the shops (the clock shown). */
  readonly timeZone: string;
  /** `performance.now()` when the day started (the elapsed time shown). */
  readonly t0: number;
  /** The sales line now. */
  readonly status: () => string;
}

/**
 * What the demo shows on stderr while the day runs: on a terminal (stderr and stdout both), the
 * live dashboard redrawn in place with messages above it; elsewhere (a pipe, a log) one plain
 * line per simulated hour — the latest, if several passed at once — and one every 5 s while
 * reading catches up after the clock has stopped moving, with messages as lines of their own.
 *
 * @example
 * const view = new LiveView({ stdout: stream, stderr: stream, signal: new AbortController().signal }, { heading: "1 shop", lives: [live], day: demoTimeline({ dayStartMs, dayEndMs, openMs, closeMs }), simNow, timeZone: "Asia/Seoul", t0, status: () => "sales: at closing time" });
 * view.draw();
 * view.stop();
 * view.firstFrameS === undefined; // false
 */
export class LiveView {
  /** Seconds from the process start to the first frame drawn (undefined before it). */
  firstFrameS: number | undefined;
  readonly #io: DemoIo;
  readonly #options: LiveViewOptions;
  readonly #clockText: (ms: number) => string;
  readonly #dash: TerminalDashboard | undefined;
  #lastHour = -1;
  #lastLine = 0;

  constructor(io: DemoIo, options: LiveViewOptions) {
    this.#io = io;
    this.#options = options;
    this.#clockText = localClock(options.timeZone);
    const tty = io.stderr.isTTY === true && io.stdout.isTTY === true;
    this.#dash = tty ? new TerminalDashboard(io.stderr, options.lives.length) : undefined;
  }

  /** Prints a message: above the dashboard on a terminal, else as a line of its own. */
  say(line: string): void {
    if (this.#dash === undefined) this.#io.stderr.write(`${line}\n`);
    else this.#dash.log(line);
  }

  /** Draws the day as it is now. */
  draw(): void {
    const { day, timeZone } = this.#options;
    const now = this.#options.simNow();
    const f = this.#frame(now);
    if (this.#dash !== undefined) this.#dash.update(f);
    else {
      const hour = new TZDate(Math.min(now, day.endMs), timeZone).getHours();
      const real = performance.now();
      if (hour !== this.#lastHour || real - this.#lastLine >= 5_000) {
        this.#lastHour = hour;
        this.#lastLine = real;
        this.#io.stderr.write(`${plainLine(f)}\n`);
      }
    }
    this.firstFrameS ??= process.uptime();
  }

  /** Gives the terminal back (a no-op without the dashboard). */
  stop(): void {
    this.#dash?.stop();
  }

  #frame(now: number): DashboardFrame {
    const { day, lives } = this.#options;
    const snaps = lives.map((l) => l.snapshot());
    const reading = snaps.filter((s) => !s.done && Number.isFinite(s.lastEventMs));
    // The clock runs on past the end of the day; no data comes after it.
    const lagMs = reading.length === 0 ? 0 : Math.min(now, day.endMs) - Math.min(...reading.map((s) => s.lastEventMs));
    return {
      heading: this.#options.heading,
      clock: now >= day.endMs ? "24:00" : this.#clockText(now),
      fraction: day.fractionAt(now),
      elapsedMs: performance.now() - this.#options.t0,
      shops: snaps,
      status: this.#options.status(),
      lagMs,
    };
  }
}
