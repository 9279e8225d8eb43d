import { diagnostic } from "@skillctx/core";
import type { Diagnostic } from "@skillctx/core";
import { walk } from "@skillctx/core/internal";
import { GIT_LIST_MAX_BYTES, GIT_LIST_TIMEOUT_MS } from "./limits.js";
import { errorText } from "@skillctx/core/internal";
import type { WalkEntry } from "@skillctx/core/internal";
import { runGit } from "@skillctx/process";
import { CURSOR_RULES_DIR, NESTED_NAMES, classifyNestedPath, isOrdinaryFolder } from "./formats.js";

/** Options of {@link listNestedGuidance}. */
export interface NestedScanOptions {
  /** Ask git (cwd is inside a work tree); otherwise walk the folders. */
  git: boolean;
  /**
   * Containment of the walk (without git): symlinks whose real path leaves this folder are not
   * followed (`PATH_OUTSIDE_ROOT`, reported for guidance names only). Unset: followed anywhere.
   */
  containRoot?: string | undefined;
  /** Deepest folder the walk enters below cwd. @default WALK_MAX_DEPTH (16) */
  maxDepth?: number | undefined;
  /** Most entries the walk reads. @default WALK_MAX_ENTRIES (100,000) */
  maxEntries?: number | undefined;
  signal?: AbortSignal | undefined;
}

/** Cwd-relative paths (`/` separators) of files that may be nested guidance, and findings. */
export interface NestedScan {
  paths: string[];
  /**
   * Every SKILL.md (any case) the same listing saw: with git, all of the work tree's; with the walk, those
   * outside dot-folders. The skill set compares them with what it loaded (a SKILL.md no agent reads).
   */
  skillFiles: string[];
  /** How the files were listed. */
  via: "git" | "walk";
  diagnostics: Diagnostic[];
}

// Entries of `git ls-files -z` output are picked without splitting the whole listing into strings:
// find each `.md` / `.mdc` ending, then take its entry and check the name (classifyNestedPath decides).
// This is cheaper than git pathspecs, whose case-insensitive globs cost git more than this scan.
const ENDING = /\.mdc?(?=\0|$)/gi;
// Guidance names match exactly as their owners spell them; Cursor's `.mdc` suffix in any case.
const NAME = new RegExp(`(?:^|/)(?:${[...NESTED_NAMES].map((n) => n.replaceAll(".", "\\.")).join("|")})$`);
const MDC = /\.mdc$/i;
const SKILL_MD = /(?:^|\/)skill\.md$/i;

function pickCandidates(listing: string, found: Set<string>): void {
  ENDING.lastIndex = 0;
  for (let m = ENDING.exec(listing); m !== null; m = ENDING.exec(listing)) {
    const entry = listing.slice(listing.lastIndexOf("\0", m.index) + 1, m.index + m[0].length);
    if (NAME.test(entry) || MDC.test(entry) || SKILL_MD.test(entry)) found.add(entry);
  }
}

/**
 * Lists the files below `cwd` that are nested guidance by name and place (see `classifyNestedPath`).
 * Inside a git work tree this is `git ls-files --cached --others --exclude-standard` (so ignored
 * folders stay out); elsewhere, or when git fails, core's one walker, which skips dot-folders and
 * `node_modules` (a `.cursor/rules` folder is entered) and keeps to `containRoot`, `maxDepth` and `maxEntries`.
 */
export async function listNestedGuidance(cwd: string, options: NestedScanOptions): Promise<NestedScan> {
  const diagnostics: Diagnostic[] = [];
  if (options.git) {
    try {
      const listed = await gitListFiles(cwd, options.signal);
      return {
        paths: listed.filter((p) => classifyNestedPath(p) !== undefined),
        skillFiles: listed.filter((p) => SKILL_MD.test(p)),
        via: "git",
        diagnostics,
      };
    } catch (error) {
      options.signal?.throwIfAborted();
      diagnostics.push(
        diagnostic(
          "GIT_LIST_FAILED",
          "warning",
          `git ls-files failed (${firstLine(error)}); nested guidance was found by walking the folders instead, so .gitignore is not applied`,
          { path: cwd },
        ),
      );
    }
  }
  const paths: string[] = [];
  const skillFiles: string[] = [];
  const walked = await walk(cwd, {
    maxDepth: options.maxDepth,
    maxEntries: options.maxEntries,
    containRoot: options.containRoot,
    signal: options.signal,
    report: (relative) => classifyNestedPath(relative) !== undefined,
    visit: (entry: WalkEntry) => {
      if (entry.type === "dir")
        return isOrdinaryFolder(entry.name) || entersCursorRules(parentOf(entry.relative), entry.name);
      if (entry.type === "file" && classifyNestedPath(entry.relative) !== undefined) paths.push(entry.relative);
      else if (entry.type === "file" && SKILL_MD.test(entry.relative)) skillFiles.push(entry.relative);
      return false;
    },
  });
  diagnostics.push(...walked.diagnostics);
  return { paths, skillFiles, via: "walk", diagnostics };
}

/**
 * Runs `git ls-files -z --cached --others --exclude-standard` in `cwd` (through the hardened
 * `runGit`) and returns the cwd-relative paths whose file name may be nested guidance or a SKILL.md,
 * de-duplicated (a conflicted file is listed once per stage). The listing is streamed and scanned
 * chunk by chunk, never held whole. SKILL.md files (any case) are listed too. git gets the allowlisted environment (nothing that redirects it,
 * such as `GIT_DIR`) and `runGit`'s hardening (`core.fsmonitor=false` among it: a repository's own
 * config must not make the listing run a program). Rejects when git fails, times out
 * (`GIT_LIST_TIMEOUT_MS`) or lists more than `GIT_LIST_MAX_BYTES`; with `signal.reason` on abort.
 */
export async function gitListFiles(cwd: string, signal?: AbortSignal): Promise<string[]> {
  const found = new Set<string>();
  let partial: Buffer | undefined; // the entry a chunk ended inside of
  const result = await runGit(["ls-files", "-z", "--cached", "--others", "--exclude-standard"], {
    cwd,
    timeoutMs: GIT_LIST_TIMEOUT_MS,
    maxOutputBytes: GIT_LIST_MAX_BYTES,
    signal,
    // Entries end with NUL, which no UTF-8 character contains: each chunk is decoded up to its last one.
    onStdout: (chunk) => {
      const end = chunk.lastIndexOf(0);
      if (end === -1) {
        partial = partial === undefined ? Buffer.from(chunk) : Buffer.concat([partial, chunk]);
        return;
      }
      const whole = partial === undefined ? chunk.subarray(0, end) : Buffer.concat([partial, chunk.subarray(0, end)]);
      pickCandidates(whole.toString("utf8"), found);
      partial = end + 1 < chunk.length ? Buffer.from(chunk.subarray(end + 1)) : undefined;
    },
  });
  if (result.error !== undefined) throw new Error(`git could not start: ${result.error}`);
  if (result.timedOut) throw new Error(`git ls-files took longer than ${GIT_LIST_TIMEOUT_MS} ms`);
  if (result.truncated) throw new Error(`git ls-files listed more than ${GIT_LIST_MAX_BYTES} bytes`);
  if (result.exitCode !== 0) {
    const reason = result.stderr
      .split("\n")
      .find((line) => line.trim() !== "")
      ?.trim();
    throw new Error(reason ?? `git ls-files exited with ${result.exitCode ?? result.exitSignal ?? "an error"}`);
  }
  if (partial !== undefined) pickCandidates(partial.toString("utf8"), found);
  return [...found];
}

function parentOf(relative: string): string {
  const slash = relative.lastIndexOf("/");
  return slash === -1 ? "" : relative.slice(0, slash);
}

// `.cursor`, then `rules` inside it, then anything below.
function entersCursorRules(parent: string, name: string): boolean {
  const segments = parent === "" ? [] : parent.split("/");
  const lower = name.toLowerCase();
  if (lower === CURSOR_RULES_DIR[0]) return true;
  const cursorAt = segments.findIndex(
    (s, i) => s.toLowerCase() === CURSOR_RULES_DIR[0] && segments[i + 1]?.toLowerCase() === CURSOR_RULES_DIR[1],
  );
  if (cursorAt >= 0) return !name.startsWith(".");
  return lower === CURSOR_RULES_DIR[1] && segments[segments.length - 1]?.toLowerCase() === CURSOR_RULES_DIR[0];
}

function firstLine(error: unknown): string {
  const message = errorText(error);
  return (
    message.split("\n").find((line) => line.trim() !== "" && !line.startsWith("Command failed")) ?? message
  ).trim();
}
