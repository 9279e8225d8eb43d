import { readdir, rename, rm, stat, writeFile } from "node:fs/promises";
import * as path from "node:path";
import { parseJson } from "@skillctx/core/internal";
import type { Diagnostic } from "@skillctx/core";
import { isDir } from "./cache-dir.js";
import { readCacheText } from "./cache-file.js";
import { COMMIT } from "./git-source-names.js";

// Which commit a ref last resolved to, kept beside the cached checkouts for offline use.

const REFS_FILE = "refs.json";
// Far more than any refs file we write (a line per ref).
const MAX_REFS_FILE_BYTES = 1024 * 1024;

/** Records that `ref` resolved to `commit` (best effort: a failed write is dropped). */
export async function rememberRef(
  repoDir: string,
  ref: string,
  commit: string,
  diagnostics?: Diagnostic[],
): Promise<void> {
  const file = path.join(repoDir, REFS_FILE);
  const refs = await readRefs(repoDir, diagnostics);
  if (refs[ref] === commit) return;
  refs[ref] = commit;
  const temp = `${file}.${process.pid}.${Date.now()}.tmp`;
  try {
    await writeFile(temp, `${JSON.stringify(refs, null, 2)}\n`);
    await rename(temp, file);
  } catch {
    await rm(temp, { force: true });
  }
}

// Read back as a regular file only (cache-file.ts): a FIFO named refs.json is a warning, not a hang.
async function readRefs(repoDir: string, diagnostics?: Diagnostic[]): Promise<Record<string, string>> {
  const text = await readCacheText(path.join(repoDir, REFS_FILE), MAX_REFS_FILE_BYTES, diagnostics);
  if (text === undefined) return {};
  try {
    const parsed: unknown = parseJson(text);
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return {};
    return Object.fromEntries(
      Object.entries(parsed).filter((e): e is [string, string] => typeof e[1] === "string" && COMMIT.test(e[1])),
    );
  } catch {
    return {};
  }
}

/** The locked commit, else the commit `ref` last resolved to, when its checkout is cached; else the newest cached checkout. */
export async function cachedCommit(
  repoDir: string,
  ref: string,
  hint: string | undefined,
  diagnostics?: Diagnostic[],
): Promise<string | undefined> {
  if (hint !== undefined && COMMIT.test(hint) && (await isDir(path.join(repoDir, hint)))) return hint;
  const last = (await readRefs(repoDir, diagnostics))[ref];
  if (last !== undefined && (await isDir(path.join(repoDir, last)))) return last;
  let entries: string[];
  try {
    entries = (await readdir(repoDir)).filter((name) => COMMIT.test(name));
  } catch {
    return undefined;
  }
  let newest: { name: string; at: number } | undefined;
  for (const name of entries) {
    try {
      const info = await stat(path.join(repoDir, name));
      if (info.isDirectory() && (newest === undefined || info.mtimeMs > newest.at)) newest = { name, at: info.mtimeMs };
    } catch {
      // gone meanwhile
    }
  }
  return newest?.name;
}
