import { MS_MIN } from "../../time/durations.ts";
import type { Rng } from "../random/prng.ts";
import type { ShopLayout } from "../world/World.ts";

// Where people are over time: a track is flat [t0, t1, x0, y0, x1, y1] segments (epoch ms, metres
// on the shop's floor, y < 0 outside the street-side wall), in time order; ShopBuilder moves a
// device along it linearly within each segment.

/**
 * A visitor's track from `start` to `end` (epoch ms): in at the door, up to five stops on the
 * floor (more for a longer stay, each a random share of the time), out by the door.
 *
 * @example
 * const layout = { widthM: 16, depthM: 12, doorXM: 8, sensors: [] };
 * const track = visitorTrack(createRng(1), layout, 0, 20 * MS_MIN);
 * [track.length % 6, track[0], track.at(-5)]; // [0, 0, 1200000]
 */
export function visitorTrack(rng: Rng, layout: ShopLayout, start: number, end: number): number[] {
  const { widthM: w, depthM: d, doorXM: door } = layout;
  const track: number[] = [];
  const dur = end - start;
  const edge = Math.min(15_000, dur / 6);
  let t = start;
  let x = door;
  let y = 0.6;
  const stay = (until: number): void => {
    track.push(t, until, x, y, x, y);
    t = until;
  };
  const move = (nx: number, ny: number, until: number): void => {
    track.push(t, until, x, y, nx, ny);
    t = until;
    x = nx;
    y = ny;
  };
  stay(start + edge);
  const stops = Math.min(5, 1 + Math.floor(rng.next() * (1 + dur / (8 * MS_MIN))));
  const weights: number[] = [];
  let sum = 0;
  for (let k = 0; k < stops; k++) {
    const wk = rng.exponential(1);
    weights.push(wk);
    sum += wk;
  }
  const inner = end - edge - t;
  const walkMs = Math.min(6_000, inner / (4 * stops));
  for (let k = 0; k < stops; k++) {
    const slot = (inner * weights[k]!) / sum;
    move(rng.uniform(0.8, w - 0.8), rng.uniform(0.8, d - 0.5), t + walkMs);
    stay(t + Math.max(0, slot - walkMs));
  }
  move(door, 0.6, Math.min(end, t + walkMs));
  stay(end);
  return track;
}

/**
 * A staff member's track from `start` to `end` (epoch ms): stays of ~10 minutes (log-normal),
 * mostly at the counter and back of house, sometimes on the floor, with 5 s walks between.
 *
 * @example
 * const layout = { widthM: 16, depthM: 12, doorXM: 8, sensors: [] };
 * const track = staffTrack(createRng(1), layout, 0, 60 * MS_MIN);
 * [track[0], track.at(-5)]; // [0, 3600000]
 */
export function staffTrack(rng: Rng, layout: ShopLayout, start: number, end: number): number[] {
  const { widthM: w, depthM: d } = layout;
  const track: number[] = [];
  let t = start;
  let x = rng.uniform(0.5, w - 0.5);
  let y = rng.uniform(d * 0.6, d - 0.3);
  while (t < end) {
    const until = Math.min(end, t + Math.round(rng.logNormal(10 * MS_MIN, 0.6)));
    track.push(t, until, x, y, x, y);
    t = until;
    if (t >= end) break;
    // Mostly the counter and back of house, sometimes the floor.
    const nx = rng.uniform(0.5, w - 0.5);
    const ny = rng.chance(0.6) ? rng.uniform(d * 0.6, d - 0.3) : rng.uniform(0.5, d - 0.3);
    const walk = Math.min(end, t + 5_000);
    track.push(t, walk, x, y, nx, ny);
    t = walk;
    x = nx;
    y = ny;
  }
  if (track.length === 0) track.push(start, end, x, y, x, y);
  return track;
}

/**
 * A passer-by's track from `start` (epoch ms) along the street, 15 m beyond the shop's width on
 * each side, 1–8 m out from the wall at 0.8–1.6 m/s; with `lingerMs` > 0 it stops at the window
 * that long.
 *
 * @example
 * const layout = { widthM: 16, depthM: 12, doorXM: 8, sensors: [] };
 * passerTrack(createRng(1), layout, 0, 0).length; // 6
 * passerTrack(createRng(1), layout, 0, 120_000).length; // 18
 */
export function passerTrack(rng: Rng, layout: ShopLayout, start: number, lingerMs: number): number[] {
  const w = layout.widthM;
  const reach = 15;
  const speed = rng.uniform(0.8, 1.6) / 1000; // m per ms
  const lane = -rng.uniform(1, 8);
  const ltr = rng.chance(0.5);
  const x0 = ltr ? -reach : w + reach;
  const x1 = ltr ? w + reach : -reach;
  if (lingerMs <= 0) {
    const end = start + Math.round(Math.abs(x1 - x0) / speed);
    return [start, end, x0, lane, x1, lane];
  }
  // Walks up to the window, looks in for a few minutes, walks on.
  const wx = rng.uniform(0.5, w - 0.5);
  const wy = -rng.uniform(0.3, 1.5);
  const t1 = start + Math.round(Math.abs(wx - x0) / speed);
  const t2 = t1 + lingerMs;
  const t3 = t2 + Math.round(Math.abs(x1 - wx) / speed);
  return [start, t1, x0, lane, wx, wy, t1, t2, wx, wy, wx, wy, t2, t3, wx, wy, x1, lane];
}
