/**
 * The `footfall …` command lines of a shell text (a README code block, a command's help), as
 * the argv `main` would be given: continuation lines joined, comments, redirections and
 * variable assignments dropped, pipelines and lists split, quotes removed. A help synopsis's
 * optional parts (`[--shop 101 …]`) are read as given, and `…` as nothing.
 */

/** A command line's argv after `footfall` and the line of the text it starts on (1-based). */
export interface CommandLine {
  readonly line: number;
  readonly argv: readonly string[];
  readonly source: string;
}

type Token = { readonly op: string } | { readonly word: string };

const OPERATORS = ["&&", "||", ";", "|", "&"];
const REDIRECTIONS = /^(\d*>>?|<|\d*>&\d+|&>)$/;

/** Every `footfall …` / `npx footfall …` command of `text` (lines of shell). */
export function commandLines(text: string): CommandLine[] {
  const out: CommandLine[] = [];
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const start = i;
    let logical = lines[i]!;
    while (/\\\s*$/.test(logical) && i + 1 < lines.length) logical = `${logical.replace(/\\\s*$/, " ")}${lines[++i]}`;
    let words: string[] = [];
    const flush = () => {
      const argv = footfallArgv(words);
      if (argv !== undefined) out.push({ line: start + 1, argv, source: logical.trim() });
      words = [];
    };
    for (const t of tokens(logical)) {
      if ("op" in t) {
        if (OPERATORS.includes(t.op)) flush();
        else words.push(t.op); // a redirection: dropped with its target below
      } else words.push(t.word);
    }
    flush();
  }
  return out;
}

// The argv after `footfall` in one simple command, or undefined when it runs something else.
function footfallArgv(words: readonly string[]): string[] | undefined {
  const kept: string[] = [];
  for (let i = 0; i < words.length; i++) {
    if (REDIRECTIONS.test(words[i]!)) {
      // `2>&1` has no target; the others take the next word.
      if (!/&\d+$/.test(words[i]!)) i++;
      continue;
    }
    kept.push(words[i]!);
  }
  let i = 0;
  while (i < kept.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(kept[i]!)) i++;
  if (kept[i] === "npx") i++;
  if (kept[i] !== "footfall") return undefined;
  return kept
    .slice(i + 1)
    .map((w) => w.replace(/^\[+/, "").replace(/\]+$/, ""))
    .filter((w) => w !== "" && w !== "…" && w !== "...");
}

// Shell words and operators of one line: quotes and backslashes as sh reads them, `$(…)` and
// `<(…)` kept as one word, a `#` that starts a word ends the line.
function tokens(line: string): Token[] {
  const out: Token[] = [];
  let word: string | undefined;
  const end = () => {
    if (word !== undefined) out.push({ word });
    word = undefined;
  };
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (/\s/.test(c)) {
      end();
      continue;
    }
    if (c === "#" && word === undefined) break;
    if (c === "'" || c === '"') {
      const close = line.indexOf(c, i + 1);
      if (close < 0) throw new Error(`unclosed ${c} in: ${line}`);
      word = (word ?? "") + line.slice(i + 1, close);
      i = close;
      continue;
    }
    if (c === "\\") {
      word = (word ?? "") + (line[i + 1] ?? "");
      i++;
      continue;
    }
    if ((c === "$" || c === "<") && line[i + 1] === "(") {
      let depth = 0;
      let j = i + 1;
      for (; j < line.length; j++) {
        if (line[j] === "(") depth++;
        else if (line[j] === ")" && --depth === 0) break;
      }
      word = (word ?? "") + line.slice(i, j + 1);
      i = j;
      continue;
    }
    const op = /^(\d*>>?|\d*>&\d+|&>|&&|\|\||[|&;<])/.exec(line.slice(i));
    // A digit before > belongs to the redirection only at a word's start (`2>`), not in `a2>`.
    if (op !== null && (word === undefined || !/^\d/.test(op[1]!))) {
      end();
      out.push({ op: op[1]! });
      i += op[1]!.length - 1;
      continue;
    }
    word = (word ?? "") + c;
  }
  end();
  return out;
}
