/**
 * What the docs say about the code and the code does not bear out: the rules of
 * test/docs/docs.test.ts, each a function from the docs to its findings.
 */
import { existsSync } from "node:fs";
import { UsageError } from "../../src/cli/common.ts";
import { loadCommand } from "../../src/cli/loadCommand.ts";
import { commandLines, type CommandLine } from "./commandLines.ts";
import { exportTable, inlineCode, type MarkdownFile } from "./markdown.ts";

/** One thing a doc says that the code does not bear out. */
export interface Finding {
  readonly path: string;
  readonly line: number;
  readonly message: string;
}

/** A finding as the pending list names it: its file and message, not its line (lines move). */
export const findingKey = (f: Finding): string => `${f.path}: ${f.message}`;

/** What the code exports: each entry point's names, and every module's. */
export interface Exports {
  readonly entries: ReadonlyMap<string, ReadonlySet<string>>;
  readonly source: ReadonlyMap<string, readonly string[]>;
}

/** A name the docs present as the package's API, where, and the entry point they name with it, if any. */
export interface Presented {
  readonly path: string;
  readonly line: number;
  readonly name: string;
  readonly entry?: string;
  /** How it is presented, for messages: "imports", "calls", "names". */
  readonly how: string;
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
const CALL = /^(?:new\s+)?([A-Za-z_$][\w$]*)\(/;
const CONSTANT = /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/;
const CODE_LANGS = new Set(["ts", "typescript", "js", "javascript", "mjs", ""]);
const SHELL_LANGS = new Set(["sh", "bash", "shell", "console", ""]);

/** (a) The README's export table: every name it lists under an entry point is exported there. */
export function exportTableFindings(readme: MarkdownFile, exports: Exports): Finding[] {
  const out: Finding[] = [];
  for (const row of exportTable(readme)) {
    const names = exports.entries.get(row.entry);
    if (names === undefined) {
      out.push({ path: readme.path, line: row.line, message: `the export table lists \`${row.entry}\`, which is no entry point (package.json exports)` });
      continue;
    }
    for (const name of row.names) {
      if (!names.has(name)) out.push({ path: readme.path, line: row.line, message: `the export table lists \`${name}\` under \`${row.entry}\`, which does not export it${where(name, exports)}` });
    }
  }
  return out;
}

/**
 * Names the docs present as the package's API: imported from an entry point in a code block,
 * called in prose (`name(…)`, `new Name(…)`), a constant named in prose (unless the file shows
 * it with its `src/` path: then it points at the source, as an internal), or named in a sentence
 * about one entry point (`footfall/fleet` … `openFleetRedis`). Only names of the code count (a
 * name some module of src/ exports): prose words and other libraries' calls are not the package's.
 */
export function presentedNames(file: MarkdownFile, exports: Exports): Presented[] {
  const out: Presented[] = [];
  for (const block of file.blocks) {
    if (!CODE_LANGS.has(block.lang)) continue;
    for (const m of block.text.matchAll(/^\s*import\s+(?:type\s+)?\{([^}]*)\}\s*from\s*["']([^"']+)["']/gm)) {
      if (!exports.entries.has(m[2]!) && !m[2]!.startsWith("footfall")) continue;
      const line = block.line + block.text.slice(0, m.index).split("\n").length - 1;
      for (const part of m[1]!.split(",")) {
        const name = part.trim().replace(/^type\s+/, "").split(/\s+as\s+/)[0]!;
        if (name !== "") out.push({ path: file.path, line, name, entry: m[2]!, how: `imports from \`${m[2]}\`` });
      }
    }
  }
  const subpathEntries = [...exports.entries.keys()].filter((e) => e.includes("/"));
  // Constants the file names beside a source path somewhere: shown as the source's, not as API.
  const inSource = new Set(file.sentences.filter((s) => s.text.includes("src/")).flatMap((s) => inlineCode(s.text)));
  for (const s of file.sentences) {
    const spans = inlineCode(s.text);
    const named = [...new Set(spans.filter((c) => subpathEntries.includes(c)))];
    const entry = named.length === 1 ? named[0] : undefined;
    for (const span of spans) {
      const call = CALL.exec(span)?.[1];
      const name = call ?? (IDENTIFIER.test(span) ? span : undefined);
      if (name === undefined || !exports.source.has(name)) continue;
      if (entry !== undefined) out.push({ path: file.path, line: s.line, name, entry, how: `names in a sentence about \`${entry}\`` });
      else if (call !== undefined) out.push({ path: file.path, line: s.line, name, how: "calls" });
      else if (CONSTANT.test(name) && !inSource.has(name)) out.push({ path: file.path, line: s.line, name, how: "names as a constant" });
    }
  }
  return out;
}

/** (a) Every name the docs present as API is exported: by the entry point they name, else by one. */
export function presentedFindings(presented: readonly Presented[], exports: Exports): Finding[] {
  const out: Finding[] = [];
  for (const p of presented) {
    if (p.entry !== undefined) {
      const names = exports.entries.get(p.entry);
      if (names === undefined) out.push({ path: p.path, line: p.line, message: `${p.how} \`${p.name}\`, but \`${p.entry}\` is no entry point (package.json exports)` });
      else if (!names.has(p.name)) out.push({ path: p.path, line: p.line, message: `${p.how} \`${p.name}\`, which \`${p.entry}\` does not export${where(p.name, exports)}` });
    } else if (entriesOf(p.name, exports).length === 0) {
      out.push({ path: p.path, line: p.line, message: `${p.how} \`${p.name}\`, which no entry point exports${where(p.name, exports)}` });
    }
  }
  return out;
}

/** (a) The README's export table names every exported name the docs present as API, under an entry point that exports it. */
export function tableCompletenessFindings(readme: MarkdownFile, presented: readonly Presented[], exports: Exports): Finding[] {
  const rows = exportTable(readme);
  const listed = new Map<string, Set<string>>();
  for (const row of rows) for (const name of row.names) listed.set(name, (listed.get(name) ?? new Set()).add(row.entry));
  const out: Finding[] = [];
  const seen = new Set<string>();
  for (const p of presented) {
    const entries = p.entry !== undefined ? [p.entry] : entriesOf(p.name, exports);
    if (entries.length === 0 || !entries.every((e) => exports.entries.get(e)?.has(p.name) === true)) continue;
    if (entries.some((e) => listed.get(p.name)?.has(e) === true) || seen.has(p.name)) continue;
    seen.add(p.name);
    out.push({ path: readme.path, line: rows[0]!.line, message: `the export table leaves out \`${p.name}\` (\`${entries.join("`, `")}\`), which ${p.path} ${p.how}` });
  }
  return out;
}

// A path of the repository in inline code: a file with its extension, or a folder ending in "/",
// perhaps with a #anchor or :line after it.
const REPO_PATH = /^((?:src|test|bench|notebooks|docs)\/[\w./-]*(?:\.\w+|\/))(?:[#:].*)?$/;

/** Every file or folder of the repository the docs name in inline code exists (a name moved is a dead pointer). */
export function pathFindings(file: MarkdownFile): Finding[] {
  const out: Finding[] = [];
  for (const s of file.sentences) {
    for (const span of inlineCode(s.text)) {
      const path = REPO_PATH.exec(span)?.[1];
      // docs/api/ is what `npm run docs` builds (not in the repository, and not yet built when the tests run).
      if (path !== undefined && !path.startsWith("docs/api/") && !existsSync(new URL(`../../${path}`, import.meta.url))) out.push({ path: file.path, line: s.line, message: `names \`${path}\`, which does not exist` });
    }
  }
  return out;
}

/** (b) Every `footfall …` command line of the docs' shell blocks parses with that command's flags. */
export async function commandLineFindings(file: MarkdownFile): Promise<{ findings: Finding[]; checked: number }> {
  const findings: Finding[] = [];
  let checked = 0;
  for (const block of file.blocks) {
    if (!SHELL_LANGS.has(block.lang)) continue;
    for (const c of commandLines(block.text)) {
      checked++;
      const problem = await commandProblem(c);
      if (problem !== undefined) findings.push({ path: file.path, line: block.line + c.line - 1, message: `\`${c.source}\`: ${problem}` });
    }
  }
  return { findings, checked };
}

/**
 * Why `footfall ARGV` would be bad usage, or undefined when its command reads it: an unknown
 * command, or the UsageError of the command's `check` (flags, subcommands; no I/O).
 */
export async function commandProblem(c: CommandLine): Promise<string | undefined> {
  const [name, ...rest] = c.argv;
  if (name === undefined) return "no command";
  const command = await loadCommand(name);
  if (command === undefined) return `footfall has no command ${JSON.stringify(name)}`;
  if (rest.includes("--help") || rest.includes("-h")) return undefined;
  try {
    command.check(rest);
    return undefined;
  } catch (error) {
    if (error instanceof UsageError) return `footfall ${name}: ${error.message}`;
    throw error;
  }
}

function entriesOf(name: string, exports: Exports): string[] {
  return [...exports.entries].filter(([, names]) => names.has(name)).map(([entry]) => entry);
}

// " (exported by footfall/sim)" or " (it is in src/x.ts)": where the name is, to fix the doc by.
function where(name: string, exports: Exports): string {
  const entries = entriesOf(name, exports);
  if (entries.length > 0) return ` (exported by \`${entries.join("`, `")}\`)`;
  const modules = exports.source.get(name);
  return modules === undefined ? " (no module of src/ exports it)" : ` (it is in src/${modules.join(", src/")}, internal)`;
}
