import { chartTheme } from "./chartTheme.ts";

// Advance widths in em of DejaVu Sans, the widest of the usual UI fallbacks (Linux without
// system-ui), so estimates err on the wide side for Segoe UI, San Francisco and Roboto.
const NARROW = new Set(" .,:;'|!ilIjft()[]/\\·");
const WIDE = new Set("%@&MWmw₩€£¥—…");
const SYMBOL = new Set("+−×÷=<>±~");

/**
 * Estimated width in px of one line of chart text in the house font: there is no font engine
 * server-side, and labels must be placed (margins, domains) before any browser draws them. The
 * estimate is per character class and on the wide side, so space reserved from it suffices.
 *
 * @example
 * textWidth("92.6 %  (88 / 95)"); // ≈ 102 (px at 12 px)
 */
export function textWidth(text: string, fontSize: number = chartTheme.fontSize): number {
  let em = 0;
  for (const ch of text) {
    if (NARROW.has(ch)) em += 0.34;
    else if (WIDE.has(ch)) em += 0.96;
    else if (SYMBOL.has(ch)) em += 0.84;
    else if (ch >= "0" && ch <= "9") em += 0.64;
    else if (ch >= "A" && ch <= "Z") em += 0.72;
    else em += 0.62;
  }
  return em * fontSize;
}

/**
 * Breaks chart text into lines no wider than `maxPx` (by {@link textWidth}) at spaces, keeping
 * a " · " separator at the end of its line and cutting a word longer than a line, and joins
 * them with "\n", which Plot's text marks and axis labels draw as separate lines. Text that
 * fits is returned as is.
 *
 * @example
 * wrapText("Cafe Mori Jamsil Lotte World Mall · median dwell (min)", 200); // "Cafe Mori Jamsil Lotte World\nMall · median dwell (min)"
 */
export function wrapText(text: string, maxPx: number, fontSize: number = chartTheme.fontSize): string {
  if (!(maxPx > 0)) throw new RangeError(`wrapText: maxPx must be > 0, got ${maxPx}`);
  if (textWidth(text, fontSize) <= maxPx) return text;
  const lines: string[] = [];
  let line = "";
  const words: string[] = [];
  for (const word of text.split(" ")) {
    if (word === "") continue;
    // A separator stays at the end of the line before it, so no line starts with one.
    if (word === "·" && words.length > 0) words[words.length - 1] += " ·";
    else words.push(word);
  }
  for (const word of words) {
    const candidate = line === "" ? word : `${line} ${word}`;
    if (textWidth(candidate, fontSize) <= maxPx) {
      line = candidate;
      continue;
    }
    if (line !== "") lines.push(line);
    line = word;
    // A word wider than a line is cut where it must be.
    while (textWidth(line, fontSize) > maxPx && line.length > 1) {
      let cut = line.length - 1;
      while (cut > 1 && textWidth(line.slice(0, cut), fontSize) > maxPx) cut--;
      lines.push(line.slice(0, cut));
      line = line.slice(cut);
    }
  }
  if (line !== "") lines.push(line);
  return lines.join("\n");
}

/**
 * Width in px of the widest line of (possibly multi-line) chart text, by {@link textWidth}.
 *
 * @example
 * linesWidth("60.7 %\n₩30,291 per visitor") === textWidth("₩30,291 per visitor"); // true
 */
export function linesWidth(text: string, fontSize: number = chartTheme.fontSize): number {
  let max = 0;
  for (const line of text.split("\n")) max = Math.max(max, textWidth(line, fontSize));
  return max;
}
