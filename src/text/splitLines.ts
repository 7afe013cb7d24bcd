/**
 * Receives one line found by {@link splitLines}: the line is `text[start, end)`, without its line end.
 *
 * @example
 * const collect: LineRangeHandler = (text, start, end) => console.log(text.slice(start, end));
 */
export type LineRangeHandler = (text: string, start: number, end: number) => void;

/**
 * The line rule of footfall's readers, on one piece of text: LF, CRLF and a lone CR each end a
 * line. Calls `onLine` with the position of every line that `text` ends and returns where the
 * unfinished rest starts (prepend it to the next chunk). A CR at the very end is held back in
 * that rest, as the next chunk may begin with its LF. With `final` (the end of the input), the
 * rest is a line too (a CR at its end ended it) and the return value is `text.length`.
 *
 * `LineSplitter` (lines as strings) and the CLI's byte reader of signal lines (`SignalLineReader`,
 * which splits the Latin-1 reading of the bytes, so positions are byte offsets) both split with
 * it, so a file has the same lines, and line numbers, whichever reads it.
 *
 * @example
 * const lines: string[] = [];
 * const rest = splitLines("a\r\nb\rc\nd", false, (t, s, e) => lines.push(t.slice(s, e)));
 * [lines, rest]; // [["a", "b", "c"], 7]
 * splitLines("d\r", true, (t, s, e) => lines.push(t.slice(s, e))); // 2
 * lines.at(-1); // "d"
 */
export function splitLines(text: string, final: boolean, onLine: LineRangeHandler): number {
  // Files with LF endings (the usual case) skip the per-line look for CRs.
  const start = text.indexOf("\r") === -1 ? lfLines(text, onLine) : mixedLines(text, onLine);
  if (!final || start === text.length) return start;
  // The end of the input ends the last line; a CR held back at the very end had ended it.
  onLine(text, start, text.charCodeAt(text.length - 1) === 13 ? text.length - 1 : text.length);
  return text.length;
}

// Every LF-ended line of `text`; returns where the unfinished last one starts. The loop has a
// function of its own so that the optimized code V8 enters mid-loop ends with a return: with a
// call after it, that code was thrown away at the end of every chunk (analyze ran slower).
function lfLines(text: string, onLine: LineRangeHandler): number {
  let start = 0;
  let nl = text.indexOf("\n");
  while (nl !== -1) {
    onLine(text, start, nl);
    start = nl + 1;
    nl = text.indexOf("\n", start);
  }
  return start;
}

// Lines ended by LF, CRLF or CR. The next CR and LF positions are each searched once and reused
// until passed, so a file with a single stray CR stays linear.
function mixedLines(text: string, onLine: LineRangeHandler): number {
  const last = text.length - 1;
  let start = 0;
  let cr = text.indexOf("\r");
  let lf = text.indexOf("\n");
  for (;;) {
    if (cr !== -1 && cr < start) cr = text.indexOf("\r", start);
    if (lf !== -1 && lf < start) lf = text.indexOf("\n", start);
    const end = cr === -1 ? lf : lf === -1 ? cr : Math.min(cr, lf);
    if (end === -1) return start;
    if (end === cr) {
      // A CR at the very end stays: the next chunk may begin with its LF.
      if (end === last) return start;
      onLine(text, start, end);
      start = text.charCodeAt(end + 1) === 10 ? end + 2 : end + 1;
    } else {
      onLine(text, start, end);
      start = end + 1;
    }
  }
}
