import { parseHTML } from "linkedom";
import { expect } from "vitest";

const NAME = "[A-Za-z_:][-A-Za-z0-9_:.]*";
const TOKEN = new RegExp(`<!--[\\s\\S]*?-->|<!\\[CDATA\\[[\\s\\S]*?\\]\\]>|<\\?[\\s\\S]*?\\?>|</(${NAME})\\s*>|<(${NAME})((?:\\s+${NAME}\\s*=\\s*(?:"[^"<]*"|'[^'<]*'))*)\\s*(/?)>|<|[^<]+`, "g");
const ATTR = new RegExp(`(${NAME})\\s*=`, "g");
const ENTITY = /&(?:amp|lt|gt|quot|apos|#[0-9]+|#x[0-9a-fA-F]+);/g;

/**
 * Throws unless `text` is one well-formed XML element: balanced tags, quoted attributes without
 * duplicates, only the predefined or numeric entities, no stray `<` or `&`. Small on purpose: the
 * charts are XML that browsers, image viewers and notebook renderers must all accept.
 */
export function assertWellFormedXml(text: string): void {
  const stack: string[] = [];
  let roots = 0;
  for (const m of text.matchAll(TOKEN)) {
    const token = m[0];
    const at = m.index;
    if (token === "<") throw new Error(`stray '<' at ${at}: ${text.slice(at, at + 40)}`);
    if (token.startsWith("<!--") || token.startsWith("<![CDATA[") || token.startsWith("<?")) continue;
    if (m[1] !== undefined) {
      const open = stack.pop();
      if (open !== m[1]) throw new Error(`</${m[1]}> closes <${open ?? "nothing"}> at ${at}`);
      continue;
    }
    if (m[2] !== undefined) {
      const names = [...(m[3] ?? "").matchAll(ATTR)].map((a) => a[1]);
      if (new Set(names).size !== names.length) throw new Error(`duplicate attribute in <${m[2]}> at ${at}`);
      for (const v of (m[3] ?? "").matchAll(/=\s*("[^"]*"|'[^']*')/g)) checkEntities(v[1] ?? "", at);
      if (stack.length === 0) roots++;
      if (m[4] !== "/") stack.push(m[2]);
      continue;
    }
    if (stack.length === 0 && token.trim() !== "") throw new Error(`text outside the root at ${at}`);
    checkEntities(token, at);
  }
  if (stack.length > 0) throw new Error(`unclosed <${stack.join("> <")}>`);
  if (roots !== 1) throw new Error(`expected one root element, found ${roots}`);
}

function checkEntities(text: string, at: number): void {
  if (text.replace(ENTITY, "").includes("&")) throw new Error(`bare '&' near ${at}: ${text.slice(0, 60)}`);
}

/**
 * The checks every chart must pass: a standalone SVG (root `<svg>` with the SVG namespace),
 * well-formed XML, and nothing that loads from elsewhere (no URL except namespace names, no
 * script, image, foreignObject or CSS import). Returns the parsed root for mark-level checks.
 */
export function expectStandaloneSvg(svg: string): Element {
  expect(svg.startsWith("<svg")).toBe(true);
  assertWellFormedXml(svg);
  const root = svg.slice(0, svg.indexOf(">"));
  expect(root).toContain('xmlns="http://www.w3.org/2000/svg"');
  const withoutNamespaces = svg.replace(/\sxmlns(?::\w+)?="[^"]*"/g, "");
  expect(withoutNamespaces).not.toMatch(/https?:|\/\/[a-z]/i);
  expect(withoutNamespaces).not.toMatch(/<(script|image|foreignObject|iframe|img)\b|@import|url\((?!#)/i);
  const { document } = parseHTML(`<!DOCTYPE html><html><body>${svg}</body></html>`);
  const el = document.querySelector("svg");
  if (el === null) throw new Error("no <svg> element after parsing");
  return el as unknown as Element;
}

/**
 * The elements drawn by the data marks of one kind (Plot labels each mark's group with
 * aria-label); the marks renderPlot adds for the title, legend and labels are left out.
 */
export function markElements(svg: Element, mark: string, element: string): Element[] {
  return Array.from(svg.querySelectorAll(`g[aria-label="${mark}"]:not(.footfall-frame) ${element}`));
}

/** All text content of the chart's text elements, in document order. */
export function texts(svg: Element): string[] {
  return Array.from(svg.querySelectorAll("text"), (t) => t.textContent ?? "");
}

/**
 * Horizontal extent (px, from the picture's left edge) of each text element of a data mark or
 * axis (frame text left out), by the sum of `translate()`s on the way down, the inherited
 * `text-anchor` and a width function for the widest line (`<tspan>`s are lines).
 */
export function textExtents(svg: Element, width: (text: string) => number): { text: string; left: number; right: number }[] {
  const out: { text: string; left: number; right: number }[] = [];
  for (const t of Array.from(svg.querySelectorAll("text"))) {
    if (t.closest(".footfall-frame") !== null) continue;
    let x = Number(t.getAttribute("x") ?? 0) || 0;
    let anchor: string | null = null;
    for (let el: Element | null = t; el !== null && el !== svg.parentElement; el = el.parentElement) {
      const m = /translate\(\s*(-?[\d.e+-]+)/.exec(el.getAttribute("transform") ?? "");
      if (m) x += Number(m[1]);
      anchor ??= el.getAttribute("text-anchor");
    }
    const spans = Array.from(t.querySelectorAll("tspan"));
    const lines = spans.length > 0 ? spans.map((s) => s.textContent ?? "") : [t.textContent ?? ""];
    const w = Math.max(...lines.map(width));
    const left = anchor === "end" ? x - w : anchor === "middle" ? x - w / 2 : x;
    out.push({ text: lines.join("\n"), left, right: left + w });
  }
  return out;
}
