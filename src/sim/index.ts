/**
 * `footfall/sim`: the simulator, a seeded world with ground truth served as the whole service
 * interface. `createWorld` and `createSimHandler` (a `(Request) => Promise<Response>` handler,
 * no socket) run anywhere; `startSimulator` adds the `node:http` adapter (Node and Deno).
 *
 * A separate entry point so that analytics code importing `footfall` or `footfall/operators`
 * never loads the world model or an HTTP server.
 */

export type { WorldOptions, SensorOutageOptions } from "./createWorld.ts";
export { createWorld, defaultWorldOptions } from "./createWorld.ts";
export type {
  World,
  SimBrand,
  SimShop,
  ShopLayout,
  ShopSignals,
  TruthVisit,
  TruthPersonVisit,
  TruthMac,
  OccupancyEvent,
  MacClass,
  VisitKind as TruthVisitKind,
  SimTransaction,
  SurveySample,
  SensorOutage,
  PathLossModel as SimPathLossModel,
} from "./World.ts";
export type { MeanOccupancyOptions } from "./meanOccupancy.ts";
export { meanOccupancy, defaultMeanOccupancy } from "./meanOccupancy.ts";
export type { WorldPeopleTruth } from "./peopleTruth.ts";
export { peopleTruth } from "./peopleTruth.ts";
export type { CountedTruthOptions } from "./countedTruthCsv.ts";
export { countedTruthCsv, defaultCountedTruthOptions } from "./countedTruthCsv.ts";
export type { RealPhones, RealPhonesOptions, PhonesOption, QuantileKnot, ExtraDevice } from "./RealPhones.ts";
export { realPhones } from "./RealPhones.ts";
export type { SimulatorOptions, FaultOptions, SimHandler, SimPart } from "./createSimHandler.ts";
export { createSimHandler, defaultSimulatorOptions } from "./createSimHandler.ts";
export type { StartSimulatorOptions, RunningSimulator } from "./startSimulator.ts";
export { startSimulator, defaultStartSimulatorOptions } from "./startSimulator.ts";
