/**
 * `footfall/report`: charts (Observable Plot rendered to standalone SVG through a linkedom DOM
 * shim), HTML tables and the demo's HTML report; the same chart functions serve the notebooks.
 *
 * A separate entry point because Plot and linkedom are the package's heaviest dependencies:
 * only code that draws pays for them. Inputs are plain rows, typically built from the results
 * `analyze` (in `footfall`) returns.
 *
 * @module footfall/report
 */

export { chartTheme } from "./chartTheme.ts";
export type { ChartFrame, LegendItem } from "./renderPlot.ts";
export { renderPlot } from "./renderPlot.ts";
export { chartMimeBundle } from "./chartMimeBundle.ts";
export type { HourlyRow, HourlyChartOptions } from "./hourlyChart.ts";
export { hourlyChart, defaultHourlyChart } from "./hourlyChart.ts";
export type { DwellBucketCount, DwellHistogramOptions } from "./dwellHistogram.ts";
export { dwellHistogram, defaultDwellHistogram } from "./dwellHistogram.ts";
export type { ZoneTimeRow, ProximityZonesChartOptions } from "./proximityZonesChart.ts";
export { proximityZonesChart, defaultProximityZonesChart } from "./proximityZonesChart.ts";
export type { ShareRow, RandomizedShareChartOptions } from "./randomizedShareChart.ts";
export { randomizedShareChart, defaultRandomizedShareChart } from "./randomizedShareChart.ts";
export type { RssiSample, PathLossCurve, RssiDistanceChartOptions } from "./rssiDistanceChart.ts";
export { rssiDistanceChart, defaultRssiDistanceChart } from "./rssiDistanceChart.ts";
export type { TimelinePoint, VisitTimelineChartOptions } from "./visitTimelineChart.ts";
export { visitTimelineChart, defaultVisitTimelineChart } from "./visitTimelineChart.ts";
export type { ConversionRow, ConversionChartOptions } from "./conversionChart.ts";
export { conversionChart, defaultConversionChart } from "./conversionChart.ts";
export type { AccuracyRow, AccuracyChartOptions } from "./accuracyChart.ts";
export { accuracyChart, defaultAccuracyChart } from "./accuracyChart.ts";
export type { OccupancyRow, OccupancyChartOptions } from "./occupancyChart.ts";
export { occupancyChart, defaultOccupancyChart } from "./occupancyChart.ts";
export type { PeopleVsMacsRow, PeopleVsMacsChartOptions } from "./peopleVsMacsChart.ts";
export { peopleVsMacsChart, defaultPeopleVsMacsChart } from "./peopleVsMacsChart.ts";
export type { TableColumn, TableHtmlOptions } from "./tableHtml.ts";
export { tableHtml } from "./tableHtml.ts";
export type { HtmlReportInput, ReportShop, ReportShopAccuracy, ReportAccuracy, ReportPeople, ReportPeopleAccuracy } from "./htmlReport.ts";
export { htmlReport, defaultHtmlReport } from "./htmlReport.ts";
