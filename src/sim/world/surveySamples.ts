import type { Rng } from "../random/prng.ts";
import type { PathLossModel, SurveySample } from "./World.ts";

/**
 * A site survey with `model`: `perDistance` readings at each distance of `distancesM` (metres),
 * each at a spot of its own (noise and, with shadowing, slow fading drawn per reading), those
 * below the sensitivity left out. What `World.surveySamples` returns, drawn from its own stream.
 *
 * @example
 * const samples = surveySamples(world.model, createRng(1), [1, 4], 10);
 * samples.every((s) => s.rssi <= -1 && s.rssi >= -127); // true
 */
export function surveySamples(model: PathLossModel, rng: Rng, distancesM: readonly number[], perDistance: number): SurveySample[] {
  const out: SurveySample[] = [];
  for (const distanceM of distancesM) {
    const mean = model.rssiAt1m - 10 * model.pathLossExponent * Math.log10(distanceM);
    for (let k = 0; k < perDistance; k++) {
      // Each sample is taken at a spot of its own, so its shadowing is a draw of its own (none drawn without it).
      const shade = model.shadowingDb > 0 ? model.shadowingDb * rng.normal() : 0;
      const rssi = Math.round(mean + model.noiseDb * rng.normal() + shade);
      if (rssi < model.sensitivityDbm) continue;
      out.push({ distanceM, rssi: Math.min(-1, Math.max(-127, rssi)) });
    }
  }
  return out;
}
