/**
 * A Jupyter display bundle for one chart: the SVG as `image/svg+xml` (what a notebook viewer
 * shows as a picture and what an executed notebook keeps) and the same SVG inline in a
 * `<figure>` as `text/html` (what JupyterLab prefers, so the chart scales with the page).
 * Plain data, no runtime dependency: pass it to Deno's `Deno.jupyter.display(bundle, { raw: true })`
 * or any kernel's display function.
 *
 * @example
 * import { chartMimeBundle, dwellHistogram } from "footfall/report";
 * const bundle = chartMimeBundle(dwellHistogram([3, 12, 45]));
 * Object.keys(bundle); // ["image/svg+xml", "text/html"]
 * // in a Deno notebook: await Deno.jupyter.display(bundle, { raw: true });
 */
export function chartMimeBundle(svg: string): { readonly "image/svg+xml": string; readonly "text/html": string } {
  if (typeof svg !== "string" || !svg.trimStart().startsWith("<svg")) {
    throw new TypeError("chartMimeBundle: expected an SVG string (starting with <svg)");
  }
  return {
    "image/svg+xml": svg,
    "text/html": `<figure style="margin:0 0 1em 0;max-width:100%">${svg}</figure>`,
  };
}
