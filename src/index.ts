/**
 * footfall: retail Wi-Fi analytics for the sensing and sales service.
 *
 * The root entry point: the service's contract and errors, the client, the signal source, the
 * codec, the batch analytics (`analyze` and the kernels' public functions and result types) and
 * the sales upload. Named exports written by hand; each section is one area of src/.
 *
 * The other areas have entry points of their own, so importing one never loads the others:
 * `footfall/operators` (RxJS operators; no charts, DOM shim, HTTP server or file system),
 * `footfall/sim` (the simulator, with its `node:http` adapter) and `footfall/report` (charts
 * with Observable Plot and linkedom, the HTML report). Helpers the library uses internally
 * (response validators, journal formats, record identity, HTML escaping …) are not exported:
 * they may change in any release.
 *
 * @module footfall
 */

// --- contract -------------------------------------------------------------
export type {
  Brand,
  BrandsResponse,
  Shop,
  ShopResponse,
  SalesStatsDaily,
  SalesStatsDailyRequest,
  RawSignal,
  SignalsResponse,
} from "./contract/index.ts";
export {
  SIGNALS_LIMIT_DEFAULT,
  SIGNALS_LIMIT_MAX,
  brandsPath,
  shopByExternalKeyPath,
  salesStatsDailiesPath,
  wifiSignalsPath,
  CURRENCY_MINOR_DIGITS,
  isCurrencyCode,
} from "./contract/index.ts";

// --- errors ---------------------------------------------------------------
export { FootfallError, isFootfallError } from "./errors/FootfallError.ts";
export { DecodeError, isDecodeError } from "./errors/DecodeError.ts";
export { ContractError, isContractError } from "./errors/ContractError.ts";
export { TieOverflowError, isTieOverflowError } from "./errors/TieOverflowError.ts";
export { HttpError, isHttpError } from "./errors/HttpError.ts";
export { NetworkError, isNetworkError } from "./errors/NetworkError.ts";
export { TimeoutError, isTimeoutError } from "./errors/TimeoutError.ts";
export { BrandNotFoundError, isBrandNotFoundError } from "./errors/BrandNotFoundError.ts";
export { AmbiguousBrandError, isAmbiguousBrandError } from "./errors/AmbiguousBrandError.ts";
export { ShopNotFoundError, isShopNotFoundError } from "./errors/ShopNotFoundError.ts";
export { CheckpointError, isCheckpointError } from "./errors/CheckpointError.ts";
export { SalesInputError, isSalesInputError } from "./errors/SalesInputError.ts";
export { SalesJournalError, isSalesJournalError } from "./errors/SalesJournalError.ts";
export { TruthInputError, isTruthInputError } from "./errors/TruthInputError.ts";

// --- codec ----------------------------------------------------------------
export type { PresetRtsCodec, RtsCodec } from "./codec/rts.ts";
export {
  millisRts,
  secondsRts,
  microsRts,
  nanosRts,
  rtsCodecForUnit,
  inferRtsCodec,
  millisToRts,
  rtsToMillis,
  isRts,
  compareRts,
  stepRts,
} from "./codec/rts.ts";
export type { EpochUnit } from "./codec/inferEpochUnit.ts";
export { inferEpochUnit, toEpochMillis, isEpochUnit } from "./codec/inferEpochUnit.ts";
export type { RowKey } from "./codec/rowKey.ts";
export { parseRowKey, formatRowKey } from "./codec/rowKey.ts";
export { normalizeMac, isLocallyAdministered, isMulticast, isRandomized } from "./codec/mac.ts";
export { vendorOf } from "./codec/oui.ts";
export type { Signal } from "./codec/Signal.ts";
export type {
  InvalidReason,
  InvalidRecord,
  DecodeSignalOptions,
  SignalDecoderOptions,
  SignalDecoderStats,
} from "./codec/decodeSignal.ts";
export {
  decodeSignal,
  isInvalidRecord,
  SignalDecoder,
  INVALID_REASONS,
  defaultSignalDecoderOptions,
} from "./codec/decodeSignal.ts";
export { parseSignalLine } from "./codec/parseSignalLine.ts";

// --- client ---------------------------------------------------------------
export type { Client, CallOptions, SignalsPageRequest } from "./client/Client.ts";
export type { ClientOptions, RetryOptions, RetryEvent } from "./client/createClient.ts";
export { createClient, defaultClientOptions } from "./client/createClient.ts";

// --- source ---------------------------------------------------------------
export type { SignalsOptions, SignalTime } from "./source/signalsOptions.ts";
export { defaultSignalsOptions } from "./source/signalsOptions.ts";
export type { SignalPage, SignalProgress } from "./source/SignalPage.ts";
export type { SignalCursor } from "./source/SignalCursor.ts";
export { signals } from "./source/signals.ts";
export { signalPages } from "./source/signalPages.ts";
export { signalPagesObservable } from "./source/signalPagesObservable.ts";
export type { SignalsForShopsOptions } from "./source/signalsForShops.ts";
export { signalsForShops, defaultSignalsForShopsOptions } from "./source/signalsForShops.ts";
export type { CursorStore } from "./source/CursorStore.ts";
export { memoryCursorStore } from "./source/memoryCursorStore.ts";
export type { FileCursorStore, FileCursorStoreOptions } from "./source/fileCursorStore.ts";
export { fileCursorStore, defaultFileCursorStoreOptions } from "./source/fileCursorStore.ts";

// --- analytics: the batch path and the kernels ------------------------------
// The RxJS operators over the same kernels are `footfall/operators`. Kernels that are plain
// functions over state keep their option resolvers (`xxxOptions`) and state constructors public,
// since a caller driving them by hand needs both.
export type { AnalyzeOptions, ShopDaySummary, AnalyzeResult } from "./analysis/analyze.ts";
export { analyze, Analyzer, withAlignedClocks } from "./analysis/analyze.ts";
// A file of signal records (NDJSON, gzip or not, on threads), read as `footfall analyze --input` reads it.
export type { AnalyzeFileOptions } from "./file/analyzeFile.ts";
export { analyzeFile } from "./file/analyzeFile.ts";
export { MAX_READINGS, secondReading, type SecondReading, type SecondReadingFixes } from "./analysis/secondReading.ts";
// proximity, smoothing, calibration, data quality:
export type { KalmanFilterOptions, ResolvedKalmanFilterOptions, KalmanState } from "./kernels/proximity/kalmanFilter.ts";
export { kalmanFilter, kalmanFilterOptions, createKalmanState, defaultKalmanFilter } from "./kernels/proximity/kalmanFilter.ts";
export type {
  RunningTrimmedMeanOptions,
  ResolvedRunningTrimmedMeanOptions,
  TrimmedMeanState,
} from "./stats/trimmedMean.ts";
export {
  trimmedMean,
  runningTrimmedMean,
  currentTrimmedMean,
  runningTrimmedMeanOptions,
  createTrimmedMeanState,
  defaultRunningTrimmedMean,
} from "./stats/trimmedMean.ts";
export type { PathLossOptions, PathLossModel } from "./kernels/proximity/pathLoss.ts";
export { rssiToDistance, distanceToRssi, log10Distance, pathLossOptions, defaultPathLoss } from "./kernels/proximity/pathLoss.ts";
export type { ProximityZone, ProximityZoneOptions, ResolvedProximityZoneOptions } from "./kernels/proximity/proximityZone.ts";
export {
  proximityZone,
  proximityZoneIndex,
  proximityZoneOptions,
  defaultProximityZones,
  PROXIMITY_ZONES,
} from "./kernels/proximity/proximityZone.ts";
export type { PathLossSample, PathLossFit } from "./kernels/proximity/fitPathLoss.ts";
export { fitPathLoss } from "./kernels/proximity/fitPathLoss.ts";
export type { ProximitySlice, ProximityTimelineEntry, SensorZoneMs, SessionProximity } from "./kernels/proximity/SessionProximity.ts";
export type { ProximityCalibration, ProximityOptions, ResolvedProximityOptions } from "./kernels/proximity/proximityOptions.ts";
export type {
  RssiSmoothing,
  EventTimeEngineOptions,
  ResolvedEventTimeEngineOptions,
  EngineSink,
  EngineAccumulator,
  EngineShare,
  EventTimeEngineStats,
} from "./kernels/sessions/EventTimeEngine.ts";
export { EventTimeEngine, eventTimeEngineOptions, defaultEventTimeEngine } from "./kernels/sessions/EventTimeEngine.ts";
export { estimatedDwell } from "./kernels/sessions/estimatedDwell.ts";
export type { Sink, Kernel } from "./kernels/sessions/Sink.ts";
export type { ZoneCounts, SensorZoneTime, ZoneOccupancyOptions, ZoneTimeOptions } from "./kernels/visits/ZoneOccupancy.ts";
export { ZoneOccupancy, zoneTimeBySensor, defaultZoneOccupancy } from "./kernels/visits/ZoneOccupancy.ts";
export type {
  DataQualityOptions,
  ResolvedDataQualityOptions,
  DataQualityCounts,
  DataQualityReport,
  QualityGap,
  SensorQuality,
  ClosedSessionSensor,
  ClosedSessionSensors,
} from "./kernels/quality/dataQuality.ts";
export { DataQuality, dataQuality, dataQualityOptions, defaultDataQuality } from "./kernels/quality/dataQuality.ts";
export type { SensorSilence, SensorSilencesOptions } from "./kernels/quality/sensorSilences.ts";
export { sensorSilences } from "./kernels/quality/sensorSilences.ts";
export { misalignedClocks } from "./kernels/quality/misalignedClocks.ts";
export type { Session, SessionSensor } from "./kernels/sessions/Session.ts";
export type { EventTimeReorderOptions, SignalOrder } from "./kernels/sessions/EventTimeReorder.ts";
export { EventTimeReorder, canonicalSignalOrder, defaultEventTimeReorder } from "./kernels/sessions/EventTimeReorder.ts";
export type { LocalDay, WindowUnit } from "./time/LocalCalendar.ts";
export { LocalCalendar } from "./time/LocalCalendar.ts";
export type {
  VisitKind,
  ClassifiedSession,
  VisitClassifierOptions,
  ResolvedVisitClassifierOptions,
} from "./kernels/visits/VisitClassifier.ts";
export { VisitClassifier, visitClassifierOptions, defaultVisitClassifier, visitOrPass, staffPresenceMs } from "./kernels/visits/VisitClassifier.ts";
export type { SuggestRssiThresholdOptions, RssiThresholdSuggestion, RssiMode } from "./kernels/visits/suggestRssiThreshold.ts";
export { suggestRssiThreshold, PeakRssiHistogram, defaultSuggestRssiThreshold } from "./kernels/visits/suggestRssiThreshold.ts";
export type { DwellBuckets, DwellStats } from "./kernels/visits/dwellStats.ts";
export { dwellStats, dwellBucket, DWELL_BUCKETS } from "./kernels/visits/dwellStats.ts";
export { conversionRate } from "./kernels/visits/conversionRate.ts";
export type { SessionWindow, WindowAggregate } from "./kernels/visits/SessionWindows.ts";
export { SessionWindows } from "./kernels/visits/SessionWindows.ts";
export type { DwellMeterOptions, WindowDwell } from "./kernels/visits/DwellMeter.ts";
export { DwellMeter, dwellMeterOptions, defaultDwellMeter } from "./kernels/visits/DwellMeter.ts";
export type { PeopleEstimatorOptions, ResolvedPeopleEstimatorOptions } from "./kernels/people/peopleEstimatorOptions.ts";
export type { PeopleEstimate, PeopleSample, OccupancyInterval } from "./kernels/people/PeopleEstimate.ts";
export { PeopleEstimator } from "./kernels/people/PeopleEstimator.ts";
export { peopleEstimatorOptions, defaultPeopleEstimator } from "./kernels/people/peopleEstimatorOptions.ts";
export type { LinkOptions } from "./kernels/phones/linkedVisits.ts";
export { linkedVisits } from "./kernels/phones/linkedVisits.ts";
export { poolPeople } from "./kernels/people/poolPeople.ts";
export type { BurstYardstick } from "./kernels/calibration/burstYardstick.ts";
export { realPhonesPrior, burstYardstick } from "./kernels/calibration/burstYardstick.ts";
export { medianPersons } from "./kernels/people/medianPersons.ts";
export { silentPersonsBound } from "./kernels/people/silentPersonsBound.ts";
export { universalPersonWeight, PHONE_STAY_MS } from "./kernels/phones/universalPersonWeight.ts";
export type { Calibration, CalibrationFile, CalibrationRef } from "./kernels/calibration/Calibration.ts";
export { CALIBRATION_VERSION, checkCalibration, calibrationsByShop } from "./kernels/calibration/Calibration.ts";
export { CALIBRATION_DRIFT_PER_DAY, CALIBRATION_STALE_DAYS, calibratedYardstick } from "./kernels/people/calibratedYardstick.ts";
export type { CalibrationObservation, IntervalObservation, DayObservation, FitCalibrationOptions } from "./kernels/calibration/fitCalibration.ts";
export { fitCalibration, MIN_TRUSTED_INTERVALS, MIN_TRUSTED_DAILY, MIN_MODEL_DAYS } from "./kernels/calibration/fitCalibration.ts";
export type { PeopleModel } from "./kernels/calibration/PeopleModel.ts";
export { modelledPeople } from "./kernels/people/modelledPeople.ts";
export type { ModelRow } from "./kernels/calibration/fitPeopleModel.ts";
export { fitPeopleModel, MODEL_ALPHAS } from "./kernels/calibration/fitPeopleModel.ts";
export { CALIBRATION_FEATURES, RSSI_BAND_EDGES, rssiBand } from "./kernels/calibration/calibrationFeatures.ts";
export { withCalibration } from "./kernels/people/withCalibration.ts";
export type { BurstEvent, BurstGroupOptions, BurstMac } from "./kernels/phones/burstGroups.ts";
export { burstGroups } from "./kernels/phones/burstGroups.ts";
export type { TimerTrain, TimerTrainOptions } from "./kernels/phones/timerTrains.ts";
export { timerTrains } from "./kernels/phones/timerTrains.ts";
export type { TimerMacChain } from "./kernels/phones/timerMacs.ts";
export { timerMacs } from "./kernels/phones/timerMacs.ts";

// --- counted truth and calibration -----------------------------------------
export type { TruthSegment, DailyCount, CountedTruth } from "./truth/CountedTruth.ts";
export { parseTruth } from "./truth/parseTruth.ts";
export { readTruth } from "./truth/readTruth.ts";
export { mergeTruth } from "./truth/mergeTruth.ts";
export type { TruthInside } from "./analysis/truthInside.ts";
export { truthInside } from "./analysis/truthInside.ts";
export type { CalibrateOptions, CalibrationFit, CalibrationFromEstimatesOptions } from "./analysis/calibrate.ts";
export { calibrate, calibrationFromEstimates, calibrationSettings } from "./analysis/calibrate.ts";
export type { SampleSums } from "./kernels/people/rateModel.ts";
export type { RandomEffects } from "./stats/randomEffects.ts";
export { randomEffects } from "./stats/randomEffects.ts";
export type { TwoSided } from "./stats/twoSided.ts";
export { twoSided } from "./stats/twoSided.ts";
export type { LiveOccupancyOptions, LiveOccupancyInterval, LiveDay } from "./kernels/people/LiveOccupancy.ts";
export { LiveOccupancy } from "./kernels/people/LiveOccupancy.ts";
export { hasPeopleEstimate } from "./kernels/people/hasPeopleEstimate.ts";
export { shopDayDwell } from "./kernels/people/shopDayDwell.ts";
export type { VisitHistoryStore } from "./kernels/visits/MemoryVisitHistory.ts";
export { MemoryVisitHistory } from "./kernels/visits/MemoryVisitHistory.ts";
export type { VisitCounterOptions, VisitSeries, VisitCounts } from "./kernels/visits/VisitCounter.ts";
export { VisitCounter, visitCounterOptions, defaultVisitCounter } from "./kernels/visits/VisitCounter.ts";
export type {
  TruthPresence,
  ScoreAgainstTruthOptions,
  ClassScore,
  ShopDayCountScore,
  AccuracyScore,
} from "./kernels/visits/scoreAgainstTruth.ts";
export { scoreAgainstTruth, defaultScoreAgainstTruth } from "./kernels/visits/scoreAgainstTruth.ts";
export type { PeopleTruth, PeopleDayScore, PeopleScore } from "./kernels/people/scorePeople.ts";
export { scorePeople } from "./kernels/people/scorePeople.ts";

// --- sales ----------------------------------------------------------------
export type { SalesInputRow, RowRef, SalesColumn } from "./sales/SalesInputRow.ts";
export { SALES_COLUMNS } from "./sales/SalesInputRow.ts";
export type { SalesSource } from "./sales/salesTextChunks.ts";
export type { ReadSalesOptions } from "./sales/readSalesRows.ts";
export { readSalesRows, readSales, defaultReadSalesOptions } from "./sales/readSalesRows.ts";
export type { LineHandler } from "./text/LineSplitter.ts";
export { LineSplitter } from "./text/LineSplitter.ts";
export type { AggregateDailyOptions, ShopTimeZone, DailyTotal, DailySales, RejectedRow, RejectedDay } from "./sales/DailyAggregator.ts";
export { DailyAggregator, defaultAggregateDailyOptions } from "./sales/DailyAggregator.ts";
export { aggregateDaily } from "./sales/aggregateDaily.ts";
export { netReceipts, receiptDelta } from "./sales/netReceipts.ts";
export { parseMinorUnits, minorToMajor, formatMinorUnits } from "./sales/money.ts";
export type { SalesJournalEntry, SalesJournalData, SalesJournalStore } from "./sales/SalesJournal.ts";
export { fileJournal } from "./sales/fileJournal.ts";
export { memoryJournal } from "./sales/memoryJournal.ts";
export type {
  SalesDayStatus,
  SalesReportRow,
  SalesReportCounts,
  SalesReport,
  SalesProgress,
  UploadDailySalesOptions,
} from "./sales/uploadDailySales.ts";
export { uploadDailySales, defaultUploadDailySalesOptions } from "./sales/uploadDailySales.ts";
export type { UploadSalesOptions } from "./sales/uploadSales.ts";
export { uploadSales, readDailySales, defaultJournalPath } from "./sales/uploadSales.ts";
export type { PseudonymizerOptions, PseudonymRotation } from "./privacy/Pseudonymizer.ts";
export { Pseudonymizer, defaultPseudonymizer, MIN_KEY_BYTES } from "./privacy/Pseudonymizer.ts";
export type { DeviceId } from "./analysis/AnalysisRecord.ts";
export type { AnalysisRecordsOptions } from "./analysis/analysisRecords.ts";
export { analysisRecords } from "./analysis/analysisRecords.ts";
export { rawDevice } from "./analysis/AnalysisRecord.ts";
export { suppressSmallCounts } from "./analysis/suppressSmallCounts.ts";
