import { splitLines, type LineRangeHandler } from "./splitLines.ts";

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
 * Whether a reader with these options drops a byte-order mark at the start of its input; throws a
 * RangeError for anything but `"drop"` or `"keep"`. The one reading of the option, for
 * {@link LineSplitter} and the CLI's byte reader of signal lines.
 *
 * @example
 * dropsByteOrderMark({});                          // true
 * dropsByteOrderMark({ byteOrderMark: "keep" });   // false
 */
export function dropsByteOrderMark(options: LineSplitterOptions): boolean {
  const bom = options.byteOrderMark ?? "drop";
  if (bom !== "drop" && bom !== "keep") throw new RangeError(`byteOrderMark must be "drop" or "keep", got ${String(bom)}`);
  return bom === "drop";
}

/**
 * Splits text that arrives in chunks into lines, synchronously per chunk, the way `readline`
 * does with `crlfDelay: Infinity`: LF, CRLF and a lone CR each end a line, also when a CRLF is
 * split across two chunks; a last line without a line end still counts; a leading byte-order
 * mark (U+FEFF) is dropped. Lines are numbered from 1.
 *
 * The one line reader of footfall for text (the sales NDJSON reader uses it). It splits by
 * `splitLines`, the rule `footfall analyze --input`'s byte reader splits by too, so a file
 * reads the same — and its line numbers mean the same — everywhere. It is chunked rather than
 * `readline` because one await per line costs more than parsing the line (bench row 4).
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
  readonly #emit: LineRangeHandler = (text, start, end) => this.#onLine(text.slice(start, end), ++this.#line);

  /**
   * @param onLine receives every line, in order, with its number.
   * @param options see `LineSplitterOptions`
   */
  constructor(onLine: LineHandler, options: LineSplitterOptions = {}) {
    if (typeof onLine !== "function") throw new TypeError(`onLine must be a function, got ${typeof onLine}`);
    this.#onLine = onLine;
    this.#dropBom = dropsByteOrderMark(options);
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
    const start = splitLines(text, false, this.#emit);
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
    splitLines(this.#rest, true, this.#emit);
    this.#rest = "";
    this.#line = 0;
    this.#started = false;
  }
}
