/**
 * `footfall/operators`: the streaming analytics, one RxJS operator per kernel, with the types of
 * what flows through them (decoded signals → sessions → classified sessions → counts, dwell,
 * proximity and data quality).
 *
 * This entry point loads rxjs, the kernels and the codec (with its OUI table) and nothing else:
 * no charts, no DOM shim, no HTTP server and no file system, so a stream processor or a browser
 * bundle that imports it pays for none of them (test/package/moduleGraph.test.ts checks it).
 * The source that feeds it (`signals`, `createClient`) and the batch `analyze` are in `footfall`.
 *
 * @module footfall/operators
 */

export type { Signal } from "../codec/Signal.ts";
export type { InvalidReason, InvalidRecord } from "../codec/decodeSignal.ts";
export type { DecodeSignalsOptions } from "./decodeSignals.ts";
export { decodeSignals } from "./decodeSignals.ts";

export type { Session, SessionSensor } from "../kernels/sessions/Session.ts";
export type { SessionizeOptions } from "./sessionize.ts";
export { sessionize } from "./sessionize.ts";

export type { VisitKind, ClassifiedSession } from "../kernels/visits/VisitClassifier.ts";
export type { ClassifyVisitsOptions } from "./classifyVisits.ts";
export { classifyVisits } from "./classifyVisits.ts";

export type { WindowDwell } from "../kernels/visits/DwellMeter.ts";
export type { MeasureDwellOptions } from "./measureDwell.ts";
export { measureDwell } from "./measureDwell.ts";

export type { VisitCounts, VisitSeries } from "../kernels/visits/VisitCounter.ts";
export type { CountVisitsOptions } from "./countVisits.ts";
export { countVisits } from "./countVisits.ts";

export type { SessionStageOptions, SessionStageOutput } from "../kernels/sessionStages.ts";
export type { AnalyzeSessionsOptions } from "./analyzeSessions.ts";
export { analyzeSessions } from "./analyzeSessions.ts";

export type { OccupancyInterval, PeopleEstimate } from "../kernels/people/PeopleEstimate.ts";
export type { EstimateOccupancyOptions } from "./estimateOccupancy.ts";
export { estimateOccupancy } from "./estimateOccupancy.ts";
export type { EstimatePeopleOptions } from "./estimatePeople.ts";
export { estimatePeople } from "./estimatePeople.ts";
export type { LiveOccupancyOptions, LiveOccupancyInterval, LiveDay } from "../kernels/people/LiveOccupancy.ts";
export type { LiveOccupancyOperatorOptions } from "./liveOccupancy.ts";
export { liveOccupancy } from "./liveOccupancy.ts";

export type { ProximitySlice, SessionProximity } from "../kernels/proximity/SessionProximity.ts";
export type { EstimateProximityOptions } from "./estimateProximity.ts";
export { estimateProximity } from "./estimateProximity.ts";

export type { DataQualityReport } from "../kernels/quality/dataQuality.ts";
export type { AssessQualityOptions } from "./assessQuality.ts";
export { assessQuality } from "./assessQuality.ts";

export type { Kernel, Sink } from "../kernels/sessions/Sink.ts";
export { kernelOperator } from "./kernelOperator.ts";
