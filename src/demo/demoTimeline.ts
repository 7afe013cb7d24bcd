/**
 * Options of {@link demoTimeline}. Times are epoch ms of simulated time.
 *
 * @example
 * const options: DemoTimelineOptions = { dayStartMs, dayEndMs, openMs, closeMs, speed: 900 };
 */
export interface DemoTimelineOptions {
  /** First instant of the simulated day (local midnight). */
  readonly dayStartMs: number;
  /** End of the simulated day (next local midnight), exclusive. */
  readonly dayEndMs: number;
  /** Opening time of the shops. */
  readonly openMs: number;
  /** Closing time of the shops. */
  readonly closeMs: number;
  /** Simulated ms per real ms while the shops are open (± `marginMs`). @default 900 */
  readonly speed?: number;
  /** Simulated time shown before opening and after closing at `speed`, ms. @default 1_800_000 (30 min) */
  readonly marginMs?: number;
  /** How much faster than `speed` the night after closing passes. @default 10 */
  readonly fastForward?: number;
}

/**
 * Defaults of {@link DemoTimelineOptions}.
 *
 * @example
 * demoTimeline({ dayStartMs, dayEndMs, openMs, closeMs, ...defaultDemoTimeline, speed: 3000 });
 */
export const defaultDemoTimeline = Object.freeze({ speed: 900, marginMs: 1_800_000, fastForward: 10 });

/**
 * How simulated time runs in `footfall demo`: the clock starts half an hour before opening (the
 * night before it is already history and is read at once), runs at `speed` through opening hours,
 * and fast-forwards the night after closing, so the day that matters fills the minute.
 *
 * @example
 * const t = demoTimeline({ dayStartMs: 0, dayEndMs: 86_400_000, openMs: 36_000_000, closeMs: 79_200_000, speed: 900 });
 * t.simAt(0);               // 34_200_000 (09:30)
 * t.realDurationMs;         // ≈ 52 600 (13 h at 900×, then 1.5 h at 9000×)
 */
export interface DemoTimeline {
  /** Simulated time at real time 0 (epoch ms). */
  readonly startMs: number;
  /** End of the simulated day (epoch ms, exclusive). */
  readonly endMs: number;
  /** When the shops close plus the margin: the time the day's sales are uploaded (epoch ms). */
  readonly closedMs: number;
  /** Real time the whole timeline takes, ms. */
  readonly realDurationMs: number;
  /** Simulated time (epoch ms) `realElapsedMs` after the start; keeps running past the end. */
  simAt(realElapsedMs: number): number;
  /** Share of the timeline's real duration done at simulated time `simMs`, 0…1. */
  fractionAt(simMs: number): number;
}

/**
 * Builds the demo's {@link DemoTimeline}; throws RangeError for inconsistent times or a speed
 * that is not a positive finite number.
 *
 * @example
 * const day = demoTimeline({ dayStartMs, dayEndMs, openMs, closeMs, speed: 900 });
 * const sim = await startSimulator({ world, speed: 1, liveStart: day.startMs, clock: () => day.simAt(performance.now() - t0) });
 * await sim.close();
 */
export function demoTimeline(options: DemoTimelineOptions): DemoTimeline {
  const { dayStartMs, dayEndMs, openMs, closeMs } = options;
  const speed = options.speed ?? defaultDemoTimeline.speed;
  const margin = options.marginMs ?? defaultDemoTimeline.marginMs;
  const fast = options.fastForward ?? defaultDemoTimeline.fastForward;
  for (const [name, v] of Object.entries({ dayStartMs, dayEndMs, openMs, closeMs })) {
    if (typeof v !== "number" || !Number.isFinite(v)) throw new RangeError(`demoTimeline: ${name} must be epoch ms`);
  }
  if (!(dayStartMs <= openMs && openMs < closeMs && closeMs <= dayEndMs)) {
    throw new RangeError("demoTimeline: expected dayStart ≤ open < close ≤ dayEnd");
  }
  if (!(speed > 0) || !Number.isFinite(speed)) throw new RangeError(`demoTimeline: speed must be a positive number, got ${speed}`);
  if (!(margin >= 0) || !Number.isFinite(margin)) throw new RangeError("demoTimeline: marginMs must be ≥ 0");
  if (!(fast >= 1) || !Number.isFinite(fast)) throw new RangeError("demoTimeline: fastForward must be ≥ 1");

  const startMs = Math.max(dayStartMs, openMs - margin);
  const closedMs = Math.min(dayEndMs, closeMs + margin);
  const fastSpeed = speed * fast;
  const realOpen = (closedMs - startMs) / speed;
  const realDurationMs = realOpen + (dayEndMs - closedMs) / fastSpeed;
  return {
    startMs,
    endMs: dayEndMs,
    closedMs,
    realDurationMs,
    simAt(real: number): number {
      if (real <= realOpen) return startMs + Math.max(0, real) * speed;
      return closedMs + (real - realOpen) * fastSpeed;
    },
    fractionAt(sim: number): number {
      const real = sim <= closedMs ? (sim - startMs) / speed : realOpen + (sim - closedMs) / fastSpeed;
      return realDurationMs > 0 ? Math.min(1, Math.max(0, real / realDurationMs)) : 1;
    },
  };
}
