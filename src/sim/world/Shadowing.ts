import type { Rng } from "../random/prng.ts";

/** Time over which a device's shadowing decorrelates while it stands still, ms: a shopper turns, pockets the phone, someone walks between. */
const SHADOWING_CORRELATION_MS = 30_000;
/** Distance over which it decorrelates as the device moves, m (about the size of what casts it: shelves, bodies, a pillar). */
const SHADOWING_CORRELATION_M = 2;

/**
 * Slow fading (shadowing) of one device's signal at each sensor of a shop: the part of the RSSI
 * that is neither distance nor per-reading noise — the body between the phone and a sensor,
 * the pocket or bag it is carried in, shelves and people in the way. Log-normal, so in dB a
 * Gaussian of standard deviation `sigmaDb` per sensor, independent between sensors, and a
 * Gauss–Markov process in time and space: between two readings `dt` ms and `dd` m apart it
 * keeps the correlation ρ = exp(−dt / {@link SHADOWING_CORRELATION_MS} − dd / {@link SHADOWING_CORRELATION_M}),
 * so the frames of one burst share it, a shopper standing at a shelf keeps it for tens of
 * seconds, and a passer-by walking by sees it change every few metres.
 *
 * Its draws come from a stream of their own, so a world with shadowing has the same people,
 * tracks, MACs and bursts as the world without it; only the RSSI (and so which frames are
 * heard at all) differs. With `sigmaDb` 0 it draws nothing and every value is 0.
 *
 * @example
 * const shade = new Shadowing(3, 6, createRng(hashSeed(1, "shadowing", 101)));
 * shade.start(); // a new presence
 * shade.advance(Date.parse("2026-11-16T10:00:00Z"), 4, 3); // before each burst (or probe): at (4 m, 3 m)
 * shade.at(0) !== 0; // true (dB to add to the mean RSSI at sensor 0)
 * new Shadowing(3, 0, createRng(1)).at(0); // 0 (none)
 */
export class Shadowing {
  readonly #values: Float64Array;
  readonly #sigmaDb: number;
  readonly #rng: Rng;
  #t = Number.NaN;
  #x = 0;
  #y = 0;

  /**
   * @param sensors  sensors of the shop
   * @param sigmaDb  standard deviation of the shadowing at one sensor, dB (0 = none)
   * @param rng      the shadowing's own random stream
   */
  constructor(sensors: number, sigmaDb: number, rng: Rng) {
    this.#values = new Float64Array(sensors);
    this.#sigmaDb = sigmaDb;
    this.#rng = rng;
  }

  /** Whether there is any shadowing to apply. */
  get on(): boolean {
    return this.#sigmaDb > 0;
  }

  /** The stream the shadowing draws from: also for the draws of frames only shadowing lets through. */
  get rng(): Rng {
    return this.#rng;
  }

  /** A new presence: its first {@link advance} draws fresh values, unrelated to the last presence's. */
  start(): void {
    this.#t = Number.NaN;
  }

  /** Moves the process to time `t` (epoch ms) and position (`x`, `y`) (m). */
  advance(t: number, x: number, y: number): void {
    if (this.#sigmaDb === 0) return;
    const v = this.#values;
    const fresh = Number.isNaN(this.#t);
    const rho = fresh ? 0 : Math.exp(-(t - this.#t) / SHADOWING_CORRELATION_MS - Math.hypot(x - this.#x, y - this.#y) / SHADOWING_CORRELATION_M);
    // Stationary variance: ρ·v + √(1 − ρ²)·σ·z keeps the standard deviation at σ.
    const q = Math.sqrt(1 - rho * rho) * this.#sigmaDb;
    for (let s = 0; s < v.length; s++) v[s] = rho * v[s]! + q * this.#rng.normal();
    this.#t = t;
    this.#x = x;
    this.#y = y;
  }

  /** The shadowing at sensor `s` now, dB (add it to the mean RSSI). */
  at(s: number): number {
    return this.#values[s]!;
  }
}
