import { defaultWorldOptions, type WorldOptions } from "../sim/createWorld.ts";
import type { Rotation } from "../sim/phones/MacBehaviour.ts";
import { defaultDemoTimeline } from "./demoTimeline.ts";

/**
 * Settings of the demo (`footfall demo` reads them from its flags).
 *
 * @example
 * const o: DemoOptions = { seed: 1, shops: 5, speed: 900, out: "footfall-report", hours: [10, 22] };
 */
export interface DemoOptions {
  /** Seed of the world (a number when the flag is an integer). @default 1 */
  readonly seed: number | string;
  /** Shops in the world. @default 5 (the simulator's default world) */
  readonly shops: number;
  /** Simulated seconds per real second while the shops are open. @default 900 */
  readonly speed: number;
  /** Report folder. @default "footfall-report" */
  readonly out: string;
  /** Opening hours, local. @default [10, 22] */
  readonly hours: readonly [number, number];
  /** Further world options (busier or quieter shops, radio model…); one day is always simulated. @default {} */
  readonly world?: WorldOptions;
  /**
   * How the simulated phones use MAC addresses (`--rotation`): `"realistic"` (most randomized
   * MACs rotate at almost every probe burst, as published captures show: what footfall meets in
   * a real shop), `"off"` (one MAC per visit) or the share of randomizing phones that rotate.
   * @default "realistic"
   */
  readonly rotation?: Rotation;
  /** `--min-count K`: small-count suppression in daily.csv and the report's hours (see README "Privacy"). @default 0 (off) */
  readonly minCount?: number;
}

/**
 * Defaults of {@link DemoOptions}.
 *
 * @example
 * const options: DemoOptions = { ...defaultDemoOptions, shops: 2, speed: 3000 };
 */
export const defaultDemoOptions: DemoOptions = Object.freeze({
  seed: defaultWorldOptions.seed,
  shops: defaultWorldOptions.shops,
  speed: defaultDemoTimeline.speed,
  out: "footfall-report",
  hours: defaultWorldOptions.openingHours,
  rotation: "realistic",
});
