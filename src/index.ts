/**
 * footfall: retail Wi-Fi analytics for the sensing and sales service.
 * The public API, named exports written by hand; each section is one area of src/.
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
export { isRetryable, RETRYABLE_STATUSES } from "./client/isRetryable.ts";
export { maskEmail } from "./client/maskEmail.ts";
export { parseRetryAfter } from "./client/parseRetryAfter.ts";
export { validateBrandsResponse } from "./client/validateBrandsResponse.ts";
export { validateShopResponse } from "./client/validateShopResponse.ts";
export { validateSignalsResponse } from "./client/validateSignalsResponse.ts";
export { HttpError, isHttpError } from "./errors/HttpError.ts";
export { NetworkError, isNetworkError } from "./errors/NetworkError.ts";
export { TimeoutError, isTimeoutError } from "./errors/TimeoutError.ts";
export { BrandNotFoundError, isBrandNotFoundError } from "./errors/BrandNotFoundError.ts";
export { AmbiguousBrandError, isAmbiguousBrandError } from "./errors/AmbiguousBrandError.ts";
export { ShopNotFoundError, isShopNotFoundError } from "./errors/ShopNotFoundError.ts";

// --- source ---------------------------------------------------------------
export type { SignalsOptions, SignalTime } from "./source/signalsOptions.ts";
export { defaultSignalsOptions } from "./source/signalsOptions.ts";
export type { SignalPage, SignalProgress } from "./source/SignalPage.ts";
export type { SignalCursor } from "./source/SignalCursor.ts";
export { recordIdentity } from "./source/recordIdentity.ts";
export { signals } from "./source/signals.ts";
export { signalPages } from "./source/signalPages.ts";
export { signalPagesObservable } from "./source/signalPagesObservable.ts";
export type { SignalsForShopsOptions } from "./source/signalsForShops.ts";
export { signalsForShops, defaultSignalsForShopsOptions } from "./source/signalsForShops.ts";
export type { CursorStore } from "./source/CursorStore.ts";
export { memoryCursorStore } from "./source/memoryCursorStore.ts";
export type { FileCursorStore, FileCursorStoreOptions } from "./source/fileCursorStore.ts";
export { fileCursorStore, defaultFileCursorStoreOptions } from "./source/fileCursorStore.ts";
export { CheckpointError, isCheckpointError } from "./errors/CheckpointError.ts";

// --- kernels and operators -------------------------------------------------
// proximity, smoothing, calibration, data quality:
export type { KalmanFilterOptions, ResolvedKalmanFilterOptions, KalmanState } from "./kernels/kalmanFilter.ts";
export { kalmanFilter, kalmanFilterOptions, createKalmanState, defaultKalmanFilter } from "./kernels/kalmanFilter.ts";
export type {
  RunningTrimmedMeanOptions,
  ResolvedRunningTrimmedMeanOptions,
  TrimmedMeanState,
} from "./kernels/trimmedMean.ts";
export {
  trimmedMean,
  runningTrimmedMean,
  currentTrimmedMean,
  runningTrimmedMeanOptions,
  createTrimmedMeanState,
  defaultRunningTrimmedMean,
} from "./kernels/trimmedMean.ts";
export type { PathLossOptions, PathLossModel } from "./kernels/pathLoss.ts";
export { rssiToDistance, distanceToRssi, log10Distance, pathLossOptions, defaultPathLoss } from "./kernels/pathLoss.ts";
export type { ProximityZone, ProximityZoneOptions, ResolvedProximityZoneOptions } from "./kernels/proximityZone.ts";
export {
  proximityZone,
  proximityZoneIndex,
  proximityZoneOptions,
  defaultProximityZones,
  PROXIMITY_ZONES,
} from "./kernels/proximityZone.ts";
export type { PathLossSample, PathLossFit } from "./kernels/fitPathLoss.ts";
export { fitPathLoss } from "./kernels/fitPathLoss.ts";
export type {
  ProximityCalibration,
  ProximitySmoothing,
  ProximitySlice,
  ProximitySummary,
  ProximityTimelineEntry,
  ProximityTrackerOptions,
  ProximityTrackerStats,
  SensorZoneMs,
} from "./kernels/ProximityTracker.ts";
export { ProximityTracker, mergeProximitySummaries, defaultProximityTracker } from "./kernels/ProximityTracker.ts";
export type { ZoneCounts, SensorZoneTime, ZoneOccupancyOptions } from "./kernels/ZoneOccupancy.ts";
export { ZoneOccupancy, zoneTimeBySensor, defaultZoneOccupancy } from "./kernels/ZoneOccupancy.ts";
export type { EstimateProximityOptions, ProximityEvent } from "./operators/estimateProximity.ts";
export { estimateProximity, defaultEstimateProximity } from "./operators/estimateProximity.ts";
export type {
  DataQualityOptions,
  ResolvedDataQualityOptions,
  DataQualityCounts,
  DataQualityReport,
  DataQualityState,
  QualityGap,
  SensorQuality,
} from "./kernels/dataQuality.ts";
export {
  dataQuality,
  createDataQuality,
  updateDataQuality,
  dataQualityReport,
  resetDataQuality,
  defaultDataQuality,
} from "./kernels/dataQuality.ts";
export type { AssessQualityOptions } from "./operators/assessQuality.ts";
export { assessQuality, defaultAssessQuality } from "./operators/assessQuality.ts";
// (end proximity/quality exports)
// sessions, visits, dwell, counts, batch analysis, accuracy:
export type { Session, SessionSensor } from "./kernels/Session.ts";
export type {
  SessionTrackerOptions,
  ResolvedSessionTrackerOptions,
  SessionSink,
  SessionTrackerStats,
} from "./kernels/SessionTracker.ts";
export { SessionTracker, sessionTrackerOptions, defaultSessionTracker, estimatedDwell } from "./kernels/SessionTracker.ts";
export type { EventTimeReorderOptions, SignalOrder } from "./kernels/EventTimeReorder.ts";
export { EventTimeReorder, canonicalSignalOrder, defaultEventTimeReorder } from "./kernels/EventTimeReorder.ts";
export type { LocalDay, WindowUnit } from "./kernels/LocalCalendar.ts";
export { LocalCalendar } from "./kernels/LocalCalendar.ts";
export { assertTimeZone, localDayOf, localMidnight, zoneOffsetMinutes } from "./time/timeZone.ts";
export { dateOfEpochDay, epochDayOfDate } from "./time/calendarDate.ts";
export type {
  VisitKind,
  ClassifiedSession,
  VisitClassifierOptions,
  ResolvedVisitClassifierOptions,
  ClassifiedSessionSink,
} from "./kernels/VisitClassifier.ts";
export { VisitClassifier, visitClassifierOptions, defaultVisitClassifier, visitOrPass } from "./kernels/VisitClassifier.ts";
export type { SuggestRssiThresholdOptions, RssiThresholdSuggestion, RssiMode } from "./kernels/suggestRssiThreshold.ts";
export { suggestRssiThreshold, PeakRssiHistogram, defaultSuggestRssiThreshold } from "./kernels/suggestRssiThreshold.ts";
export type { DwellBuckets, DwellStats } from "./kernels/dwellStats.ts";
export { dwellStats, dwellBucket, DWELL_BUCKETS } from "./kernels/dwellStats.ts";
export type { SessionWindow, WindowAggregate } from "./kernels/SessionWindows.ts";
export { SessionWindows } from "./kernels/SessionWindows.ts";
export type { DwellMeterOptions, WindowDwell } from "./kernels/DwellMeter.ts";
export { DwellMeter, dwellMeterOptions, defaultDwellMeter } from "./kernels/DwellMeter.ts";
export type { VisitHistoryStore } from "./kernels/MemoryVisitHistory.ts";
export { MemoryVisitHistory } from "./kernels/MemoryVisitHistory.ts";
export type { VisitCounterOptions, VisitSeries, VisitCounts } from "./kernels/VisitCounter.ts";
export { VisitCounter, visitCounterOptions, defaultVisitCounter } from "./kernels/VisitCounter.ts";
export type {
  TruthPresence,
  ScoreAgainstTruthOptions,
  ClassScore,
  ShopDayCountScore,
  AccuracyScore,
} from "./kernels/scoreAgainstTruth.ts";
export { scoreAgainstTruth, defaultScoreAgainstTruth } from "./kernels/scoreAgainstTruth.ts";
export type { DecodeSignalsOptions } from "./operators/decodeSignals.ts";
export { decodeSignals } from "./operators/decodeSignals.ts";
export type { SessionizeOptions } from "./operators/sessionize.ts";
export { sessionize } from "./operators/sessionize.ts";
export type { ClassifyVisitsOptions } from "./operators/classifyVisits.ts";
export { classifyVisits } from "./operators/classifyVisits.ts";
export type { MeasureDwellOptions } from "./operators/measureDwell.ts";
export { measureDwell } from "./operators/measureDwell.ts";
export type { CountVisitsOptions } from "./operators/countVisits.ts";
export { countVisits } from "./operators/countVisits.ts";
export type { AnalyzeOptions, AnalyzedSession, ShopDaySummary, AnalyzeResult } from "./analyze.ts";
export { analyze, Analyzer } from "./analyze.ts";
// (end sessions/visits exports)

// --- sales ----------------------------------------------------------------
export type { SalesInputRow, RowRef, SalesColumn } from "./sales/SalesInputRow.ts";
export { SALES_COLUMNS } from "./sales/SalesInputRow.ts";
export type { SalesSource } from "./sales/salesTextChunks.ts";
export type { ReadSalesOptions } from "./sales/readSalesRows.ts";
export { readSalesRows, readSales, defaultReadSalesOptions } from "./sales/readSalesRows.ts";
export type { ReadCsvRowsOptions } from "./sales/readCsvRows.ts";
export { readCsvRows } from "./sales/readCsvRows.ts";
export type { ReadNdjsonRowsOptions } from "./sales/readNdjsonRows.ts";
export { readNdjsonRows } from "./sales/readNdjsonRows.ts";
export type { AggregateDailyOptions, ShopTimeZone, DailyTotal, DailySales, RejectedRow, RejectedDay } from "./sales/DailyAggregator.ts";
export { DailyAggregator, defaultAggregateDailyOptions } from "./sales/DailyAggregator.ts";
export { aggregateDaily } from "./sales/aggregateDaily.ts";
export { parseMinorUnits, minorToMajor, formatMinorUnits } from "./sales/money.ts";
export { parseSalesTimestamp } from "./sales/parseSalesTimestamp.ts";
export { LocalDateResolver } from "./sales/LocalDateResolver.ts";
export { matchBrand, foldBrandName } from "./client/matchBrand.ts";
export type { SalesJournalEntry, SalesJournalData, SalesJournalStore } from "./sales/SalesJournal.ts";
export { emptySalesJournal, parseSalesJournal } from "./sales/SalesJournal.ts";
export { fileJournal } from "./sales/fileJournal.ts";
export { memoryJournal } from "./sales/memoryJournal.ts";
export { hashSalesRecord } from "./sales/hashSalesRecord.ts";
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
export { SalesInputError, isSalesInputError } from "./errors/SalesInputError.ts";
export { SalesJournalError, isSalesJournalError } from "./errors/SalesJournalError.ts";


// --- simulator ------------------------------------------------------------
export type { WorldOptions } from "./sim/createWorld.ts";
export { createWorld, defaultWorldOptions } from "./sim/createWorld.ts";
export type {
  World,
  SimBrand,
  SimShop,
  ShopLayout,
  ShopSignals,
  TruthVisit,
  VisitKind as TruthVisitKind,
  SimTransaction,
  SurveySample,
  PathLossModel as SimPathLossModel,
} from "./sim/World.ts";
export type { SimulatorOptions, FaultOptions, SimHandler, SimPart } from "./sim/createSimHandler.ts";
export { createSimHandler, defaultSimulatorOptions } from "./sim/createSimHandler.ts";
export type { StartSimulatorOptions, RunningSimulator } from "./sim/startSimulator.ts";
export { startSimulator, defaultStartSimulatorOptions } from "./sim/startSimulator.ts";

// --- report ---------------------------------------------------------------
export { chartTheme } from "./report/chartTheme.ts";
export type { ChartFrame, LegendItem } from "./report/renderPlot.ts";
export { renderPlot } from "./report/renderPlot.ts";
export { chartMimeBundle } from "./report/chartMimeBundle.ts";
export type { HourlyRow, HourlyChartOptions } from "./report/hourlyChart.ts";
export { hourlyChart, defaultHourlyChart } from "./report/hourlyChart.ts";
export type { DwellBucketCount, DwellHistogramOptions } from "./report/dwellHistogram.ts";
export { dwellHistogram, defaultDwellHistogram } from "./report/dwellHistogram.ts";
export type { ZoneTimeRow, ProximityZonesChartOptions } from "./report/proximityZonesChart.ts";
export { proximityZonesChart, defaultProximityZonesChart } from "./report/proximityZonesChart.ts";
export type { ShareRow, RandomizedShareChartOptions } from "./report/randomizedShareChart.ts";
export { randomizedShareChart, defaultRandomizedShareChart } from "./report/randomizedShareChart.ts";
export type { RssiSample, PathLossCurve, RssiDistanceChartOptions } from "./report/rssiDistanceChart.ts";
export { rssiDistanceChart, defaultRssiDistanceChart } from "./report/rssiDistanceChart.ts";
export type { TimelinePoint, VisitTimelineChartOptions } from "./report/visitTimelineChart.ts";
export { visitTimelineChart, defaultVisitTimelineChart } from "./report/visitTimelineChart.ts";
export type { ConversionRow, ConversionChartOptions } from "./report/conversionChart.ts";
export { conversionChart, defaultConversionChart } from "./report/conversionChart.ts";
export type { AccuracyRow, AccuracyChartOptions } from "./report/accuracyChart.ts";
export { accuracyChart, defaultAccuracyChart } from "./report/accuracyChart.ts";
export type { TableColumn, TableHtmlOptions } from "./report/tableHtml.ts";
export { tableHtml, escapeHtml } from "./report/tableHtml.ts";
// HTML report (the demo's report.html):
export type { HtmlReportInput, ReportShop, ReportShopAccuracy, ReportAccuracy } from "./report/htmlReport.ts";
export { htmlReport, defaultHtmlReport } from "./report/htmlReport.ts";
