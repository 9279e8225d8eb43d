import { execFile } from "node:child_process";
import { readdir, realpath, stat } from "node:fs/promises";
import * as path from "node:path";
import { diagnostic } from "@skillctx/core";
import type { Diagnostic } from "@skillctx/core";
import { CURSOR_RULES_DIR, NESTED_NAMES, classifyNestedPath, isOrdinaryFolder } from "./formats.js";

/** Options of {@link listNestedGuidance}. */
export interface NestedScanOptions {
  /** Ask git (cwd is inside a work tree); otherwise walk the folders. */
  git: boolean;
  signal?: AbortSignal | undefined;
}

/** Cwd-relative paths (`/` separators) of files that may be nested guidance, and findings. */
export interface NestedScan {
  paths: string[];
  /** How the files were listed. */
  via: "git" | "walk";
  diagnostics: Diagnostic[];
}

// Entries of `git ls-files -z` output are picked without splitting the whole listing into strings:
// find each `.md` / `.mdc` ending, then take its entry and check the name (classifyNestedPath decides).
// This is cheaper than git pathspecs, whose case-insensitive globs cost git more than this scan.
const ENDING = /\.mdc?(?=\0|$)/gi;
const NAME = new RegExp(`(?:^|/)(?:${[...NESTED_NAMES].map((n) => n.replace(".", "\\.")).join("|")})$|\\.mdc$`, "i");

function pickCandidates(listing: string): string[] {
  const found = new Set<string>();
  ENDING.lastIndex = 0;
  for (let m = ENDING.exec(listing); m !== null; m = ENDING.exec(listing)) {
    const entry = listing.slice(listing.lastIndexOf("\0", m.index) + 1, m.index + m[0].length);
    if (NAME.test(entry)) found.add(entry);
  }
  return [...found];
}

/** Environment for git: enough to find it and its config, nothing that redirects it (GIT_DIR, ...). */
const GIT_ENV_KEYS = ["PATH", "HOME", "USERPROFILE", "SYSTEMROOT", "LANG", "LC_ALL", "TMPDIR", "XDG_CONFIG_HOME"];

/**
 * Lists the files below `cwd` that are nested guidance by name and place (see `classifyNestedPath`).
 * Inside a git work tree this is `git ls-files --cached --others --exclude-standard` (so ignored
 * folders stay out); elsewhere, or when git fails, a walk that skips dot-folders and `node_modules`
 * (a `.cursor/rules` folder is entered).
 */
export async function listNestedGuidance(cwd: string, options: NestedScanOptions): Promise<NestedScan> {
  const diagnostics: Diagnostic[] = [];
  if (options.git) {
    try {
      const listed = await gitListFiles(cwd, options.signal);
      return { paths: listed.filter((p) => classifyNestedPath(p) !== undefined), via: "git", diagnostics };
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
  await walk(cwd, "", new Set(), paths, options.signal);
  return { paths, via: "walk", diagnostics };
}

/**
 * Runs `git ls-files -z --cached --others --exclude-standard` in `cwd` (argv, no shell) and returns
 * the cwd-relative paths whose file name may be nested guidance, de-duplicated (a conflicted file is
 * listed once per stage).
 */
export function gitListFiles(cwd: string, signal?: AbortSignal): Promise<string[]> {
  const env: NodeJS.ProcessEnv = { GIT_OPTIONAL_LOCKS: "0" };
  for (const key of GIT_ENV_KEYS) if (process.env[key] !== undefined) env[key] = process.env[key];
  const args = ["ls-files", "-z", "--cached", "--others", "--exclude-standard"];
  return new Promise((resolve, reject) => {
    execFile(
      "git",
      args,
      { cwd, env, encoding: "utf8", maxBuffer: 512 * 1024 * 1024, windowsHide: true, ...(signal !== undefined && { signal }) },
      (error, stdout) => {
        if (error !== null) reject(error);
        else resolve(pickCandidates(stdout));
      },
    );
  });
}

async function walk(dir: string, relative: string, visited: Set<string>, out: string[], signal: AbortSignal | undefined): Promise<void> {
  signal?.throwIfAborted();
  const real = await realpath(dir).catch(() => undefined);
  if (real === undefined || visited.has(real)) return; // symlink loops and folders reached twice
  visited.add(real);
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  for (const entry of entries) {
    const childRel = relative === "" ? entry.name : `${relative}/${entry.name}`;
    const child = path.join(dir, entry.name);
    let isDir = entry.isDirectory();
    let isFile = entry.isFile();
    if (entry.isSymbolicLink()) {
      const target = await stat(child).catch(() => undefined);
      isDir = target?.isDirectory() ?? false;
      isFile = target?.isFile() ?? false;
    }
    if (isDir) {
      if (isOrdinaryFolder(entry.name) || entersCursorRules(relative, entry.name)) await walk(child, childRel, visited, out, signal);
    } else if (isFile && classifyNestedPath(childRel) !== undefined) {
      out.push(childRel);
    }
  }
}

// `.cursor`, then `rules` inside it, then anything below.
function entersCursorRules(parent: string, name: string): boolean {
  const segments = parent === "" ? [] : parent.split("/");
  const lower = name.toLowerCase();
  if (lower === CURSOR_RULES_DIR[0]) return true;
  const cursorAt = segments.findIndex((s, i) => s.toLowerCase() === CURSOR_RULES_DIR[0] && segments[i + 1]?.toLowerCase() === CURSOR_RULES_DIR[1]);
  if (cursorAt >= 0) return !name.startsWith(".");
  return lower === CURSOR_RULES_DIR[1] && segments[segments.length - 1]?.toLowerCase() === CURSOR_RULES_DIR[0];
}

function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return (message.split("\n").find((line) => line.trim() !== "" && !line.startsWith("Command failed")) ?? message).trim();
}
