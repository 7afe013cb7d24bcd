/**
 * Colours, sizes and fonts shared by every footfall chart, so the notebooks and the HTML
 * report look like one product. Colours are chosen to stay distinct for the common forms of
 * colour blindness (blue/orange/grey carry the main series) and to print on white.
 *
 * @example
 * import { chartTheme } from "footfall/report";
 * chartTheme.color.visitors; // "#2f6fdf"
 */
export const chartTheme = Object.freeze({
  /** Width of a chart, px; height is per chart. */
  width: 720,
  /** Base font size, px: 12 reads well in a notebook and in a report at 100 % zoom. */
  fontSize: 12,
  /** Title font size, px. */
  titleSize: 16,
  /** Font stack: the platform's UI font, no web font (charts load nothing). */
  fontFamily: "system-ui, -apple-system, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif",
  /** Text colour; set explicitly so charts stay readable under a dark notebook theme. */
  ink: "#1f2328",
  /** Secondary text (subtitles, notes). */
  muted: "#59636e",
  /** Chart background. */
  background: "#ffffff",
  /** Text-mark options for a white outline, so labels stay legible over grid lines and rules. */
  halo: Object.freeze({ stroke: "#ffffff", strokeWidth: 3, paintOrder: "stroke" }),
  /** Grid line colour. */
  grid: "#d1d9e0",
  color: Object.freeze({
    visitors: "#2f6fdf",
    passersBy: "#b4bfca",
    sales: "#e8710a",
    randomized: "#8250df",
    universal: "#2f6fdf",
    truth: "#59636e",
    estimate: "#2f6fdf",
    fit: "#e8710a",
    zones: Object.freeze({ immediate: "#0b3d91", near: "#4c8bf5", far: "#b6d0fb" }),
    /** For series without a fixed colour, in order. */
    series: Object.freeze(["#2f6fdf", "#e8710a", "#1a7f37", "#8250df", "#cf222e", "#9a6700", "#59636e"]),
  }),
});
