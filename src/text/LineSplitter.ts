/**
 * Called once per line by a {@link LineSplitter}: the line's text without its line end, and its
 * 1-based line number in the whole input (blank lines are passed and counted too).
 *
 * @example
 * const show: LineHandler = (text, line) => console.log(line, text);
 */
export type LineHandler = (text: string, line: number) => void;

/**
 * Options of {@link LineSplitter}.
 *
 * @example
 * const options: LineSplitterOptions = { byteOrderMark: "keep" }; // a part of a file that does not start it
 */
export interface LineSplitterOptions {
  /**
   * A U+FEFF at the very start of the input is a byte-order mark and is dropped (`"drop"`); give
   * `"keep"` when the text is a later part of a file, where that character is content.
   * @default "drop"
   */
  readonly byteOrderMark?: "drop" | "keep";
}

/**
 * Splits text that arrives in chunks into lines, synchronously per chunk, the way `readline`
 * does with `crlfDelay: Infinity`: LF, CRLF and a lone CR each end a line, also when a CRLF is
 * split across two chunks; a last line without a line end still counts; a leading byte-order
 * mark (U+FEFF) is dropped. Lines are numbered from 1.
 *
 * The one line reader of footfall: `footfall analyze --input` (millions of signal lines) and
 * the sales NDJSON reader both use it, so a file reads the same — and its line numbers mean the
 * same — everywhere. It is chunked rather than `readline` because one await per line costs more
 * than parsing the line (bench row 4).
 *
 * @example
 * const lines: string[] = [];
 * const splitter = new LineSplitter((text, line) => lines.push(`${line}:${text}`));
 * splitter.push("a\r\nb\r");
 * splitter.push("\nc\rd");
 * splitter.end();
 * lines; // ["1:a", "2:b", "3:c", "4:d"]
 */
export class LineSplitter {
  readonly #onLine: LineHandler;
  #rest = "";
  #line = 0;
  #started = false;
  readonly #dropBom: boolean;

  /**
   * @param onLine receives every line, in order, with its number.
   * @param options see {@link LineSplitterOptions}
   */
  constructor(onLine: LineHandler, options: LineSplitterOptions = {}) {
    if (typeof onLine !== "function") throw new TypeError(`onLine must be a function, got ${typeof onLine}`);
    this.#onLine = onLine;
    const bom = options.byteOrderMark ?? "drop";
    if (bom !== "drop" && bom !== "keep") throw new RangeError(`byteOrderMark must be "drop" or "keep", got ${String(bom)}`);
    this.#dropBom = bom === "drop";
  }

  /**
   * Number of lines handed to the callback so far.
   *
   * @example
   * const s = new LineSplitter(() => {});
   * s.push("a\nb");
   * s.lines; // 1 ("b" may go on in the next chunk)
   */
  get lines(): number {
    return this.#line;
  }

  /**
   * Feeds the next chunk of text; every line it completes goes to the callback before this returns.
   *
   * @example
   * new LineSplitter((text) => console.log(text)).push("one\ntwo\n"); // logs "one", "two"
   */
  push(chunk: string): void {
    let text = this.#rest === "" ? chunk : this.#rest + chunk;
    if (!this.#started && text !== "") {
      this.#started = true;
      if (this.#dropBom && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    // Files with LF endings (the usual case) skip the per-line look for CRs.
    const start = text.indexOf("\r") === -1 ? this.#lf(text) : this.#mixed(text);
    this.#rest = start === 0 ? text : text.slice(start);
  }

  /**
   * Ends the input: the last line, if it had no line end, goes to the callback. The splitter can
   * then be reused for a new input (numbering restarts at 1).
   *
   * @example
   * const s = new LineSplitter((text, line) => console.log(line, text));
   * s.push("last line without LF");
   * s.end(); // logs 1 "last line without LF"
   */
  end(): void {
    const rest = this.#rest;
    // A CR held back at the very end (no LF came after it) ended the line.
    if (rest !== "") this.#onLine(rest.endsWith("\r") ? rest.slice(0, -1) : rest, ++this.#line);
    this.#rest = "";
    this.#line = 0;
    this.#started = false;
  }

  // Every LF-ended line of `text`; returns where the unfinished last one starts. The loop has a
  // method of its own so that the optimized code V8 enters mid-loop ends with a return: with a
  // call after it, that code was thrown away at the end of every chunk (analyze ran slower).
  #lf(text: string): number {
    const onLine = this.#onLine;
    let start = 0;
    let nl = text.indexOf("\n");
    while (nl !== -1) {
      onLine(text.slice(start, nl), ++this.#line);
      start = nl + 1;
      nl = text.indexOf("\n", start);
    }
    return start;
  }

  // Lines ended by LF, CRLF or CR. The next CR and LF positions are each searched once and reused
  // until passed, so a file with a single stray CR stays linear.
  #mixed(text: string): number {
    const onLine = this.#onLine;
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
        onLine(text.slice(start, end), ++this.#line);
        start = text.charCodeAt(end + 1) === 10 ? end + 2 : end + 1;
      } else {
        onLine(text.slice(start, end), ++this.#line);
        start = end + 1;
      }
    }
  }
}
