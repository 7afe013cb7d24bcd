/**
 * `footfall/sim`: the simulator, a seeded world with ground truth served as the whole service
 * interface. `createWorld` and `createSimHandler` (a `(Request) => Promise<Response>` handler,
 * no socket) run anywhere; `startSimulator` adds the `node:http` adapter (Node and Deno).
 *
 * A separate entry point so that analytics code importing `footfall` or `footfall/operators`
 * never loads the world model or an HTTP server.
 *
 * @module footfall/sim
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
} from "./world/World.ts";
export type { MeanOccupancyOptions } from "./truth/meanOccupancy.ts";
export { meanOccupancy, defaultMeanOccupancy } from "./truth/meanOccupancy.ts";
export type { WorldPeopleTruth } from "./truth/peopleTruth.ts";
export { peopleTruth } from "./truth/peopleTruth.ts";
export type { CountedTruthOptions } from "./truth/countedTruthCsv.ts";
export { countedTruthCsv, defaultCountedTruthOptions } from "./truth/countedTruthCsv.ts";
export type { RealPhones, RealPhonesOptions, PhonesOption, ExtraDevice } from "./phones/RealPhones.ts";
export type { PhoneProfile } from "./phones/PhoneProfile.ts";
export type { RealPhoneCapture } from "./phones/realPhoneCaptures.ts";
export { realPhoneCaptures } from "./phones/realPhoneCaptures.ts";
export { phoneProfiles } from "./phones/PhoneProfile.ts";
export { realPhones } from "./phones/RealPhones.ts";
export type { SimulatorOptions, FaultOptions, SimHandler, SimPart } from "./service/createSimHandler.ts";
export { createSimHandler, defaultSimulatorOptions } from "./service/createSimHandler.ts";
export type { StartSimulatorOptions, RunningSimulator } from "./service/startSimulator.ts";
export { startSimulator, defaultStartSimulatorOptions } from "./service/startSimulator.ts";
