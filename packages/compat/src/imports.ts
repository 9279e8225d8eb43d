import { realpath, stat } from "node:fs/promises";
import * as os from "node:os";
import * as path from "node:path";
import { diagnostic } from "@skillctx/core";
import type { Diagnostic } from "@skillctx/core";
import { codeRegions, inRegions } from "./code-regions.js";
import { readGuidanceText, truncationDiagnostic } from "./read-text.js";
import { displayPath, isInside } from "./paths.js";

/** Imports nest at most this deep: CLAUDE.md → a → b → c → d → e. */
export const MAX_IMPORT_DEPTH = 5;

/** Options of {@link expandImports}. */
export interface ExpandImportsOptions {
  /** Real path of the repository root; imports must stay inside it unless `trustUserScope`. */
  repoRoot: string;
  /** The repository root as the caller wrote it; imported files are labelled relative to it. */
  displayRoot: string;
  trustUserScope: boolean;
  maxBytes: number;
  /** Home folder for `@~/...` imports. @default os.homedir() */
  homeDir?: string | undefined;
  signal?: AbortSignal | undefined;
}

/** The expanded text, the imported files (display paths, in order) and findings. */
export interface ExpandedImports {
  text: string;
  imported: string[];
  diagnostics: Diagnostic[];
}

// `@path` at the start of a line or after whitespace; `\ ` keeps a space in the path (Claude Code syntax).
const IMPORT = /(^|[ \t])@((?:[^\s\\]|\\ )+)/g;
const TRAILING_PUNCTUATION = /[.,;:!?)\]}'"]+$/;

/**
 * Pulls the files named by `@path` mentions into a CLAUDE.md text (Claude Code's import syntax).
 * The file's own text stays byte for byte; each imported file follows the line that names it,
 * between `<!-- imported from X -->` and `<!-- end of X -->` markers. Paths are relative to the
 * importing file (`~/` is the home folder); mentions inside code are never imports; imports nest
 * at most {@link MAX_IMPORT_DEPTH} deep; cycles are broken; a file is imported once per skill;
 * nothing outside the repository is read unless `trustUserScope`. A mention that names no file
 * is left as text, with a warning when it stands alone on its line.
 */
export async function expandImports(text: string, file: string, options: ExpandImportsOptions): Promise<ExpandedImports> {
  const state: State = { options, imported: [], diagnostics: [], seen: new Set() };
  const own = await realpath(file).catch(() => path.resolve(file));
  state.seen.add(own);
  const expanded = await expand(text, file, 0, [own], state);
  return { text: expanded, imported: state.imported, diagnostics: state.diagnostics };
}

interface State {
  options: ExpandImportsOptions;
  imported: string[];
  diagnostics: Diagnostic[];
  seen: Set<string>;
}

async function expand(text: string, file: string, depth: number, chain: string[], state: State): Promise<string> {
  if (!text.includes("@")) return text;
  const code = codeRegions(text);
  const out: string[] = [];
  let offset = 0;
  let lineNo = 0;
  while (offset < text.length) {
    lineNo++;
    const newline = text.indexOf("\n", offset);
    const end = newline < 0 ? text.length : newline + 1;
    const line = text.slice(offset, end);
    out.push(line);
    const blocks: string[] = [];
    const standalone = /^[ \t]*@\S/.test(line) && line.trim().split(/(?<!\\)\s+/).every((word) => word.startsWith("@"));
    for (const match of line.matchAll(IMPORT)) {
      const at = offset + (match.index ?? 0) + (match[1]?.length ?? 0);
      if (inRegions(code, at)) continue;
      const block = await importOne(match[2] ?? "", { file, line: lineNo, standalone, depth, chain }, state);
      if (block !== undefined) blocks.push(block);
    }
    if (blocks.length > 0) {
      if (!line.endsWith("\n")) out.push("\n");
      out.push(...blocks);
    }
    offset = end;
  }
  return out.join("");
}

interface Site {
  file: string;
  line: number;
  standalone: boolean;
  depth: number;
  chain: string[];
}

async function importOne(written: string, site: Site, state: State): Promise<string | undefined> {
  const { options } = state;
  options.signal?.throwIfAborted();
  const target = await resolveTarget(written, site.file, options.homeDir ?? os.homedir());
  const where = { path: site.file, line: site.line };
  if (target === undefined) {
    if (site.standalone) {
      state.diagnostics.push(diagnostic("IMPORT_NOT_FOUND", "warning", `@${written}: no such file; left as text`, where));
    }
    return undefined;
  }
  const label = displayPath(target.path, options.displayRoot);
  if (!options.trustUserScope && !isInside(target.real, options.repoRoot)) {
    state.diagnostics.push(
      diagnostic(
        "IMPORT_OUTSIDE_REPOSITORY",
        "warning",
        `@${written} resolves outside the repository (${target.real}); not imported (trustUserScope allows it)`,
        where,
      ),
    );
    return undefined;
  }
  if (site.chain.includes(target.real)) {
    state.diagnostics.push(diagnostic("IMPORT_CYCLE", "warning", `@${written} imports a file that imports it back (${label}); cycle broken`, where));
    return undefined;
  }
  if (state.seen.has(target.real)) return undefined; // already included once in this skill
  if (site.depth + 1 > MAX_IMPORT_DEPTH) {
    state.diagnostics.push(
      diagnostic("IMPORT_TOO_DEEP", "warning", `@${written} is nested more than ${MAX_IMPORT_DEPTH} imports deep; not imported`, where),
    );
    return undefined;
  }
  state.seen.add(target.real);

  const read = await readGuidanceText(target.path, { maxBytes: options.maxBytes, label, signal: options.signal });
  if (!read.ok) {
    if (read.diagnostic !== undefined) state.diagnostics.push(read.diagnostic);
    return undefined;
  }
  if (read.truncated !== undefined) {
    state.diagnostics.push(truncationDiagnostic(target.path, label, read.truncated.size, read.truncated.kept, options.maxBytes));
  }
  state.imported.push(label);
  const body = await expand(read.text, target.path, site.depth + 1, [...site.chain, target.real], state);
  const gap = body.endsWith("\n") || body === "" ? "" : "\n";
  return `<!-- imported from ${label} -->\n${body}${gap}<!-- end of ${label} -->\n`;
}

// The file a mention names: as written, else without trailing punctuation ("see @README.md.").
async function resolveTarget(written: string, from: string, home: string): Promise<{ path: string; real: string } | undefined> {
  const raw = written.replace(/\\ /g, " ");
  const tries = [raw];
  const trimmed = raw.replace(TRAILING_PUNCTUATION, "");
  if (trimmed !== raw && trimmed !== "") tries.push(trimmed);
  for (const candidate of tries) {
    const resolved =
      candidate === "~" || candidate.startsWith("~/")
        ? path.join(home, candidate.slice(1))
        : path.resolve(path.dirname(from), candidate);
    const info = await stat(resolved).catch(() => undefined);
    if (info?.isFile() !== true) continue;
    const real = await realpath(resolved).catch(() => undefined);
    if (real !== undefined) return { path: resolved, real };
  }
  return undefined;
}
