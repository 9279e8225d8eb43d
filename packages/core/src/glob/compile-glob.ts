import { diagnostic } from "../diagnostics.js";
import type { Diagnostic } from "../diagnostics.js";
import {
  MAX_GLOB_BRACE_EXPANSIONS,
  MAX_GLOB_CHARS_PER_RULE,
  MAX_GLOB_CHARS,
  MAX_GLOB_PATH_CHARS,
  MAX_GLOBS_PER_RULE,
  MAX_TOOL_PATTERN_CHARS,
} from "../limits.js";
import { compileProgram, runProgram } from "./glob-program.js";
import { parseGlob } from "./glob-syntax.js";
import type { GlobMode, ParsedGlob } from "./glob-syntax.js";
import { canonicalGlob } from "./normalize-glob.js";

/** The code of the diagnostic for a glob refused by a cap. */
export const GLOB_TOO_COMPLEX = "GLOB_TOO_COMPLEX";

/** Caps on globs (defaults in limits.ts). */
export interface GlobLimits {
  /** Longest glob compiled, in UTF-16 units. @default 512 (MAX_GLOB_CHARS) */
  maxLength: number;
  /** Most patterns a glob's braces may stand for (counted, never expanded). @default 1024 (MAX_GLOB_BRACE_EXPANSIONS) */
  maxBraceExpansions: number;
  /** Most globs one skill or rule may declare. @default 256 (MAX_GLOBS_PER_RULE) */
  maxGlobsPerRule: number;
  /** Most characters the globs of one skill or rule may have together. @default 4096 (MAX_GLOB_CHARS_PER_RULE) */
  maxCharsPerRule: number;
  /** Longest path tested; a longer path matches nothing. @default 4096 (MAX_GLOB_PATH_CHARS) */
  maxPathLength: number;
}

/** The default {@link GlobLimits}. */
export const DEFAULT_GLOB_LIMITS: Readonly<GlobLimits> = Object.freeze({
  maxLength: MAX_GLOB_CHARS,
  maxBraceExpansions: MAX_GLOB_BRACE_EXPANSIONS,
  maxGlobsPerRule: MAX_GLOBS_PER_RULE,
  maxCharsPerRule: MAX_GLOB_CHARS_PER_RULE,
  maxPathLength: MAX_GLOB_PATH_CHARS,
});

/** Options of {@link compileGlob}, {@link compileGlobs} and {@link limitGlobList}. */
export interface GlobOptions {
  /** The file that declared the globs, put on diagnostics. @default undefined */
  path?: string | undefined;
  /** Who declared them, named in diagnostics (`skill "sql"`, `rule "style"`). @default undefined */
  source?: string | undefined;
  /** Caps; each one missing takes its default. @default DEFAULT_GLOB_LIMITS */
  limits?: Partial<GlobLimits> | undefined;
}

/** One compiled glob. */
export interface CompiledGlob {
  /** The glob as given. */
  readonly glob: string;
  /** The glob as matched (normalised; see `normalizeGlob`). */
  readonly pattern: string;
  /** Whether `path` (relative to the glob's folder, `/`-separated, no `./` or `//`) matches. Never throws. */
  test(path: string): boolean;
}

/** A compiled glob, or the diagnostic that refused it. */
export type CompileGlobResult = { ok: true; glob: CompiledGlob } | { ok: false; diagnostic: Diagnostic };

/**
 * Compiles one path glob, normalised first (`normalizeGlob`: a glob without `/` matches at any depth,
 * a leading `./` or `/` anchors it at its folder, a trailing `/` means everything below).
 *
 * Syntax: `*` (any run of characters but `/`), `?` (one character but `/`), `[abc]`, `[a-z]`, `[!a]`
 * or `[^a]` (one character but `/`; an unclosed `[`, or one with a `/` inside, is literal), `**` as a
 * whole segment (any number of folders: `a/**\/b` matches `a/b`; `dir/**` also matches `dir`), `{a,b}`
 * braces (nested, may hold `/`; a `{` without a comma of its own, or unclosed, is literal), and `\`
 * escaping the next character (a trailing `\` is literal). Dot files match like other files;
 * case-sensitive; a leading `!` is literal here (exclusion is the path matcher's). Not supported, so
 * literal text: `{1..3}` ranges, `[[:alpha:]]` classes, extglobs such as `+(a|b)`.
 *
 * Cost: compiling is linear in the glob. A test runs the glob's automaton (at most one instruction
 * per glob character, plus one) over the path, advancing every live instruction once per path
 * character: at most (`maxLength` + 1) × `maxPathLength` steps, with no backtracking and no brace
 * expansion. A glob longer than `maxLength`, or whose braces stand for more than `maxBraceExpansions`
 * patterns, is refused with a `GLOB_TOO_COMPLEX` warning.
 *
 * @example
 * const result = compileGlob("*.{ts,tsx}");
 * result.ok && result.glob.test("src/a.tsx") // true
 */
export function compileGlob(glob: string, options: GlobOptions = {}): CompileGlobResult {
  return compileWith(glob, canonicalGlob(glob), "path", options);
}

/**
 * Compiles a tool-name pattern (`allowed-tools`): `*` matches any run of characters and `?` any one
 * character, everything else is literal; case-sensitive. Same automaton as {@link compileGlob}, with
 * `maxLength` and `maxPathLength` defaulting to MAX_TOOL_PATTERN_CHARS (256): a test costs at most
 * 257 × 256 steps.
 */
export function compileNamePattern(pattern: string, options: GlobOptions = {}): CompileGlobResult {
  const limits = { maxLength: MAX_TOOL_PATTERN_CHARS, maxPathLength: MAX_TOOL_PATTERN_CHARS, ...options.limits };
  return compileWith(pattern, pattern, "name", { ...options, limits });
}

/** Globs compiled together. */
export interface GlobSet {
  /** The globs that compiled, in the given order. */
  readonly globs: readonly CompiledGlob[];
  /** `GLOB_TOO_COMPLEX` warnings for the globs refused. */
  readonly diagnostics: readonly Diagnostic[];
  /** Whether `path` matches one of the globs. Never throws. */
  test(path: string): boolean;
}

/**
 * Compiles the globs of one skill or rule with {@link compileGlob}, within the rule's caps
 * ({@link limitGlobList}). Items that are not strings, or are blank, are skipped.
 *
 * @example
 * compileGlobs(["*.ts", "docs/**"]).test("src/a.ts") // true
 */
export function compileGlobs(globs: readonly unknown[], options: GlobOptions = {}): GlobSet {
  const listed = limitGlobList(globs, options);
  const compiled: CompiledGlob[] = [];
  const diagnostics = [...listed.diagnostics];
  for (const glob of listed.globs) {
    const result = compileGlob(glob, options);
    if (result.ok) compiled.push(result.glob);
    else diagnostics.push(result.diagnostic);
  }
  return { globs: compiled, diagnostics, test: (path) => compiled.some((glob) => glob.test(path)) };
}

/**
 * The string items of a rule's glob list (blank ones dropped) within the rule's caps: at most
 * `maxGlobsPerRule` globs and `maxCharsPerRule` characters together, in the given order; one
 * `GLOB_TOO_COMPLEX` warning says what was dropped past them.
 */
export function limitGlobList(
  globs: readonly unknown[],
  options: GlobOptions = {},
): { globs: string[]; diagnostics: Diagnostic[] } {
  const limits = { ...DEFAULT_GLOB_LIMITS, ...options.limits };
  const strings = (Array.isArray(globs) ? globs : []).filter(
    (g): g is string => typeof g === "string" && g.trim() !== "",
  );
  const kept: string[] = [];
  let chars = 0;
  for (const glob of strings) {
    if (kept.length >= limits.maxGlobsPerRule || chars + glob.length > limits.maxCharsPerRule) break;
    kept.push(glob);
    chars += glob.length;
  }
  if (kept.length === strings.length) return { globs: kept, diagnostics: [] };
  const reason =
    kept.length >= limits.maxGlobsPerRule
      ? `${count(strings.length)} globs are declared; only the first ${count(limits.maxGlobsPerRule)} are used`
      : `the globs are longer than ${count(limits.maxCharsPerRule)} characters together; only the first ${count(kept.length)} are used`;
  return { globs: kept, diagnostics: [globTooComplex(undefined, reason, options)] };
}

/**
 * Parses `pattern` (a normalised glob without its anchoring `/`) within the caps, or says why not.
 * For callers that transform globs (relocation).
 */
export function parseWithinLimits(pattern: string, limits: Partial<GlobLimits> = {}): ParsedGlob | string {
  const caps = { ...DEFAULT_GLOB_LIMITS, ...limits };
  if (pattern.length > caps.maxLength) return `it is longer than ${count(caps.maxLength)} characters`;
  const parsed = parseGlob(pattern, { mode: "path", maxExpansions: caps.maxBraceExpansions });
  if (parsed.expansions > caps.maxBraceExpansions)
    return `its braces stand for more than ${count(caps.maxBraceExpansions)} patterns`;
  return parsed;
}

/** A `GLOB_TOO_COMPLEX` warning for `glob` (or, without it, for the globs) of `options.source`. */
export function globTooComplex(glob: string | undefined, reason: string, options: GlobOptions = {}): Diagnostic {
  const what = glob === undefined ? "Globs" : `Glob ${JSON.stringify(preview(glob))}`;
  const of = options.source === undefined ? "" : ` of ${options.source}`;
  return diagnostic(GLOB_TOO_COMPLEX, "warning", `${what}${of} refused: ${reason}`, { path: options.path });
}

// ---------------------------------------------------------------------------------------------

const count = (n: number): string => n.toLocaleString("en");

function compileWith(glob: string, normal: string, mode: GlobMode, options: GlobOptions): CompileGlobResult {
  const limits = { ...DEFAULT_GLOB_LIMITS, ...options.limits };
  const body = mode === "path" && normal.startsWith("/") ? normal.slice(1) : normal;
  let parsed: ParsedGlob | string;
  if (mode === "path") parsed = parseWithinLimits(body, limits);
  else if (body.length > limits.maxLength) parsed = `it is longer than ${count(limits.maxLength)} characters`;
  else parsed = parseGlob(body, { mode, maxExpansions: limits.maxBraceExpansions });
  if (typeof parsed === "string") return { ok: false, diagnostic: globTooComplex(glob, parsed, options) };
  const program = compileProgram(parsed);
  const maxPath = limits.maxPathLength;
  const test = (path: string): boolean =>
    typeof path === "string" && path.length <= maxPath && runProgram(program, path);
  return { ok: true, glob: { glob, pattern: normal, test } };
}

// At most 80 characters of a hostile glob go into a message.
function preview(glob: string): string {
  return glob.length <= 80 ? glob : `${glob.slice(0, 77)}...`;
}
