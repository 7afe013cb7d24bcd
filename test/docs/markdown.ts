/**
 * Reading the README and docs/*.md as the docs test needs them: fenced code blocks, prose
 * sentences (outside code blocks, inline code kept whole), and the README's export table.
 */
import { readFileSync, readdirSync } from "node:fs";

const ROOT = new URL("../../", import.meta.url);

/** A fenced code block: its info string ("sh", "ts", "" …), first line of its text (1-based), and text. */
export interface CodeBlock {
  readonly lang: string;
  readonly line: number;
  readonly text: string;
}

/** A sentence of prose and the line it starts on (1-based). */
export interface Sentence {
  readonly line: number;
  readonly text: string;
}

/** One markdown file of the docs, by its path from the repository root. */
export interface MarkdownFile {
  readonly path: string;
  readonly text: string;
  readonly blocks: readonly CodeBlock[];
  readonly sentences: readonly Sentence[];
}

/** README.md and every docs/*.md, in that order. */
export function docsFiles(): MarkdownFile[] {
  const paths = ["README.md", ...readdirSync(new URL("docs/", ROOT)).filter((n) => n.endsWith(".md")).sort().map((n) => `docs/${n}`)];
  return paths.map((path) => parseMarkdown(path, readFileSync(new URL(path, ROOT), "utf8")));
}

/** Splits a markdown text into its fenced code blocks and its prose sentences. */
export function parseMarkdown(path: string, text: string): MarkdownFile {
  const lines = text.split("\n");
  const blocks: CodeBlock[] = [];
  const paragraphs: { line: number; text: string }[] = [];
  let fence: { marker: string; lang: string; line: number; body: string[] } | undefined;
  let paragraph: { line: number; text: string } | undefined;
  lines.forEach((raw, i) => {
    const open = /^\s*(`{3,}|~{3,})\s*([^\s`]*)/.exec(raw);
    if (fence !== undefined) {
      if (open !== null && open[1]!.startsWith(fence.marker) && raw.trim() === open[1]) {
        blocks.push({ lang: fence.lang, line: fence.line, text: fence.body.join("\n") });
        fence = undefined;
      } else fence.body.push(raw);
      return;
    }
    if (open !== null) {
      if (paragraph !== undefined) paragraphs.push(paragraph);
      paragraph = undefined;
      fence = { marker: open[1]!, lang: open[2]!, line: i + 2, body: [] };
      return;
    }
    // A blank line, a heading or a table row ends a paragraph (a table row is one of its own).
    if (raw.trim() === "" || /^\s*(#|\|)/.test(raw)) {
      if (paragraph !== undefined) paragraphs.push(paragraph);
      paragraph = raw.trim() === "" ? undefined : { line: i + 1, text: raw };
      if (paragraph !== undefined) {
        paragraphs.push(paragraph);
        paragraph = undefined;
      }
      return;
    }
    if (paragraph === undefined) paragraph = { line: i + 1, text: raw };
    else paragraph.text += `\n${raw}`;
  });
  if (paragraph !== undefined) paragraphs.push(paragraph);
  return { path, text, blocks, sentences: paragraphs.flatMap(sentencesOf) };
}

// A paragraph cut after ". ", "! ", "? " outside inline code, so `src/x.ts` stays whole.
function sentencesOf(p: { line: number; text: string }): Sentence[] {
  const out: Sentence[] = [];
  let start = 0;
  let line = p.line;
  let inCode = false;
  for (let i = 0; i < p.text.length; i++) {
    const c = p.text[i]!;
    if (c === "`") inCode = !inCode;
    if (!inCode && (c === "." || c === "!" || c === "?") && /\s/.test(p.text[i + 1] ?? " ")) {
      out.push({ line, text: p.text.slice(start, i + 1).trim() });
      line += (p.text.slice(start, i + 1).match(/\n/g) ?? []).length;
      start = i + 1;
    }
  }
  const rest = p.text.slice(start).trim();
  if (rest !== "") out.push({ line, text: rest });
  return out;
}

/** The inline code spans of a text, in order. */
export function inlineCode(text: string): string[] {
  return [...text.matchAll(/`([^`\n]+)`/g)].map((m) => m[1]!);
}

/** A row of the README's export table: the entry point it lists names under, and its line. */
export interface ExportRow {
  readonly entry: string;
  readonly line: number;
  readonly names: readonly string[];
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
// Values a cell may mention ("`undefined` with no visitors") that are no export.
const LITERALS = new Set(["undefined", "null", "true", "false", "NaN", "Infinity"]);

/**
 * The README's table of what each entry point exports (`| import from | area | exports |`):
 * per row, the entry point (a row whose first cell is empty continues the one above) and the
 * names in its exports cell — every inline code span that is an identifier (`analyze`; not
 * `footfall/…` nor a call with arguments).
 */
export function exportTable(readme: MarkdownFile): ExportRow[] {
  const lines = readme.text.split("\n");
  const header = lines.findIndex((l) => /^\|\s*import from\s*\|\s*area\s*\|\s*exports\s*\|/.test(l));
  if (header < 0) throw new Error(`${readme.path}: no export table (| import from | area | exports |)`);
  const rows: ExportRow[] = [];
  let entry: string | undefined;
  for (let i = header + 2; i < lines.length && lines[i]!.startsWith("|"); i++) {
    const [, first, , exports] = lines[i]!.split(/(?<!\\)\|/).map((c) => c.trim());
    const named = first === "" ? undefined : /^`([^`]+)`$/.exec(first!)?.[1];
    if (first !== "" && named === undefined) throw new Error(`${readme.path}:${i + 1}: the first cell must be an entry point in backticks, got ${first}`);
    entry = named ?? entry;
    if (entry === undefined) throw new Error(`${readme.path}:${i + 1}: a continuation row with no entry point above it`);
    rows.push({ entry, line: i + 1, names: inlineCode(exports ?? "").filter((n) => IDENTIFIER.test(n) && !LITERALS.has(n)) });
  }
  return rows;
}
