import * as Plot from "@observablehq/plot";
import { parseHTML } from "linkedom";
import { chartTheme } from "./chartTheme.ts";

/**
 * One entry of a chart's legend: a coloured swatch and its label.
 *
 * @example
 * const item: LegendItem = { label: "visitors", color: "#2f6fdf" };
 */
export interface LegendItem {
  /** Text shown next to the swatch. */
  readonly label: string;
  /** CSS colour of the swatch. */
  readonly color: string;
  /** Swatch shape: square for bars/areas, circle for points, line for lines. @default "square" */
  readonly shape?: "square" | "circle" | "line";
}

/**
 * The text around a chart: title, subtitle, legend and a note below it. Drawn inside the SVG
 * (with Plot text and dot marks) rather than as Plot's HTML figure, so one SVG string is a
 * complete picture wherever it is shown: a notebook output, an `<img>`, a report, a file.
 *
 * @example
 * const frame: ChartFrame = { title: "Visitors per hour", legend: [{ label: "visitors", color: "#2f6fdf" }] };
 */
export interface ChartFrame {
  /** Chart title, one line. */
  readonly title: string;
  /** One line under the title: what is counted, units, the period. */
  readonly subtitle?: string;
  /** Legend entries, drawn in one row under the (sub)title. */
  readonly legend?: readonly LegendItem[];
  /** One line under the chart: the source or a caveat. */
  readonly note?: string;
}

const SVG_NS = "http://www.w3.org/2000/svg";
// Class of the marks that draw the frame (title, legend, labels), so they can be told from data marks.
const FRAME_CLASS = "footfall-frame";
const XLINK_NS = "http://www.w3.org/1999/xlink";
// Vertical layout of the header, px: top padding, title line, subtitle line, legend row.
const PAD = 10;
const TITLE_LINE = 24;
const SUBTITLE_LINE = 18;
const LEGEND_ROW = 24;
const NOTE_LINE = 18;
// Average glyph width of the 12 px UI font as a share of the font size, to space legend items.
const GLYPH_WIDTH = 0.6;

// A short horizontal stroke as a Plot symbol, so a legend can show "this is a line".
const lineSymbol = {
  draw(context: { moveTo(x: number, y: number): void; lineTo(x: number, y: number): void }, size: number): void {
    const half = Math.sqrt(size) * 0.9;
    context.moveTo(-half, 0);
    context.lineTo(half, 0);
  },
};

/**
 * Renders Observable Plot options to a standalone SVG string, server-side, with linkedom as the
 * DOM: works the same under Node and Deno, needs no browser. The frame's title, subtitle,
 * legend and note are added as Plot marks in the margins, the house style (font, size, ink,
 * white background) is applied, and the `xmlns` attributes that Plot leaves out (a browser's
 * DOM does not need them, a standalone SVG file does) are set. The result loads no external
 * resource. Every footfall chart is made with it; use it for charts of your own in the same style.
 *
 * Plot options `height`, `marginTop` and `marginBottom` are the plot with its axes (default
 * height 320 px); the header and note are added on top, so the total SVG is taller. String `x.label` / `y.label` are drawn by this function next to their axis (the x label
 * below the frame's right end, the y label above its top-left corner), where they cannot collide
 * with the header or note. Facets are not supported by this layout.
 *
 * @example
 * import * as Plot from "@observablehq/plot";
 * const svg = renderPlot({ title: "Squares" }, { marks: [Plot.dot([1, 2, 3], { x: (d) => d, y: (d) => d * d })] });
 * svg.startsWith("<svg"); // true
 */
export function renderPlot(frame: ChartFrame, options: Plot.PlotOptions): string {
  if (typeof frame.title !== "string" || frame.title === "") throw new TypeError("renderPlot: frame.title must be a non-empty string");
  const legend = frame.legend ?? [];
  const header = PAD + TITLE_LINE + (frame.subtitle ? SUBTITLE_LINE : 0) + (legend.length > 0 ? LEGEND_ROW : 0);
  const marginTop = header + (options.marginTop ?? 30);
  const marginLeft = options.marginLeft ?? 56;
  const marginBottom = (options.marginBottom ?? 40) + (frame.note ? NOTE_LINE : 0);
  const width = options.width ?? chartTheme.width;
  const height = (options.height ?? 320) + header + (frame.note ? NOTE_LINE : 0);

  // Positions below are relative to the frame's top-left (bottom-left for the note) corner.
  const left = -marginLeft + 12;
  const top = -marginTop + PAD;
  const marks: Plot.Markish[] = [...(options.marks ?? [])];
  const text = (value: string, dy: number, style: Partial<Plot.TextOptions>): Plot.Markish =>
    Plot.text([value], { frameAnchor: "top-left", dx: left, dy, textAnchor: "start", lineAnchor: "top", facet: "super", className: FRAME_CLASS, text: (d: string) => d, ...style });
  marks.push(text(frame.title, top, { fontSize: chartTheme.titleSize, fontWeight: 600, fill: chartTheme.ink }));
  let y = top + TITLE_LINE;
  if (frame.subtitle) {
    marks.push(text(frame.subtitle, y, { fill: chartTheme.muted }));
    y += SUBTITLE_LINE;
  }
  let x = left;
  const rowCenter = y + 8;
  for (const item of legend) {
    const shape = item.shape ?? "square";
    marks.push(
      Plot.dot([item], {
        frameAnchor: "top-left",
        dx: x + 8,
        dy: rowCenter,
        r: 5,
        symbol: shape === "line" ? lineSymbol : shape,
        ...(shape === "line" ? { stroke: item.color, strokeWidth: 2.5, fill: "none" } : { fill: item.color, stroke: "none" }),
        facet: "super", className: FRAME_CLASS,
      }),
      Plot.text([item.label], { frameAnchor: "top-left", dx: x + 20, dy: rowCenter, textAnchor: "start", lineAnchor: "middle", fill: chartTheme.ink, facet: "super", className: FRAME_CLASS, text: (d: string) => d }),
    );
    x += 20 + Math.ceil(item.label.length * chartTheme.fontSize * GLYPH_WIDTH) + 18;
  }
  // Plot puts axis labels at the outer edge of the margins, which would collide with the header
  // and the note; drawn here they sit next to their axis instead.
  const xLabel = typeof options.x?.label === "string" ? options.x.label : undefined;
  const yLabel = typeof options.y?.label === "string" ? options.y.label : undefined;
  if (yLabel !== undefined) {
    marks.push(Plot.text([`↑ ${yLabel}`], { frameAnchor: "top-left", dx: left, dy: -8, textAnchor: "start", lineAnchor: "bottom", fill: chartTheme.ink, facet: "super", className: FRAME_CLASS, text: (d: string) => d }));
  }
  if (xLabel !== undefined) {
    marks.push(Plot.text([`${xLabel} →`], { frameAnchor: "bottom-right", dy: 30, textAnchor: "end", lineAnchor: "middle", fill: chartTheme.ink, facet: "super", className: FRAME_CLASS, text: (d: string) => d }));
  }
  if (frame.note) {
    marks.push(
      Plot.text([frame.note], {
        frameAnchor: "bottom-left",
        dx: left,
        dy: marginBottom - 6,
        textAnchor: "start",
        lineAnchor: "bottom",
        fill: chartTheme.muted,
        fontSize: chartTheme.fontSize - 1,
        facet: "super", className: FRAME_CLASS,
        text: (d: string) => d,
      }),
    );
  }

  const { document } = parseHTML("<!DOCTYPE html><html><head></head><body></body></html>");
  const node = Plot.plot({
    ...options,
    width,
    height,
    marginTop,
    marginLeft,
    marginBottom,
    marks,
    x: { ...options.x, label: null },
    y: { ...options.y, label: null },
    // linkedom's Document implements what Plot uses; its types are its own.
    document: document as unknown as Document,
    style: {
      background: chartTheme.background,
      color: chartTheme.ink,
      fontSize: `${chartTheme.fontSize}px`,
      fontFamily: chartTheme.fontFamily,
      overflow: "visible",
    },
  });
  const svg = node.tagName.toLowerCase() === "svg" ? node : node.querySelector("svg");
  if (svg === null || node.tagName.toLowerCase() !== "svg") {
    // Plot wraps the SVG in an HTML <figure> when given a title, caption or legend option;
    // those belong in the frame so the SVG stays complete on its own.
    throw new TypeError("renderPlot: pass title, subtitle, caption and legends through the frame, not the Plot options");
  }
  svg.setAttribute("xmlns", SVG_NS);
  if (svg.outerHTML.includes("xlink:")) svg.setAttribute("xmlns:xlink", XLINK_NS);
  // The background as an attribute-free style stays on the root; a rect makes it survive
  // renderers that ignore CSS on the root element (some image viewers).
  const bg = document.createElementNS(SVG_NS, "rect");
  bg.setAttribute("width", "100%");
  bg.setAttribute("height", "100%");
  bg.setAttribute("fill", chartTheme.background);
  svg.insertBefore(bg, svg.firstChild);
  return svg.outerHTML;
}
