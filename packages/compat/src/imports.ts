import { realpath, stat } from "node:fs/promises";
import * as os from "node:os";
import * as path from "node:path";
import { diagnostic, mayReadOutsideProject } from "@skillctx/core";
import type { Diagnostic, Trust } from "@skillctx/core";
import {
  DEFAULT_MAX_IMPORT_BYTES,
  DEFAULT_MAX_IMPORT_FILES,
  DEFAULT_MAX_IMPORT_LOOKUPS,
  MAX_IMPORT_DEPTH,
} from "./limits.js";
import { importMentions } from "./import-mentions.js";
import type { ImportMention } from "./import-mentions.js";
import { readGuidanceText, truncationDiagnostic } from "./read-text.js";
import { displayPath, isInside } from "./paths.js";

export { MAX_IMPORT_DEPTH };

/** Options of {@link expandImports}. */
export interface ExpandImportsOptions {
  /** Real path of the repository root; imports must stay inside it unless `trust.user` is true. */
  repoRoot: string;
  /** The repository root as the caller wrote it; imported files are labelled relative to it. */
  displayRoot: string;
  /**
   * The one trust vocabulary: only `user: true`, given explicitly, lets an import leave the repository
   * (`@~/notes.md`, `@../elsewhere.md`, a symlink pointing out).
   * @default {} (nothing outside the repository is read)
   */
  trust?: Trust | undefined;
  /** Bytes read of each imported file; a longer one is cut at a line boundary with a note. */
  maxBytes: number;
  /**
   * UTF-8 bytes of all imported files together (the importing file itself not counted). Checked before each
   * read: a file that would not fit is not read, and expansion stops there with a visible note and an
   * `IMPORT_LIMIT` warning.
   * @default 262_144 (DEFAULT_MAX_IMPORT_BYTES)
   */
  maxImportBytes?: number | undefined;
  /** Most files imported in the whole tree; the next one stops expansion with a note and `IMPORT_LIMIT`. @default 100 */
  maxImportFiles?: number | undefined;
  /** Most `@` mentions looked up on disk in the whole tree; the next one stops expansion likewise. @default 1_000 */
  maxImportLookups?: number | undefined;
  /** Home folder for `@~/...` imports. @default os.homedir() */
  homeDir?: string | undefined;
  /**
   * Real paths of files already in the prompt as guidance of their own (CLAUDE.md's `@AGENTS.md`
   * bridge): such an import stays text, with an `IMPORT_ALREADY_LOADED` note, so the same text never
   * appears twice.
   */
  alreadyLoaded?: ReadonlySet<string> | undefined;
  signal?: AbortSignal | undefined;
}

/** The expanded text, the imported files (display paths, in order) and findings. */
export interface ExpandedImports {
  text: string;
  imported: string[];
  diagnostics: Diagnostic[];
}

/**
 * Pulls the files named by `@path` mentions into a CLAUDE.md text (Claude Code's import syntax).
 * The file's own text stays byte for byte; each imported file follows the line that names it,
 * between `<!-- imported from X -->` and `<!-- end of X -->` markers. Paths are relative to the
 * importing file (`~/` is the home folder); mentions inside code (as core's markdown scanner reads it:
 * code blocks and spans, HTML blocks and comments) are never imports; imports nest at most
 * {@link MAX_IMPORT_DEPTH} deep; cycles are broken; a file is imported once per skill; nothing outside
 * the repository is read unless `trust.user` is true. The whole tree is bounded while it is expanded:
 * by total bytes, by files and by lookups, each stopping with a visible note and an `IMPORT_LIMIT`
 * warning. A mention that names no file is left as text, with a warning when it stands alone on its line.
 */
export async function expandImports(
  text: string,
  file: string,
  options: ExpandImportsOptions,
): Promise<ExpandedImports> {
  const state: State = {
    options,
    limits: {
      bytes: options.maxImportBytes ?? DEFAULT_MAX_IMPORT_BYTES,
      files: options.maxImportFiles ?? DEFAULT_MAX_IMPORT_FILES,
      lookups: options.maxImportLookups ?? DEFAULT_MAX_IMPORT_LOOKUPS,
    },
    imported: [],
    diagnostics: [],
    seen: new Set(),
    bytes: 0,
    lookups: 0,
    stopped: false,
  };
  const own = await realpath(file).catch(() => path.resolve(file));
  state.seen.add(own);
  const expanded = await expand(text, file, 0, [own], state);
  return { text: expanded, imported: state.imported, diagnostics: state.diagnostics };
}

interface State {
  options: ExpandImportsOptions;
  limits: { bytes: number; files: number; lookups: number };
  imported: string[];
  diagnostics: Diagnostic[];
  seen: Set<string>;
  /** UTF-8 bytes of the files imported so far. */
  bytes: number;
  lookups: number;
  /** A limit was reached: no further mention is looked up. */
  stopped: boolean;
}

async function expand(text: string, file: string, depth: number, chain: string[], state: State): Promise<string> {
  const mentions = importMentions(text);
  if (mentions.length === 0) return text;
  const out: string[] = [];
  let offset = 0;
  for (let i = 0; i < mentions.length; ) {
    const lineEnd = (mentions[i] as ImportMention).lineEnd;
    const blocks: string[] = [];
    for (; i < mentions.length && (mentions[i] as ImportMention).lineEnd === lineEnd; i++) {
      if (state.stopped) continue;
      const mention = mentions[i] as ImportMention;
      const block = await importOne(mention, { file, depth, chain }, state);
      if (block !== undefined) blocks.push(block);
    }
    if (blocks.length === 0) continue;
    out.push(text.slice(offset, lineEnd));
    if (!text.endsWith("\n", lineEnd)) out.push("\n");
    out.push(...blocks);
    offset = lineEnd;
  }
  out.push(text.slice(offset));
  return out.join("");
}

interface Site {
  file: string;
  depth: number;
  chain: string[];
}

async function importOne(mention: ImportMention, site: Site, state: State): Promise<string | undefined> {
  const { options, limits } = state;
  options.signal?.throwIfAborted();
  const written = mention.written;
  const where = { path: site.file, line: mention.line };
  // A URL (`@https://…`, `@file:///…`) is never an import, whatever the disk holds: Gemini CLI's
  // memoryImportProcessor.ts validateImportPath rejects /^(file|https?):\/\// (and its tests "should reject URLs").
  if (URL_MENTION.test(written)) return undefined;
  if (state.lookups >= limits.lookups) {
    return stop(
      state,
      where,
      `@${written} and the mentions after it were not looked up: at most ${limits.lookups} @ mentions are looked up (maxImportLookups)`,
    );
  }
  state.lookups++;
  const target = await resolveTarget(written, site.file, options.homeDir ?? os.homedir());
  if (target === undefined) {
    if (mention.standalone) {
      state.diagnostics.push(
        diagnostic("IMPORT_NOT_FOUND", "warning", `@${written}: no such file; left as text`, where),
      );
    }
    return undefined;
  }
  const label = displayPath(target.path, options.displayRoot);
  const outsideAllowed = mayReadOutsideProject(options.trust);
  if (!outsideAllowed && !isInside(target.real, options.repoRoot)) {
    state.diagnostics.push(
      diagnostic(
        "IMPORT_OUTSIDE_REPOSITORY",
        "warning",
        `@${written} resolves outside the repository (${target.real}); not imported (trust: { user: true } allows it)`,
        where,
      ),
    );
    return undefined;
  }
  if (options.alreadyLoaded?.has(target.real) === true) {
    state.diagnostics.push(
      diagnostic(
        "IMPORT_ALREADY_LOADED",
        "info",
        `@${written} is not inlined: ${label} is already in the prompt as guidance of its own`,
        where,
      ),
    );
    return undefined;
  }
  if (site.chain.includes(target.real)) {
    state.diagnostics.push(
      diagnostic(
        "IMPORT_CYCLE",
        "warning",
        `@${written} imports a file that imports it back (${label}); cycle broken`,
        where,
      ),
    );
    return undefined;
  }
  if (state.seen.has(target.real)) return undefined; // already included once in this skill
  if (site.depth + 1 > MAX_IMPORT_DEPTH) {
    state.diagnostics.push(
      diagnostic(
        "IMPORT_TOO_DEEP",
        "warning",
        `@${written} is nested more than ${MAX_IMPORT_DEPTH} imports deep; not imported`,
        where,
      ),
    );
    return undefined;
  }
  if (state.imported.length >= limits.files) {
    return stop(
      state,
      where,
      `@${written} and the imports after it were not included: at most ${limits.files} files are imported (maxImportFiles)`,
    );
  }
  const expected = Math.min(target.size, options.maxBytes);
  if (state.bytes + expected > limits.bytes) {
    return stop(
      state,
      where,
      `@${written} (${target.size} bytes) and the imports after it were not included: imported files may total at most ${limits.bytes} bytes (maxImportBytes)`,
    );
  }
  state.seen.add(target.real);

  // At most what is left of the budget is read, even if the file grew since it was looked at.
  const maxBytes = Math.min(options.maxBytes, limits.bytes - state.bytes);
  const read = await readGuidanceText(target.path, {
    maxBytes,
    label,
    root: outsideAllowed ? undefined : options.repoRoot,
    signal: options.signal,
  });
  if (!read.ok) {
    if (read.diagnostic !== undefined) state.diagnostics.push(read.diagnostic);
    return undefined;
  }
  if (read.truncated !== undefined) {
    state.diagnostics.push(
      truncationDiagnostic(target.path, label, read.truncated.size, read.truncated.kept, maxBytes),
    );
  }
  state.bytes += Buffer.byteLength(read.text);
  state.imported.push(label);
  const body = await expand(read.text, target.path, site.depth + 1, [...site.chain, target.real], state);
  const gap = body.endsWith("\n") || body === "" ? "" : "\n";
  return `<!-- imported from ${label} -->\n${body}${gap}<!-- end of ${label} -->\n`;
}

/** Ends expansion for the whole tree: one warning, and a note in the text where it stopped. */
function stop(state: State, where: { path: string; line: number }, message: string): string {
  state.stopped = true;
  state.diagnostics.push(diagnostic("IMPORT_LIMIT", "warning", message, where));
  return `[skillctx: ${message}]\n`;
}

// The file a mention names: as written, else without trailing punctuation ("see @README.md.").
async function resolveTarget(
  written: string,
  from: string,
  home: string,
): Promise<{ path: string; real: string; size: number } | undefined> {
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
    if (real !== undefined) return { path: resolved, real, size: info.size };
  }
  return undefined;
}

const TRAILING_PUNCTUATION = /[.,;:!?)\]}'"]+$/;
const URL_MENTION = /^[a-z][a-z0-9+.-]*:\/\//i;
